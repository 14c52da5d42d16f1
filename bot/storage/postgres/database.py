"""The PostgreSQL database of the bot's instances, on asyncpg: the event loop never waits, several processes share it.

* **The writer** commits in groups, as the SQLite one does: every write is an async function of a connection
  handed to `Database.write`; the writer takes every write waiting, runs them in ONE transaction on its own
  connection, commits, and only then answers each caller (a refused write — a stale version, a redelivered
  update — undoes only itself: see `_commit`). PostgreSQL syncs a commit to its log before it answers
  (`synchronous_commit` on, its default), so a write that returns survives a crash of the server's machine.
  One writer per instance: more cores are more instances. (Three groups in flight at once, each on its own
  connection, once stalled the 1,000-table benchmark for 30 s, when a group still cost two round trips a write.)
* **Other instances** write the same rows. A move first takes its table's advisory lock without waiting
  (`pg_try_advisory_xact_lock`): while another instance's open transaction holds it, the move goes into the next
  group at once and this one commits without it; then it finds the version moved on (`StaleVersion`). Any other
  write that waits for a row another instance's open transaction holds waits at most `LOCK_TIMEOUT_MS`, then
  undoes only itself and goes into the next group (so two groups never deadlock for the server's second of
  detection, and one busy row never holds a whole group up for long).
* **Reads** go to a small pool: what the last commits left, never waiting for the writer.
* **Wake-ups**: a commit that queues messages notifies every instance (`NOTIFY bura_outbox`, sent with the
  commit), so the instance that delivers a chat's messages hears of rows another instance committed at once.

A server that goes away fails the writes of its group with `StorageUnavailable` (nothing of them was made); the
next group connects again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

import asyncpg

from bot.storage.base import OutboxMessage, StartupRefused, StorageError, StorageUnavailable
from bot.storage.faults import FaultHooks
from bot.storage.postgres.migrations import migrate

logger = logging.getLogger(__name__)

T = TypeVar("T")
Connection = asyncpg.Connection
Apply = Callable[[Connection], Awaitable[Any]]

MAX_BATCH = 500  # writes in one transaction
LOCK_TIMEOUT_MS = 200  # a write waits this long for a row another instance holds, then goes in the next group
RETRIES = 100  # times a write is put in a later group before it fails (a row held for some twenty seconds)
RETRY_STEP, RETRY_CAP = 0.01, 0.2  # seconds before that later group: 10 ms more each time, at most 200 ms
CHANNEL = "bura_outbox"
MAX_PAYLOAD = 7_900  # characters of a NOTIFY's payload (the server takes under 8,000 bytes)

Wake = bool | Collection[int]
"""Whose senders a commit wakes: nobody's, everybody's for every chat (True), or for these chats' messages."""
Heard = Callable[[frozenset[int] | None], None]
"""Told of rows committed for these chats (None: look at every chat)."""


def chats_of(outbox: Iterable[OutboxMessage]) -> frozenset[int]:
    """The chats these messages go to: whom their commit wakes."""
    return frozenset(message.chat_id for message in outbox)


class Busy(Exception):
    """A write found its table being moved by another instance's open transaction: it goes in the next group.
    (Raised before the write wrote anything.)"""


class Unwritten(Exception):
    """A write refuses `error` before it wrote anything: its group goes on without undoing it."""

    def __init__(self, error: Exception) -> None:
        super().__init__(error)
        self.error = error


# The write itself could not get its row in time, or lost a race the server broke: it is tried again.
_TRY_AGAIN = (
    Busy,
    asyncpg.exceptions.LockNotAvailableError,
    asyncpg.exceptions.DeadlockDetectedError,
    asyncpg.exceptions.SerializationError,
)


@dataclass(frozen=True)
class Merge:
    """How writes of one kind go to the server as one statement: `apply_all` writes the `item`s of every write
    of a group with the same `key`, but never two with the same `apart` (two deliveries to one chat would change
    one row twice in a statement). Such writes return nothing; a group made again write by write runs each
    write's own `apply`."""

    key: str
    item: Any
    apply_all: Callable[[Connection, list[Any]], Awaitable[None]]
    apart: object = None


@dataclass
class _Write(Generic[T]):
    apply: Callable[[Connection], Awaitable[T]]
    kind: str
    future: asyncio.Future[T]
    notify: Wake
    merge: Merge | None = None
    tries: int = 0


class Database:
    """Open with `await Database.open(url)`; `write` and `read` run async functions of an asyncpg connection."""

    def __init__(
        self,
        url: str,
        pool: asyncpg.Pool,
        writer: Connection,
        hooks: FaultHooks | None = None,
        password: str | None = None,
    ) -> None:
        self.url = url
        self._password = password
        self._hooks = hooks
        self._pool = pool
        self._writer: Connection | None = writer
        self._pending: list[_Write[Any]] = []
        self._wake = asyncio.Event()
        self._closing = False
        self._closed = False
        self._listener: Connection | None = None
        self._listeners: list[Heard] = []
        self._relisten: asyncio.Task[None] | None = None
        self.batches = 0  # commits made (the load benchmark reads it)
        self.batched = 0  # writes they carried
        self.redone = 0  # groups made again write by write (one of their writes failed half-way)
        self._committer = asyncio.create_task(self._commit_loop(), name="postgres-writer")

    @classmethod
    async def open(
        cls, url: str, *, now: float, hooks: FaultHooks | None = None, password: str | None = None
    ) -> Database:
        """Connect, apply the migrations (one instance at a time), and start the writer. `password`, if given, is
        handed to the server as it is (never pasted into the URL, where a / or an @ in it would break it)."""
        try:
            writer = await _connect(url, password)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StorageUnavailable(error) from error
        try:
            await migrate(writer, now)
            pool = await asyncpg.create_pool(
                url, password=password, min_size=1, max_size=4, init=_configure, reset=_as_left
            )
        except BaseException:
            await writer.close()
            raise
        return cls(url, pool, writer, hooks, password)

    @property
    def closing(self) -> bool:
        return self._closing

    @property
    def writer(self) -> Connection | None:
        """The writer's connection, when open (tests watch what it sends)."""
        return self._writer

    # -- writing -------------------------------------------------------------------------------------------

    async def write(
        self,
        apply: Callable[[Connection], Awaitable[T]],
        *,
        kind: str = "write",
        notify: Wake = False,
        merge: Merge | None = None,
    ) -> T:
        """Run `apply` in the next group commit; returns its result once committed, or raises what `apply`
        raised (nothing of it was written), or `StorageUnavailable` (nothing of the group was). `notify` wakes
        every instance's sender with the commit (the write queued messages for these chats; True: look at every
        chat); with `merge`, the write may go to the server in one statement with others of its kind (`Merge`)."""
        if self._closing:
            raise StorageUnavailable(RuntimeError("the database is closed"))
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._pending.append(_Write(apply, kind, future, notify, merge))
        self._wake.set()
        return await future

    async def _commit_loop(self) -> None:
        while True:
            while not self._pending:
                if self._closing:
                    return
                self._wake.clear()
                await self._wake.wait()
            batch = self._pending[:MAX_BATCH]
            del self._pending[:MAX_BATCH]
            try:
                outcomes = await self._commit(batch)
            except Exception as error:
                logger.error("database: a commit of %s writes failed: %s", len(batch), error)
                failure = error if isinstance(error, StorageError) else StorageUnavailable(error)
                for write in batch:
                    if not write.future.done():
                        write.future.set_exception(failure)
                await self._reconnect()
                continue
            except BaseException as error:
                for write in batch:
                    if not write.future.done():
                        write.future.set_exception(StorageUnavailable(error))
                raise
            self.batches += 1
            self.batched += len(batch)
            again: list[_Write[Any]] = []
            for write, (ok, value) in zip(batch, outcomes, strict=True):
                if ok is None:
                    write.tries += 1
                    if write.tries < RETRIES:
                        again.append(write)
                    elif not write.future.done():
                        write.future.set_exception(StorageUnavailable(value))
                elif write.future.done():
                    continue
                elif ok:
                    write.future.set_result(value)
                else:
                    write.future.set_exception(value)
            if again:
                # Into a later group, once the row's holder has had time to commit: at once, it would spin.
                delay = min(RETRY_CAP, RETRY_STEP * max(write.tries for write in again))
                asyncio.get_running_loop().call_later(delay, self._requeue, again)

    def _requeue(self, writes: list[_Write[Any]]) -> None:
        if self._committer.done():  # closed meanwhile
            for write in writes:
                if not write.future.done():
                    write.future.set_exception(StorageUnavailable(RuntimeError("the database is closed")))
            return
        self._pending[:0] = writes  # first in the next group, in their order
        self._wake.set()

    async def _commit(self, batch: list[_Write[Any]]) -> list[tuple[bool | None, Any]]:
        """One transaction: (True, value), (False, error) refused, (None, error) to try again in the next group.

        First all the writes together, with no savepoints (each costs two round trips to the server, and most
        groups refuse nothing, or refuse a write before it wrote anything: `Unwritten`, `Busy`); a write that
        fails half-way undoes the whole group, which is then made again with each write in its own savepoint."""
        db = await self._connection()
        outcomes = await self._together(db, batch)
        if outcomes is None:
            self.redone += 1
            outcomes = await self._one_by_one(db, batch)
        return outcomes

    async def _together(self, db: Connection, batch: list[_Write[Any]]) -> list[tuple[bool | None, Any]] | None:
        await db.execute("BEGIN")
        try:
            outcomes: list[tuple[bool | None, Any]] = [(None, None)] * len(batch)
            for step in _steps(batch):
                write = batch[step[0]]
                try:
                    if write.merge is not None:  # refuses nothing: a failure is the group's, made again
                        merges = [cast(Merge, batch[index].merge) for index in step]
                        await write.merge.apply_all(db, [merge.item for merge in merges])
                        value = None
                    else:
                        value = await write.apply(db)
                except (Unwritten, Busy) as refusal:
                    if write.merge is not None:
                        await db.execute("ROLLBACK")
                        return None
                    outcomes[step[0]] = (False, refusal.error) if isinstance(refusal, Unwritten) else (None, refusal)
                    continue
                except (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, OSError):
                    raise  # the server went away: the whole group goes
                except asyncpg.exceptions.PostgresError as error:
                    if _is_server_failure(error):
                        raise
                    await db.execute("ROLLBACK")
                    return None
                except Exception:
                    await db.execute("ROLLBACK")
                    return None
                for index in step:
                    outcomes[index] = (True, value)
            await self._finish(db, batch, outcomes)
        except BaseException:
            await _roll_back(db)
            raise
        return outcomes

    async def _one_by_one(self, db: Connection, batch: list[_Write[Any]]) -> list[tuple[bool | None, Any]]:
        await db.execute("BEGIN")
        try:
            outcomes: list[tuple[bool | None, Any]] = []
            for write in batch:
                await db.execute("SAVEPOINT write")
                try:
                    value = await write.apply(db)
                except Unwritten as refusal:
                    await db.execute("ROLLBACK TO SAVEPOINT write")
                    outcomes.append((False, refusal.error))
                    continue
                except _TRY_AGAIN as error:
                    await db.execute("ROLLBACK TO SAVEPOINT write")
                    outcomes.append((None, error))
                    continue
                except (asyncpg.exceptions.IntegrityConstraintViolationError, asyncpg.exceptions.DataError) as error:
                    await db.execute("ROLLBACK TO SAVEPOINT write")  # this write's own fault: it alone is undone
                    outcomes.append((False, error))
                    continue
                except (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, OSError):
                    raise
                except asyncpg.exceptions.PostgresError as error:
                    if _is_server_failure(error):
                        raise
                    await db.execute("ROLLBACK TO SAVEPOINT write")
                    outcomes.append((False, error))
                    continue
                except Exception as error:
                    await db.execute("ROLLBACK TO SAVEPOINT write")
                    outcomes.append((False, error))
                    continue
                await db.execute("RELEASE SAVEPOINT write")
                outcomes.append((True, value))
            await self._finish(db, batch, outcomes)
        except BaseException:
            await _roll_back(db)
            raise
        return outcomes

    async def _finish(self, db: Connection, batch: list[_Write[Any]], outcomes: list[tuple[bool | None, Any]]) -> None:
        """Commit the group, with the wake-up of every instance's sender when it queued messages (one trip)."""
        if self._hooks is not None:
            await self._hooks.before_commit_async([write.kind for write in batch])
        wakes = [write.notify for write, (ok, _) in zip(batch, outcomes, strict=True) if ok and write.notify]
        if not wakes:
            await db.execute("COMMIT")
            return
        chats: set[int] = set()
        for wake in wakes:
            if wake is True:
                chats.clear()  # every chat
                break
            chats.update(wake)
        payload = ",".join(str(int(chat)) for chat in sorted(chats))
        if len(payload) > MAX_PAYLOAD:
            payload = ""  # every chat, then
        await db.execute(f"NOTIFY {CHANNEL}, '{payload}'; COMMIT")

    async def _connection(self) -> Connection:
        writer = self._writer
        if writer is None or writer.is_closed():
            try:
                writer = self._writer = await _connect(self.url, self._password)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                raise StorageUnavailable(error) from error
        return writer

    async def _reconnect(self) -> None:
        writer = self._writer
        if writer is not None and not writer.is_closed():
            with contextlib.suppress(Exception):
                await writer.execute("SELECT 1")
                return
        if writer is not None:
            writer.terminate()
        self._writer = None

    # -- reading -------------------------------------------------------------------------------------------

    async def read(self, query: Callable[[Connection], Awaitable[T]]) -> T:
        """Run `query` on a pooled connection (what the last commits left)."""
        try:
            async with self._pool.acquire() as db:
                return await query(cast(Connection, db))  # a pooled connection's proxy
        except (OSError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError) as error:
            raise StorageUnavailable(error) from error
        except asyncpg.PostgresError as error:
            if _is_server_failure(error):
                raise StorageUnavailable(error) from error
            raise

    # -- wake-ups ------------------------------------------------------------------------------------------

    async def listen(self, callback: Heard) -> None:
        """Call `callback` with the chats whenever any instance commits messages to the outbox for them (and
        with None once after the listening connection was lost and made again: what was committed meanwhile was
        not heard)."""
        self._listeners.append(callback)
        if self._listener is None:
            await self._start_listening()

    async def _start_listening(self) -> None:
        listener = await _connect(self.url, self._password)
        await listener.add_listener(CHANNEL, self._heard)
        listener.add_termination_listener(self._lost)
        self._listener = listener

    def _lost(self, *_: object) -> None:
        self._listener = None
        if not self._closing:
            self._relisten = asyncio.create_task(self._listen_again(), name="postgres-listen")

    async def _listen_again(self) -> None:
        delay = 0.5
        while not self._closing:
            try:
                await self._start_listening()
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                logger.warning("database: cannot listen for other instances' messages (%s); retrying", error)
                await asyncio.sleep(delay)
                delay = min(30.0, delay * 2)
                continue
            self._heard()
            return

    def _heard(self, _connection: object = None, _pid: int = 0, _channel: str = "", payload: object = "") -> None:
        chats = frozenset(int(chat) for chat in str(payload).split(",")) if payload else None
        for callback in self._listeners:
            callback(chats)

    async def close(self) -> None:
        """Commit what is waiting, then close the connections (a second call does nothing)."""
        if self._closed:
            return
        self._closed = self._closing = True
        self._wake.set()
        await asyncio.gather(self._committer, return_exceptions=True)
        if self._relisten is not None:
            self._relisten.cancel()
        for connection in (self._listener, self._writer):
            if connection is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(connection.close(), 5)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._pool.close(), 5)


def _steps(batch: list[_Write[Any]]) -> list[list[int]]:
    """The group's writes as statements to run, in order: each write alone, but the writes of a `Merge` key
    together at the place of the first of them (writes in one group were asked for at once, by callers none of
    which waits for another: any order of them is one they could have come in)."""
    steps: list[list[int]] = []
    open_steps: dict[str, tuple[list[int], set[object]]] = {}
    for index, write in enumerate(batch):
        merge = write.merge
        if merge is None:
            steps.append([index])
            continue
        found = open_steps.get(merge.key)
        if found is None or merge.apart in found[1]:
            found = open_steps[merge.key] = ([], set())
            steps.append(found[0])
        found[0].append(index)
        found[1].add(merge.apart)
    return steps


async def _roll_back(db: Connection) -> None:
    """Undo the open transaction, if the connection still can (a lost one is made again for the next group)."""
    if not db.is_closed() and db.is_in_transaction():
        with contextlib.suppress(Exception):
            await db.execute("ROLLBACK")


def _is_server_failure(error: asyncpg.PostgresError) -> bool:
    """A failure of the server, not of the statement: out of disk, shutting down, too many connections."""
    state = getattr(error, "sqlstate", "") or ""
    return state[:2] in {"53", "57", "58", "08", "XX"}


async def _as_left(db: Connection) -> None:
    """A read leaves nothing behind (no lock, no LISTEN, no setting): its connection goes back to the pool as it
    is, without asyncpg's reset (a round trip after every read)."""


async def _configure(db: Connection) -> None:
    await db.execute(f"SET lock_timeout = {LOCK_TIMEOUT_MS}")


async def _connect(url: str, password: str | None = None) -> Connection:
    db: Connection = await asyncpg.connect(url, password=password)
    await _configure(db)
    return db


__all__ = [
    "CHANNEL",
    "Busy",
    "Connection",
    "Database",
    "Heard",
    "Merge",
    "StartupRefused",
    "Unwritten",
    "Wake",
    "chats_of",
]
