"""The bot's own membership: added to a group or removed from it, a group's migration, blocked and unblocked in a
private chat. What it changes of a table goes through the game service (a table closed, a group told)."""

from __future__ import annotations

from bot.services.context import Actor
from bot.services.core import TableCore
from bot.services.game import GameService
from bot.services.lobby import LobbyService


class MembershipService:
    def __init__(self, core: TableCore, lobby: LobbyService, game: GameService) -> None:
        self.core = core
        self.repository = core.repository
        self.lobby = lobby
        self.game = game

    async def added(self, chat_id: int, actor: Actor) -> None:
        """Added to a group (again): it speaks the language of whoever added the bot, unless it has one."""
        await self.lobby.adopt_language(chat_id, actor)
        await self.repository.set_chat_removed(chat_id, False)

    async def removed(self, chat_id: int) -> None:
        """Removed from a group: its table closes, its players are told in private."""
        await self.game.close_removed(chat_id)

    async def migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        """The group became a supergroup: its tables and messages move to the new chat id."""
        await self.repository.migrate_chat(old_chat_id, new_chat_id)

    async def blocked(self, user_id: int) -> None:
        """A user blocked the bot: no hand is sent to him, and the groups he plays in are told."""
        await self.repository.set_user_blocked(user_id)
        await self.game.player_unreachable(user_id)

    async def unblocked(self, user_id: int) -> None:
        await self.repository.set_user_blocked(user_id, False)
