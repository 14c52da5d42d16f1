"""Chats and users (`ChatStore`) on SQLite."""

from __future__ import annotations

import sqlite3
from collections.abc import Collection

from bot.storage.base import Chat, JsonObject, Table, User
from bot.storage.sqlite.rows import Part, chat_of, dumps, ensure_chat, fetchall, one, user_of


class Chats(Part):
    async def upsert_chat(self, chat_id: int, *, language: str | None = None) -> Chat:
        now = self._clock()

        def apply(db: sqlite3.Connection) -> Chat:
            ensure_chat(db, chat_id, now)
            if language is not None:
                db.execute("UPDATE chats SET language = ?, updated_at = ? WHERE chat_id = ?", (language, now, chat_id))
            return self._chat_row(db, chat_id)

        return await self._database.write(apply, kind="chat", after=self._keep_chat)

    async def get_chat(self, chat_id: int) -> Chat | None:
        cached = self._chats.get(chat_id)
        if cached is not None:
            return cached
        row = await self._database.read(lambda db: one(db, "SELECT * FROM chats WHERE chat_id = ?", (chat_id,)))
        return self._chats.setdefault(chat_id, chat_of(row)) if row is not None else None

    async def set_chat_settings(self, chat_id: int, settings: JsonObject) -> None:
        await self._set_chat(chat_id, "settings", dumps(settings))

    async def set_chat_removed(self, chat_id: int, removed: bool = True) -> None:
        await self._set_chat(chat_id, "bot_removed", int(removed))

    async def _set_chat(self, chat_id: int, column: str, value: object) -> None:
        now = self._clock()

        def apply(db: sqlite3.Connection) -> Chat:
            ensure_chat(db, chat_id, now)
            db.execute(
                f"UPDATE chats SET {column} = ?, updated_at = ? WHERE chat_id = ?",  # column is ours
                (value, now, chat_id),
            )
            return self._chat_row(db, chat_id)

        await self._database.write(apply, kind="chat", after=self._keep_chat)

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        now = self._clock()

        def apply(db: sqlite3.Connection) -> tuple[Chat, Chat]:
            ensure_chat(db, old_chat_id, now)
            db.execute(
                "INSERT INTO chats (chat_id, language, settings, created_at, updated_at)"
                " SELECT ?, language, settings, ?, ? FROM chats WHERE chat_id = ?"
                " ON CONFLICT DO NOTHING",
                (new_chat_id, now, now, old_chat_id),
            )
            db.execute(
                "UPDATE chats SET migrated_to = ?, updated_at = ? WHERE chat_id = ?", (new_chat_id, now, old_chat_id)
            )
            db.execute("UPDATE tables SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id))
            db.execute("UPDATE rating_changes SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id))
            db.execute("UPDATE OR REPLACE message_refs SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id))
            db.execute("UPDATE outbox SET chat_id = ? WHERE chat_id = ? AND done = 0", (new_chat_id, old_chat_id))
            db.execute(
                "INSERT INTO tallies SELECT ?, user_id, game, name, value FROM tallies WHERE chat_id = ?"
                " ON CONFLICT DO NOTHING",
                (new_chat_id, old_chat_id),
            )
            return self._chat_row(db, old_chat_id), self._chat_row(db, new_chat_id)

        def after(chats: tuple[Chat, Chat]) -> None:
            for chat in chats:
                self._keep_chat(chat)
            table_id = self._open_in_chat.pop(old_chat_id, None)
            if table_id is not None:
                moved: Table = self._open[table_id].model_copy(update={"chat_id": new_chat_id})
                self._open[table_id] = moved
                self._open_in_chat[new_chat_id] = table_id

        await self._database.write(apply, kind="chat", after=after)

    async def upsert_user(self, user_id: int, name: str, *, language: str | None = None) -> User:
        now = self._clock()

        def apply(db: sqlite3.Connection) -> User:
            db.execute(
                "INSERT INTO users (user_id, name, language, created_at, updated_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name,"
                " language = COALESCE(excluded.language, users.language), updated_at = excluded.updated_at",
                (user_id, name, language, now, now),
            )
            return self._user_row(db, user_id)

        return await self._database.write(apply, kind="user", after=self._keep_user)

    async def get_user(self, user_id: int) -> User | None:
        cached = self._users.get(user_id)
        if cached is not None:
            return cached
        row = await self._database.read(lambda db: one(db, "SELECT * FROM users WHERE user_id = ?", (user_id,)))
        return self._users.setdefault(user_id, user_of(row)) if row is not None else None

    async def get_users(self, user_ids: Collection[int]) -> dict[int, User]:
        found = {user_id: user for user_id in set(user_ids) if (user := self._users.get(user_id)) is not None}
        missing = sorted(set(user_ids) - found.keys())
        if missing:
            marks = ", ".join("?" * len(missing))
            rows = await self._database.read(
                lambda db: fetchall(db, f"SELECT * FROM users WHERE user_id IN ({marks})", missing)
            )
            for row in rows:
                user = self._users.setdefault(int(row["user_id"]), user_of(row))
                found[user.user_id] = user
        return found

    async def set_user_started(self, user_id: int, started: bool = True) -> None:
        await self._set_user_flag(user_id, "started_bot", started)

    async def set_user_blocked(self, user_id: int, blocked: bool = True) -> None:
        await self._set_user_flag(user_id, "blocked", blocked)

    async def set_user_rating_public(self, user_id: int, public: bool = True) -> None:
        await self._set_user_flag(user_id, "rating_public", public)

    async def _set_user_flag(self, user_id: int, column: str, value: bool) -> None:
        cached = self._users.get(user_id)
        if cached is not None and getattr(cached, column) == value:
            return  # nothing would change (a /start of every player before every table, say)
        now = self._clock()

        def apply(db: sqlite3.Connection) -> User:
            # A user we have never seen (e.g. a 403 for a stale private chat) still gets a row.
            db.execute(
                "INSERT INTO users (user_id, name, created_at, updated_at) VALUES (?, '', ?, ?) ON CONFLICT DO NOTHING",
                (user_id, now, now),
            )
            db.execute(
                f"UPDATE users SET {column} = ?, updated_at = ? WHERE user_id = ?",  # column is ours
                (int(value), now, user_id),
            )
            return self._user_row(db, user_id)

        await self._database.write(apply, kind="user", after=self._keep_user)

    # -- rows and the memory -----------------------------------------------------------------------------------

    @staticmethod
    def _chat_row(db: sqlite3.Connection, chat_id: int) -> Chat:
        row = one(db, "SELECT * FROM chats WHERE chat_id = ?", (chat_id,))
        assert row is not None
        return chat_of(row)

    @staticmethod
    def _user_row(db: sqlite3.Connection, user_id: int) -> User:
        row = one(db, "SELECT * FROM users WHERE user_id = ?", (user_id,))
        assert row is not None
        return user_of(row)

    def _keep_chat(self, chat: Chat) -> None:
        self._chats.set(chat.chat_id, chat)

    def _keep_user(self, user: User) -> None:
        self._users.set(user.user_id, user)
