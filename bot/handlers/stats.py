"""The chat's tally, kept per game: /stats (your own) and /top (the chat's best players of each game); in the
private chat both tell the player's own tally across every chat he played in."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.handlers.common import GROUP_CHATS, PRIVATE_CHAT, respond
from bot.i18n import Translator
from bot.services import Actor, TableService


def create_router() -> Router:
    router = Router(name="stats")
    router.message.filter(GROUP_CHATS)

    @router.message(Command("stats"))
    async def my_stats(message: Message, tables: TableService, update_id: int) -> None:
        if message.from_user is None:
            return
        text = await tables.stats.mine(message.chat.id, message.from_user.id, message.from_user.full_name)
        await respond(tables, message, text, update_id)

    @router.message(Command("top"))
    async def top(message: Message, tables: TableService, update_id: int) -> None:
        await respond(tables, message, await tables.stats.top(message.chat.id), update_id)

    private = Router(name="stats-private")
    private.message.filter(PRIVATE_CHAT)

    @private.message(Command("stats"))
    async def my_stats_everywhere(
        message: Message, tables: TableService, actor: Actor | None, tr: Translator, update_id: int
    ) -> None:
        if actor is not None:
            await respond(tables, message, await tables.stats.everywhere(actor.user_id, actor.name, tr), update_id)

    @private.message(Command("top"))
    async def top_private(
        message: Message, tables: TableService, actor: Actor | None, tr: Translator, update_id: int
    ) -> None:
        """The chart is a group's; here, the player's own tallies after a line that says so."""
        if actor is not None:
            mine = await tables.stats.everywhere(actor.user_id, actor.name, tr)
            await respond(tables, message, f"{tr.t('flow-top-private')}\n{mine}", update_id)

    outer = Router(name="stats-all")
    outer.include_routers(router, private)
    return outer
