"""The people's ratings (`RatingStore`) on PostgreSQL; a match's end writes them in its own commit."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.storage.base import Rating, RatingChange, RatingUpdate
from bot.storage.postgres.database import Connection
from bot.storage.postgres.rows import Part
from bot.storage.records import rating_change_of, rating_change_rows, rating_of, rating_rows

_ORDER = "mu - 3 * sigma DESC, user_id"  # the conservative estimate, best first (bot/services/ratings.py)


async def add_ratings(db: Connection, table_id: int, chat_id: int, ratings: Sequence[RatingUpdate], now: float) -> None:
    if not ratings:
        return
    await db.executemany(
        "INSERT INTO ratings (user_id, game, mu, sigma, matches, updated_at) VALUES ($1, $2, $3, $4, 1, $5)"
        " ON CONFLICT (user_id, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
        " matches = ratings.matches + 1, updated_at = excluded.updated_at",
        rating_rows(ratings, now),
    )
    await db.executemany(
        "INSERT INTO rating_changes (table_id, chat_id, user_id, game, rating_before, rating_after, at)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7)",
        rating_change_rows(table_id, chat_id, ratings, now),
    )


class RatingsPart(Part):
    async def ratings_of(self, game: str, user_ids: Collection[int]) -> dict[int, Rating]:
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        query = "SELECT * FROM ratings WHERE game = $1 AND user_id = ANY($2::bigint[])"
        rows = await self._database.read(lambda db: db.fetch(query, game, ids))
        return {int(row["user_id"]): rating_of(row) for row in rows}

    async def user_ratings(self, user_id: int) -> list[Rating]:
        query = "SELECT * FROM ratings WHERE user_id = $1 ORDER BY game"
        return [rating_of(row) for row in await self._database.read(lambda db: db.fetch(query, user_id))]

    async def chat_ratings(self, chat_id: int, game: str | None = None) -> list[Rating]:
        query = (
            "SELECT * FROM ratings AS r WHERE ($1::text IS NULL OR r.game = $1) AND EXISTS (SELECT 1 FROM"
            " rating_changes AS c WHERE c.chat_id = $2 AND c.game = r.game AND c.user_id = r.user_id)"
            f" ORDER BY r.game, {_ORDER}"
        )
        return [rating_of(row) for row in await self._database.read(lambda db: db.fetch(query, game, chat_id))]

    async def top_ratings(self, game: str | None, limit: int) -> list[Rating]:
        query = (
            "SELECT * FROM (SELECT r.*, ROW_NUMBER() OVER (PARTITION BY r.game ORDER BY r.mu - 3 * r.sigma DESC,"
            " r.user_id) AS place FROM ratings AS r JOIN users AS u ON u.user_id = r.user_id"
            " WHERE u.rating_public AND ($1::text IS NULL OR r.game = $1)) AS best"
            " WHERE place <= $2 ORDER BY game, place"
        )
        return [rating_of(row) for row in await self._database.read(lambda db: db.fetch(query, game, limit))]

    async def rating_rank(self, game: str, user_id: int) -> tuple[int, int] | None:
        query = (
            "SELECT (SELECT COUNT(*) FROM ratings AS o WHERE o.game = r.game"
            " AND o.mu - 3 * o.sigma > r.mu - 3 * r.sigma) AS above,"
            " (SELECT COUNT(*) FROM ratings AS a WHERE a.game = r.game) AS rated"
            " FROM ratings AS r WHERE r.game = $1 AND r.user_id = $2"
        )
        row = await self._database.read(lambda db: db.fetchrow(query, game, user_id))
        return (int(row["above"]) + 1, int(row["rated"])) if row is not None else None

    async def rating_changes(self, table_id: int) -> list[RatingChange]:
        query = "SELECT * FROM rating_changes WHERE table_id = $1 ORDER BY user_id"
        return [rating_change_of(row) for row in await self._database.read(lambda db: db.fetch(query, table_id))]
