"""Services: run a change of a table (handler -> service -> engine -> storage -> sender)."""

from bot.services.core import Actor, Reply, TableState
from bot.services.table import TableService

__all__ = ["Actor", "Reply", "TableService", "TableState"]
