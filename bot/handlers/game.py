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

    async def hand_button(
        query: CallbackQuery, callback_data: HandCb, tables: TableService, actor: Actor, update_id: int
    ) -> None:
        # Answered once what the tap changed is durable: "accepted" never lies after a crash. In a group, the tap
        # came from the hand shown to him alone there: the same buttons, the same service.
        chat = query.message.chat if query.message is not None else None
        group = chat.id if chat is not None and chat.id < 0 else None
        await answer(query, await tables.game.tap(callback_data, actor, update_id, in_group=group))

    hands.callback_query.register(hand_button, HandCb.filter())

    in_group = Router(name="game-in-group")
    in_group.callback_query.filter(GROUP_CHATS)
    in_group.callback_query.register(hand_button, HandCb.filter(), SHOWN_TO_ONE)

    @in_group.callback_query(MyCardsCb.filter())
    async def my_cards(
        query: CallbackQuery, callback_data: MyCardsCb, tables: TableService, actor: Actor, update_id: int
    ) -> None:
        chat_id = query.message.chat.id if query.message is not None else 0
        await answer(query, await tables.game.show_in_group(callback_data, actor, chat_id, query.id, update_id))

    group = Router(name="game-group")
    group.message.filter(GROUP_CHATS)

    @group.message(Command("score"))
    async def score(message: Message, tables: TableService, update_id: int) -> None:
        await respond(tables, message, await tables.game.score(message.chat.id), update_id)

    router.include_routers(hands, in_group, group)
    return router
