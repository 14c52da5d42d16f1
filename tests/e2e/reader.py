"""A read-only look at the database of a running bot process, for e2e tests.

The bot holds its database for itself (one process per file, bot/storage/sqlite/database.py), but WAL lets
anyone read while it writes: these readers open the file read-only, without the lock, for each question.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import sqlite3
import threading
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any, ClassVar, Protocol, Self, TypeVar

import asyncpg

from bot.storage import Event, Stats, Table
from bot.storage.records import seat_of, stats_of, table_of
from bot.storage.sqlite.rows import event_of, fetchall, load_table, one

T = TypeVar("T")

_TALLY = "SELECT chat_id, user_id, game, name, value FROM tallies"


class BotDatabase:
    """The bot's storage questions (`get_table`, `get_open_table`, `get_events`, `get_stats`, `chat_stats`,
    `inbox_has`), read from its file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self, query: Callable[[sqlite3.Connection], T]) -> T:
        with closing(sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=10)) as db:
            db.row_factory = sqlite3.Row
            return query(db)

    async def get_table(self, table_id: int) -> Table | None:
        return self._read(lambda db: load_table(db, table_id))

    async def get_open_table(self, chat_id: int) -> Table | None:
        row = self._read(
            lambda db: one(db, "SELECT table_id FROM tables WHERE chat_id = ? AND status != 'finished'", (chat_id,))
        )
        return await self.get_table(int(row["table_id"])) if row is not None else None

    async def last_finished_table(self, chat_id: int) -> Table | None:
        row = self._read(
            lambda db: one(
                db,
                "SELECT table_id FROM tables WHERE chat_id = ? AND status = 'finished' ORDER BY table_id DESC LIMIT 1",
                (chat_id,),
            )
        )
        return await self.get_table(int(row["table_id"])) if row is not None else None

    async def get_events(self, table_id: int, after_seq: int = 0) -> list[Event]:
        rows = self._read(
            lambda db: fetchall(
                db, "SELECT * FROM events WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, after_seq)
            )
        )
        return [event_of(row) for row in rows]

    async def get_stats(self, chat_id: int, user_id: int) -> list[Stats]:
        query = f"{_TALLY} WHERE chat_id = ? AND user_id = ?"
        return stats_of(self._read(lambda db: fetchall(db, query, (chat_id, user_id))))

    async def chat_stats(self, chat_id: int) -> list[Stats]:
        query = f"{_TALLY} WHERE chat_id = ?"
        return stats_of(self._read(lambda db: fetchall(db, query, (chat_id,))))

    async def inbox_has(self, update_id: int) -> bool:
        """The bot stored this update in its inbox (handled since or not)."""
        row = self._read(lambda db: one(db, "SELECT 1 FROM inbox WHERE update_id = ?", (update_id,)))
        return row is not None

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        return None


class Sql(Protocol):
    """Questions to a running bot's database in SQL with `?` marks, answered at once (for polling conditions)."""

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]: ...

    def close(self) -> None: ...


class _OnePerDatabase:
    """One reader per database, shared by every reader of it (`sql_for`): the last of them to close closes it."""

    _open: ClassVar[dict[Path | str, _OnePerDatabase]] = {}

    def __init__(self, database: Path | str) -> None:
        self.database = database
        self.users = 0

    @classmethod
    def shared(cls, database: Path | str) -> Self:
        reader = cls._open.get(database)
        if not isinstance(reader, cls):
            reader = cls(database)
            cls._open[database] = reader
        reader.users += 1
        return reader

    def close(self) -> None:
        """One reader fewer; the last one closes the connection."""
        self.users -= 1
        if self.users > 0:
            return
        self._open.pop(self.database, None)
        self._close()

    def _close(self) -> None:
        raise NotImplementedError


class SqliteSql(_OnePerDatabase):
    """Questions to the bot's SQLite file on one read-only connection: each question sees the last commit (WAL:
    it never waits for the writer, nor holds it up). A connection per question cost the load benchmark's
    simulated people a fifth of their CPU."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.path = path
        self._db: sqlite3.Connection | None = None

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        if self._db is None:  # at the first question: the bot may not have made the file before
            self._db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=10, isolation_level=None)
            self._db.row_factory = sqlite3.Row
        return self._db.execute(sql, params).fetchall()

    def _close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


class PostgresSql(_OnePerDatabase):
    """The same questions to PostgreSQL, through asyncpg on a loop of its own in a thread (a test's polling
    condition is a plain function): a thousand tables of the load benchmark would be a thousand connections.
    Questions come one at a time (each call waits for its answer)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.url = url
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="postgres-reader", daemon=True)
        self._thread.start()
        self._db: asyncpg.Connection | None = None

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        marks = itertools.count(1)
        numbered = re.sub(r"\?", lambda _: f"${next(marks)}", sql)
        return asyncio.run_coroutine_threadsafe(self._fetch(numbered, params), self._loop).result(timeout=30)

    async def _fetch(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        if self._db is None:
            self._db = await asyncpg.connect(self.url)
        return list(await self._db.fetch(sql, *params))

    def _close(self) -> None:
        if self._db is not None:
            asyncio.run_coroutine_threadsafe(self._db.close(), self._loop).result(timeout=10)
            self._db = None
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()


def sql_for(database: Path | str) -> Sql:
    """A SQLite file, or a PostgreSQL URL."""
    if isinstance(database, str) and database.startswith(("postgresql://", "postgres://")):
        return PostgresSql.shared(database)
    return SqliteSql.shared(Path(database))


def table_from(sql: Sql, table_id: int) -> Table | None:
    """A table as the storage returns it, read with `sql` (either engine)."""
    rows = sql.query("SELECT * FROM tables WHERE table_id = ?", (table_id,))
    if not rows:
        return None
    seats = sql.query("SELECT seat, user_id, name FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
    return table_of(rows[0], [seat_of(seat) for seat in seats])
