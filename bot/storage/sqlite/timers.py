"""Table timers (`TimerStore`) on SQLite: set by each commit, started by the delivery they wait for."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from bot.storage.base import Deadline, OutboxMessage, Timer
from bot.storage.sqlite.rows import Part, fetchall, timer_of

UNSHOWN_GRACE = 3600.0
"""A move timer waiting for its message to be shown fires anyway this long after its own time: a message that
never arrives (and is never given up) must not hold the table for ever."""


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
    wait_from: int | None = None
    if deadline.shown_in is not None:
        chat_id, ref = deadline.shown_in
        rows = [i for message, i in zip(outbox, ids, strict=True) if (message.chat_id, message.ref) == (chat_id, ref)]
        wait_from = rows[-1] if rows else None
    params: tuple[object, ...]
    if wait_from is None:
        params = (table_id, now + deadline.seconds, version, deadline.seconds, None, None, None)
    else:
        assert deadline.shown_in is not None
        due = now + deadline.seconds + UNSHOWN_GRACE
        params = (table_id, due, version, deadline.seconds, *deadline.shown_in, wait_from)
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
        rows = await self._database.read(
            lambda db: fetchall(db, "SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at", (now,))
        )
        return [timer_of(row) for row in rows]
