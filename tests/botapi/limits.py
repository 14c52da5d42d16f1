"""Flood control as Telegram applies it to bots, on an injectable clock.

Telegram publishes its limits only roughly (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this):
about one message per second in a single chat with short bursts allowed, at most 20 messages per minute in
one group, and about 30 messages per second overall. We model them as:

- per chat: a token bucket holding `chat_burst` messages, refilled at `chat_rate` per second;
- per group or supergroup: at most `group_per_minute` messages in any sliding 60-second window;
- global: at most `global_per_second` messages in any sliding 1-second window.

What counts as a message: every sendMessage and every edit (editMessageText, editMessageReplyMarkup). Bots
that redraw a game board by editing hit 429 in busy groups just as senders do, so edits count the same.
deleteMessage, answerCallbackQuery, sendChatAction and the read-only methods do not count. A refused request
spends nothing, and `retry_after` is the whole number of seconds until every limit it broke has room again.

Ephemeral messages (Bot API 10.2: a message in a group that one member alone sees) have no published figure
at all. We count every ephemeral send, edit and delete against the global second, and against a bucket of
their own per (group, receiver) with the numbers of a private chat, since to the one person who sees them they
are a conversation with the bot; they do not count against the group's minute, which limits what the whole
group sees, nor against the group's own bucket. deleteEphemeralMessage counts, unlike deleteMessage: each is
a message pushed to the receiver's client, and a bot that sweeps them away in a loop should feel it.

`inject` adds 429s at random (a seeded `random.Random`, so a flood test replays exactly) on top of the
limits, to prove that a bot retries; `enabled = False` switches the real limits off.
"""

import math
import random
from collections import deque
from dataclasses import dataclass

from tests.botapi.clock import Clock
from tests.botapi.errors import too_many_requests


@dataclass(frozen=True)
class FloodPolicy:
    """The numbers behind the limits; see the module docstring for what each one means."""

    chat_rate: float = 1.0
    chat_burst: int = 3
    group_per_minute: int = 20
    global_per_second: int = 30
    group_window: float = 60.0
    global_window: float = 1.0

    @classmethod
    def scaled(cls, scale: float) -> "FloodPolicy":
        """Telegram's limits with time scaled: `scale` seconds stand for one (0.1: a "minute" is 6 s), as the bot
        scales its own pacing with SEND_INTERVAL. Tests play whole matches at the real limits this way."""
        return cls(chat_rate=1.0 / scale, group_window=60.0 * scale, global_window=1.0 * scale)


@dataclass
class _Bucket:
    tokens: float
    updated: float


@dataclass(frozen=True)
class _Injection:
    rng: random.Random
    probability: float
    retry_after: int


class FloodControl:
    """Decides whether one more counted request may pass now; raises the 429 `ApiError` when not."""

    def __init__(self, clock: Clock, policy: FloodPolicy | None = None, enabled: bool = True) -> None:
        self.clock = clock
        self.policy = policy or FloodPolicy()
        self.enabled = enabled
        self._buckets: dict[int | tuple[int, int], _Bucket] = {}  # chat id, or (group id, receiver id)
        self._groups: dict[int, deque[float]] = {}
        self._global: deque[float] = deque()
        self._injection: _Injection | None = None
        self.refused = 0  # requests refused by the limits themselves (not by an injection)

    def inject(self, probability: float, seed: int, retry_after: int = 3) -> None:
        """From now on refuse each counted request with this probability, drawn from `Random(seed)`."""
        if not 0 <= probability <= 1:
            raise ValueError("probability is between 0 and 1")
        self._injection = _Injection(random.Random(seed), probability, retry_after)

    def stop_injecting(self) -> None:
        self._injection = None

    def reset(self) -> None:
        """Forget every past message, as if the bot had been quiet for a long time."""
        self._buckets.clear()
        self._groups.clear()
        self._global.clear()

    def check(self, chat_id: int, is_group: bool, receiver_id: int | None = None) -> None:
        """Count one message to `chat_id` (an ephemeral one for `receiver_id` there), or raise 429 without
        counting it."""
        if self._injection is not None and self._injection.rng.random() < self._injection.probability:
            raise too_many_requests(self._injection.retry_after)
        if not self.enabled:
            return
        now = self.clock.now()
        bucket = self._refilled(chat_id if receiver_id is None else (chat_id, receiver_id), now)
        waits = [0.0 if bucket.tokens >= 1 else (1 - bucket.tokens) / self.policy.chat_rate]
        policy = self.policy
        group = None
        if is_group and receiver_id is None:
            group = self._window(self._groups.setdefault(chat_id, deque()), now, policy.group_window)
        if group is not None:
            waits.append(self._wait(group, now, policy.group_window, policy.group_per_minute))
        self._window(self._global, now, policy.global_window)
        waits.append(self._wait(self._global, now, policy.global_window, policy.global_per_second))
        wait = max(waits)
        if wait > 0:
            self.refused += 1
            raise too_many_requests(max(1, math.ceil(wait)))
        bucket.tokens -= 1
        if group is not None:
            group.append(now)
        self._global.append(now)

    def _refilled(self, key: int | tuple[int, int], now: float) -> _Bucket:
        bucket = self._buckets.setdefault(key, _Bucket(float(self.policy.chat_burst), now))
        elapsed = max(0.0, now - bucket.updated)
        bucket.tokens = min(float(self.policy.chat_burst), bucket.tokens + elapsed * self.policy.chat_rate)
        bucket.updated = now
        return bucket

    @staticmethod
    def _window(times: deque[float], now: float, span: float) -> deque[float]:
        while times and times[0] <= now - span:
            times.popleft()
        return times

    @staticmethod
    def _wait(times: deque[float], now: float, span: float, allowed: int) -> float:
        if len(times) < allowed:
            return 0.0
        # The oldest message that keeps the window full must leave it first.
        return times[len(times) - allowed] + span - now
