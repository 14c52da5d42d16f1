"""Services: run a change of a table (handler -> service -> engine -> storage -> sender)."""

from bot.services.context import Actor, Reply
from bot.services.state import TableState
from bot.services.table import TableService

__all__ = ["Actor", "Reply", "TableService", "TableState"]
