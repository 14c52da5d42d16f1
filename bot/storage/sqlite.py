"""The `Storage` repository on SQLite: WAL, foreign keys, one connection, each operation whole on the event loop.

Every operation runs its statements synchronously on the event loop's thread, from start to commit, without
awaiting anything in between: so no other coroutine can interleave with a transaction, and no lock is needed.
That is a choice against the usual advice (and against aiosqlite, which this module used first): aiosqlite
sends each statement to its worker thread and back, and a move took ~30 such trips, each waiting for a turn
of a busy event loop while a lock kept every other table out of the database. Under load
(tests/benchmarks/load.py) the database lock was held most of the time while the CPU idled. A statement on a
local WAL database takes microseconds, a whole move well under a millisecond, and commits do not wait for the
disk (``synchronous = NORMAL``).

What can take long is the disk: the WAL's checkpoint writes pages back and syncs the file. `checkpoint()` runs
one from its own connection in a worker thread, and the bot calls it every second (a passive checkpoint never
blocks the writer in WAL mode); this connection checkpoints by itself only if the log grows far past that.
"""

import asyncio
import contextlib
import json
import sqlite3
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

from bot.storage.base import (
    Chat,
    Event,
    JsonObject,
    OpenTableExistsError,
    OutboxItem,
    OutboxMessage,
    Seat,
    StaleVersion,
    Stats,
    StatsDelta,
    Table,
    TableNotFoundError,
    TableStatus,
    Timer,
    UpdateAlreadyProcessedError,
    User,
)
from bot.storage.migrations import migrate

Clock = Callable[[], float]

_STATS_COLUMNS = ("deals_played", "deals_won", "matches_played", "matches_won", "buras", "false_claims")
FALLBACK_CHECKPOINT_PAGES = 10_000  # 40 MiB of log
WAL_SIZE_LIMIT = 8 * 1024 * 1024  # bytes the log file keeps after it starts over
_PRAGMAS = ("PRAGMA journal_mode = WAL", "PRAGMA foreign_keys = ON", "PRAGMA busy_timeout = 5000")


def _dumps(value: JsonObject) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _loads(text: str) -> JsonObject:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"expected a JSON object, got {type(value).__name__}")
    return value


def _fetchall(db: sqlite3.Connection, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
    return db.execute(sql, tuple(params)).fetchall()


class SqliteStorage:
    """Open it with `await SqliteStorage.open(path)` (or `async with`); close it with `await close()`."""

    def __init__(self, db: sqlite3.Connection, path: Path, clock: Clock) -> None:
        self._db = db
        self._path = path
        self._clock = clock
        self._checkpointer: sqlite3.Connection | None = None
        self._checkpointing: asyncio.Future[int] | None = None
        self._closed = False

    @classmethod
    async def open(cls, path: Path | str, *, clock: Clock = time.time) -> Self:
        """Create the folder and the file if needed, turn on WAL and foreign keys, apply migrations."""
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            for pragma in _PRAGMAS:
                db.execute(pragma)
            db.execute("PRAGMA synchronous = NORMAL")
            # checkpoint() does the work off the loop; this connection checkpoints only if it falls far behind.
            db.execute(f"PRAGMA wal_autocheckpoint = {FALLBACK_CHECKPOINT_PAGES}")
            db.execute(f"PRAGMA journal_size_limit = {WAL_SIZE_LIMIT}")
            migrate(db, clock())
        except BaseException:
            db.close()
            raise
        return cls(db, path, clock)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the connections (a second call does nothing); a checkpoint under way in its thread ends first."""
        if self._closed:
            return
        self._closed = True
        if self._checkpointing is not None:
            with contextlib.suppress(sqlite3.Error):
                await self._checkpointing
        if self._checkpointer is not None:
            self._checkpointer.close()
            self._checkpointer = None
        try:
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            self._db.close()

    async def ping(self) -> None:
        """Fail if the database cannot be read (used by the healthcheck)."""
        self._db.execute("SELECT MAX(version) FROM schema_version").fetchone()

    async def checkpoint(self) -> int:
        """Copy the WAL back into the database file, in a worker thread; returns the pages copied.

        PASSIVE: it copies what no reader still needs and never blocks the writer, so the event loop never waits
        for the disk's sync (the bot runs this every second; see `bot.app`).
        """
        if str(self._path) == ":memory:" or self._closed:
            return 0
        running = self._checkpointing
        if running is not None and not running.done():  # one at a time
            return await asyncio.shield(running)
        if self._checkpointer is None:
            # Used by one worker thread at a time (this coroutine awaits it), opened here on the loop's thread.
            self._checkpointer = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
            for pragma in _PRAGMAS:
                self._checkpointer.execute(pragma)
        checkpointer = self._checkpointer

        def run() -> int:
            _busy, _log, copied = checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            return int(copied)

        # Shielded: a caller cancelled meanwhile (the bot stopping) must not let close() pull the connection
        # from under the thread, so close() waits for this task instead.
        self._checkpointing = task = asyncio.ensure_future(asyncio.to_thread(run))
        return await asyncio.shield(task)

    # plumbing

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    async def _fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        return _fetchall(self._db, sql, params)

    async def _fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        return self._one(self._db, sql, params)

    async def _write(self, sql: str, params: Iterable[Any] = ()) -> None:
        """One statement on its own (autocommit: atomic by itself)."""
        self._db.execute(sql, tuple(params))

    @staticmethod
    def _one(db: sqlite3.Connection, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        row: sqlite3.Row | None = db.execute(sql, tuple(params)).fetchone()
        return row

    # chats and users

    async def upsert_chat(self, chat_id: int, *, language: str | None = None) -> Chat:
        with self._transaction() as db:
            self._ensure_chat(db, chat_id)
            if language is not None:
                db.execute(
                    "UPDATE chats SET language = ?, updated_at = ? WHERE chat_id = ?",
                    (language, self._clock(), chat_id),
                )
            row = self._one(db, "SELECT * FROM chats WHERE chat_id = ?", (chat_id,))
        assert row is not None
        return _chat(row)

    def _ensure_chat(self, db: sqlite3.Connection, chat_id: int) -> None:
        now = self._clock()
        db.execute(
            "INSERT INTO chats (chat_id, created_at, updated_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (chat_id, now, now),
        )

    async def get_chat(self, chat_id: int) -> Chat | None:
        row = await self._fetchone("SELECT * FROM chats WHERE chat_id = ?", (chat_id,))
        return _chat(row) if row else None

    async def set_chat_settings(self, chat_id: int, settings: JsonObject) -> None:
        with self._transaction() as db:
            self._ensure_chat(db, chat_id)
            db.execute(
                "UPDATE chats SET settings = ?, updated_at = ? WHERE chat_id = ?",
                (_dumps(settings), self._clock(), chat_id),
            )

    async def set_chat_removed(self, chat_id: int, removed: bool = True) -> None:
        with self._transaction() as db:
            self._ensure_chat(db, chat_id)
            db.execute(
                "UPDATE chats SET bot_removed = ?, updated_at = ? WHERE chat_id = ?",
                (int(removed), self._clock(), chat_id),
            )

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        now = self._clock()
        with self._transaction() as db:
            self._ensure_chat(db, old_chat_id)
            db.execute(
                "INSERT INTO chats (chat_id, language, settings, created_at, updated_at)"
                " SELECT ?, language, settings, ?, ? FROM chats WHERE chat_id = ?"
                " ON CONFLICT DO NOTHING",
                (new_chat_id, now, now, old_chat_id),
            )
            db.execute(
                "UPDATE chats SET migrated_to = ?, updated_at = ? WHERE chat_id = ?",
                (new_chat_id, now, old_chat_id),
            )
            db.execute("UPDATE tables SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id))
            db.execute("UPDATE OR REPLACE message_refs SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id))
            db.execute("UPDATE outbox SET chat_id = ? WHERE chat_id = ? AND done = 0", (new_chat_id, old_chat_id))
            db.execute(
                "INSERT INTO stats SELECT ?, user_id, deals_played, deals_won, matches_played, matches_won,"
                " buras, false_claims FROM stats WHERE chat_id = ? ON CONFLICT DO NOTHING",
                (new_chat_id, old_chat_id),
            )

    async def upsert_user(self, user_id: int, name: str, *, language: str | None = None) -> User:
        now = self._clock()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO users (user_id, name, language, created_at, updated_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name,"
                " language = COALESCE(excluded.language, users.language), updated_at = excluded.updated_at",
                (user_id, name, language, now, now),
            )
            row = self._one(db, "SELECT * FROM users WHERE user_id = ?", (user_id,))
        assert row is not None
        return _user(row)

    async def get_user(self, user_id: int) -> User | None:
        row = await self._fetchone("SELECT * FROM users WHERE user_id = ?", (user_id,))
        return _user(row) if row else None

    async def set_user_started(self, user_id: int, started: bool = True) -> None:
        await self._set_user_flag(user_id, "started_bot", started)

    async def set_user_blocked(self, user_id: int, blocked: bool = True) -> None:
        await self._set_user_flag(user_id, "blocked", blocked)

    async def _set_user_flag(self, user_id: int, column: str, value: bool) -> None:
        now = self._clock()
        with self._transaction() as db:
            # A user we have never seen (e.g. a 403 for a stale private chat) still gets a row.
            db.execute(
                "INSERT INTO users (user_id, name, created_at, updated_at) VALUES (?, '', ?, ?) ON CONFLICT DO NOTHING",
                (user_id, now, now),
            )
            db.execute(
                f"UPDATE users SET {column} = ?, updated_at = ? WHERE user_id = ?",  # column is ours
                (int(value), now, user_id),
            )

    # tables

    async def create_table(
        self,
        chat_id: int,
        creator_id: int,
        settings: JsonObject,
        seats: Sequence[Seat] = (),
        outbox: Sequence[OutboxMessage] = (),
        update_id: int | None = None,
    ) -> Table:
        now = self._clock()
        with self._transaction() as db:
            self._ensure_chat(db, chat_id)
            try:
                cursor = db.execute(
                    "INSERT INTO tables (chat_id, status, creator_id, settings, state, version,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, NULL, 0, ?, ?)",
                    (chat_id, TableStatus.LOBBY.value, creator_id, _dumps(settings), now, now),
                )
            except sqlite3.IntegrityError as error:
                raise OpenTableExistsError(chat_id) from error
            table_id = cursor.lastrowid
            assert table_id is not None
            self._replace_seats(db, table_id, seats, now)
            self._insert_outbox(db, outbox, now, table_id)
            self._mark_processed(db, update_id, now)
            table = self._load_table(db, table_id)
        assert table is not None
        return table

    async def get_table(self, table_id: int) -> Table | None:
        return self._load_table(self._db, table_id)

    async def get_open_table(self, chat_id: int) -> Table | None:
        row = self._one(self._db, "SELECT table_id FROM tables WHERE chat_id = ? AND status != 'finished'", (chat_id,))
        return self._load_table(self._db, int(row["table_id"])) if row else None

    async def list_tables(self, status: TableStatus) -> list[Table]:
        rows = _fetchall(self._db, "SELECT table_id FROM tables WHERE status = ? ORDER BY table_id", (status.value,))
        tables = [self._load_table(self._db, int(row["table_id"])) for row in rows]
        return [table for table in tables if table is not None]

    def _load_table(self, db: sqlite3.Connection, table_id: int) -> Table | None:
        row = self._one(db, "SELECT * FROM tables WHERE table_id = ?", (table_id,))
        if row is None:
            return None
        return _table(row, self._load_seats(db, table_id))

    @staticmethod
    def _load_seats(db: sqlite3.Connection, table_id: int) -> tuple[Seat, ...]:
        rows = _fetchall(db, "SELECT seat, user_id, name FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
        return tuple(Seat.model_validate(dict(row)) for row in rows)

    async def commit_move(
        self,
        table_id: int,
        expected_version: int,
        new_state_json: str | None,
        events: Sequence[JsonObject] = (),
        outbox: Sequence[OutboxMessage] = (),
        update_id: int | None = None,
        *,
        status: TableStatus | None = None,
        seats: Sequence[Seat] | None = None,
        deadline: float | None = None,
        stats: Sequence[StatsDelta] = (),
    ) -> Table:
        now = self._clock()
        new_version = expected_version + 1
        with self._transaction() as db:
            row = self._one(
                db,
                "UPDATE tables SET state = COALESCE(?, state), status = COALESCE(?, status), version = ?,"
                " updated_at = ? WHERE table_id = ? AND version = ? RETURNING *",
                (
                    new_state_json,
                    status.value if status else None,
                    new_version,
                    now,
                    table_id,
                    expected_version,
                ),
            )
            if row is None:
                found = self._one(db, "SELECT version FROM tables WHERE table_id = ?", (table_id,))
                if found is None:
                    raise TableNotFoundError(table_id)
                raise StaleVersion(table_id, expected_version, int(found["version"]))
            if seats is not None:
                self._replace_seats(db, table_id, seats, now)
            if events:
                # Each row takes the next number of its table's log (the insert before it is visible to it).
                db.executemany(
                    "INSERT INTO events (table_id, seq, payload, created_at) VALUES (?,"
                    " (SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE table_id = ?), ?, ?)",
                    [(table_id, table_id, _dumps(event), now) for event in events],
                )
            self._insert_outbox(db, outbox, now, table_id)
            if deadline is not None:
                db.execute(
                    "INSERT OR REPLACE INTO timers (table_id, due_at, move_no) VALUES (?, ?, ?)",
                    (table_id, deadline, new_version),
                )
            else:
                db.execute("DELETE FROM timers WHERE table_id = ?", (table_id,))
            self._add_stats(db, stats)
            self._mark_processed(db, update_id, now)
            return _table(row, seats if seats is not None else self._load_seats(db, table_id))

    @staticmethod
    def _replace_seats(db: sqlite3.Connection, table_id: int, seats: Sequence[Seat], now: float) -> None:
        db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
        db.executemany(
            "INSERT INTO seats (table_id, seat, user_id, name, joined_at) VALUES (?, ?, ?, ?, ?)",
            [(table_id, seat.seat, seat.user_id, seat.name, now) for seat in seats],
        )

    @staticmethod
    def _add_stats(db: sqlite3.Connection, deltas: Sequence[StatsDelta]) -> None:
        if not deltas:
            return
        updates = ", ".join(f"{column} = {column} + excluded.{column}" for column in _STATS_COLUMNS)
        db.executemany(
            f"INSERT INTO stats (chat_id, user_id, {', '.join(_STATS_COLUMNS)})"
            f" VALUES (?, ?, {', '.join('?' for _ in _STATS_COLUMNS)})"
            f" ON CONFLICT (chat_id, user_id) DO UPDATE SET {updates}",
            [
                (delta.chat_id, delta.user_id, *(getattr(delta, column) for column in _STATS_COLUMNS))
                for delta in deltas
            ],
        )

    @staticmethod
    def _mark_processed(db: sqlite3.Connection, update_id: int | None, now: float) -> None:
        if update_id is None:
            return
        try:
            db.execute("INSERT INTO processed_updates (update_id, processed_at) VALUES (?, ?)", (update_id, now))
        except sqlite3.IntegrityError as error:
            raise UpdateAlreadyProcessedError(update_id) from error

    @staticmethod
    def _insert_outbox(
        db: sqlite3.Connection, outbox: Sequence[OutboxMessage], now: float, table_id: int | None = None
    ) -> list[int]:
        """Queue the messages (two statements whatever their number); returns their row ids, in order."""
        if not outbox:
            return []
        keys = [(message.key,) for message in outbox if message.key is not None]
        if keys:
            # A newer edit of the same live message makes a pending one pointless.
            db.executemany("UPDATE outbox SET done = 1, last_error = 'superseded' WHERE key = ? AND done = 0", keys)
        last_of_key = {message.key: index for index, message in enumerate(outbox) if message.key is not None}
        values = ", ".join("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)" for _ in outbox)
        params: list[Any] = []
        for index, message in enumerate(outbox):
            superseded = message.key is not None and last_of_key[message.key] != index
            params += (
                message.table_id if message.table_id is not None else table_id,
                message.chat_id,
                message.kind.value,
                message.ref,
                _dumps(message.payload),
                message.key,
                now,
                now,
                int(superseded),
                "superseded" if superseded else None,
            )
        rows = _fetchall(
            db,
            "INSERT INTO outbox (table_id, chat_id, kind, ref, payload, key, created_at, next_attempt_at, done,"
            " last_error)"
            f" VALUES {values} RETURNING id",
            params,
        )
        return sorted(int(row["id"]) for row in rows)

    async def get_events(self, table_id: int, after_seq: int = 0) -> list[Event]:
        rows = await self._fetchall(
            "SELECT * FROM events WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, after_seq)
        )
        return [Event.model_validate(_columns(row, "payload")) for row in rows]

    # updates

    async def is_update_processed(self, update_id: int) -> bool:
        row = await self._fetchone("SELECT 1 FROM processed_updates WHERE update_id = ?", (update_id,))
        return row is not None

    async def mark_update_processed(self, update_id: int) -> bool:
        try:
            with self._transaction() as db:
                self._mark_processed(db, update_id, self._clock())
        except UpdateAlreadyProcessedError:
            return False
        return True

    async def enqueue(self, outbox: Sequence[OutboxMessage], update_id: int | None = None) -> list[int]:
        now = self._clock()
        with self._transaction() as db:
            ids = self._insert_outbox(db, outbox, now)
            self._mark_processed(db, update_id, now)
        return ids

    async def prune_processed_updates(self, older_than: float) -> int:
        with self._transaction() as db:
            cursor = db.execute("DELETE FROM processed_updates WHERE processed_at < ?", (older_than,))
            return cursor.rowcount

    # outbox

    async def fetch_outbox(
        self, now: float, limit: int = 100, skip: Collection[int] = (), after: int = 0
    ) -> list[OutboxItem]:
        rows = _fetchall(
            self._db,
            # In id order straight from the partial index (migration 2): no sort of every pending row.
            "SELECT id FROM outbox AS o INDEXED BY outbox_due"
            " WHERE o.done = 0 AND o.id > ? AND o.next_attempt_at <= ? AND NOT EXISTS ("
            " SELECT 1 FROM outbox AS p WHERE p.chat_id = o.chat_id AND p.done = 0 AND p.id < o.id"
            " AND p.next_attempt_at > ?) ORDER BY o.id LIMIT ?",
            (after, now, now, limit + len(skip)),
        )
        # The sender asks again after every commit while most rows are still on their way: parsing their
        # payloads again each time cost more than the rest of the delivery.
        wanted = [int(row["id"]) for row in rows if int(row["id"]) not in skip]
        if not wanted:
            return []
        marks = ", ".join("?" for _ in wanted)
        found = _fetchall(self._db, f"SELECT * FROM outbox WHERE id IN ({marks}) ORDER BY id", wanted)
        return [_outbox_item(row) for row in found]

    async def get_outbox_item(self, outbox_id: int) -> OutboxItem | None:
        row = await self._fetchone("SELECT * FROM outbox WHERE id = ?", (outbox_id,))
        return _outbox_item(row) if row else None

    async def mark_outbox_done(self, outbox_id: int, error: str | None = None) -> None:
        await self._write("UPDATE outbox SET done = 1, last_error = ? WHERE id = ?", (error, outbox_id))

    async def schedule_outbox_retry(self, outbox_id: int, next_attempt_at: float, error: str) -> int:
        with self._transaction() as db:
            db.execute(
                "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ?",
                (next_attempt_at, error, outbox_id),
            )
            row = self._one(db, "SELECT attempts FROM outbox WHERE id = ?", (outbox_id,))
        return int(row["attempts"]) if row else 0

    async def cancel_outbox_for_chat(self, chat_id: int, reason: str) -> int:
        with self._transaction() as db:
            cursor = db.execute(
                "UPDATE outbox SET done = 1, last_error = ? WHERE chat_id = ? AND done = 0", (reason, chat_id)
            )
            return cursor.rowcount

    # message refs

    async def get_message_ref(self, chat_id: int, purpose: str) -> int | None:
        row = await self._fetchone(
            "SELECT message_id FROM message_refs WHERE chat_id = ? AND purpose = ?", (chat_id, purpose)
        )
        return int(row["message_id"]) if row else None

    async def set_message_ref(self, chat_id: int, purpose: str, message_id: int) -> None:
        await self._write(
            "INSERT INTO message_refs (chat_id, purpose, message_id, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (chat_id, purpose) DO UPDATE SET message_id = excluded.message_id,"
            " updated_at = excluded.updated_at",
            (chat_id, purpose, message_id, self._clock()),
        )

    async def delete_message_ref(self, chat_id: int, purpose: str) -> None:
        await self._write("DELETE FROM message_refs WHERE chat_id = ? AND purpose = ?", (chat_id, purpose))

    # stats and timers

    async def get_stats(self, chat_id: int, user_id: int) -> Stats:
        row = await self._fetchone("SELECT * FROM stats WHERE chat_id = ? AND user_id = ?", (chat_id, user_id))
        return _stats(row) if row else Stats(chat_id=chat_id, user_id=user_id)

    async def top_stats(self, chat_id: int, limit: int = 10) -> list[Stats]:
        rows = await self._fetchall(
            "SELECT * FROM stats WHERE chat_id = ? ORDER BY matches_won DESC, deals_won DESC, user_id LIMIT ?",
            (chat_id, limit),
        )
        return [_stats(row) for row in rows]

    async def due_timers(self, now: float) -> list[Timer]:
        rows = await self._fetchall("SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at", (now,))
        return [Timer.model_validate(dict(row)) for row in rows]


def _columns(row: sqlite3.Row, *json_columns: str) -> dict[str, Any]:
    """A row as a dict for a DTO's `model_validate`, with its JSON text columns parsed."""
    columns = dict(row)
    for name in json_columns:
        columns[name] = _loads(columns[name])
    return columns


def _table(row: sqlite3.Row, seats: Sequence[Seat]) -> Table:
    return Table.model_validate({**_columns(row, "settings"), "seats": tuple(seats)})


def _chat(row: sqlite3.Row) -> Chat:
    return Chat.model_validate(_columns(row, "settings"))


def _user(row: sqlite3.Row) -> User:
    return User.model_validate(dict(row))


def _stats(row: sqlite3.Row) -> Stats:
    return Stats.model_validate(dict(row))


def _outbox_item(row: sqlite3.Row) -> OutboxItem:
    return OutboxItem.model_validate(_columns(row, "payload"))
