"""Table timers (`TimerStore`) on SQLite: set by each commit, started by the delivery they wait for."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from bot.storage.base import Deadline, OutboxMessage, Timer
from bot.storage.records import timer_row
from bot.storage.sqlite.rows import Part, fetchall, timer_of


def set_timer(
    db: sqlite3.Connection,
    table_id: int,
    version: int,
    deadline: Deadline | None,
    outbox: Sequence[OutboxMessage],
    ids: Sequence[int],
    now: float,
) -> None:
    """Replace the table's timer (None removes it: any older timer is stale after a move). A deadline counted
    from a message of this commit waits for that message's row (the last one of its chat and ref)."""
    if deadline is None:
        db.execute("DELETE FROM timers WHERE table_id = ?", (table_id,))
        return
    if deadline.keep:
        db.execute("UPDATE timers SET move_no = ? WHERE table_id = ?", (version, table_id))
        return
    params = timer_row(table_id, version, deadline, outbox, ids, now)
    db.execute(
        "INSERT OR REPLACE INTO timers (table_id, due_at, move_no, seconds, wait_chat, wait_ref, wait_from)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        params,
    )


def arm_timers(
    db: sqlite3.Connection, now: float, chat_id: int, ref: str | None = None, row_id: int | None = None
) -> None:
    """Start the timers that waited for a message of this chat (and ref, up to this outbox row) to be shown."""
    sql = (
        "UPDATE timers SET due_at = ? + seconds, wait_chat = NULL, wait_ref = NULL, wait_from = NULL"
        " WHERE wait_chat = ?"
    )
    params: list[object] = [now, chat_id]
    if ref is not None:
        sql += " AND wait_ref = ?"
        params.append(ref)
    if row_id is not None:
        sql += " AND wait_from <= ?"
        params.append(row_id)
    db.execute(sql, params)


class Timers(Part):
    async def due_timers(self, now: float) -> list[Timer]:
        return await self.timers_due_by(now)  # one process: nothing to hand out

    async def timers_due_by(self, moment: float) -> list[Timer]:
        rows = await self._database.read(
            lambda db: fetchall(db, "SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at", (moment,))
        )
        return [timer_of(row) for row in rows]
