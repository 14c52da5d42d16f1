"""A read-only look at the database of a running bot process, for e2e tests.

The bot holds its database for itself (one process per file, bot/storage/sqlite/database.py), but WAL lets
anyone read while it writes: these readers open the file read-only, without the lock, for each question.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Self, TypeVar

from bot.storage import Event, Stats, Table
from bot.storage.sqlite.rows import event_of, fetchall, load_table, one, stats_of

T = TypeVar("T")


class BotDatabase:
    """The bot's storage questions (`get_table`, `get_open_table`, `get_events`, `get_stats`, `top_stats`), read
    from its file."""

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

    async def get_events(self, table_id: int, after_seq: int = 0) -> list[Event]:
        rows = self._read(
            lambda db: fetchall(
                db, "SELECT * FROM events WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, after_seq)
            )
        )
        return [event_of(row) for row in rows]

    async def get_stats(self, chat_id: int, user_id: int) -> Stats:
        row = self._read(
            lambda db: one(db, "SELECT * FROM stats WHERE chat_id = ? AND user_id = ?", (chat_id, user_id))
        )
        return stats_of(row) if row else Stats(chat_id=chat_id, user_id=user_id)

    async def top_stats(self, chat_id: int, limit: int = 10) -> list[Stats]:
        rows = self._read(
            lambda db: fetchall(
                db,
                "SELECT * FROM stats WHERE chat_id = ? ORDER BY matches_won DESC, deals_won DESC, user_id LIMIT ?",
                (chat_id, limit),
            )
        )
        return [stats_of(row) for row in rows]

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        return None
