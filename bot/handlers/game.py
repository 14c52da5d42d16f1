"""Taps on the hand keyboard (in the private chat, or shown to its player alone in the group: «🃏 Мои карты»),
and /score in the group."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.handlers.common import GROUP_CHATS, PRIVATE_CHAT, SHOWN_TO_ONE, answer, respond
from bot.services import Actor, TableService
from bot.telegram.callbacks import HandCb, MyCardsCb


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

    in_group = Router(name="game-in-group")
    in_group.callback_query.filter(GROUP_CHATS)

    @in_group.callback_query(MyCardsCb.filter())
    async def my_cards(
        query: CallbackQuery, callback_data: MyCardsCb, tables: TableService, actor: Actor, update_id: int
    ) -> None:
        chat_id = query.message.chat.id if query.message is not None else 0
        await answer(query, await tables.game.show_in_group(callback_data, actor, chat_id, query.id, update_id))

    @in_group.callback_query(HandCb.filter(), SHOWN_TO_ONE)
    async def hand_button_in_group(
        query: CallbackQuery, callback_data: HandCb, tables: TableService, actor: Actor, update_id: int
    ) -> None:
        # The hand shown to him alone in the group: the same buttons, the same service as in his private chat.
        chat_id = query.message.chat.id if query.message is not None else 0
        await answer(query, await tables.game.tap(callback_data, actor, update_id, in_group=chat_id))

    group = Router(name="game-group")
    group.message.filter(GROUP_CHATS)

    @group.message(Command("score"))
    async def score(message: Message, tables: TableService, update_id: int) -> None:
        await respond(tables, message, await tables.game.score(message.chat.id), update_id)

    router.include_routers(hands, in_group, group)
    return router
