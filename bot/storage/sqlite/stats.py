"""The chats' tallies (`StatsStore`) on SQLite, a row a counter; a move adds to them in its own commit."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from bot.storage.base import Stats, StatsDelta
from bot.storage.records import stats_of, stats_rows
from bot.storage.sqlite.rows import Part, fetchall

_TALLY = "SELECT chat_id, user_id, game, name, value FROM tallies"


def add_stats(db: sqlite3.Connection, deltas: Sequence[StatsDelta]) -> None:
    rows = stats_rows(deltas)
    if rows:
        db.executemany(
            "INSERT INTO tallies (chat_id, user_id, game, name, value) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (chat_id, user_id, game, name) DO UPDATE SET value = value + excluded.value",
            rows,
        )


class StatsPart(Part):
    async def get_stats(self, chat_id: int, user_id: int) -> list[Stats]:
        query = f"{_TALLY} WHERE chat_id = ? AND user_id = ?"
        return stats_of(await self._database.read(lambda db: fetchall(db, query, (chat_id, user_id))))

    async def chat_stats(self, chat_id: int) -> list[Stats]:
        query = f"{_TALLY} WHERE chat_id = ?"
        return stats_of(await self._database.read(lambda db: fetchall(db, query, (chat_id,))))

    async def user_stats(self, user_id: int) -> list[Stats]:
        query = f"{_TALLY} WHERE user_id = ? ORDER BY chat_id"
        return stats_of(await self._database.read(lambda db: fetchall(db, query, (user_id,))))
