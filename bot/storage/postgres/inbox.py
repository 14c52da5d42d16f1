"""The inbox of Telegram updates (`InboxStore`) on PostgreSQL: kept until handled, each one processed once, by
whichever instance received it."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.storage.postgres.database import Connection
from bot.storage.postgres.rows import Part


class Inbox(Part):
    async def store_updates(self, updates: Sequence[tuple[int, str]]) -> list[int]:
        if not updates:
            return []
        now = self._clock()
        ids = [update_id for update_id, _ in updates]
        texts = [text for _, text in updates]

        async def apply(db: Connection) -> list[int]:
            rows = await db.fetch(
                "INSERT INTO inbox (update_id, payload, received_at)"
                " SELECT u.id, u.payload, $3 FROM unnest($1::bigint[], $2::text[]) AS u(id, payload)"
                " ON CONFLICT DO NOTHING RETURNING update_id",
                ids,
                texts,
                now,
            )
            new = {int(row["update_id"]) for row in rows}
            return [update_id for update_id in ids if update_id in new]

        return await self._database.write(apply, kind="inbox")

    async def pending_updates(self) -> list[tuple[int, str]]:
        rows = await self._database.read(
            lambda db: db.fetch(
                "SELECT update_id, payload FROM inbox WHERE processed_at IS NULL AND payload IS NOT NULL"
                " ORDER BY update_id"
            )
        )
        return [(int(row["update_id"]), str(row["payload"])) for row in rows]

    async def mark_updates_done(self, update_ids: Collection[int]) -> None:
        if not update_ids:
            return
        now = self._clock()
        ids = sorted(update_ids)

        async def apply(db: Connection) -> None:
            await db.execute(
                "UPDATE inbox SET processed_at = $1, payload = NULL"
                " WHERE update_id = ANY($2::bigint[]) AND processed_at IS NULL",
                now,
                ids,
            )

        await self._database.write(apply, kind="inbox")

    async def is_update_processed(self, update_id: int) -> bool:
        processed = await self._database.read(
            lambda db: db.fetchval("SELECT processed_at IS NOT NULL FROM inbox WHERE update_id = $1", update_id)
        )
        return bool(processed)

    async def prune_updates(self, older_than: float, limit: int | None = None) -> int:
        # A batch: the oldest handled updates, found on a reader (a long backlog never holds the group commit),
        # and only those (a scan costs the same however long the inbox is).
        condition = "processed_at IS NOT NULL AND received_at < $1"
        ids: list[int] | None = None
        if limit is not None:
            rows = await self._database.read(
                lambda db: db.fetch(
                    "SELECT update_id, received_at FROM inbox WHERE processed_at IS NOT NULL"
                    " ORDER BY update_id LIMIT $1",
                    limit,
                )
            )
            ids = [int(row["update_id"]) for row in rows if row["received_at"] < older_than]
            if not ids:
                return 0

        async def apply(db: Connection) -> int:
            if ids is None:
                rows = await db.fetch(f"DELETE FROM inbox WHERE {condition} RETURNING update_id", older_than)
            else:
                rows = await db.fetch(
                    "DELETE FROM inbox WHERE processed_at IS NOT NULL AND update_id = ANY($1::bigint[])"
                    " RETURNING update_id",
                    ids,
                )
            return len(rows)

        return await self._database.write(apply, kind="prune")
