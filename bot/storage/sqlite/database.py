"""The SQLite database of one bot process, on aiosqlite: the event loop never waits for the disk.

Three connections, each with its own thread (aiosqlite's):

* **the writer** commits in groups. Every write of the bot is a function of a `sqlite3.Connection` handed to
  `Database.write`; the writer takes every write waiting, runs them in ONE transaction in its thread (each inside
  a savepoint, so one refused write — a stale version, a redelivered update — undoes only itself), commits, and
  only then answers each caller. A commit is synced to disk (``synchronous = FULL``): when `write` returns, the
  change survives a power loss. One sync serves every table whose move waited for it, so a busy bot pays less
  per move than a quiet one, and a move costs one trip to the thread, not one per statement (aiosqlite's
  per-statement trips were why this module once ran sqlite3 on the event loop instead).
* **the reader** answers what the in-memory state does not (WAL: readers never wait for the writer).
* **the checkpointer** copies the write-ahead log back into the file every second.

One process per database file: `open` takes an exclusive lock on ``<file>.lock`` that the system releases when the
process dies, so a second bot on the same file stops at once instead of delivering the same messages twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

import aiosqlite

from bot.storage.base import StartupRefused, StorageError, StorageUnavailable
from bot.storage.faults import FaultHooks
from bot.storage.sqlite.migrations import check_schema, migrate

logger = logging.getLogger(__name__)

T = TypeVar("T")
Apply = Callable[[sqlite3.Connection], Any]

MAX_BATCH = 1000  # writes in one transaction
FALLBACK_CHECKPOINT_PAGES = 10_000  # 40 MiB of log: the writer checkpoints by itself only this far behind
WAL_SIZE_LIMIT = 8 * 1024 * 1024  # bytes the log file keeps after it starts over
BUSY_TIMEOUT_MS = 5000


@dataclass
class _Write(Generic[T]):
    apply: Callable[[sqlite3.Connection], T]
    kind: str
    future: asyncio.Future[T]
    after: Callable[[T], None] | None = None


@dataclass
class _Outcome:
    ok: bool
    value: Any = None
    error: BaseException | None = None


def _in_transaction(
    db: sqlite3.Connection, applies: Sequence[Apply], kinds: Sequence[str], hooks: FaultHooks | None
) -> list[_Outcome]:
    """The writer's thread: run the writes of a batch in one transaction, each in a savepoint, and commit.

    A write that raises a `StorageError` (refused on purpose) or a bug of its own undoes itself only; a database
    failure (disk full, I/O error) undoes the whole batch, as does a failed COMMIT."""
    outcomes: list[_Outcome] = []
    db.execute("BEGIN IMMEDIATE")
    try:
        for apply in applies:
            db.execute("SAVEPOINT write")
            try:
                value = apply(db)
            except (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.InterfaceError) as error:
                db.execute("ROLLBACK TO write")  # this write's own fault: it alone is undone
                db.execute("RELEASE write")
                outcomes.append(_Outcome(False, error=error))
                continue
            except sqlite3.Error:
                raise  # the database itself failed (disk full, I/O error): the whole batch goes
            except Exception as error:
                db.execute("ROLLBACK TO write")
                db.execute("RELEASE write")
                outcomes.append(_Outcome(False, error=error))
                continue
            db.execute("RELEASE write")
            outcomes.append(_Outcome(True, value))
        if hooks is not None:
            hooks.before_commit(kinds)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
        raise
    return outcomes


async def _connect(path: Path) -> aiosqlite.Connection:
    """An aiosqlite connection whose thread is a daemon: a stop cut short (a commit that never returns, a disk
    that hangs) must not keep the process alive after the bot has stopped (`python -m bot` ends within Docker's
    grace). What such a thread had not committed is rolled back by SQLite at the next open, as after a crash."""
    connection = aiosqlite.connect(path, isolation_level=None)
    connection._thread.daemon = True  # aiosqlite (0.22) has no parameter for it; its thread starts at the await
    try:
        return await connection
    except Exception:
        # aiosqlite has queued its thread's end without waiting for it: wait here (it is quick: the connect that
        # failed has returned), or the thread answers a loop that `asyncio.run` may have closed by then, a
        # traceback after the start-up's one-line refusal.
        for _ in range(5000):
            if not connection._thread.is_alive():
                break
            await asyncio.sleep(0.001)
        raise


async def _run(connection: aiosqlite.Connection, function: Callable[..., T], *args: Any) -> T:
    """Run ``function(sqlite3_connection, *args)`` in the connection's thread: one trip for any number of
    statements. (aiosqlite runs each of its own methods this way; it has no public name for it.)"""

    def call() -> T:
        return function(connection._conn, *args)

    result: T = await connection._execute(call)  # type: ignore[no-untyped-call]
    return result


def _configure(db: sqlite3.Connection, writer: bool) -> None:
    db.row_factory = sqlite3.Row
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    db.execute("PRAGMA foreign_keys = ON")
    if writer:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")  # a commit is on the disk when it returns
        db.execute(f"PRAGMA wal_autocheckpoint = {FALLBACK_CHECKPOINT_PAGES}")
        db.execute(f"PRAGMA journal_size_limit = {WAL_SIZE_LIMIT}")
    else:
        db.execute("PRAGMA query_only = ON")


def _lock(path: Path) -> int:
    """Take the database's process lock (``<file>.lock``), or refuse with the holder's pid."""
    lock_path = path.with_name(path.name + ".lock")
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(fd, 32).decode(errors="replace").strip() or "?"
        os.close(fd)
        raise StartupRefused(
            f"another bot process (pid {holder}) is using the database {path}: one process per database"
            " (stop the other one, or give this one its own DATABASE_PATH)"
        ) from None
    os.ftruncate(fd, 0)
    os.write(fd, str(os.getpid()).encode())
    return fd


class Database:
    """Open with `await Database.open(path)`; `write` and `read` run functions of a sqlite3 connection."""

    def __init__(
        self,
        path: Path,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        lock: int | None,
        hooks: FaultHooks | None,
    ) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._checkpointer: aiosqlite.Connection | None = None
        self._lock = lock
        self._hooks = hooks
        self._pending: list[_Write[Any]] = []
        self._wake = asyncio.Event()
        self._closing = False
        self._closed = False
        self.batches = 0  # commits made (the load benchmark and tests read it)
        self.batched = 0  # writes they carried
        self._committer = asyncio.create_task(self._commit_loop(), name="sqlite-writer")

    @classmethod
    async def open(cls, path: Path | str, *, now: float, hooks: FaultHooks | None = None) -> Database:
        """Lock the file (one process per database), connect, turn on WAL, apply the migrations."""
        path = Path(path)
        memory = str(path) == ":memory:"
        lock: int | None = None
        if not memory:
            path.parent.mkdir(parents=True, exist_ok=True)
            lock = _lock(path)
        connections: list[aiosqlite.Connection] = []
        try:
            writer = await _connect(path)
            connections.append(writer)
            await _run(writer, check_schema)  # before anything touches the file
            await _run(writer, _configure, True)
            await _run(writer, migrate, now)
            # An in-memory database is private to its connection: the writer reads it too (tests only).
            reader = writer if memory else await _connect(path)
            if reader is not writer:
                connections.append(reader)
                await _run(reader, _configure, False)
        except BaseException:
            for connection in connections:
                await connection.close()
            if lock is not None:
                os.close(lock)
            raise
        return cls(path, writer, reader, lock, hooks)

    # -- writing -------------------------------------------------------------------------------------------

    async def write(
        self, apply: Callable[[sqlite3.Connection], T], *, kind: str = "write", after: Callable[[T], None] | None = None
    ) -> T:
        """Run `apply` in the next group commit; returns its result once the commit is on the disk, or raises
        what `apply` raised (nothing of it was written), or `StorageUnavailable` (nothing of the batch was).
        `after` runs on the event loop once committed, before the caller resumes (keeping caches in step)."""
        if self._closing:
            raise StorageUnavailable(RuntimeError("the database is closed"))
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._pending.append(_Write(apply, kind, future, after))
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
            applies = [write.apply for write in batch]
            kinds = [write.kind for write in batch]
            try:
                outcomes = await _run(self._writer, _in_transaction, applies, kinds, self._hooks)
            except Exception as error:
                logger.error("database: a commit of %s writes failed: %s", len(batch), error)
                failure = error if isinstance(error, StorageError) else StorageUnavailable(error)
                for write in batch:
                    if not write.future.done():
                        write.future.set_exception(failure)
                continue
            except BaseException as error:
                for write in batch:
                    if not write.future.done():
                        write.future.set_exception(StorageUnavailable(error))
                raise
            self.batches += 1
            self.batched += len(batch)
            for write, outcome in zip(batch, outcomes, strict=True):
                if outcome.ok:
                    if write.after is not None:
                        try:
                            write.after(outcome.value)
                        except Exception:
                            logger.exception("database: bookkeeping after a %s failed", write.kind)
                    if not write.future.done():
                        write.future.set_result(outcome.value)
                elif not write.future.done():
                    assert outcome.error is not None
                    write.future.set_exception(outcome.error)

    # -- reading -------------------------------------------------------------------------------------------

    async def read(self, query: Callable[[sqlite3.Connection], T]) -> T:
        """Run `query` on the reader (what the last commit left; never waits for a commit in progress)."""
        try:
            return await _run(self._reader, query)
        except sqlite3.OperationalError as error:
            raise StorageUnavailable(error) from error

    # -- upkeep --------------------------------------------------------------------------------------------

    async def checkpoint(self) -> int:
        """Copy the WAL back into the database file in the checkpointer's thread; returns the pages copied.

        PASSIVE: it copies what no reader still needs and never blocks the writer."""
        if self._closing or str(self.path) == ":memory:":
            return 0
        if self._checkpointer is None:
            self._checkpointer = await _connect(self.path)
            await _run(self._checkpointer, _configure, False)

        def run(db: sqlite3.Connection) -> int:
            _busy, _log, copied = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            return int(copied)

        return await _run(self._checkpointer, run)

    async def close(self) -> None:
        """Commit what is waiting, then close the connections and let go of the lock (a second call does
        nothing)."""
        if self._closed:
            return
        self._closed = self._closing = True
        self._wake.set()
        with contextlib.suppress(Exception):
            await self._committer
        for connection in {id(c): c for c in (self._checkpointer, self._reader, self._writer) if c}.values():
            with contextlib.suppress(Exception):
                await connection.close()
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None
