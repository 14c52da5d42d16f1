"""Flood control: with Telegram refusing messages at random (429 with retry_after), a game still shows every
announcement, in order, and every message in its final text; a tap's answer refused with a 429 is tried again
while the tap lives.

What "every" means comes from the bot's own outbox: each message it committed, in commit order, with the last
text of each message kept in place (table, hands). The chats must read exactly that once the outbox is drained.
"""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from tests.botapi import CallbackQuery, Chat, FakeTelegram, Message, Request
from tests.botapi.server import CALLBACK_WINDOW
from tests.e2e.conftest import SEED, BotProcess, Launch
from tests.e2e.harness import SEND_INTERVAL, WAIT, open_game


@pytest.fixture(autouse=True)
def _fast_sender(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEND_INTERVAL", SEND_INTERVAL)


async def test_random_429s_lose_and_reorder_nothing(tg: FakeTelegram, bot: BotProcess) -> None:
    tg.flood.inject(0.25, seed=20261130, retry_after=1)
    game = await open_game(tg, bot.database, players=2, settings={"match": "one", "timer": "0"})
    assert await game.play_to_end() > 0
    await game.delivered(timeout=120)

    refused = [r for r in tg.history if r.error_code == 429]
    assert len(refused) >= 10, "the injection refused too little to prove anything"
    assert all(r.ok or r.error_code == 429 for r in tg.history), [r for r in tg.history if not r.ok][:3]
    for chat in game.chats():
        committed = game.committed(chat)
        assert committed, chat.id
        assert game.shown(chat) == committed, chat.id
    assert len(game.shown(game.group)) >= 4  # the hello, the deal's announcements, its result and the table


def answer_tries(tg: FakeTelegram, query: CallbackQuery) -> list[Request]:
    return [r for r in tg.history if r.method == "answerCallbackQuery" and r.params["callback_query_id"] == query.id]


async def test_a_tap_answer_refused_for_longer_than_the_tap_lives_is_tried_again_in_time(
    tg: FakeTelegram, bot: BotProcess
) -> None:
    """Telegram refuses the answer to a tap with "retry after 30", longer than the tap lives (10 s): the bot
    does not give up at once (it did, and the tap spun for good) but tries once more before the tap expires,
    and the tap is answered, the storm being over by then."""
    game = await open_game(tg, bot.database, players=2, settings={"match": "one", "timer": "0"})
    await game.delivered()
    current = await game.match()
    assert current is not None
    version, match = current
    tap = await game.wait_tap(match, version)
    tg.inject_429("answerCallbackQuery", 1.0, seed=35, retry_after=30)
    query = tg.tap_data(tap.user, tap.message, tap.data)
    await game.until(lambda: bool(answer_tries(tg, query)), "the first try to answer the tap")
    tg.stop_injecting("answerCallbackQuery")
    answer = await tg.wait_answer(query, timeout=CALLBACK_WINDOW)
    assert not answer.show_alert, answer.text
    tries = answer_tries(tg, query)
    assert [r.error_code for r in tries] == [429, None], "one refusal, then one more try: no hammering"
    assert tries[-1].time - query.created < CALLBACK_WINDOW


async def test_a_user_past_his_rate_is_answered_no_more_and_his_taps_get_a_toast(
    tg: FakeTelegram, launch: Launch
) -> None:
    """At Telegram's own pace (SEND_INTERVAL 1): twenty commands at once get five replies (the burst), and the
    rest nothing at all; thirty taps at once get twelve ordinary answers and, past them, «Не так быстро» at
    once, without reaching any handler. Every one of those updates is handled once: none is left in the inbox."""
    bot = await launch(SEED, {"SEND_INTERVAL": "1.0"})
    carl = tg.user("Карл", "carl")
    private = tg.private_chat(carl)
    said = [tg.send_message(carl, private, "/help") for _ in range(20)]
    await tg.wait_for(lambda: len(replies_to(tg, private, said)) >= 5 or None, 30, "the first five replies")
    await until_handled(bot)
    await asyncio.sleep(3.0)  # three seconds more: no reply was only late
    assert len(replies_to(tg, private, said)) == 5

    message = tg.messages(private, from_bot=True)[-1]
    queries = [tg.tap_data(carl, message, "forged") for _ in range(30)]
    answers = [await tg.wait_answer(query, timeout=WAIT) for query in queries]
    handled = [answer for answer in answers if answer.show_alert]  # the stale-button alert of bot/handlers
    toasts = [answer.text for answer in answers if not answer.show_alert]
    assert 12 <= len(handled) <= 14, "the burst, and a token or two refilled while they were handled"
    assert set(toasts) == {"Не так быстро"}
    await until_handled(bot)


def replies_to(tg: FakeTelegram, chat: Chat, said: list[Message]) -> list[Message]:
    ids = {message.message_id for message in said}
    return [m for m in tg.messages(chat, from_bot=True) if m.reply_to is not None and m.reply_to.message_id in ids]


async def until_handled(bot: BotProcess) -> None:
    """Until the inbox holds no update unhandled (the marks are committed in batches, every 0.2 s)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while True:
        with sqlite3.connect(bot.database) as db:
            [(left,)] = db.execute("SELECT COUNT(*) FROM inbox WHERE processed_at IS NULL").fetchall()
        if left == 0:
            return
        assert loop.time() < deadline, f"{left} updates left unhandled in the inbox"
        await asyncio.sleep(0.1)
