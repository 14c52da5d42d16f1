"""The chat's tally, kept per game: /stats (your own) and /top (the chat's best players of each game)."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.handlers.common import GROUP_CHATS, respond
from bot.services import TableService


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

    return router
