"""The chats' tallies (`StatsStore`) on PostgreSQL, a row a counter; a move adds to them in its own commit."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.base import Stats, StatsDelta
from bot.storage.postgres.database import Connection
from bot.storage.postgres.rows import Part
from bot.storage.records import stats_of, stats_rows

_TALLY = "SELECT chat_id, user_id, game, name, value FROM tallies"


async def add_stats(db: Connection, deltas: Sequence[StatsDelta]) -> None:
    rows = stats_rows(deltas)
    if rows:
        await db.executemany(
            "INSERT INTO tallies (chat_id, user_id, game, name, value) VALUES ($1, $2, $3, $4, $5)"
            " ON CONFLICT (chat_id, user_id, game, name) DO UPDATE SET value = tallies.value + excluded.value",
            rows,
        )


class StatsPart(Part):
    async def get_stats(self, chat_id: int, user_id: int) -> list[Stats]:
        query = f"{_TALLY} WHERE chat_id = $1 AND user_id = $2"
        return stats_of(await self._database.read(lambda db: db.fetch(query, chat_id, user_id)))

    async def chat_stats(self, chat_id: int) -> list[Stats]:
        query = f"{_TALLY} WHERE chat_id = $1"
        return stats_of(await self._database.read(lambda db: db.fetch(query, chat_id)))

    async def user_stats(self, user_id: int) -> list[Stats]:
        query = f"{_TALLY} WHERE user_id = $1 ORDER BY chat_id"
        return stats_of(await self._database.read(lambda db: db.fetch(query, user_id)))
