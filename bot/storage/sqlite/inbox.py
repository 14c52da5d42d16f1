"""The inbox of Telegram updates (`InboxStore`) on SQLite: kept until handled, each one processed once."""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Sequence

from bot.storage.sqlite.rows import Part, fetchall, one


class Inbox(Part):
    async def store_updates(self, updates: Sequence[tuple[int, str]]) -> list[int]:
        if not updates:
            return []
        now = self._clock()
        rows = [(update_id, text, now) for update_id, text in updates]

        def apply(db: sqlite3.Connection) -> list[int]:
            new: list[int] = []
            for update_id, payload, received in rows:
                cursor = db.execute(
                    "INSERT INTO inbox (update_id, payload, received_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    (update_id, payload, received),
                )
                if cursor.rowcount:
                    new.append(update_id)
            return new

        return await self._database.write(apply, kind="inbox")

    async def pending_updates(self) -> list[tuple[int, str]]:
        rows = await self._database.read(
            lambda db: fetchall(
                db, "SELECT update_id, payload FROM inbox WHERE processed_at IS NULL ORDER BY update_id"
            )
        )
        return [(int(row["update_id"]), str(row["payload"])) for row in rows if row["payload"] is not None]

    async def mark_updates_done(self, update_ids: Collection[int]) -> None:
        if not update_ids:
            return
        now = self._clock()
        ids = [(now, update_id) for update_id in update_ids]

        def apply(db: sqlite3.Connection) -> None:
            db.executemany(
                "UPDATE inbox SET processed_at = ?, payload = NULL WHERE update_id = ? AND processed_at IS NULL", ids
            )

        await self._database.write(apply, kind="inbox")

    async def is_update_processed(self, update_id: int) -> bool:
        row = await self._database.read(
            lambda db: one(db, "SELECT processed_at FROM inbox WHERE update_id = ?", (update_id,))
        )
        return row is not None and row["processed_at"] is not None

    async def prune_updates(self, older_than: float, limit: int | None = None) -> int:
        if limit is None:
            return await self._database.write(
                lambda db: (
                    db.execute(
                        "DELETE FROM inbox WHERE processed_at IS NOT NULL AND received_at < ?", (older_than,)
                    ).rowcount
                ),
                kind="prune",
            )
        # A batch: the oldest handled updates, found on the reader (a long backlog never holds the writer), and
        # only those (a scan costs the same however long the inbox is).
        rows = await self._database.read(
            lambda db: fetchall(
                db,
                "SELECT update_id, received_at FROM inbox NOT INDEXED WHERE processed_at IS NOT NULL"
                " ORDER BY update_id LIMIT ?",
                (limit,),
            )
        )
        ids = [int(row["update_id"]) for row in rows if row["received_at"] < older_than]
        if not ids:
            return 0

        def apply(db: sqlite3.Connection) -> int:
            marks = ", ".join("?" for _ in ids)
            return db.execute(
                f"DELETE FROM inbox WHERE processed_at IS NOT NULL AND update_id IN ({marks})", ids
            ).rowcount

        return await self._database.write(apply, kind="prune")
