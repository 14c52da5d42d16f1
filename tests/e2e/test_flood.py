"""Flood control: with Telegram refusing messages at random (429 with retry_after), a game still shows every
announcement, in order, and every message in its final text.

What "every" means comes from the bot's own outbox: each message it committed, in commit order, with the last
text of each message kept in place (table, hands). The chats must read exactly that once the outbox is drained.
"""

from __future__ import annotations

import pytest

from tests.botapi import FakeTelegram
from tests.e2e.conftest import BotProcess
from tests.e2e.harness import SEND_INTERVAL, open_game


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
