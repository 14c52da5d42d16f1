"""The chat's history (issue 38): /history lists its last matches (in a group, or the games against the computer
in the private chat); «🔎 Как это было» under a deal's result sends that deal, as the tapper saw it, to his private
chat, and /replay [N] does so in the private chat for its game against the computer."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.handlers.common import GROUP_CHATS, PRIVATE_CHAT, answer, respond
from bot.i18n import Translator
from bot.services import Actor, Reply, TableService
from bot.telegram.callbacks import ReplayCb


def create_router() -> Router:
    router = Router(name="history")

    @router.message(Command("history"), GROUP_CHATS)
    @router.message(Command("history"), PRIVATE_CHAT)
    async def history(message: Message, tables: TableService, update_id: int) -> None:
        await respond(tables, message, await tables.history.history(message.chat.id), update_id)

    @router.message(Command("replay"), PRIVATE_CHAT)
    async def replay_command(
        message: Message, command: CommandObject, tables: TableService, actor: Actor | None, update_id: int
    ) -> None:
        if actor is None:
            return
        text = await tables.replays.command(message.chat.id, actor, command.args or "", update_id)
        if text:
            await respond(tables, message, text, update_id)

    @router.callback_query(ReplayCb.filter())
    async def replay_button(
        query: CallbackQuery,
        callback_data: ReplayCb,
        tables: TableService,
        actor: Actor,
        tr: Translator,
        update_id: int,
    ) -> None:
        if query.message is None:  # too old for Telegram to say where it was: no chat to check the table against
            await answer(query, Reply(tr.t("flow-stale-button"), alert=True))
            return
        reply = await tables.replays.button(
            callback_data.table, callback_data.deal, query.message.chat.id, actor, update_id
        )
        await answer(query, reply)

    return router
