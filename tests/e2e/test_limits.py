"""Every request the bot makes in a whole game is one Telegram accepts.

The fake rejects what Telegram rejects (text over 4096 characters, broken HTML, callback data over 64 bytes, too
many buttons, unknown parameters) with a 400; a game in which none of that happened proves the bot's messages
fit Telegram's limits. Flood control is off here: a 429 is not a rejection but a retry (see test_flood.py).
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.botapi import FakeTelegram
from tests.e2e.conftest import BotProcess
from tests.e2e.harness import SEND_INTERVAL, open_game


@pytest.fixture(autouse=True)
def _fast_sender(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEND_INTERVAL", SEND_INTERVAL)


async def test_every_request_of_a_three_player_game_is_accepted(tg: FakeTelegram, bot: BotProcess) -> None:
    game = await open_game(tg, bot.database, players=3, settings={"match": "one", "timer": "0", "discards": "closed"})
    assert await game.play_to_end() > 0
    await game.delivered()
    said = tg.send_message(game.people[0], game.group, "/score")
    await tg.wait_bot_message(game.group, after=said, timeout=30)

    rejected = [(r.method, r.error_code, r.description, r.params) for r in tg.history if not r.ok]
    assert not rejected, rejected[:3]
    counts = Counter(request.method for request in tg.history)
    assert counts["sendMessage"] > 0 and counts["editMessageText"] > 0 and counts["answerCallbackQuery"] > 0
