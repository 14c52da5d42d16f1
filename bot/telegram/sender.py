"""Delivery of the outbox: every message the bot shows goes out through here.

A move commits its messages to the outbox (see `Storage.commit_move`); the `Sender` then delivers them:

* in order within a chat (one worker per chat, chats in parallel), across retries and restarts; a chat's next
  message waits until the last one is recorded as delivered, so a crash repeats at most one message a chat;
* a file (a document: `UPLOAD` in bot/telegram/calls.py, its content in the row) as any new message: in its
  chat's order and pace, counted in a group's minute, a reply to a command in a group as replies are, recorded as
  sent before the chat's next message goes (so a retry never sends again what Telegram answered);
* paced per chat, independently (bot/telegram/pacer.py): a group waiting for its minute's budget holds up no
  other chat; edits of one message coalesce (only the newest picture is sent) and an edit that would not change
  what the message shows is not sent at all;
* in a group, news before pictures: a new message of the table (a call, a deal's result: an announcement) goes
  before the edits of its live messages queued ahead of it, which wait for the group's budget and coalesce
  anyway (issue 37: a «Вскрываюсь!» behind the table's edits reached the group half a minute late); it never
  passes a send, a pin or a deletion, so a message's own edits still follow its send and a pin its message;
* in a group, the table's own messages first: a reply to a command (`is_reply`) waits while any other message
  of its group is queued, goes only within what the table leaves of the group's budget (the pacer's reply
  rules), and is dropped once it is more than a minute old or when more than three wait (the oldest go): an
  answer that late is not worth a message the table may need;
* a live message the bot may not pin (it is no admin of the group: issue 37; Telegram is asked first, so a pin
  it would refuse is not made) is told to the table's service once (`on_pin_refused`), and is kept in sight
  another way: once `BURIED_AFTER` new messages of the bot have
  gone out below it, its next edit goes out as a new message at the bottom instead (the old one is deleted), so
  moving it costs no call the edit would not have made (what was refused is kept in memory: after a restart, a
  table is moved from the next refused pin on);
* a player's hand shown to him alone in a group (an ephemeral message, `EPHEMERAL` in bot/telegram/calls.py) is
  queued in his own chat, so it keeps its order with his private hand; it is sent only when he asked for it (an
  edit of one never shown is dropped, not turned into a send), is paced on its own, as a chat of its own (it is
  not a message of his private chat; the bot-wide budget counts it), and what Telegram refuses of it (it
  expired, he left the group) only forgets it: never taken as news of his private chat or of the group;
* Telegram's answers taken by kind (aiogram's exception classes), never by their wording: 429 waits as told,
  a migration is followed, a 403 means the chat is gone, a 400 is looked into by asking Telegram whether the bot
  may still write there (a group that took the bot's rights away pauses its table until they are back; else the
  message itself was refused, or the one to edit is gone and a new one is sent); network and server errors
  are retried with capped backoff for as long as a message is worth delivering (a day), never given up while a
  table waits for it.

The Bot API call, the rights check and the clock are injected, so all of this is tested without a network.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Collection
from enum import Enum, auto

from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramEntityTooLarge,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNotFound,
    TelegramRetryAfter,
)

from bot import metrics
from bot.storage import (
    Delivery,
    MessageRef,
    OutboxItem,
    OutboxKind,
    OutboxMessage,
    Storage,
    StorageError,
    payload_digest,
)
from bot.telegram.api import brief
from bot.telegram.calls import (
    EPHEMERAL,
    Access,
    AccessCheck,
    ApiCall,
    ApiRequest,
    ChatCallback,
    PinCheck,
    Unreachable,
    UnreachableCallback,
    ephemeral_in,
    without_message_id,
)
from bot.telegram.pacer import Pacer

logger = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]

MAX_IN_FLIGHT = 500  # outbox rows taken into memory at once (a call each, to as many chats in parallel)
REFS_KEPT = 100_000  # live messages the sender keeps in memory (a table has one per player and one in the group)
WORTH_DELIVERING = 24 * 3600.0  # a message older than a day is given up (Telegram keeps updates no longer)
REPLY_WORTH = 70.0  # seconds (Telegram's: scaled by the pacer's interval) a reply to a command is worth sending:
# longer than a group's window, so that once its table is quiet a group answers the replies still waiting
REPLIES_WAITING = 3  # replies a group keeps waiting for room; the older ones beyond are dropped
BURIED_AFTER = 8  # new messages below a live message that could not be pinned before its next edit moves it down


class _Outcome(Enum):
    DONE = auto()
    HALT_CHAT = auto()
    """Stop this chat's worker: its other rows were cancelled, or stay pending for a later pump."""


class _EphemeralRefused(Exception):
    def __init__(
        self, error: TelegramForbiddenError | TelegramBadRequest | TelegramNotFound | TelegramMigrateToChat
    ) -> None:
        super().__init__(error.message)
        self.error = error


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
        on_read_only: ChatCallback | None = None,
        on_writable: ChatCallback | None = None,
        on_pin_refused: ChatCallback | None = None,
        access: AccessCheck | None = None,
        may_pin: PinCheck | None = None,
        pacer: Pacer | None = None,
        backoff_base: float = 1.0,
        backoff_cap: float = 30.0,
        probe_interval: float = 60.0,
        poll_interval: float = 2.0,
        batch_size: int = 200,
        max_in_flight: int = MAX_IN_FLIGHT,
    ) -> None:
        self._storage = storage
        self._call = call
        self._clock = clock
        self._sleep = sleep
        self._on_unreachable = on_unreachable
        self._on_read_only = on_read_only
        self._on_writable = on_writable
        self._on_pin_refused = on_pin_refused
        self._may_pin = may_pin
        self._access = access
        self._pacer = pacer or Pacer(clock, sleep)
        self._backoff_base = backoff_base
        self._backoff_cap = backoff_cap
        self._probe_interval = probe_interval
        self._poll_interval = poll_interval
        self._batch_size = batch_size
        self._max_in_flight = max_in_flight
        self._capped = False  # the last pump left due rows in the outbox: look again as rows are delivered
        # Above this id every row is new to us: a pump after a commit looks only there. The whole outbox is
        # read again at every poll and after a chat's delivery stopped half-way (rows it left pending).
        self._taken_up_to = 0
        self._rescan = True
        self._heard_of: set[int] = set()  # chats rows were committed for since the last pump (several instances)
        self._scanned_at = float("-inf")  # when the whole outbox was last read
        self._queues: dict[int, deque[OutboxItem]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._in_flight: set[int] = set()
        self._migrated: dict[int, int] = {}
        self._refs: dict[tuple[int, str], MessageRef | None] = {}  # the sender alone writes message refs
        self._unrecorded: dict[int, Delivery] = {}  # delivered, but the database could not record it yet
        self._silent: set[int] = set()  # group chats whose last call found the bot without the right to write
        self._heard: set[int] = set()  # group chats delivered to since the start (and told writable)
        self._touched: set[tuple[int, str]] = set()  # live messages this process has delivered to
        self._unpinned: dict[int, str] = {}  # group chat -> the live message the bot could not pin there
        self._buried: dict[int, int] = {}  # group chat -> the bot's new messages below its unpinned live message
        self._stopping = False
        self._recording: set[asyncio.Task[None]] = set()  # records made on the side (bot/telegram/sender.py _done)
        self._wake = asyncio.Event()
        self._arrived: dict[int, asyncio.Event] = {}  # set when a row joins the queue of a chat that waits
        self._reply_worth = REPLY_WORTH * (self._pacer.interval or 1.0)
        self.calls = 0  # Bot API calls made (tests and benchmarks read it)

    @property
    def pacer(self) -> Pacer:
        return self._pacer

    def notify(self, chats: Collection[int] | None = None) -> None:
        """New rows were committed (for these chats, if known): look at the outbox now rather than at the next
        poll."""
        if chats is None:
            self._rescan = True
        else:
            self._heard_of.update(chats)
        self._wake.set()

    async def run(self) -> None:
        """Deliver until cancelled; picks up rows left by a previous process too."""
        try:
            while True:
                self._wake.clear()
                try:
                    await self._record_unrecorded()
                    await self.pump()
                except StorageError as error:
                    logger.warning("sender: the outbox cannot be read now: %s", error)
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
        if self._stopping:
            return 0
        if room <= 0:
            self._capped = True
            return 0
        skip = self._in_flight | self._unrecorded.keys()
        heard_of, self._heard_of = self._heard_of, set()
        if self._rescan or self._clock() - self._scanned_at >= self._poll_interval:
            # Every poll, however busy: rows fallen due for their retry, chats another instance let go of.
            self._rescan, self._scanned_at = False, self._clock()
            new = await self._storage.fetch_outbox(self._clock(), room, skip=skip)
        elif not self._storage.ids_in_commit_order:
            # Instances commit side by side (ids do not follow commits): only the chats heard of are read.
            try:
                new = (
                    await self._storage.fetch_outbox(self._clock(), room, skip=skip, chats=heard_of) if heard_of else []
                )
            except BaseException:
                self._heard_of |= heard_of
                raise
            if len(new) == room:
                self._heard_of |= heard_of  # what it could not take yet is read again as rows are delivered
        else:
            # Walking past every row on its way (the oldest pending ones) after each commit cost a tenth of
            # the bot's CPU with a thousand busy tables.
            new = await self._storage.fetch_outbox(self._clock(), room, skip=skip, after=self._taken_up_to)
        self._capped = len(new) == room
        waiting = {self._resolve(delivery.chat_id) for delivery in self._unrecorded.values()}
        for item in new:
            self._taken_up_to = max(self._taken_up_to, item.id)
            chat_id = self._resolve(item.chat_id)
            if item.id in self._in_flight or chat_id in waiting:
                continue  # a chat whose last delivery is not recorded yet sends nothing more meanwhile
            self._in_flight.add(item.id)
            self._queues.setdefault(chat_id, deque()).append(item)
            if (arrived := self._arrived.get(chat_id)) is not None:
                arrived.set()
            if chat_id not in self._workers:
                self._workers[chat_id] = asyncio.create_task(self._work(chat_id), name=f"sender:{chat_id}")
        return len(new)

    async def drain(self) -> None:
        """Deliver everything due now and wait until it is done (retries included) and recorded."""
        self._rescan = True
        while await self.pump() or self._workers or self._recording:
            await asyncio.gather(*self._workers.values(), *self._recording, return_exceptions=True)

    async def stop(self, grace: float = 5.0) -> None:
        """Stop taking rows; let each chat's worker finish the call it is making (a delivery cut off half-way
        is the one thing a restart could show twice) and be recorded, for at most `grace` seconds in all; then
        close."""
        self._stopping = True
        for arrived in self._arrived.values():
            arrived.set()  # a reply waiting for room waits no more
        until = time.monotonic() + grace
        workers = list(self._workers.values())
        if workers:
            await asyncio.wait(workers, timeout=grace)
        if self._recording:
            await asyncio.wait(list(self._recording), timeout=max(0.0, until - time.monotonic()))
        await self.close()

    async def close(self) -> None:
        workers = list(self._workers.values())
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        self._workers.clear()
        self._queues.clear()
        self._in_flight.clear()

    async def wake_chat(self, chat_id: int) -> None:
        """A chat the bot could not write to may be writable again (its rights changed): try it now."""
        await self._storage.retry_chat_now(self._resolve(chat_id))
        self._rescan = True
        self.notify()

    def _resolve(self, chat_id: int) -> int:
        while chat_id in self._migrated:
            chat_id = self._migrated[chat_id]
        return chat_id

    async def _work(self, chat_id: int) -> None:
        queue = self._queues[chat_id]
        try:
            while queue and not self._stopping:
                item = _next_up(queue)
                try:
                    if is_reply(item):
                        if not await self._reply_due(chat_id, item, queue):
                            continue  # dropped, or waited: the table's rows may have come meanwhile
                    elif item.kind not in _OUT_OF_CHAT_PACE:
                        # The chat's own turn first: rows that come in meanwhile may make this one pointless,
                        # or may be news that goes before it.
                        turn = await self._turn(chat_id, queue)
                        if turn is None:
                            continue  # stopping
                        item = turn
                    if _superseded(item, queue):
                        # A later picture of the same message waits behind it: the sender fell behind, and
                        # skipping the stale edit is how it catches up (as the outbox does at commit time).
                        await self._record(item, Delivery(outbox_id=item.id, chat_id=chat_id, error="superseded"))
                        outcome = _Outcome.DONE
                    else:
                        outcome = await self.deliver(self._kept_in_sight(chat_id, item))
                except StorageError as error:
                    # Delivered (or not) but not recorded: the chat waits until the database takes it.
                    logger.warning("sender: chat %s waits for the database: %s", chat_id, error)
                    outcome = _Outcome.HALT_CHAT
                except Exception:
                    # Left pending in the outbox: the next pump retries it in order with the rest of its chat.
                    logger.exception("sender: delivering outbox row %s to chat %s failed", item.id, chat_id)
                    outcome = _Outcome.HALT_CHAT
                queue.remove(item)
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
            self._arrived.pop(chat_id, None)
            self._pacer.forget(chat_id)
            self._pacer.forget(EPHEMERAL_PACE + chat_id)

    async def _reply_due(self, chat_id: int, reply: OutboxItem, queue: deque[OutboxItem]) -> bool:
        """True when `reply` (the oldest reply of the group, nothing else queued before it) may go now; else
        drops the replies too old or too many, or waits for room (or for the table's next row) and says False."""
        now = self._clock()
        waiting = [item for item in queue if is_reply(item)]
        late = {item.id: "too many replies waiting" for item in waiting[:-REPLIES_WAITING]}
        late.update((item.id, "a reply too late") for item in waiting if now - item.created_at > self._reply_worth)
        if late:
            dropped = [item for item in waiting if item.id in late]
            for item in dropped:  # all recorded before any leaves the queue: the worker's own row stays in it
                await self._record(item, Delivery(outbox_id=item.id, chat_id=chat_id, error=late[item.id]))
            for item in dropped:
                queue.remove(item)
                self._in_flight.discard(item.id)
            logger.info("sender: chat %s: %s replies to commands dropped (too late or too many)", chat_id, len(late))
            if self._capped:
                self._wake.set()
            return False
        wait = min(self._pacer.reply_wait(chat_id), reply.created_at + self._reply_worth - now)
        if wait <= 0:
            return True
        await self._sleep_or_arrival(chat_id, wait)
        return False

    async def _turn(self, chat_id: int, queue: deque[OutboxItem]) -> OutboxItem | None:
        """Wait for the chat's turn to make its next call, and return the row to make it with (None: stopping).

        A row that joins the queue meanwhile wakes the wait: news goes before the edits queued ahead of it, and
        may go sooner than they (the edits leave it a reserve of the group's budget: bot/telegram/pacer.py)."""
        while not self._stopping:
            item = _next_up(queue)
            wait = self._pacer.ready_at(_pace_key(item, chat_id), edit=item.kind is OutboxKind.EDIT) - self._clock()
            if wait <= 0:
                return item
            await self._sleep_or_arrival(chat_id, wait)
        return None

    async def _sleep_or_arrival(self, chat_id: int, seconds: float) -> None:
        """Sleep, until a row joins the chat's queue (or the sender stops) if that comes first."""
        arrived = self._arrived.setdefault(chat_id, asyncio.Event())
        arrived.clear()
        woken: asyncio.Future[bool] = asyncio.ensure_future(arrived.wait())
        slept: asyncio.Future[object] = asyncio.ensure_future(self._sleep(seconds))
        try:
            await asyncio.wait((woken, slept), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (woken, slept):
                task.cancel()
            await asyncio.gather(woken, slept, return_exceptions=True)

    def _kept_in_sight(self, chat_id: int, item: OutboxItem) -> OutboxItem:
        """An edit of a group's live message that could not be pinned, once enough messages buried it: a new
        message at the bottom in its place (the old one goes once it is there), else the row as it is."""
        if (
            item.kind is OutboxKind.EDIT
            and item.ref is not None
            and self._unpinned.get(chat_id) == item.ref
            and self._buried.get(chat_id, 0) >= BURIED_AFTER
        ):
            logger.info("sender: the unpinned %s of chat %s is buried: sent anew at the bottom", item.ref, chat_id)
            return item.model_copy(update={"kind": OutboxKind.SEND, "replaces": True})
        return item

    def _sent_in(self, chat_id: int, item: OutboxItem) -> None:
        """Count a new message of a group below its unpinned live message (or that message itself, sent anew)."""
        if chat_id in self._unpinned:
            self._buried[chat_id] = 0 if item.ref == self._unpinned[chat_id] else self._buried.get(chat_id, 0) + 1

    async def _pin_allowed(self, chat_id: int) -> bool | None:
        """Whether the bot may pin in the group, as Telegram says (None: not known; the pin is tried)."""
        if self._may_pin is None:
            return None
        try:
            return await self._may_pin(chat_id)
        except Exception:
            logger.exception("sender: asking whether the bot may pin in chat %s failed", chat_id)
            return None

    async def _pin_refused(self, item: OutboxItem, chat_id: int, description: str) -> _Outcome:
        """The bot may not pin in the group: its live message is kept in sight by moving it down (see the
        module's docstring), and the table's service is told, once a process (it tells the group once)."""
        logger.info("sender: chat %s refused to pin %s: %s", chat_id, item.ref, description)
        told = chat_id in self._unpinned
        self._unpinned[chat_id] = str(item.ref)
        self._buried.setdefault(chat_id, 0)
        if not told:
            await _tell(self._on_pin_refused, chat_id, "telling of the pin refused in")
        return await self._done(item, chat_id, error=description)

    async def deliver(self, item: OutboxItem) -> _Outcome:
        """Deliver one row, retrying in place (so the chat's later rows wait behind it)."""
        kind = item.kind
        attempts = item.attempts
        payload = item.payload
        while True:
            chat_id = self._resolve(item.chat_id)
            live = await self._message_ref(chat_id, item.ref) if item.ref is not None else None
            message_id = payload.get("message_id") or (live.message_id if live is not None else None)
            ephemeral = ephemeral_in(payload) is not None
            if message_id is None and kind is OutboxKind.EDIT:
                if ephemeral:
                    # A hand shown in the group to its player alone goes there only when he asks (his tap).
                    return await self._done(item, chat_id, error="not shown")
                kind = OutboxKind.SEND  # nothing to edit yet (or any more): show it as a new message
            if message_id is None and kind in _NEEDS_MESSAGE:
                return await self._done(item, chat_id, error="no such message")
            if kind is OutboxKind.SEND and item.replaces:
                message_id = None  # a new message in its place (the old one goes once this is there)
            content = None if kind in _NEEDS_MESSAGE else item.digest or payload_digest(payload)
            if kind is OutboxKind.EDIT and live is not None and live.content == content:
                return await self._done(item, chat_id, error="unchanged")  # Telegram would say "not modified"
            if kind is OutboxKind.PIN and chat_id < 0 and await self._pin_allowed(chat_id) is False:
                # Telegram would refuse it: not asked in vain
                return await self._pin_refused(item, chat_id, "the bot may not pin messages here")
            if (
                kind is OutboxKind.UNPIN
                and chat_id < 0
                and (self._unpinned.get(chat_id) == item.ref or await self._pin_allowed(chat_id) is False)
            ):
                # The bot could not have pinned it. The table is over: what was kept to move it down goes (the
                # next table's pin is refused again and kept anew), so the memory holds only open tables' groups.
                self._unpinned.pop(chat_id, None)
                self._buried.pop(chat_id, None)
                return await self._done(item, chat_id, error="not pinned")
            request = ApiRequest(kind=kind, chat_id=chat_id, message_id=message_id, payload=payload)
            in_chat = kind not in _OUT_OF_CHAT_PACE
            await self._pacer.wait_budget(_pace_key(item, chat_id), in_chat=in_chat, reply=is_reply(item))
            self.calls += 1
            try:
                result = await (self._call_ephemeral(request) if ephemeral else self._call(request))
            except TelegramRetryAfter as error:
                metrics.TOO_MANY.inc()
                logger.warning("sender: flood control in chat %s, waiting %s s", chat_id, error.retry_after)
                await self._sleep(float(error.retry_after))
                continue
            except TelegramMigrateToChat as error:
                logger.info("sender: chat %s migrated to %s", chat_id, error.migrate_to_chat_id)
                await self._storage.migrate_chat(chat_id, error.migrate_to_chat_id)
                self._migrated[chat_id] = error.migrate_to_chat_id
                continue
            except _EphemeralRefused as refused:
                if kind is OutboxKind.SEND and payload[EPHEMERAL].get("callback_query_id"):
                    # The tap that asked for it is too old to name (the row waited): shown all the same.
                    payload = {**payload, EPHEMERAL: {"chat_id": ephemeral_in(payload)}}
                    continue
                why = refused.error.message
                if kind is OutboxKind.EDIT and item.ref is not None and (chat_id, item.ref) not in self._touched:
                    # As for any live message: the process before may have made this very edit (see below).
                    self._touched.add((chat_id, item.ref))
                    return await self._done(item, chat_id, error=why, content=content)
                # Expired, deleted, or he is no longer in the group: it is no longer shown, and says nothing of
                # his private chat, which stays his hand that is always right.
                logger.info("sender: %s of %s in its group: %s", item.ref, chat_id, why)
                return await self._done(item, chat_id, error=why, forget=kind is not OutboxKind.SEND)
            except TelegramForbiddenError as error:
                # 403: blocked by the user, or no longer in the group.
                if kind in (OutboxKind.PIN, OutboxKind.UNPIN):
                    return await self._done(item, chat_id, error=error.message)
                if chat_id < 0 and await self._check(chat_id) is Access.READ_ONLY:
                    return await self._read_only(item, chat_id)
                await self._unreachable(item, chat_id, error.message)
                return _Outcome.HALT_CHAT
            except (TelegramBadRequest, TelegramNotFound, TelegramEntityTooLarge) as error:
                if kind is OutboxKind.PIN and chat_id < 0 and isinstance(error, TelegramBadRequest):
                    # Not an admin, or without the right to pin (the message was just sent, so it is there):
                    # either way the message is not pinned, and must be kept in sight otherwise.
                    return await self._pin_refused(item, chat_id, error.message)
                if kind in _NEEDS_MESSAGE:
                    # Gone, or the bot may not (delete it, pin it): the same to us; nothing is lost either way.
                    return await self._done(item, chat_id, error=error.message)
                if chat_id < 0:
                    access = await self._check(chat_id)
                    if access is Access.READ_ONLY:
                        return await self._read_only(item, chat_id)
                    if access is Access.GONE:
                        await self._unreachable(item, chat_id, error.message)
                        return _Outcome.HALT_CHAT
                    if access is Access.UNKNOWN:
                        retried = await self._back_off(item, chat_id, error, attempts)
                        if retried is None:
                            return _Outcome.DONE
                        attempts = retried
                        continue
                if kind is OutboxKind.EDIT and item.ref is not None and (chat_id, item.ref) not in self._touched:
                    # The first edit of this message since the start: the process before may have made this very
                    # edit and died before recording it, and Telegram refuses an edit that changes nothing.
                    self._touched.add((chat_id, item.ref))
                    logger.info("sender: message %s in chat %s already shows row %s", message_id, chat_id, item.id)
                    return await self._done(item, chat_id, content=content)
                if kind is OutboxKind.EDIT:
                    # The bot may write here, so the message itself cannot be edited (deleted, or too old):
                    # the picture goes out as a new message, which later edits then change.
                    logger.info("sender: message %s in chat %s cannot be edited (%s)", message_id, chat_id, error)
                    if item.ref is not None:
                        self._refs[(chat_id, item.ref)] = None
                    kind = OutboxKind.SEND
                    payload = without_message_id(payload)
                    continue
                # A message Telegram will never accept: retrying cannot help, holding the chat up would.
                logger.error("sender: chat %s rejected outbox row %s: %s", chat_id, item.id, error.message)
                return await self._done(item, chat_id, error=error.message)
            except Exception as error:
                # Network errors, 5xx, timeouts and anything unexpected: back off and try again.
                retried = await self._back_off(item, chat_id, error, attempts)
                if retried is None:
                    return _Outcome.DONE
                attempts = retried
                continue
            if chat_id < 0:
                await self._writable(chat_id)
                if kind is OutboxKind.SEND:
                    self._sent_in(chat_id, item)
                elif kind is OutboxKind.PIN and self._unpinned.get(chat_id) == item.ref:
                    del self._unpinned[chat_id]  # made an admin since: pinned, it stays in sight
                    self._buried.pop(chat_id, None)
            if item.ref is not None:
                self._touched.add((chat_id, item.ref))
            if kind is OutboxKind.SEND:
                sent = result if item.ref is not None else None
                then: tuple[OutboxMessage, ...] = ()
                if item.replaces and live is not None and live.message_id != sent:
                    # The old message goes next, queued with this record: a crash cannot leave it behind.
                    then = (_deletion(item, live.message_id),)
                return await self._done(item, chat_id, message_id=sent, content=content, sent=True, then=then)
            if kind in (OutboxKind.PIN, OutboxKind.UNPIN):
                return await self._done(item, chat_id)
            if kind is OutboxKind.DELETE:
                return await self._done(item, chat_id, forget=True)
            return await self._done(item, chat_id, content=content)

    async def _call_ephemeral(self, request: ApiRequest) -> int | None:
        """A call about a message shown to one member in a group: what Telegram refuses of it is its own, and
        never taken as news of the member's private chat or of the group (`_EphemeralRefused`)."""
        try:
            return await self._call(request)
        except (TelegramForbiddenError, TelegramBadRequest, TelegramNotFound, TelegramMigrateToChat) as error:
            raise _EphemeralRefused(error) from error

    async def _done(
        self,
        item: OutboxItem,
        chat_id: int,
        *,
        error: str | None = None,
        message_id: int | None = None,
        content: str | None = None,
        forget: bool = False,
        sent: bool = False,
        then: tuple[OutboxMessage, ...] = (),
    ) -> _Outcome:
        """Record what became of the row (and of its live message), in the chat's cache too.

        A message Telegram created (a send) is recorded before the chat's next one goes out: so a crash repeats
        at most one message of a chat. Anything else is recorded on the side while the chat goes on: an edit
        made again after a crash changes nothing (the oldest pending edits of a message are skipped as
        superseded, and the first edit refused after a start is taken as made)."""
        delivery = Delivery(
            outbox_id=item.id,
            chat_id=chat_id,
            ref=item.ref,
            error=error,
            message_id=message_id,
            content=content,
            forget=forget,
            then=then,
        )
        if item.ref is not None:
            key = (chat_id, item.ref)
            if forget:
                self._refs[key] = None
            elif message_id is not None:
                self._refs[key] = MessageRef(chat_id=chat_id, purpose=item.ref, message_id=message_id, content=content)
            elif content is not None and (known := self._refs.get(key)) is not None:
                self._refs[key] = known.model_copy(update={"content": content})
        if not sent:
            task = asyncio.create_task(self._record_aside(item, delivery), name=f"record:{item.id}")
            self._recording.add(task)
            task.add_done_callback(self._recording.discard)
            return _Outcome.DONE
        await self._record(item, delivery)
        if then:
            self.notify({message.chat_id for message in then})
        return _Outcome.DONE

    async def _record_aside(self, item: OutboxItem, delivery: Delivery) -> None:
        try:
            await self._record(item, delivery)
        except StorageError as error:
            logger.warning("sender: recording outbox row %s waits for the database: %s", item.id, error)
        except Exception:
            logger.exception("sender: recording outbox row %s failed", item.id)

    async def _record(self, item: OutboxItem, delivery: Delivery) -> None:
        try:
            await self._storage.record_delivery(delivery)
        except StorageError:
            self._unrecorded[item.id] = delivery  # never delivered twice by this process; recorded later
            raise

    async def _record_unrecorded(self) -> None:
        for outbox_id, delivery in list(self._unrecorded.items()):
            await self._storage.record_delivery(delivery)
            del self._unrecorded[outbox_id]
            self._rescan = True

    async def _message_ref(self, chat_id: int, ref: str) -> MessageRef | None:
        """The live message `ref` in the chat, read from the database once and then kept."""
        key = (chat_id, ref)
        if key not in self._refs:
            if len(self._refs) > REFS_KEPT:
                self._refs.clear()
            self._refs[key] = await self._storage.get_message_ref(chat_id, ref)
        return self._refs[key]

    async def _check(self, chat_id: int) -> Access:
        if self._access is None:
            return Access.WRITE
        try:
            return await self._access(chat_id)
        except Exception:
            logger.exception("sender: asking about chat %s failed", chat_id)
            return Access.UNKNOWN

    async def _read_only(self, item: OutboxItem, chat_id: int) -> _Outcome:
        """The group took the bot's right to write: its messages wait (in order) and are tried again now and
        then; its table pauses until a message gets through."""
        if chat_id not in self._silent:
            logger.warning("sender: the bot may not write in chat %s; its table pauses", chat_id)
            self._silent.add(chat_id)
            self._heard.discard(chat_id)
            await _tell(self._on_read_only, chat_id, "pausing")
        await self._storage.schedule_outbox_retry(
            item.id, self._clock() + self._probe_interval, "the bot may not write in this chat"
        )
        return _Outcome.HALT_CHAT

    async def _writable(self, chat_id: int) -> None:
        """A group message got through: a table paused for want of rights (in this run or before a restart)
        may go on."""
        if chat_id in self._heard:
            return
        self._heard.add(chat_id)
        self._silent.discard(chat_id)
        await _tell(self._on_writable, chat_id, "resuming")

    async def _back_off(self, item: OutboxItem, chat_id: int, error: Exception, attempts: int) -> int | None:
        """Record the failed attempt and wait for the next one; returns the attempts made so far, or None when
        the row is too old to be worth delivering and was given up."""
        description = brief(error)
        if self._clock() - item.created_at > WORTH_DELIVERING:
            logger.error("sender: giving up outbox row %s to chat %s a day later: %s", item.id, chat_id, description)
            await self._done(item, chat_id, error=f"gave up after {attempts} attempts: {description}")
            return None
        delay = min(self._backoff_cap, self._backoff_base * 2**attempts)
        attempts = await self._storage.schedule_outbox_retry(item.id, self._clock() + delay, description)
        if attempts <= 3 or attempts % 10 == 0:
            logger.warning(
                "sender: chat %s, attempt %s failed (%s); retry in %.1f s", chat_id, attempts, description, delay
            )
        await self._sleep(delay)
        return attempts

    async def _unreachable(self, item: OutboxItem, chat_id: int, description: str) -> None:
        logger.info("sender: chat %s is unreachable: %s", chat_id, description)
        if chat_id > 0:
            await self._storage.set_user_blocked(chat_id)
        else:
            await self._storage.set_chat_removed(chat_id)
        await self._done(item, chat_id, error=description)
        await self._storage.cancel_outbox_for_chat(chat_id, f"unreachable: {description}")
        if self._on_unreachable is not None:
            try:
                report = Unreachable(chat_id=chat_id, table_id=item.table_id, description=description)
                await self._on_unreachable(report)
            except Exception:
                logger.exception("sender: the unreachable-chat callback failed for chat %s", chat_id)


async def _tell(callback: ChatCallback | None, chat_id: int, what: str) -> None:
    """Pass news of a chat on to the table service; its failure is logged, and delivery goes on."""
    if callback is None:
        return
    try:
        await callback(chat_id)
    except Exception:
        logger.exception("sender: %s the table of chat %s failed", what, chat_id)


_OUT_OF_CHAT_PACE = frozenset({OutboxKind.DELETE})  # takes no slot of its chat's pace (bot/telegram/pacer.py)
_NEEDS_MESSAGE = frozenset({OutboxKind.DELETE, OutboxKind.PIN, OutboxKind.UNPIN})  # act on the live message


def is_reply(item: OutboxMessage) -> bool:
    """A reply to a command in a group (`respond` in bot/handlers/common.py): a message of its own, of no table,
    that replies to the command. Anything else there (the table, its announcements, the lobby) is the table's."""
    return (
        item.chat_id < 0
        and item.kind is OutboxKind.SEND
        and item.ref is None
        and item.table_id is None
        and "reply_parameters" in item.payload
    )


def is_announcement(item: OutboxMessage) -> bool:
    """A new message of its own in a group that is not a reply to a command: a call, a deal's start or result,
    the match's end (`MoveMessages.announcements`), a note of the table."""
    return item.chat_id < 0 and item.kind is OutboxKind.SEND and item.ref is None and not is_reply(item)


def _next_up(queue: deque[OutboxItem]) -> OutboxItem:
    """The chat's oldest row that is not a reply to a command, else its oldest reply; but in a group, an
    announcement queued behind edits of live messages only goes before them."""
    rows = [item for item in queue if not is_reply(item)]
    if not rows:
        return queue[0]
    for item in rows:
        if item.kind is not OutboxKind.EDIT:
            return item if is_announcement(item) else rows[0]
    return rows[0]


def _superseded(item: OutboxItem, queue: deque[OutboxItem]) -> bool:
    """An edit with a later edit of the same key queued behind it in its chat (`OutboxMessage.key`)."""
    if item.kind is not OutboxKind.EDIT or item.key is None:
        return False
    return any(later.key == item.key and later.id > item.id for later in queue)


EPHEMERAL_PACE = 1 << 53
"""Added to a member's id, the pacer's key for the messages a group shows him alone: no chat's id (Telegram's are
below 2^52), and positive, so paced as a private chat is (one a second), apart from his private chat's own."""


def _pace_key(item: OutboxMessage, chat_id: int) -> int:
    """Whose pace a row takes: its chat's, or, for a message a group shows one member alone (queued in his own
    chat), a pace of its own (`EPHEMERAL_PACE`): it is not a message of his private chat, and Telegram limits it
    as it limits a chat (tests/botapi/limits.py models it so: bursts of three, then one a second)."""
    return EPHEMERAL_PACE + chat_id if ephemeral_in(item.payload) is not None else chat_id


def _deletion(item: OutboxItem, message_id: int) -> OutboxMessage:
    """A row that deletes one message by its id (a message a new one replaced: its ref names the new one)."""
    payload: dict[str, object] = {"message_id": message_id}
    group = ephemeral_in(item.payload)
    if group is not None:
        payload[EPHEMERAL] = {"chat_id": group}
    return OutboxMessage(chat_id=item.chat_id, kind=OutboxKind.DELETE, payload=payload)
