"""Table timers (`TimerStore`) on PostgreSQL: set by each commit, started by the delivery they wait for, and
claimed when due by one instance at a time (a move timer, a computer's thinking time, an idle lobby).

`due_timers` hands a due timer to this instance for `CLAIM_SECONDS` (`FOR UPDATE SKIP LOCKED`: instances asking
together split the due timers between them); the move that fires it replaces or removes the row. A timer whose
claim ran out (its instance died, or firing failed) is due again for anyone. `timers_due_by` (the reminders'
look ahead) only reads."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.base import Deadline, OutboxMessage, Timer
from bot.storage.postgres.database import Connection
from bot.storage.postgres.rows import Part
from bot.storage.records import timer_of, timer_row

CLAIM_SECONDS = 10.0  # a due timer stays with the instance that claimed it this long (it fires within a second)


async def set_timer(
    db: Connection,
    table_id: int,
    version: int,
    deadline: Deadline | None,
    outbox: Sequence[OutboxMessage],
    ids: Sequence[int],
    now: float,
) -> None:
    """Replace the table's timer (None removes it); as SQLite's `set_timer`."""
    if deadline is None:
        await db.execute("DELETE FROM timers WHERE table_id = $1", table_id)
        return
    if deadline.keep:
        await db.execute("UPDATE timers SET move_no = $1 WHERE table_id = $2", version, table_id)
        return
    row = timer_row(table_id, version, deadline, outbox, ids, now)
    await db.execute(
        "INSERT INTO timers (table_id, due_at, move_no, seconds, wait_chat, wait_ref, wait_from)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (table_id) DO UPDATE SET due_at = excluded.due_at,"
        " move_no = excluded.move_no, seconds = excluded.seconds, wait_chat = excluded.wait_chat,"
        " wait_ref = excluded.wait_ref, wait_from = excluded.wait_from, claimed_by = NULL, claimed_until = NULL",
        *row,
    )


async def arm_timers(
    db: Connection, now: float, chat_id: int, ref: str | None = None, row_id: int | None = None
) -> None:
    """Start the timers that waited for a message of this chat (and ref, up to this outbox row) to be shown."""
    await db.execute(
        "UPDATE timers SET due_at = $1 + seconds, wait_chat = NULL, wait_ref = NULL, wait_from = NULL"
        " WHERE wait_chat = $2 AND ($3::text IS NULL OR wait_ref = $3) AND ($4::bigint IS NULL OR wait_from <= $4)",
        now,
        chat_id,
        ref,
        row_id,
    )


class Timers(Part):
    async def timers_due_by(self, moment: float) -> list[Timer]:
        rows = await self._database.read(
            lambda db: db.fetch("SELECT * FROM timers WHERE due_at <= $1 ORDER BY due_at", moment)
        )
        return [timer_of(row) for row in rows]

    async def due_timers(self, now: float) -> list[Timer]:
        instance, until = self._instance, now + CLAIM_SECONDS
        # Asked every second by every instance: a commit (a sync) only when there is something to claim.
        claimable = await self._database.read(
            lambda db: db.fetchval(
                "SELECT EXISTS (SELECT 1 FROM timers WHERE due_at <= $1"
                " AND (claimed_until IS NULL OR claimed_until <= $1 OR claimed_by = $2))",
                now,
                instance,
            )
        )
        if not claimable:
            return []

        async def apply(db: Connection) -> list[Timer]:
            rows = await db.fetch(
                "UPDATE timers SET claimed_by = $2, claimed_until = $3 WHERE table_id IN ("
                " SELECT table_id FROM timers WHERE due_at <= $1"
                " AND (claimed_until IS NULL OR claimed_until <= $1 OR claimed_by = $2)"
                " FOR UPDATE SKIP LOCKED) RETURNING *",
                now,
                instance,
                until,
            )
            return sorted((timer_of(row) for row in rows), key=lambda timer: (timer.due_at, timer.table_id))

        return await self._database.write(apply, kind="timers")
