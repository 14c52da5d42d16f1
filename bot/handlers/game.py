"""Taps on the hand keyboard in the private chat, and /score in the group."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message, Update

from bot.callbacks import HandCb
from bot.handlers.common import GROUP_CHATS, PRIVATE_CHAT, AnswerOnce, actor_of
from bot.services import TableService


def create_router() -> Router:
    router = Router(name="game")

    hands = Router(name="game-hands")
    hands.callback_query.filter(PRIVATE_CHAT)

    @hands.callback_query(HandCb.filter())
    async def hand_button(
        query: CallbackQuery, callback_data: HandCb, tables: TableService, event_update: Update
    ) -> None:
        respond = AnswerOnce(query)  # an accepted tap is answered at once, before its move is committed
        await respond(
            await tables.game.tap(callback_data, actor_of(query.from_user), event_update.update_id, early=respond)
        )

    group = Router(name="game-group")
    group.message.filter(GROUP_CHATS)

    @group.message(Command("score"))
    async def score(message: Message, tables: TableService) -> None:
        await tables.say(message.chat.id, await tables.game.score(message.chat.id))

    router.include_routers(hands, group)
    return router
