"""The chat's finished matches (`HistoryStore`) on SQLite: the results their last commits recorded."""

from __future__ import annotations

import sqlite3

from bot.storage.base import MatchRecord
from bot.storage.records import match_record_of, rating_change_of
from bot.storage.sqlite.rows import Part, fetchall, load_seats


class HistoryPart(Part):
    async def match_history(self, chat_id: int, limit: int) -> list[MatchRecord]:
        def query(db: sqlite3.Connection) -> list[MatchRecord]:
            rows = fetchall(
                db,
                "SELECT table_id, result, updated_at FROM tables WHERE chat_id = ? AND result IS NOT NULL"
                " ORDER BY table_id DESC LIMIT ?",
                (chat_id, limit),
            )
            if not rows:
                return []
            ids = [int(row["table_id"]) for row in rows]
            marks = ", ".join("?" * len(ids))
            changes = [
                rating_change_of(change)
                for change in fetchall(
                    db, f"SELECT * FROM rating_changes WHERE table_id IN ({marks}) ORDER BY user_id", ids
                )
            ]
            return [match_record_of(row, load_seats(db, int(row["table_id"])), changes) for row in rows]

        return await self._database.read(query)
