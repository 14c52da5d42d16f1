"""The chat's finished matches (`HistoryStore`) on PostgreSQL: the results their last commits recorded."""

from __future__ import annotations

from asyncpg import Connection

from bot.storage.base import MatchRecord
from bot.storage.postgres.rows import WITH_SEATS, Part, seats_in
from bot.storage.records import match_record_of, rating_change_of


class HistoryPart(Part):
    async def match_history(self, chat_id: int, limit: int) -> list[MatchRecord]:
        async def query(db: Connection) -> list[MatchRecord]:
            rows = await db.fetch(
                f"SELECT table_id, result, updated_at, {WITH_SEATS} FROM tables"
                " WHERE chat_id = $1 AND result IS NOT NULL ORDER BY table_id DESC LIMIT $2",
                chat_id,
                limit,
            )
            if not rows:
                return []
            found = await db.fetch(
                "SELECT * FROM rating_changes WHERE table_id = ANY($1::bigint[]) ORDER BY user_id",
                [int(row["table_id"]) for row in rows],
            )
            changes = [rating_change_of(change) for change in found]
            return [match_record_of(row, seats_in(row), changes) for row in rows]

        return await self._database.read(query)
