"""A tiny aiogram `Dispatcher` bot polling the fake: the full loop a real bot runs, updates to answers."""

import asyncio
from collections.abc import AsyncIterator

import pytest
from aiogram import Bot, Dispatcher, F
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from tests.botapi.server import FakeTelegram

READY = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="Готов", callback_data="ready")]])


def echo_bot() -> Dispatcher:
    dp = Dispatcher()

    @dp.message(CommandStart(deep_link=True))
    async def start(message: Message, command: CommandObject) -> None:
        await message.answer(f"Стол <b>{command.args}</b>", parse_mode="HTML", reply_markup=READY)

    @dp.message(Command("play"))
    async def play(message: Message) -> None:
        await message.answer("Раздаю")

    @dp.callback_query(F.data == "ready")
    async def ready(query: CallbackQuery) -> None:
        await query.answer("Ждём остальных")
        if isinstance(query.message, Message):
            await query.message.edit_text("Готов ✅")

    return dp


@pytest.fixture
async def polling(bot: Bot) -> AsyncIterator[Dispatcher]:
    dp = echo_bot()
    task = asyncio.create_task(dp.start_polling(bot, handle_signals=False, close_bot_session=False))
    yield dp
    await dp.stop_polling()
    await task


async def test_deep_link_start_and_a_tap(tg: FakeTelegram, polling: Dispatcher) -> None:
    alice = tg.user("Alice", "alice")
    chat = tg.private_chat(alice)
    tg.start_bot(alice, payload="room42")
    reply = await tg.wait_bot_message(chat)
    assert (reply.text, reply.entities) == ("Стол room42", [{"type": "bold", "offset": 5, "length": 6}])
    assert reply.button_texts == [["Готов"]]

    tap = tg.tap(alice, reply, text="Готов")
    answer = await tg.wait_answer(tap)
    assert (answer.text, answer.show_alert) == ("Ждём остальных", False)
    await tg.wait_for(lambda: reply.edit_date, what="the edit")
    assert (reply.text, reply.keyboard) == ("Готов ✅", [])


async def test_commands_in_a_group_reach_the_bot(tg: FakeTelegram, polling: Dispatcher) -> None:
    alice, bob = tg.user("Alice", "alice"), tg.user("Bob", "bob")
    group = tg.group("Бура по пятницам", owner=alice, members=[bob])
    tg.add_bot(group, by=alice)
    said = tg.send_message(bob, group, "/play@bura_test_bot")
    reply = await tg.wait_bot_message(group, after=said)
    assert reply.text == "Раздаю"
    # The dispatcher polled with the update kinds its handlers use; aiogram resolved them itself.
    polls = tg.calls("getUpdates")
    assert set(polls[0].params["allowed_updates"]) == {"message", "callback_query"}
