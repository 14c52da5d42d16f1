"""Tables and their moves (`TableStore`) on SQLite: a move commits state, events, outbox, timer and stats."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from bot.storage.base import (
    Chat,
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
from bot.storage.sqlite.outbox import insert_outbox
from bot.storage.sqlite.ratings import add_ratings
from bot.storage.sqlite.rows import (
    Part,
    dumps,
    ensure_chat,
    event_of,
    fetchall,
    load_seats,
    load_table,
    mark_processed,
    one,
    table_of,
    update_chat,
)
from bot.storage.sqlite.stats import add_stats
from bot.storage.sqlite.timers import set_timer


def replace_seats(db: sqlite3.Connection, table_id: int, seats: Sequence[Seat], now: float) -> None:
    db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
    db.executemany(
        "INSERT INTO seats (table_id, seat, user_id, name, joined_at) VALUES (?, ?, ?, ?, ?)",
        [(table_id, seat.seat, seat.user_id, seat.name, now) for seat in seats],
    )


class Tables(Part):
    def _load_open(self, db: sqlite3.Connection) -> list[Table]:
        rows = fetchall(db, "SELECT table_id FROM tables WHERE status != 'finished' ORDER BY table_id")
        tables = [load_table(db, int(row["table_id"])) for row in rows]
        return [table for table in tables if table is not None]

    def _keep_table(self, table: Table) -> None:
        """The table as just committed: open tables are kept in memory, finished ones are not."""
        if table.status is TableStatus.FINISHED:
            self._open.pop(table.table_id, None)
            if self._open_in_chat.get(table.chat_id) == table.table_id:
                del self._open_in_chat[table.chat_id]
            return
        self._open[table.table_id] = table
        self._open_in_chat[table.chat_id] = table.table_id

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

        def apply(db: sqlite3.Connection) -> tuple[Table, Chat]:
            chat = ensure_chat(db, chat_id, now)
            try:
                cursor = db.execute(
                    "INSERT INTO tables (chat_id, status, creator_id, settings, state, version,"
                    " created_at, updated_at, thread_id) VALUES (?, ?, ?, ?, NULL, 0, ?, ?, ?)",
                    (chat_id, TableStatus.LOBBY.value, creator_id, dumps(settings), now, now, thread_id),
                )
            except sqlite3.IntegrityError as error:
                raise OpenTableExistsError(chat_id) from error
            table_id = cursor.lastrowid
            assert table_id is not None
            replace_seats(db, table_id, seats, now)
            insert_outbox(db, outbox, now, table_id)
            mark_processed(db, update_id, now)
            table = load_table(db, table_id)
            assert table is not None
            return table, chat

        def after(made: tuple[Table, Chat]) -> None:
            table, chat = made
            self._chats.set(chat.chat_id, chat)
            self._keep_table(table)

        table, _ = await self._database.write(apply, kind="table", after=after)
        return table

    async def get_table(self, table_id: int) -> Table | None:
        found = self._open.get(table_id)
        if found is not None:
            return found
        return await self._database.read(lambda db: load_table(db, table_id))

    async def get_open_table(self, chat_id: int) -> Table | None:
        table_id = self._open_in_chat.get(chat_id)
        return self._open[table_id] if table_id is not None else None

    async def last_finished_table(self, chat_id: int) -> Table | None:
        def query(db: sqlite3.Connection) -> Table | None:
            rows = fetchall(
                db,
                "SELECT table_id FROM tables WHERE chat_id = ? AND status = 'finished' AND state IS NOT NULL"
                " ORDER BY table_id DESC LIMIT 1",
                (chat_id,),
            )
            return load_table(db, int(rows[0]["table_id"])) if rows else None

        return await self._database.read(query)

    async def list_tables(self, status: TableStatus) -> list[Table]:
        if status is not TableStatus.FINISHED:
            return sorted((t for t in self._open.values() if t.status is status), key=lambda t: t.table_id)

        def query(db: sqlite3.Connection) -> list[Table]:
            rows = fetchall(db, "SELECT table_id FROM tables WHERE status = 'finished' ORDER BY table_id")
            return [table for row in rows if (table := load_table(db, int(row["table_id"]))) is not None]

        return await self._database.read(query)

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
        known = self._open.get(table_id)
        chat_json = dumps(chat_settings) if chat_settings is not None else None
        result_json = dumps(result) if result is not None else None

        def apply(db: sqlite3.Connection) -> tuple[Table, Chat | None]:
            row = one(
                db,
                "UPDATE tables SET state = COALESCE(?, state), status = COALESCE(?, status), version = ?,"
                " updated_at = ?, result = COALESCE(?, result) WHERE table_id = ? AND version = ? RETURNING *",
                (
                    new_state_json,
                    status.value if status else None,
                    new_version,
                    now,
                    result_json,
                    table_id,
                    expected_version,
                ),
            )
            if row is None:
                found = one(db, "SELECT version FROM tables WHERE table_id = ?", (table_id,))
                if found is None:
                    raise TableNotFoundError(table_id)
                raise StaleVersion(table_id, expected_version, int(found["version"]))
            if seats is not None:
                replace_seats(db, table_id, seats, now)
            if event_rows:
                first = one(db, "SELECT COALESCE(MAX(seq), 0) AS seq FROM events WHERE table_id = ?", (table_id,))
                start = int(first["seq"]) if first is not None else 0
                db.executemany(
                    "INSERT INTO events (table_id, seq, payload, created_at) VALUES (?, ?, ?, ?)",
                    [(table_id, start + n, text, now) for n, text in enumerate(event_rows, start=1)],
                )
            ids = insert_outbox(db, outbox, now, table_id)
            set_timer(db, table_id, new_version, deadline, outbox, ids, now)
            add_stats(db, stats)
            add_ratings(db, table_id, int(row["chat_id"]), ratings, now)
            chat = None
            if chat_json is not None or chat_language is not None:
                chat = update_chat(db, int(row["chat_id"]), now, settings=chat_json, language=chat_language)
            mark_processed(db, update_id, now)
            if seats is not None:
                kept: Sequence[Seat] = seats
            elif known is not None:
                kept = known.seats
            else:
                kept = load_seats(db, table_id)
            return table_of(row, kept), chat

        def after(committed: tuple[Table, Chat | None]) -> None:
            table, chat = committed
            self._keep_table(table)
            if chat is not None:
                self._chats.set(chat.chat_id, chat)

        table, _ = await self._database.write(apply, kind="move", after=after)
        return table

    async def get_events(self, table_id: int, after_seq: int = 0) -> list[Event]:
        rows = await self._database.read(
            lambda db: fetchall(
                db, "SELECT * FROM events WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, after_seq)
            )
        )
        return [event_of(row) for row in rows]
