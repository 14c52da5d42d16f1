"""The chats' tallies (`StatsStore`) on SQLite; a move adds to them in its own commit."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from bot.storage.base import Stats, StatsDelta
from bot.storage.sqlite.rows import Part, fetchall, one, stats_of

STATS_COLUMNS = ("deals_played", "deals_won", "matches_played", "matches_won", "buras", "false_claims")


def add_stats(db: sqlite3.Connection, deltas: Sequence[StatsDelta]) -> None:
    if not deltas:
        return
    updates = ", ".join(f"{column} = {column} + excluded.{column}" for column in STATS_COLUMNS)
    db.executemany(
        f"INSERT INTO stats (chat_id, user_id, {', '.join(STATS_COLUMNS)})"
        f" VALUES (?, ?, {', '.join('?' for _ in STATS_COLUMNS)})"
        f" ON CONFLICT (chat_id, user_id) DO UPDATE SET {updates}",
        [(delta.chat_id, delta.user_id, *(getattr(delta, column) for column in STATS_COLUMNS)) for delta in deltas],
    )


class StatsPart(Part):
    async def get_stats(self, chat_id: int, user_id: int) -> Stats:
        row = await self._database.read(
            lambda db: one(db, "SELECT * FROM stats WHERE chat_id = ? AND user_id = ?", (chat_id, user_id))
        )
        return stats_of(row) if row else Stats(chat_id=chat_id, user_id=user_id)

    async def top_stats(self, chat_id: int, limit: int = 10) -> list[Stats]:
        rows = await self._database.read(
            lambda db: fetchall(
                db,
                "SELECT * FROM stats WHERE chat_id = ? ORDER BY matches_won DESC, deals_won DESC, user_id LIMIT ?",
                (chat_id, limit),
            )
        )
        return [stats_of(row) for row in rows]
