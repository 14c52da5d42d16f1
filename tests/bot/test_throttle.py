"""Per-user limits (bot/handlers/throttle.py): the token buckets on a fake clock, and which messages count."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from aiogram.types import Chat, Message, TelegramObject, Update, User

from bot.handlers import throttle
from bot.handlers.throttle import COMMANDS, TAPS, Buckets, Rate, Throttle
from bot.i18n import Translations


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_one_token_every_period() -> None:
    clock = Clock()
    buckets = Buckets(Rate(burst=5, every=3.0), clock)
    assert [buckets.take(1) for _ in range(6)] == [True] * 5 + [False]
    assert buckets.take(2), "every user has his own bucket"
    clock.now += 2.9
    assert not buckets.take(1)
    clock.now += 0.1
    assert buckets.take(1) and not buckets.take(1), "one token three seconds later, not more"
    clock.now += 3.0 * 10
    assert [buckets.take(1) for _ in range(6)] == [True] * 5 + [False], "never more than the burst"


def test_refused_tries_do_not_push_the_refill_back() -> None:
    clock = Clock()
    buckets = Buckets(Rate(burst=1, every=1.0), clock)
    assert buckets.take(1)
    for _ in range(7):
        clock.now += 0.125
        assert not buckets.take(1)
    clock.now += 0.125
    assert buckets.take(1), "a second after the last token, whatever was tried meanwhile"


def test_quiet_users_are_forgotten_once_there_are_many(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(throttle, "USERS_KEPT", 10)
    clock = Clock()
    buckets = Buckets(Rate(burst=2, every=1.0), clock)
    for user in range(10):
        buckets.take(user)
    clock.now += 2.0  # all of them full again
    buckets.take(99)
    assert buckets.take(99) and not buckets.take(99), "the new one keeps his own count"
    assert len(buckets._buckets) == 1


def test_the_rates_scale_with_the_send_interval() -> None:
    assert COMMANDS.scaled(1.0) == COMMANDS
    assert COMMANDS.scaled(0.05) == Rate(COMMANDS.burst, COMMANDS.every * 0.05)
    assert TAPS.scaled(0.0) is None, "no pacing, no limit"
    assert TAPS.burst > COMMANDS.burst and TAPS.every < COMMANDS.every, "taps are what play is made of"


def message(chat_id: int, text: str, user_id: int = 7) -> Update:
    chat = Chat(id=chat_id, type="private" if chat_id > 0 else "group")
    user = User(id=user_id, is_bot=False, first_name="Карл")
    sent = Message(message_id=1, date=datetime.now(UTC), chat=chat, from_user=user, text=text)
    return Update(update_id=1, message=sent)


@pytest.mark.parametrize(
    ("chat_id", "text", "counted"),
    [(-5, "/score", True), (-5, "hello all", False), (7, "hello bot", True), (7, "/help", True)],
)
async def test_what_counts_is_what_the_bot_would_answer(chat_id: int, text: str, counted: bool) -> None:
    clock = Clock()
    limit = Throttle(Translations(), commands=Rate(burst=1, every=60.0), taps=None, clock=clock)
    reached: list[TelegramObject] = []

    async def handler(event: TelegramObject, data: dict[str, Any]) -> None:
        reached.append(event)

    for _ in range(3):
        await limit(handler, message(chat_id, text), {})
    assert len(reached) == (1 if counted else 3)
