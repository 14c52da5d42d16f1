"""The chat's tally, kept per game: /stats (your own) and /top (the chat's best players of each game, by rating
where its matches are rated); in the private chat both tell the player's own tally across every chat he played in,
and /top the overall rating of those who show theirs. /rating: one's own rating (`/rating public` or `/rating
private`: whether it shows in the overall top)."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
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

    @router.message(Command("rating"))
    async def my_rating(
        message: Message, command: CommandObject, tables: TableService, actor: Actor | None, update_id: int
    ) -> None:
        if actor is not None:
            text = await tables.stats.group_rating(message.chat.id, actor.user_id, actor.name, command.args)
            await respond(tables, message, text, update_id)

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
            overall = await tables.stats.overall_top(tr)
            await respond(tables, message, f"{tr.t('flow-top-private')}\n{mine}\n\n{overall}", update_id)

    @private.message(Command("rating"))
    async def my_rating_everywhere(
        message: Message,
        command: CommandObject,
        tables: TableService,
        actor: Actor | None,
        tr: Translator,
        update_id: int,
    ) -> None:
        if actor is not None:
            text = await tables.stats.private_rating(actor.user_id, actor.name, tr, command.args)
            await respond(tables, message, text, update_id)

    outer = Router(name="stats-all")
    outer.include_routers(router, private)
    return outer
