"""The chats' tallies (`StatsStore`) on PostgreSQL; a move adds to them in its own commit."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.base import Stats, StatsDelta
from bot.storage.postgres.database import Connection
from bot.storage.postgres.rows import Part
from bot.storage.records import stats_of

STATS_COLUMNS = ("deals_played", "deals_won", "matches_played", "matches_won", "buras", "false_claims")


async def add_stats(db: Connection, deltas: Sequence[StatsDelta]) -> None:
    if not deltas:
        return
    updates = ", ".join(f"{column} = stats.{column} + excluded.{column}" for column in STATS_COLUMNS)
    marks = ", ".join(f"${n}" for n in range(3, 3 + len(STATS_COLUMNS)))
    await db.executemany(
        f"INSERT INTO stats (chat_id, user_id, {', '.join(STATS_COLUMNS)}) VALUES ($1, $2, {marks})"
        f" ON CONFLICT (chat_id, user_id) DO UPDATE SET {updates}",
        [(delta.chat_id, delta.user_id, *(getattr(delta, column) for column in STATS_COLUMNS)) for delta in deltas],
    )


class StatsPart(Part):
    async def get_stats(self, chat_id: int, user_id: int) -> Stats:
        row = await self._database.read(
            lambda db: db.fetchrow("SELECT * FROM stats WHERE chat_id = $1 AND user_id = $2", chat_id, user_id)
        )
        return stats_of(row) if row else Stats(chat_id=chat_id, user_id=user_id)

    async def top_stats(self, chat_id: int, limit: int = 10) -> list[Stats]:
        rows = await self._database.read(
            lambda db: db.fetch(
                "SELECT * FROM stats WHERE chat_id = $1 ORDER BY matches_won DESC, deals_won DESC, user_id LIMIT $2",
                chat_id,
                limit,
            )
        )
        return [stats_of(row) for row in rows]
