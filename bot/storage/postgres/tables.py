"""Tables and their moves (`TableStore`) on PostgreSQL: a move commits state, events, outbox, timer and stats.

One writer per table at a time: a move takes the table's advisory lock (its id) without waiting, and `UPDATE
tables ... WHERE version = $n` locks its row, both until the commit; a second instance moving the same table
meanwhile tries again in its next group and then finds the version moved on (`StaleVersion`).
"""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from bot.storage.base import (
    Deadline,
    Event,
    JsonObject,
    OpenTableExistsError,
    OutboxMessage,
    RatingUpdate,
    Seat,
    StaleVersion,
    StatsDelta,
    Table,
    TableNotFoundError,
    TableStatus,
)
from bot.storage.postgres.database import Busy, Connection, Unwritten, chats_of
from bot.storage.postgres.outbox import insert_outbox
from bot.storage.postgres.ratings import add_ratings
from bot.storage.postgres.rows import WITH_SEATS, Part, ensure_chat, load_table, mark_processed, table_with_seats
from bot.storage.postgres.stats import add_stats
from bot.storage.postgres.timers import set_timer
from bot.storage.records import dumps, event_of


async def replace_seats(db: Connection, table_id: int, seats: Sequence[Seat], now: float) -> None:
    await db.execute("DELETE FROM seats WHERE table_id = $1", table_id)
    if seats:
        await db.executemany(
            "INSERT INTO seats (table_id, seat, user_id, name, joined_at) VALUES ($1, $2, $3, $4, $5)",
            [(table_id, seat.seat, seat.user_id, seat.name, now) for seat in seats],
        )


async def _tables(db: Connection, where: str, *params: object) -> list[Table]:
    rows = await db.fetch(f"SELECT *, {WITH_SEATS} FROM tables WHERE {where} ORDER BY table_id", *params)
    return [table_with_seats(row) for row in rows]


class Tables(Part):
    async def create_table(
        self,
        chat_id: int,
        creator_id: int,
        settings: JsonObject,
        seats: Sequence[Seat] = (),
        outbox: Sequence[OutboxMessage] = (),
        update_id: int | None = None,
        thread_id: int | None = None,
    ) -> Table:
        now = self._clock()

        async def apply(db: Connection) -> Table:
            await ensure_chat(db, chat_id, now)
            try:
                table_id = await db.fetchval(
                    "INSERT INTO tables (chat_id, status, creator_id, settings, state, version, created_at,"
                    " updated_at, thread_id) VALUES ($1, $2, $3, $4, NULL, 0, $5, $5, $6) RETURNING table_id",
                    chat_id,
                    TableStatus.LOBBY.value,
                    creator_id,
                    dumps(settings),
                    now,
                    thread_id,
                )
            except asyncpg.exceptions.UniqueViolationError as error:
                raise OpenTableExistsError(chat_id) from error
            await replace_seats(db, table_id, seats, now)
            await insert_outbox(db, outbox, now, table_id)
            await mark_processed(db, update_id, now)
            table = await load_table(db, table_id)
            assert table is not None
            return table

        return await self._database.write(apply, kind="table", notify=chats_of(outbox))

    async def get_table(self, table_id: int) -> Table | None:
        return await self._database.read(lambda db: load_table(db, table_id))

    async def get_open_table(self, chat_id: int) -> Table | None:
        found = await self._database.read(lambda db: _tables(db, "chat_id = $1 AND status != 'finished'", chat_id))
        return found[0] if found else None

    async def last_finished_table(self, chat_id: int) -> Table | None:
        rows = await self._database.read(
            lambda db: db.fetch(
                f"SELECT *, {WITH_SEATS} FROM tables WHERE chat_id = $1 AND status = 'finished'"
                " AND state IS NOT NULL ORDER BY table_id DESC LIMIT 1",
                chat_id,
            )
        )
        return table_with_seats(rows[0]) if rows else None

    async def list_tables(self, status: TableStatus) -> list[Table]:
        return await self._database.read(lambda db: _tables(db, "status = $1", status.value))

    async def commit_move(
        self,
        table_id: int,
        expected_version: int,
        new_state_json: str | None,
        events: Sequence[JsonObject] = (),
        outbox: Sequence[OutboxMessage] = (),
        update_id: int | None = None,
        *,
        status: TableStatus | None = None,
        seats: Sequence[Seat] | None = None,
        deadline: Deadline | None = None,
        stats: Sequence[StatsDelta] = (),
        ratings: Sequence[RatingUpdate] = (),
        result: JsonObject | None = None,
        chat_settings: JsonObject | None = None,
        chat_language: str | None = None,
    ) -> Table:
        now = self._clock()
        new_version = expected_version + 1
        event_rows = [dumps(event) for event in events]
        chat_json = dumps(chat_settings) if chat_settings is not None else None
        result_json = dumps(result) if result is not None else None

        async def apply(db: Connection) -> Table:
            # The table's advisory lock, taken without waiting, and its row, in one round trip: the lock is
            # tried only on the row of this table (never waits for another instance's open transaction).
            row = await db.fetchrow(
                "UPDATE tables SET state = COALESCE($1, state), status = COALESCE($2, status), version = $3,"
                " updated_at = $4, result = COALESCE($7, result) WHERE table_id = $5 AND version = $6"
                f" AND pg_try_advisory_xact_lock($5) RETURNING *, {WITH_SEATS}",
                new_state_json,
                status.value if status else None,
                new_version,
                now,
                table_id,
                expected_version,
                result_json,
            )
            if row is None:  # nothing written yet: refused without undoing anything
                found = await db.fetchval("SELECT version FROM tables WHERE table_id = $1", table_id)
                if found is None:
                    raise Unwritten(TableNotFoundError(table_id))
                if int(found) == expected_version:
                    raise Busy(table_id)  # another instance is committing a move of this table: the next group
                raise Unwritten(StaleVersion(table_id, expected_version, int(found)))
            if seats is not None:
                await replace_seats(db, table_id, seats, now)
            if event_rows:
                await db.execute(
                    "INSERT INTO events (table_id, seq, payload, created_at)"
                    " SELECT $1, (SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = $1) + e.n, e.payload, $3"
                    " FROM unnest($2::text[]) WITH ORDINALITY AS e(payload, n)",
                    table_id,
                    event_rows,
                    now,
                )
            ids = await insert_outbox(db, outbox, now, table_id)
            await set_timer(db, table_id, new_version, deadline, outbox, ids, now)
            await add_stats(db, stats)
            await add_ratings(db, table_id, int(row["chat_id"]), ratings, now)
            if chat_json is not None or chat_language is not None:
                chat_id = int(row["chat_id"])
                await ensure_chat(db, chat_id, now)
                await db.execute(
                    "UPDATE chats SET settings = COALESCE($1, settings), language = COALESCE($2, language),"
                    " updated_at = $3 WHERE chat_id = $4",
                    chat_json,
                    chat_language,
                    now,
                    chat_id,
                )
            await mark_processed(db, update_id, now)
            return table_with_seats(row, seats)  # the seats it replaced, if any, rather than the ones it read

        return await self._database.write(apply, kind="move", notify=chats_of(outbox))

    async def get_events(self, table_id: int, after_seq: int = 0) -> list[Event]:
        rows = await self._database.read(
            lambda db: db.fetch(
                "SELECT * FROM events WHERE table_id = $1 AND seq > $2 ORDER BY seq", table_id, after_seq
            )
        )
        return [event_of(row) for row in rows]
