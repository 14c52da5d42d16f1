"""Delivery of the outbox: every outbound Bot API call of the bot goes through here.

A move commits its messages to the outbox (see `Storage.commit_move`); the `Sender` then delivers them:

* in order within a chat (one worker per chat, chats in parallel), across retries and restarts;
* paced so that Telegram does not throttle the bot: about one call per second per chat and at most 20 per
  minute per group, edits included, and a bot-wide ceiling;
* honouring 429 `retry_after`, following a group's migration to a supergroup, sending a new message when the
  one to edit is gone, treating "message is not modified" as done, retrying network and server errors with
  backoff, and reporting a chat that blocked or removed the bot through a callback.

The Bot API call and the clock are injected, so all of this is tested without a network.
"""

import asyncio
import itertools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from enum import Enum, auto
from typing import Any

from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNotFound,
    TelegramRetryAfter,
)
from aiogram.methods import DeleteMessage, EditMessageReplyMarkup, EditMessageText, SendMessage
from pydantic import BaseModel, ConfigDict

from bot.api import BotApi
from bot.storage import JsonObject, OutboxItem, OutboxKind, Storage

logger = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class ApiRequest(BaseModel):
    """One Bot API call, resolved from an outbox row: the chat and message ids are final."""

    model_config = ConfigDict(frozen=True)

    kind: OutboxKind
    chat_id: int
    message_id: int | None = None
    payload: JsonObject = {}


ApiCall = Callable[[ApiRequest], Awaitable[int | None]]
"""Performs a request; returns the id of the message sent (or edited), None for a delete."""


class Unreachable(BaseModel):
    """The bot may no longer write to a chat: a user blocked it (private chat) or a group removed it."""

    model_config = ConfigDict(frozen=True)

    chat_id: int
    table_id: int | None
    description: str

    @property
    def is_user(self) -> bool:
        return self.chat_id > 0


UnreachableCallback = Callable[[Unreachable], Awaitable[None]]


def bot_api_call(api: BotApi) -> ApiCall:
    """The production `ApiCall`: the payload holds the Bot API parameters of sendMessage / editMessageText,
    posted as they are (see bot/api.py)."""

    async def call(request: ApiRequest) -> int | None:
        payload = _without_message_id(request.payload)
        if "text" in payload:
            payload.setdefault("parse_mode", "HTML")  # as the bot's default (bot/app.py create_bot)
        if request.kind is OutboxKind.SEND:
            sent = await api.call(SendMessage, {**payload, "chat_id": request.chat_id})
            return int(sent["message_id"])
        if request.message_id is None:
            raise ValueError(f"{request.kind} needs a message id")
        target = {"chat_id": request.chat_id, "message_id": request.message_id}
        if request.kind is OutboxKind.DELETE:
            await api.call(DeleteMessage, target)
            return None
        method = EditMessageText if "text" in payload else EditMessageReplyMarkup
        edited = await api.call(method, {**payload, **target})
        # Telegram answers an edit with the message, or with True for a message sent via inline mode.
        return int(edited["message_id"]) if isinstance(edited, dict) else request.message_id

    return call


GROUP_LIMIT = 20  # calls per group ...
GROUP_WINDOW = 60.0  # ... per this many seconds
GLOBAL_PER_SECOND = 25.0  # bot-wide, under Telegram's ~30
MAX_IN_FLIGHT = 500  # outbox rows taken into memory at once (a call each, to as many chats in parallel)
REFS_KEPT = 100_000  # message ids the sender keeps in memory (a table has one per player and one in the group)


class Pacer:
    """Spaces the calls out: per chat, per group per minute, and bot-wide. One worker per chat calls it.

    Telegram's published limits: about one message per second in a chat, 20 per minute in a group, about 30
    per second overall; edits count like messages in practice. Slots are reserved before sleeping, so
    concurrent workers never pick the same bot-wide slot.
    """

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
        self._global_interval = 1.0 / global_per_second if global_per_second else 0.0
        self._next_in_chat: dict[int, float] = {}
        self._group_calls: dict[int, deque[float]] = {}
        self._next_global = 0.0

    @classmethod
    def scaled(cls, clock: Clock, sleep: Sleep, *, interval: float = 1.0, group_pacing: bool = True) -> "Pacer":
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

    async def wait(self, chat_id: int) -> None:
        now = self._clock()
        slot = max(now, self._next_in_chat.get(chat_id, now))
        calls = self._group_calls.setdefault(chat_id, deque()) if chat_id < 0 else None
        if calls is not None:
            while calls and calls[0] <= slot - self._group_window:
                calls.popleft()
            if self._group_limit is not None and len(calls) >= self._group_limit:
                slot = max(slot, calls[-self._group_limit] + self._group_window)
        slot = max(slot, self._next_global)
        self._next_global = slot + self._global_interval
        self._next_in_chat[chat_id] = slot + self._per_chat_interval
        if calls is not None:
            calls.append(slot)
        if slot > now:
            await self._sleep(slot - now)

    def forget(self, chat_id: int) -> None:
        """Drop the history of an idle chat (memory stays bounded by the chats active right now)."""
        if self._next_in_chat.get(chat_id, 0.0) <= self._clock():
            self._next_in_chat.pop(chat_id, None)
            calls = self._group_calls.get(chat_id)
            if not calls or calls[-1] <= self._clock() - self._group_window:
                self._group_calls.pop(chat_id, None)


class _Outcome(Enum):
    DONE = auto()
    HALT_CHAT = auto()
    """Stop this chat's worker: its other queued rows were cancelled, or stay pending for the next pump."""


class Sender:
    """Delivers the outbox. `notify()` after a commit; `run()` in the background; `drain()` in tests."""

    def __init__(
        self,
        storage: Storage,
        call: ApiCall,
        *,
        clock: Clock = time.time,
        sleep: Sleep = asyncio.sleep,
        on_unreachable: UnreachableCallback | None = None,
        pacer: Pacer | None = None,
        max_attempts: int = 8,
        backoff_base: float = 2.0,
        backoff_cap: float = 300.0,
        poll_interval: float = 2.0,
        batch_size: int = 200,
        max_in_flight: int = MAX_IN_FLIGHT,
    ) -> None:
        self._storage = storage
        self._call = call
        self._clock = clock
        self._sleep = sleep
        self._on_unreachable = on_unreachable
        self._pacer = pacer or Pacer(clock, sleep)
        self._max_attempts = max_attempts
        self._backoff_base = backoff_base
        self._backoff_cap = backoff_cap
        self._poll_interval = poll_interval
        self._batch_size = batch_size
        self._max_in_flight = max_in_flight
        self._capped = False  # the last pump left due rows in the outbox: look again as rows are delivered
        # Above this id every row is new to us: a pump after a commit looks only there. The whole outbox is
        # read again at every poll and after a chat's delivery stopped half-way (rows it left pending).
        self._taken_up_to = 0
        self._rescan = True
        self._queues: dict[int, deque[OutboxItem]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._in_flight: set[int] = set()
        self._migrated: dict[int, int] = {}
        self._refs: dict[tuple[int, str], int | None] = {}  # (chat, ref) -> message id: the sender alone writes them
        self._wake = asyncio.Event()

    def notify(self) -> None:
        """New rows were committed: look at the outbox now rather than at the next poll."""
        self._wake.set()

    async def run(self) -> None:
        """Deliver until cancelled; picks up rows left by a previous process too."""
        try:
            while True:
                self._wake.clear()
                try:
                    await self.pump()
                except Exception:
                    logger.exception("sender: reading the outbox failed")
                try:
                    async with asyncio.timeout(self._poll_interval):
                        await self._wake.wait()
                except TimeoutError:
                    self._rescan = True
        finally:
            await self.close()

    async def pump(self) -> int:
        """Hand the due rows to their chats' workers; returns how many were new.

        At most `max_in_flight` rows are taken at a time: the rest wait in the outbox, where a newer picture
        of the same message supersedes them at commit (so a sender that falls behind catches up with fewer
        calls), and the outbox is not read again while nothing could be taken from it.
        """
        room = min(self._batch_size, self._max_in_flight - len(self._in_flight))
        if room <= 0:
            self._capped = True
            return 0
        if self._rescan:
            self._rescan = False
            new = await self._storage.fetch_outbox(self._clock(), room, skip=self._in_flight)
        else:
            # Walking past every row on its way (the oldest pending ones) after each commit cost a tenth of
            # the bot's CPU with a thousand busy tables.
            new = await self._storage.fetch_outbox(self._clock(), room, after=self._taken_up_to)
        self._capped = len(new) == room
        for item in new:
            self._taken_up_to = max(self._taken_up_to, item.id)
            self._in_flight.add(item.id)
            chat_id = self._resolve(item.chat_id)
            self._queues.setdefault(chat_id, deque()).append(item)
            if chat_id not in self._workers:
                self._workers[chat_id] = asyncio.create_task(self._work(chat_id), name=f"sender:{chat_id}")
        return len(new)

    async def drain(self) -> None:
        """Deliver everything due now and wait until it is done (retries included)."""
        while await self.pump() or self._workers:
            await asyncio.gather(*self._workers.values(), return_exceptions=True)

    async def close(self) -> None:
        workers = list(self._workers.values())
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        self._workers.clear()
        self._queues.clear()
        self._in_flight.clear()

    def _resolve(self, chat_id: int) -> int:
        while chat_id in self._migrated:
            chat_id = self._migrated[chat_id]
        return chat_id

    async def _work(self, chat_id: int) -> None:
        queue = self._queues[chat_id]
        try:
            while queue:
                item = queue[0]
                try:
                    if _superseded(item, queue):
                        # A later picture of the same message waits behind it: the sender fell behind, and
                        # skipping the stale edit is how it catches up (as the outbox does at commit time).
                        await self._storage.mark_outbox_done(item.id, "superseded")
                        outcome = _Outcome.DONE
                    else:
                        outcome = await self.deliver(item)
                except Exception:
                    # Left pending in the outbox: the next pump retries it in order with the rest of its chat.
                    logger.exception("sender: delivering outbox row %s to chat %s failed", item.id, chat_id)
                    outcome = _Outcome.HALT_CHAT
                queue.popleft()
                self._in_flight.discard(item.id)
                if self._capped:
                    self._wake.set()  # room for a row the last pump had to leave behind
                if outcome is _Outcome.HALT_CHAT:
                    self._rescan = True  # what it left pending is below `_taken_up_to`
                    for dropped in queue:
                        self._in_flight.discard(dropped.id)
                    queue.clear()
        finally:
            self._in_flight.difference_update(item.id for item in queue)
            self._queues.pop(chat_id, None)
            self._workers.pop(chat_id, None)
            self._pacer.forget(chat_id)

    async def deliver(self, item: OutboxItem) -> _Outcome:
        """Deliver one row, retrying in place (so the chat's later rows wait behind it)."""
        kind = item.kind
        attempts = item.attempts
        while True:
            chat_id = self._resolve(item.chat_id)
            message_id = item.payload.get("message_id")
            if message_id is None and kind is not OutboxKind.SEND and item.ref is not None:
                message_id = await self._message_ref(chat_id, item.ref)
            if message_id is None and kind is OutboxKind.EDIT:
                kind = OutboxKind.SEND  # nothing to edit yet (or any more): show it as a new message
            if message_id is None and kind is OutboxKind.DELETE:
                await self._storage.mark_outbox_done(item.id, "nothing to delete")
                return _Outcome.DONE
            request = ApiRequest(kind=kind, chat_id=chat_id, message_id=message_id, payload=item.payload)
            await self._pacer.wait(chat_id)
            try:
                result = await self._call(request)
            except TelegramRetryAfter as error:
                logger.warning("sender: flood control in chat %s, waiting %s s", chat_id, error.retry_after)
                await self._sleep(float(error.retry_after))
                continue
            except TelegramMigrateToChat as error:
                logger.info("sender: chat %s migrated to %s", chat_id, error.migrate_to_chat_id)
                await self._storage.migrate_chat(chat_id, error.migrate_to_chat_id)
                self._migrated[chat_id] = error.migrate_to_chat_id
                continue
            except TelegramForbiddenError as error:
                await self._unreachable(item, chat_id, error.message)
                return _Outcome.HALT_CHAT
            except (TelegramBadRequest, TelegramNotFound) as error:
                description = error.message.lower()
                if "message is not modified" in description:
                    break
                if kind is OutboxKind.EDIT and (
                    "message to edit not found" in description or "message can't be edited" in description
                ):
                    if item.ref is not None:
                        await self._forget_ref(chat_id, item.ref)
                    kind = OutboxKind.SEND
                    item = item.model_copy(update={"payload": _without_message_id(item.payload)})
                    continue
                if kind is OutboxKind.DELETE and (
                    "message to delete not found" in description or "message can't be deleted" in description
                ):
                    break
                if "chat not found" in description or "bot was kicked" in description:
                    await self._unreachable(item, chat_id, error.message)
                    return _Outcome.HALT_CHAT
                # A request Telegram will never accept: retrying cannot help, holding the chat up would.
                logger.error("sender: chat %s rejected outbox row %s: %s", chat_id, item.id, error.message)
                await self._storage.mark_outbox_done(item.id, error.message)
                return _Outcome.DONE
            except Exception as error:
                # Network errors, 5xx, timeouts and anything unexpected: back off and try again.
                retried = await self._back_off(item, chat_id, error, attempts)
                if retried is None:
                    return _Outcome.DONE
                attempts = retried
                continue
            if item.ref is not None:
                if kind is OutboxKind.SEND and result is not None:
                    await self._storage.set_message_ref(chat_id, item.ref, result)
                    self._refs[(chat_id, item.ref)] = result
                elif kind is OutboxKind.DELETE:
                    await self._forget_ref(chat_id, item.ref)
            break
        await self._storage.mark_outbox_done(item.id)
        return _Outcome.DONE

    async def _message_ref(self, chat_id: int, ref: str) -> int | None:
        """The id of the live message `ref` in the chat, read from the database once and then kept."""
        key = (chat_id, ref)
        if key not in self._refs:
            if len(self._refs) > REFS_KEPT:
                self._refs.clear()
            self._refs[key] = await self._storage.get_message_ref(chat_id, ref)
        return self._refs[key]

    async def _forget_ref(self, chat_id: int, ref: str) -> None:
        await self._storage.delete_message_ref(chat_id, ref)
        self._refs[(chat_id, ref)] = None

    async def _back_off(self, item: OutboxItem, chat_id: int, error: Exception, attempts: int) -> int | None:
        """Record the failed attempt and wait for the next one; returns the attempts made so far, or None
        when there were too many and the row was given up."""
        description = f"{type(error).__name__}: {error}"
        delay = min(self._backoff_cap, self._backoff_base * 2**attempts)
        attempts = await self._storage.schedule_outbox_retry(item.id, self._clock() + delay, description)
        if attempts >= self._max_attempts:
            logger.error("sender: giving up outbox row %s to chat %s: %s", item.id, chat_id, description)
            await self._storage.mark_outbox_done(item.id, f"gave up after {attempts} attempts: {description}")
            return None
        logger.warning("sender: chat %s, attempt %s failed (%s); retry in %.0f s", chat_id, attempts, error, delay)
        await self._sleep(delay)
        return attempts

    async def _unreachable(self, item: OutboxItem, chat_id: int, description: str) -> None:
        logger.info("sender: chat %s is unreachable: %s", chat_id, description)
        if chat_id > 0:
            await self._storage.set_user_blocked(chat_id)
        else:
            await self._storage.set_chat_removed(chat_id)
        await self._storage.mark_outbox_done(item.id, description)
        await self._storage.cancel_outbox_for_chat(chat_id, f"unreachable: {description}")
        if self._on_unreachable is not None:
            try:
                report = Unreachable(chat_id=chat_id, table_id=item.table_id, description=description)
                await self._on_unreachable(report)
            except Exception:
                logger.exception("sender: the unreachable-chat callback failed for chat %s", chat_id)


def _superseded(item: OutboxItem, queue: deque[OutboxItem]) -> bool:
    """An edit with a later edit of the same key queued behind it in its chat (`OutboxMessage.key`)."""
    if item.kind is not OutboxKind.EDIT or item.key is None:
        return False
    return any(later.key == item.key for later in itertools.islice(queue, 1, None))


def _without_message_id(payload: JsonObject) -> dict[str, Any]:
    return {key: value for key, value in payload.items() if key != "message_id"}
