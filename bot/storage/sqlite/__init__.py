"""The `Storage` contract on SQLite through aiosqlite: the embedded default, nothing to configure.

`bot.storage.sqlite.database` has the connections (a group-committing writer, a reader, a checkpointer) and the
one-process lock; each concern of the contract has its module (chats, tables, inbox, outbox, stats, timers, retention).
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Self

from bot.storage.faults import FaultHooks
from bot.storage.sqlite.chats import Chats
from bot.storage.sqlite.database import Database
from bot.storage.sqlite.history import HistoryPart
from bot.storage.sqlite.inbox import Inbox
from bot.storage.sqlite.outbox import Outbox
from bot.storage.sqlite.ratings import RatingsPart
from bot.storage.sqlite.retention import Retention
from bot.storage.sqlite.rows import Clock
from bot.storage.sqlite.stats import StatsPart
from bot.storage.sqlite.tables import Tables
from bot.storage.sqlite.timers import Timers

__all__ = ["Database", "FaultHooks", "SqliteStorage"]


class SqliteStorage(Chats, Tables, Inbox, Outbox, StatsPart, RatingsPart, HistoryPart, Timers, Retention):
    """Open it with `await SqliteStorage.open(path)` (or `async with`); close it with `await close()`."""

    @classmethod
    async def open(cls, path: Path | str, *, clock: Clock = time.time, hooks: FaultHooks | None = None) -> Self:
        """Lock the file for this process, create it and its folder if needed, apply migrations, and load the
        open tables into memory."""
        database = await Database.open(path, now=clock(), hooks=hooks)
        storage = cls(database, clock)
        try:
            for table in await database.read(storage._load_open):
                storage._keep_table(table)
        except BaseException:
            await database.close()
            raise
        return storage

    @property
    def database(self) -> Database:
        return self._database

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Commit what is waiting and close (a second call does nothing)."""
        await self._database.close()

    async def ping(self) -> None:
        def query(db: sqlite3.Connection) -> None:
            db.execute("SELECT MAX(version) FROM schema_version").fetchone()

        await self._database.read(query)

    async def checkpoint(self) -> int:
        return await self._database.checkpoint()
