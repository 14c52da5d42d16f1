"""Pacing of the Bot API calls that Telegram counts: every chat on its own, the bot-wide budget shared fairly.

Telegram's published limits: about one message a second in a chat, 20 a minute in a group (edits count), about
30 a second in all; past them it answers 429. Each chat's worker (bot/telegram/sender.py) first waits for its own
chat's turn — one call per `per_chat_interval`, and in a group at most `group_limit` per `group_window` — and
only then for a token of the bot-wide bucket. So a group that spent its minute's budget waits alone: it holds no
slot that a private hand or another group could use (the bot-wide budget is never reserved ahead of time), and
when many chats are ready at once the tokens go to private chats first (a player's own hand is what he waits
for), then in the order the chats became ready.

A deletion is paced by the bot-wide budget only: it takes no slot of its chat's second. The one a chat sees is the
old hand going right after its player's turn rang in a new one (bot/telegram/sender.py); counting it would make
the next turn wait a second behind it. Telegram's flood limits are about messages sent, and allow short bursts
even where a deletion counted, which one deletion after a send stays within.

In a group the table's edits leave `NEWS_RESERVE` calls of every window to its news (issue 37): an edit goes only
while the window holds fewer than sixteen of the table's calls, so a call («Вскрываюсь!») or a deal's result
committed when the table's pictures have spent the minute still goes within a second or two. The edits lose
nothing by it: they coalesce, and the picture that goes a little later is the newer one. Replies to commands (see
below) are counted against the reserve, not against the table: a member's commands slow neither the table nor,
unless the window is full, its news.

A reply to a command in a group (bot/telegram/sender.py sends the table's own messages first) takes only what the
table leaves of its group's budget, and never much of it (issue 35: one member's commands held a table up for
minutes): it goes only after the chat has been quiet for two intervals, while the group's window holds fewer calls
than half its limit and fewer replies than a quarter (ten and five of twenty); and it takes no slot of its chat's
second, so a table's message committed right after it goes at once. That is a burst of two, which Telegram's
"about one a second" allows, and only after two quiet seconds (a bucket of Telegram's kind has refilled two by
then).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
from collections import deque
from collections.abc import Awaitable, Callable

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]

GROUP_LIMIT = 20  # calls per group ...
GROUP_WINDOW = 60.0 * 1.03  # ... per this many seconds: a minute, and a little more, for the time a call takes to
# reach Telegram varies, and Telegram counts the calls when they arrive
GLOBAL_PER_SECOND = 25.0  # bot-wide, under Telegram's ~30
PRIVATE, GROUP, REPLY = 0, 1, 2  # who gets the bot-wide budget first
REPLY_QUIET = 2.0  # intervals without a call in its chat before a reply to a command goes, while its group's
# window holds fewer calls than half the group's limit and fewer replies than a quarter of it (five of twenty)
NEWS_RESERVE = 4  # calls of a group's window that edits leave to new messages (a call, a deal's result)
EPSILON = 1e-9  # a token short by a rounding error is a token (a clock that big cannot count the time it lacks)


class Budget:
    """A token bucket of `rate` calls a second (holding one second's worth), handed to waiters by priority."""

    def __init__(self, clock: Clock, sleep: Sleep, rate: float) -> None:
        self._clock = clock
        self._sleep = sleep
        self._rate = rate
        self._capacity = max(1.0, rate)
        self._tokens = self._capacity
        self._updated = clock()
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._handing: asyncio.Task[None] | None = None

    def set_rate(self, rate: float) -> None:
        """From now on, `rate` calls a second (this process's share when several share Telegram's budget)."""
        self._refill()
        self._rate = rate
        self._capacity = max(1.0, rate)
        self._tokens = min(self._tokens, self._capacity)

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self._capacity, self._tokens + (now - self._updated) * self._rate)
        self._updated = now

    async def acquire(self, priority: int) -> None:
        self._refill()
        if not self._waiters and self._tokens >= 1 - EPSILON:
            self._tokens -= 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (priority, next(self._order), future))
        if self._handing is None or self._handing.done():
            self._handing = asyncio.create_task(self._hand_out(), name="pacer-budget")
        await future

    async def _hand_out(self) -> None:
        while self._waiters:
            self._refill()
            if self._tokens < 1 - EPSILON:
                await self._sleep((1 - self._tokens) / self._rate)
                continue
            _, _, future = heapq.heappop(self._waiters)
            if not future.done():  # a waiter cancelled meanwhile keeps no token
                self._tokens -= 1
                future.set_result(None)


class Pacer:
    """Spaces out the counted calls; one worker per chat calls `wait` before each of its calls."""

    def __init__(
        self,
        clock: Clock,
        sleep: Sleep,
        *,
        per_chat_interval: float = 1.0,
        group_limit: int | None = GROUP_LIMIT,
        group_window: float = GROUP_WINDOW,
        global_per_second: float | None = GLOBAL_PER_SECOND,
    ) -> None:
        """`group_limit` None: no per-group ceiling; `global_per_second` None: no bot-wide one."""
        self._clock = clock
        self._sleep = sleep
        self._per_chat_interval = per_chat_interval
        self._group_limit = group_limit
        self._group_window = group_window
        self._global_per_second = global_per_second
        self._budget = Budget(clock, sleep, global_per_second) if global_per_second else None
        self._next_in_chat: dict[int, float] = {}
        self._last_call: dict[int, float] = {}
        self._group_calls: dict[int, deque[float]] = {}
        self._group_replies: dict[int, deque[float]] = {}
        self._group_own: dict[int, deque[float]] = {}  # a group's calls but the replies to commands

    @classmethod
    def scaled(cls, clock: Clock, sleep: Sleep, *, interval: float = 1.0, group_pacing: bool = True) -> Pacer:
        """Telegram's limits with time scaled by `interval` (seconds between two calls to one chat; 1.0 is the
        real pacing): a group gets 20 calls per `60 * interval` seconds, the bot 25 per `interval` seconds.
        `group_pacing=False` drops the group ceiling. Anything but the defaults is for tests against a fake
        Bot API (SEND_INTERVAL, GROUP_PACING in bot/config.py): real Telegram would throttle a faster bot."""
        return cls(
            clock,
            sleep,
            per_chat_interval=interval,
            group_limit=GROUP_LIMIT if group_pacing else None,
            group_window=GROUP_WINDOW * interval,
            global_per_second=GLOBAL_PER_SECOND / interval if interval > 0 else None,
        )

    @property
    def interval(self) -> float:
        """Seconds between two calls to one chat: 1.0 at Telegram's pace, less against a fake (SEND_INTERVAL)."""
        return self._per_chat_interval

    def share(self, instances: int) -> None:
        """`instances` processes deliver for this bot (PostgreSQL, bot/storage/postgres): each takes that share
        of the bot-wide budget, so that together they stay under Telegram's."""
        if self._budget is not None and self._global_per_second:
            self._budget.set_rate(self._global_per_second / max(1, instances))

    def ready_at(self, chat_id: int, *, edit: bool = False) -> float:
        """When the chat's own limits let it make its next call (the bot-wide budget aside); an `edit` leaves a
        group's news its reserve (see the module's docstring)."""
        now = self._clock()
        slot = max(now, self._next_in_chat.get(chat_id, now))
        if chat_id < 0:
            slot = max(slot, self._room_at(self._group_calls.get(chat_id), now, self._group_limit))
            if edit and self._group_limit is not None:
                reserved = max(1, self._group_limit - NEWS_RESERVE)
                slot = max(slot, self._room_at(self._group_own.get(chat_id), now, reserved))
        return slot

    def reply_ready_at(self, chat_id: int) -> float:
        """When a reply to a command may go in the chat: after two quiet intervals and, in a group, while the
        table keeps the most of the group's budget (see the module's docstring)."""
        now = self._clock()
        quiet = self._last_call.get(chat_id, -math.inf) + REPLY_QUIET * self._per_chat_interval
        slot = max(now, self._next_in_chat.get(chat_id, now), quiet)
        if chat_id < 0 and self._group_limit is not None:
            calls = self._room_at(self._group_calls.get(chat_id), now, max(1, self._group_limit // 2))
            replies = self._room_at(self._group_replies.get(chat_id), now, max(1, self._group_limit // 4))
            slot = max(slot, calls, replies)
        return slot

    def reply_wait(self, chat_id: int) -> float:
        """Seconds until a reply to a command may go in the chat (0: now)."""
        return max(0.0, self.reply_ready_at(chat_id) - self._clock())

    def _room_at(self, calls: deque[float] | None, now: float, limit: int | None) -> float:
        """When the window of `calls` (a group's) holds fewer than `limit` of them (None: no limit); drops the
        calls that left the window."""
        if not calls:
            return now
        while calls and calls[0] <= now - self._group_window:
            calls.popleft()
        return calls[-limit] + self._group_window if limit is not None and len(calls) >= limit else now

    async def wait_turn(self, chat_id: int, *, edit: bool = False) -> None:
        """Wait until the chat's own limits allow a call (other chats are not held up by this)."""
        delay = self.ready_at(chat_id, edit=edit) - self._clock()
        if delay > 0:
            await self._sleep(delay)

    async def wait_budget(self, chat_id: int, *, in_chat: bool = True, reply: bool = False) -> None:
        """Wait for the bot-wide budget (private chats first, replies to commands last), then count the call
        against the chat (unless `in_chat` is False: a deletion); a `reply` takes no slot of the chat's pace."""
        if self._budget is not None:
            await self._budget.acquire(REPLY if reply else PRIVATE if chat_id > 0 else GROUP)
        if not in_chat:
            return
        now = self._clock()
        self._last_call[chat_id] = now
        if not reply:
            self._next_in_chat[chat_id] = now + self._per_chat_interval
        if chat_id < 0:
            self._group_calls.setdefault(chat_id, deque()).append(now)
            if reply:
                self._group_replies.setdefault(chat_id, deque()).append(now)
            else:
                self._group_own.setdefault(chat_id, deque()).append(now)

    async def wait(self, chat_id: int) -> None:
        """Both waits, for a call that is made whatever happened meanwhile."""
        await self.wait_turn(chat_id)
        await self.wait_budget(chat_id)

    def forget(self, chat_id: int) -> None:
        """Drop the history of an idle chat (memory stays bounded by the chats active right now)."""
        now = self._clock()
        if self._next_in_chat.get(chat_id, 0.0) <= now:
            self._next_in_chat.pop(chat_id, None)
            if self._last_call.get(chat_id, -math.inf) + REPLY_QUIET * self._per_chat_interval <= now:
                self._last_call.pop(chat_id, None)
            for history in (self._group_calls, self._group_replies, self._group_own):
                calls = history.get(chat_id)
                if not calls or calls[-1] <= now - self._group_window:
                    history.pop(chat_id, None)
