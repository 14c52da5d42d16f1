"""Taps on the hand keyboard in the private chat, and /score in the group."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.handlers.common import GROUP_CHATS, PRIVATE_CHAT, answer, respond
from bot.services import Actor, TableService
from bot.telegram.callbacks import HandCb


def create_router() -> Router:
    router = Router(name="game")

    hands = Router(name="game-hands")
    hands.callback_query.filter(PRIVATE_CHAT)

    @hands.callback_query(HandCb.filter())
    async def hand_button(
        query: CallbackQuery, callback_data: HandCb, tables: TableService, actor: Actor, update_id: int
    ) -> None:
        # Answered once what the tap changed is durable: "accepted" never lies after a crash.
        await answer(query, await tables.game.tap(callback_data, actor, update_id))

    group = Router(name="game-group")
    group.message.filter(GROUP_CHATS)

    @group.message(Command("score"))
    async def score(message: Message, tables: TableService, update_id: int) -> None:
        await respond(tables, message, await tables.game.score(message.chat.id), update_id)

    router.include_routers(hands, group)
    return router
