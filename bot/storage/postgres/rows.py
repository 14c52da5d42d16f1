"""What every part of the PostgreSQL storage shares: the rows that several parts write, and who this instance is.

Nothing of the database is kept in memory here: other instances change it, so every read asks PostgreSQL (the
services check what they keep, a table's state, against the version they read; bot/services/live.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from bot.storage.base import Chat, Seat, Table, UpdateAlreadyProcessedError
from bot.storage.postgres.database import Connection, Database
from bot.storage.records import Row, chat_of, table_of

Clock = Callable[[], float]

LEASE_SECONDS = 6.0
"""How long a chat's messages stay with the instance delivering them without it renewing its leases (it does
every `RENEW_EVERY` while it lives): another instance takes them over only after that (this one died), so a
chat's messages keep their order and its pacing history stays in one place."""
RENEW_EVERY = LEASE_SECONDS / 3


WITH_SEATS = (
    "(SELECT COALESCE(json_agg(json_build_array(s.seat, s.user_id, s.name) ORDER BY s.seat), '[]')"
    " FROM seats AS s WHERE s.table_id = tables.table_id) AS seats_json"
)
"""A column of the tables' rows, read or returned: their seats, so that a table costs one round trip."""


def seats_in(row: Row) -> list[Seat]:
    """The seats of a row read with `WITH_SEATS`."""
    return [Seat(seat=seat, user_id=user_id, name=name) for seat, user_id, name in json.loads(row["seats_json"])]


def table_with_seats(row: Row, seats: Sequence[Seat] | None = None) -> Table:
    """A row of `tables` with `WITH_SEATS` as its table (with `seats` instead, when the caller knows them newer)."""
    found = dict(row)
    if seats is None:
        seats = seats_in(row)
    del found["seats_json"]
    return table_of(found, seats)


async def load_table(db: Connection, table_id: int) -> Table | None:
    row = await db.fetchrow(f"SELECT *, {WITH_SEATS} FROM tables WHERE table_id = $1", table_id)
    return table_with_seats(row) if row is not None else None


async def mark_processed(db: Connection, update_id: int | None, now: float) -> None:
    """Record the update as processed in the caller's transaction; raises if it was already.

    Its row may be on its way in another transaction (the inbox's store of its batch, committed by another
    writer): the insert then waits for that one, and the row it committed is marked."""
    if update_id is None:
        return
    marked = await db.fetchval(
        "UPDATE inbox SET processed_at = $1, payload = NULL WHERE update_id = $2 AND processed_at IS NULL"
        " RETURNING update_id",
        now,
        update_id,
    )
    if marked is not None:
        return  # stored, not processed yet: the usual case, one round trip
    select = "SELECT processed_at FROM inbox WHERE update_id = $1 FOR UPDATE"
    row = await db.fetchrow(select, update_id)
    if row is None:  # handled without the inbox (an update fed straight to the dispatcher), or being stored
        inserted = await db.fetchval(
            "INSERT INTO inbox (update_id, payload, received_at, processed_at) VALUES ($1, NULL, $2, $2)"
            " ON CONFLICT DO NOTHING RETURNING update_id",
            update_id,
            now,
        )
        if inserted is not None:
            return
        row = await db.fetchrow(select, update_id)
    if row is None or row["processed_at"] is not None:
        raise UpdateAlreadyProcessedError(update_id)
    await db.execute("UPDATE inbox SET processed_at = $1, payload = NULL WHERE update_id = $2", now, update_id)


async def ensure_chat(db: Connection, chat_id: int, now: float) -> Chat:
    row = await db.fetchrow(
        "INSERT INTO chats (chat_id, created_at, updated_at) VALUES ($1, $2, $2)"
        " ON CONFLICT (chat_id) DO UPDATE SET chat_id = excluded.chat_id RETURNING *",
        chat_id,
        now,
    )
    assert row is not None
    return chat_of(row)


class Part:
    """What each part of `PostgresStorage` works with: the database, the clock, and this instance's name (the
    owner of the chat leases and timer claims it takes)."""

    def __init__(self, database: Database, clock: Clock, instance: str) -> None:
        self._database = database
        self._clock = clock
        self._instance = instance
        self._leases_renewed_at = float("-inf")
