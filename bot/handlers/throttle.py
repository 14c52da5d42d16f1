"""Per-user limits on commands and taps: one member's flood costs his group nothing.

Every user has two token buckets in this process, one for what he writes to the bot (a command in a group;
anything at all in private, where every message is answered) and one for his taps. Past his limit:

* a command is dropped in silence. A reply would spend his group's twenty messages a minute, which its table
  needs (issue 35: sixty commands from one member held the table's next picture up for three minutes);
* a tap is answered at once with a short toast («Не так быстро») and changes nothing: the client stops
  spinning, and no state, lock or database is touched.

Either way the update counts as handled: the middleware returns without calling the handler, and the inbox marks
it done like any update that changed nothing (bot/telegram/handling.py), so it is never handled again. (After
a crash before that mark, it is handled afresh, with fresh buckets: at most once more.)

The rates are Telegram's own scale, in seconds of its time: they scale with SEND_INTERVAL, as the pacer's limits
do (bot/telegram/pacer.py), so that the e2e tests run fast; an interval of 0 switches them off.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiogram.enums import ChatType
from aiogram.types import CallbackQuery, Message, TelegramObject, Update

from bot.handlers.common import answer
from bot.i18n import Translations
from bot.services import Reply

logger = logging.getLogger(__name__)

Clock = Callable[[], float]
Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


@dataclass(frozen=True, slots=True)
class Rate:
    """`burst` at once, then one every `every` seconds."""

    burst: int
    every: float

    def scaled(self, interval: float) -> Rate | None:
        """The rate at the pacer's scale (`interval` seconds stand for one); None for no limit (0)."""
        return Rate(self.burst, self.every * interval) if interval > 0 else None


COMMANDS = Rate(burst=5, every=3.0)
"""A few commands in a row (/new, /settings, /addbot, /score...), then one every three seconds: twenty a minute
would be a group's whole budget, so a member keeps well under it."""
TAPS = Rate(burst=12, every=0.5)
"""A move takes a few taps in a row (marking up to four cards, then the move; the settings menu a few more), and
two a second go on for as long as he plays fast; a flood of taps is answered with a toast."""
USERS_KEPT = 100_000  # buckets kept before the full ones (users quiet for a while) are forgotten


class Buckets:
    """A token bucket per user id: `take` is True while the user keeps to `rate` (and spends a token)."""

    def __init__(self, rate: Rate, clock: Clock = time.monotonic) -> None:
        self._rate = rate
        self._clock = clock
        self._buckets: dict[int, tuple[float, float]] = {}  # user id -> (tokens, when counted)

    def take(self, user_id: int) -> bool:
        now = self._clock()
        burst, every = self._rate.burst, self._rate.every
        tokens, counted = self._buckets.get(user_id, (float(burst), now))
        tokens = min(float(burst), tokens + (now - counted) / every)
        if tokens < 1.0:
            self._buckets[user_id] = (tokens, now)
            return False
        if len(self._buckets) >= USERS_KEPT:
            self._forget_full(now)
        self._buckets[user_id] = (tokens - 1.0, now)
        return True

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have refilled: a user not seen for that long starts full anyway."""
        refill = self._rate.burst * self._rate.every
        self._buckets = {user: bucket for user, bucket in self._buckets.items() if now - bucket[1] < refill}


class Throttle:
    """The dispatcher's outer middleware that keeps every user to `commands` and `taps` (None: no limit)."""

    def __init__(
        self, translations: Translations, commands: Rate | None, taps: Rate | None, clock: Clock = time.monotonic
    ) -> None:
        self._translations = translations
        self._commands = Buckets(commands, clock) if commands is not None else None
        self._taps = Buckets(taps, clock) if taps is not None else None

    @classmethod
    def scaled(cls, translations: Translations, interval: float) -> Throttle:
        """`COMMANDS` and `TAPS` at the pacer's scale (SEND_INTERVAL)."""
        return cls(translations, COMMANDS.scaled(interval), TAPS.scaled(interval))

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        if isinstance(event, Update):
            if event.callback_query is not None and self._taps is not None:
                query = event.callback_query
                if not self._taps.take(query.from_user.id):
                    await self._slow_down(query)
                    return None
            elif event.message is not None and self._commands is not None:
                message = event.message
                sender = _sender_of(message)
                if sender is not None and _answered(message) and not self._commands.take(sender):
                    logger.debug("update %s: user %s is over his rate; dropped", event.update_id, sender)
                    return None
        return await handler(event, data)

    async def _slow_down(self, query: CallbackQuery) -> None:
        tr = self._translations.for_telegram_language(query.from_user.language_code)
        await answer(query, Reply(tr.t("flow-slow-down")))


def _sender_of(message: Message) -> int | None:
    """Who is counted: the chat a message is posted as (a channel, an anonymous admin's group), else its user."""
    if message.sender_chat is not None:
        return message.sender_chat.id
    return message.from_user.id if message.from_user is not None else None


def _answered(message: Message) -> bool:
    """A message the bot would answer: a command, or anything in a private chat (bot/handlers/private.py)."""
    return message.chat.type == ChatType.PRIVATE or (message.text or "").startswith("/")
