"""What the bot forgets (`RetentionStore`) on PostgreSQL: old delivered messages and finished tables' private
parts, and a user who asks.

As on SQLite, a prune finds its rows on a reader (the scan of a long backlog never holds this instance's group
commit) and the writer deletes exactly those, checking again that each may go. Several instances may prune at
once: a row two of them chose is deleted by one, and the other finds nothing left of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.base import HAND_REF, Forgotten, OutboxMessage, UserSeatedError
from bot.storage.postgres.database import Connection, Unwritten, chats_of
from bot.storage.postgres.outbox import insert_outbox
from bot.storage.postgres.rows import Part, mark_processed


async def drop_private_parts(db: Connection, table_ids: Sequence[int]) -> int:
    """A finished table's game state (every hand dealt), event log and hand messages' refs go; its row, seats
    and tallies stay. Returns how many of these tables were finished (the others are left alone)."""
    rows = await db.fetch(
        "UPDATE tables SET state = NULL WHERE table_id = ANY($1::bigint[]) AND status = 'finished'"
        " RETURNING table_id, chat_id",
        list(table_ids),
    )
    if not rows:
        return 0
    finished = [int(row["table_id"]) for row in rows]
    await db.execute("DELETE FROM events WHERE table_id = ANY($1::bigint[])", finished)
    refs = {(int(row["chat_id"]), HAND_REF.format(table_id=row["table_id"])) for row in rows if row["chat_id"] > 0}
    seats = await db.fetch(
        "SELECT table_id, user_id FROM seats WHERE table_id = ANY($1::bigint[]) AND user_id IS NOT NULL", finished
    )
    refs |= {(int(seat["user_id"]), HAND_REF.format(table_id=seat["table_id"])) for seat in seats}
    chats, purposes = [chat for chat, _ in refs], [purpose for _, purpose in refs]
    await db.execute(
        "DELETE FROM message_refs WHERE (chat_id, purpose) IN (SELECT * FROM unnest($1::bigint[], $2::text[]))",
        chats,
        purposes,
    )
    return len(finished)


class Retention(Part):
    async def prune_outbox(self, older_than: float, limit: int) -> int:
        # The oldest delivered rows in id order (the primary key's): the scan stops after `limit` of them.
        rows = await self._database.read(
            lambda db: db.fetch("SELECT id, created_at FROM outbox WHERE done ORDER BY id LIMIT $1", limit)
        )
        ids = [int(row["id"]) for row in rows if row["created_at"] < older_than]
        if not ids:
            return 0

        async def apply(db: Connection) -> int:
            deleted = await db.fetch("DELETE FROM outbox WHERE done AND id = ANY($1::bigint[]) RETURNING id", ids)
            return len(deleted)

        return await self._database.write(apply, kind="prune")

    async def prune_tables(self, finished_before: float, limit: int) -> int:
        # A table has an event log only once it has a state (its first deal), and loses both together.
        rows = await self._database.read(
            lambda db: db.fetch(
                "SELECT table_id FROM tables WHERE status = 'finished' AND updated_at < $1 AND state IS NOT NULL"
                " ORDER BY table_id LIMIT $2",
                finished_before,
                limit,
            )
        )
        ids = [int(row["table_id"]) for row in rows]
        if not ids:
            return 0
        return await self._database.write(lambda db: drop_private_parts(db, ids), kind="prune")

    async def seated_at(self, user_id: int) -> list[int]:
        rows = await self._database.read(
            lambda db: db.fetch(
                "SELECT DISTINCT s.table_id FROM seats AS s JOIN tables AS t ON t.table_id = s.table_id"
                " WHERE s.user_id = $1 AND t.status != 'finished' ORDER BY s.table_id",
                user_id,
            )
        )
        return [int(row["table_id"]) for row in rows]

    async def forget_user(
        self,
        user_id: int,
        placeholder: str,
        outbox: Sequence[OutboxMessage] = (),
        update_id: int | None = None,
    ) -> Forgotten:
        now = self._clock()

        async def apply(db: Connection) -> Forgotten:
            seated = await db.fetch(
                "SELECT DISTINCT s.table_id FROM seats AS s JOIN tables AS t ON t.table_id = s.table_id"
                " WHERE s.user_id = $1 AND t.status != 'finished' ORDER BY s.table_id",
                user_id,
            )
            if seated:  # nothing written yet: refused without undoing anything
                raise Unwritten(UserSeatedError(user_id, [int(row["table_id"]) for row in seated]))
            await mark_processed(db, update_id, now)
            user = await db.fetch("DELETE FROM users WHERE user_id = $1 RETURNING user_id", user_id)
            tallies = await db.fetch("DELETE FROM tallies WHERE user_id = $1 RETURNING name", user_id)
            ratings = await db.execute("DELETE FROM ratings WHERE user_id = $1", user_id)
            await db.execute("DELETE FROM rating_changes WHERE user_id = $1", user_id)
            renamed = await db.fetch(
                "UPDATE seats SET name = $2 WHERE user_id = $1 RETURNING table_id", user_id, placeholder
            )
            tables = await drop_private_parts(db, sorted({int(row["table_id"]) for row in renamed}))
            # His private chat: its delivered messages (his hands among them), its live messages, its language
            # and settings. Its row stays while tables name it (games he played there against the computer).
            messages = await db.fetch("DELETE FROM outbox WHERE chat_id = $1 AND done RETURNING id", user_id)
            await db.execute("DELETE FROM message_refs WHERE chat_id = $1", user_id)
            await db.execute(
                "UPDATE chats SET language = NULL, settings = '{}', updated_at = $2 WHERE chat_id = $1", user_id, now
            )
            await insert_outbox(db, outbox, now)
            return Forgotten(
                user=bool(user),
                tallies=len(tallies),
                seats=len(renamed),
                tables=tables,
                messages=len(messages),
                ratings=int(ratings.split()[-1]),  # the command's tag: "DELETE <rows>"
            )

        return await self._database.write(apply, kind="forget", notify=chats_of(outbox))
