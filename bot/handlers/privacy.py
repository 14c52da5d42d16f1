"""/forget in the private chat, and its two buttons: the bot deletes what it keeps about the user who asks
(bot/services/privacy.py). Included before the private chat's router, whose catch-all would answer it."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.handlers.common import PRIVATE_CHAT, answer
from bot.services import Actor
from bot.services.privacy import PrivacyService
from bot.telegram.callbacks import ForgetCb


def create_router() -> Router:
    router = Router(name="privacy")

    @router.message(Command("forget"), PRIVATE_CHAT)
    async def forget(message: Message, privacy: PrivacyService, actor: Actor | None, update_id: int) -> None:
        if actor is not None:
            await privacy.ask(actor, message.chat.id, message.message_id, update_id)

    @router.callback_query(ForgetCb.filter())
    async def forget_button(
        query: CallbackQuery, callback_data: ForgetCb, privacy: PrivacyService, actor: Actor, update_id: int
    ) -> None:
        shown = query.message  # None only for a button of an inline message, which the bot never sends
        chat_id, message_id = (shown.chat.id, shown.message_id) if shown is not None else (None, None)
        reply = await privacy.tap(actor, callback_data, chat_id, message_id, update_id)
        await answer(query, reply)

    return router
