"""Chats and users (`ChatStore`) on PostgreSQL."""

from __future__ import annotations

from collections.abc import Collection

from bot.storage.base import Chat, JsonObject, User
from bot.storage.postgres.database import Connection
from bot.storage.postgres.rows import Part, ensure_chat
from bot.storage.records import chat_of, dumps, user_of


class Chats(Part):
    async def upsert_chat(self, chat_id: int, *, language: str | None = None) -> Chat:
        now = self._clock()

        async def apply(db: Connection) -> Chat:
            chat = await ensure_chat(db, chat_id, now)
            if language is None:
                return chat
            row = await db.fetchrow(
                "UPDATE chats SET language = $1, updated_at = $2 WHERE chat_id = $3 RETURNING *", language, now, chat_id
            )
            assert row is not None  # ensured above
            return chat_of(row)

        return await self._database.write(apply, kind="chat")

    async def get_chat(self, chat_id: int) -> Chat | None:
        row = await self._database.read(lambda db: db.fetchrow("SELECT * FROM chats WHERE chat_id = $1", chat_id))
        return chat_of(row) if row is not None else None

    async def set_chat_settings(self, chat_id: int, settings: JsonObject) -> None:
        await self._set_chat(chat_id, "settings", dumps(settings))

    async def set_chat_removed(self, chat_id: int, removed: bool = True) -> None:
        await self._set_chat(chat_id, "bot_removed", removed)

    async def _set_chat(self, chat_id: int, column: str, value: object) -> None:
        now = self._clock()

        async def apply(db: Connection) -> None:
            await ensure_chat(db, chat_id, now)
            await db.execute(
                f"UPDATE chats SET {column} = $1, updated_at = $2 WHERE chat_id = $3",  # column is ours
                value,
                now,
                chat_id,
            )

        await self._database.write(apply, kind="chat")

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        now = self._clock()

        async def apply(db: Connection) -> None:
            await ensure_chat(db, old_chat_id, now)
            await db.execute(
                "INSERT INTO chats (chat_id, language, settings, created_at, updated_at)"
                " SELECT $1, language, settings, $2, $2 FROM chats WHERE chat_id = $3 ON CONFLICT DO NOTHING",
                new_chat_id,
                now,
                old_chat_id,
            )
            await db.execute(
                "UPDATE chats SET migrated_to = $1, updated_at = $2 WHERE chat_id = $3", new_chat_id, now, old_chat_id
            )
            await db.execute("UPDATE tables SET chat_id = $1 WHERE chat_id = $2", new_chat_id, old_chat_id)
            await db.execute("UPDATE rating_changes SET chat_id = $1 WHERE chat_id = $2", new_chat_id, old_chat_id)
            # The new chat's refs win where both have one (as SQLite's UPDATE OR REPLACE does).
            await db.execute(
                "DELETE FROM message_refs WHERE chat_id = $1 AND purpose IN"
                " (SELECT purpose FROM message_refs WHERE chat_id = $2)",
                new_chat_id,
                old_chat_id,
            )
            await db.execute("UPDATE message_refs SET chat_id = $1 WHERE chat_id = $2", new_chat_id, old_chat_id)
            await db.execute("UPDATE outbox SET chat_id = $1 WHERE chat_id = $2 AND NOT done", new_chat_id, old_chat_id)
            await db.execute(
                "INSERT INTO tallies SELECT $1, user_id, game, name, value FROM tallies WHERE chat_id = $2"
                " ON CONFLICT DO NOTHING",
                new_chat_id,
                old_chat_id,
            )

        await self._database.write(apply, kind="chat", notify=True)

    async def upsert_user(self, user_id: int, name: str, *, language: str | None = None) -> User:
        now = self._clock()

        async def apply(db: Connection) -> User:
            row = await db.fetchrow(
                "INSERT INTO users (user_id, name, language, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)"
                " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name,"
                " language = COALESCE(excluded.language, users.language), updated_at = excluded.updated_at"
                " RETURNING *",
                user_id,
                name,
                language,
                now,
            )
            assert row is not None  # an upsert returns its row
            return user_of(row)

        return await self._database.write(apply, kind="user")

    async def get_user(self, user_id: int) -> User | None:
        row = await self._database.read(lambda db: db.fetchrow("SELECT * FROM users WHERE user_id = $1", user_id))
        return user_of(row) if row is not None else None

    async def get_users(self, user_ids: Collection[int]) -> dict[int, User]:
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        sql = "SELECT * FROM users WHERE user_id = ANY($1::bigint[])"
        rows = await self._database.read(lambda db: db.fetch(sql, ids))
        return {int(row["user_id"]): user_of(row) for row in rows}

    async def set_user_started(self, user_id: int, started: bool = True) -> None:
        await self._set_user_flag(user_id, "started_bot", started)

    async def set_user_blocked(self, user_id: int, blocked: bool = True) -> None:
        await self._set_user_flag(user_id, "blocked", blocked)

    async def set_user_rating_public(self, user_id: int, public: bool = True) -> None:
        await self._set_user_flag(user_id, "rating_public", public)

    async def _set_user_flag(self, user_id: int, column: str, value: bool) -> None:
        now = self._clock()

        async def apply(db: Connection) -> None:
            # A user we have never seen (e.g. a 403 for a stale private chat) still gets a row.
            await db.execute(
                f"INSERT INTO users (user_id, name, {column}, created_at, updated_at)"  # column is ours
                f" VALUES ($1, '', $2, $3, $3) ON CONFLICT (user_id) DO UPDATE SET {column} = excluded.{column},"
                f" updated_at = excluded.updated_at WHERE users.{column} IS DISTINCT FROM excluded.{column}",
                user_id,
                value,
                now,
            )

        await self._database.write(apply, kind="user")
