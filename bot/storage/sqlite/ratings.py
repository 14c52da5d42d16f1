"""The people's ratings (`RatingStore`) on SQLite; a match's end writes them in its own commit."""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Sequence

from bot.storage.base import Rating, RatingChange, RatingUpdate
from bot.storage.records import rating_change_of, rating_change_rows, rating_of, rating_rows
from bot.storage.sqlite.rows import Part, fetchall, one

_ORDER = "mu - 3 * sigma DESC, user_id"  # the conservative estimate, best first (bot/services/ratings.py)


def add_ratings(
    db: sqlite3.Connection, table_id: int, chat_id: int, ratings: Sequence[RatingUpdate], now: float
) -> None:
    if not ratings:
        return
    db.executemany(
        "INSERT INTO ratings (user_id, game, mu, sigma, matches, updated_at) VALUES (?, ?, ?, ?, 1, ?)"
        " ON CONFLICT (user_id, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
        " matches = matches + 1, updated_at = excluded.updated_at",
        rating_rows(ratings, now),
    )
    db.executemany(
        "INSERT INTO rating_changes (table_id, chat_id, user_id, game, rating_before, rating_after, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        rating_change_rows(table_id, chat_id, ratings, now),
    )


class RatingsPart(Part):
    async def ratings_of(self, game: str, user_ids: Collection[int]) -> dict[int, Rating]:
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))
        query = f"SELECT * FROM ratings WHERE game = ? AND user_id IN ({marks})"
        rows = await self._database.read(lambda db: fetchall(db, query, (game, *ids)))
        return {int(row["user_id"]): rating_of(row) for row in rows}

    async def user_ratings(self, user_id: int) -> list[Rating]:
        query = "SELECT * FROM ratings WHERE user_id = ? ORDER BY game"
        return [rating_of(row) for row in await self._database.read(lambda db: fetchall(db, query, (user_id,)))]

    async def chat_ratings(self, chat_id: int, game: str | None = None) -> list[Rating]:
        query = (
            "SELECT * FROM ratings AS r WHERE (? IS NULL OR r.game = ?) AND EXISTS (SELECT 1 FROM rating_changes AS c"
            f" WHERE c.chat_id = ? AND c.game = r.game AND c.user_id = r.user_id) ORDER BY r.game, {_ORDER}"
        )
        rows = await self._database.read(lambda db: fetchall(db, query, (game, game, chat_id)))
        return [rating_of(row) for row in rows]

    async def top_ratings(self, game: str | None, limit: int) -> list[Rating]:
        query = (
            "SELECT * FROM (SELECT r.*, ROW_NUMBER() OVER (PARTITION BY r.game ORDER BY r.mu - 3 * r.sigma DESC,"
            " r.user_id) AS place FROM ratings AS r JOIN users AS u ON u.user_id = r.user_id"
            " WHERE u.rating_public = 1 AND (? IS NULL OR r.game = ?)) AS best"
            " WHERE place <= ? ORDER BY game, place"
        )
        return [
            rating_of(row) for row in await self._database.read(lambda db: fetchall(db, query, (game, game, limit)))
        ]

    async def rating_rank(self, game: str, user_id: int) -> tuple[int, int] | None:
        query = (
            "SELECT (SELECT COUNT(*) FROM ratings AS o WHERE o.game = r.game"
            " AND o.mu - 3 * o.sigma > r.mu - 3 * r.sigma) AS above,"
            " (SELECT COUNT(*) FROM ratings AS a WHERE a.game = r.game) AS rated"
            " FROM ratings AS r WHERE r.game = ? AND r.user_id = ?"
        )
        row = await self._database.read(lambda db: one(db, query, (game, user_id)))
        return (int(row["above"]) + 1, int(row["rated"])) if row is not None else None

    async def rating_changes(self, table_id: int) -> list[RatingChange]:
        query = "SELECT * FROM rating_changes WHERE table_id = ? ORDER BY user_id"
        return [rating_change_of(row) for row in await self._database.read(lambda db: fetchall(db, query, (table_id,)))]
