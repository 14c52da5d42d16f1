"""/forget end to end: the real bot over the fake Bot API refuses while the user plays, asks with two buttons bound
to him, ignores a forged button, and on ✅ forgets him (what its database holds afterwards, read beside it)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.storage import TableStatus
from tests.botapi import FakeTelegram, Message
from tests.e2e import test_game
from tests.e2e.conftest import BotProcess
from tests.e2e.players import MOVE_WAIT
from tests.e2e.reader import BotDatabase, sql_for

storage = test_game.storage  # a reader of the bot's database


async def until(condition: Callable[[], object], what: str) -> None:
    """Polls the bot's database (it writes from another process: nothing wakes us)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + MOVE_WAIT
    while not condition():
        assert loop.time() < deadline, f"waited {MOVE_WAIT} s for {what}"
        await asyncio.sleep(0.05)


async def test_forget_in_the_private_chat_with_its_buttons(
    tg: FakeTelegram, bot: BotProcess, storage: BotDatabase
) -> None:
    anna, boris = tg.user("Аня", "anna"), tg.user("Борис", "boris")
    chat = tg.private_chat(anna)
    for user in (anna, boris):
        tg.start_bot(user)
        await tg.wait_bot_message(tg.private_chat(user), timeout=MOVE_WAIT)
    sql = sql_for(bot.database)

    async def reply_to(text: str) -> Message:
        said = tg.send_message(anna, chat, text)
        return await tg.wait_bot_message(chat, after=said, timeout=MOVE_WAIT)

    played = await reply_to("/play")  # a game against the computer: she sits at an open table
    table = await storage.get_open_table(chat.id)
    assert table is not None and table.status is TableStatus.PLAYING
    refused = await reply_to("/forget")
    assert "Выйдите из лобби, закончите игру (/stop)" in (refused.text or "")
    assert refused.keyboard == [] and refused.message_id > played.message_id
    assert sql.query("SELECT name FROM users WHERE user_id = ?", (anna.id,))

    tg.send_message(anna, chat, "/stop")
    await until(lambda: sql.query("SELECT 1 FROM tables WHERE status = 'finished'"), "the game's end")
    question = await reply_to("/forget")
    assert "Удалить всё, что бот хранит о вас?" in (question.text or "")
    assert question.button_texts == [["✅ Удалить", "Отмена"]]

    forged = await tg.wait_answer(tg.tap_data(anna, question, f"f:y:{boris.id}"), timeout=MOVE_WAIT)
    assert forged.show_alert and forged.text == "Эта кнопка не ваша: ничего не изменилось."
    assert sql.query("SELECT 1 FROM users WHERE user_id = ?", (anna.id,)), "a forged tap deletes nothing"

    done = await tg.wait_answer(tg.tap(anna, question, text="✅ Удалить"), timeout=MOVE_WAIT)
    assert (done.text, done.show_alert) == ("Удалено.", False)
    await tg.wait_for(lambda: (question.text or "").startswith("✅ Готово"), MOVE_WAIT, "the answer in place")
    assert question.keyboard == [], "its buttons are gone"
    await until(lambda: not sql.query("SELECT 1 FROM outbox WHERE NOT done"), "every message delivered")

    assert sql.query("SELECT 1 FROM users WHERE user_id = ?", (anna.id,)) == []
    assert sql.query("SELECT 1 FROM users WHERE user_id = ?", (boris.id,)), "Boris is kept"
    assert sql.query("SELECT 1 FROM tallies WHERE user_id = ?", (anna.id,)) == []
    finished = await storage.get_table(table.table_id)
    assert finished is not None and finished.state is None
    assert [(seat.user_id, seat.name) for seat in finished.seats if seat.user_id is not None] == [(anna.id, "—")]
    assert await storage.get_events(table.table_id) == []
    kept = sql.query("SELECT payload FROM outbox WHERE chat_id = ?", (anna.id,))
    assert len(kept) == 1 and "Готово" in kept[0]["payload"], "of her chat, only the answer that came after"
    assert sql.query("SELECT 1 FROM message_refs WHERE chat_id = ?", (anna.id,)) == []
