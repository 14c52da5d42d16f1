"""What every part of the SQLite storage shares: queries, the rows that several parts write, the memory.

Rows become DTOs the same way on every backend (bot/storage/records.py)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

from bot.storage.base import Chat, Seat, Table, UpdateAlreadyProcessedError, User
from bot.storage.records import (
    chat_of,
    columns,
    dumps,
    event_of,
    loads,
    outbox_item_of,
    seat_of,
    stats_of,
    table_of,
    timer_of,
    user_of,
)
from bot.storage.sqlite.database import Database

__all__ = [
    "Bounded",
    "Clock",
    "Part",
    "chat_of",
    "columns",
    "dumps",
    "ensure_chat",
    "event_of",
    "fetchall",
    "load_seats",
    "load_table",
    "loads",
    "mark_processed",
    "one",
    "outbox_item_of",
    "stats_of",
    "table_of",
    "timer_of",
    "user_of",
]

Clock = Callable[[], float]
K = TypeVar("K")
V = TypeVar("V")


def fetchall(db: sqlite3.Connection, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
    return db.execute(sql, tuple(params)).fetchall()


def one(db: sqlite3.Connection, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
    row: sqlite3.Row | None = db.execute(sql, tuple(params)).fetchone()
    return row


def load_seats(db: sqlite3.Connection, table_id: int) -> tuple[Seat, ...]:
    rows = fetchall(db, "SELECT seat, user_id, name FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
    return tuple(seat_of(row) for row in rows)


def load_table(db: sqlite3.Connection, table_id: int) -> Table | None:
    row = one(db, "SELECT * FROM tables WHERE table_id = ?", (table_id,))
    return table_of(row, load_seats(db, table_id)) if row is not None else None


def mark_processed(db: sqlite3.Connection, update_id: int | None, now: float) -> None:
    """Record the update as processed in the caller's transaction; raises if it was already."""
    if update_id is None:
        return
    row = one(db, "SELECT processed_at FROM inbox WHERE update_id = ?", (update_id,))
    if row is None:  # handled without the inbox (an update fed straight to the dispatcher)
        db.execute(
            "INSERT INTO inbox (update_id, payload, received_at, processed_at) VALUES (?, NULL, ?, ?)",
            (update_id, now, now),
        )
    elif row["processed_at"] is not None:
        raise UpdateAlreadyProcessedError(update_id)
    else:
        db.execute("UPDATE inbox SET processed_at = ?, payload = NULL WHERE update_id = ?", (now, update_id))


def ensure_chat(db: sqlite3.Connection, chat_id: int, now: float) -> Chat:
    db.execute(
        "INSERT INTO chats (chat_id, created_at, updated_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        (chat_id, now, now),
    )
    row = one(db, "SELECT * FROM chats WHERE chat_id = ?", (chat_id,))
    assert row is not None
    return chat_of(row)


def update_chat(
    db: sqlite3.Connection, chat_id: int, now: float, *, settings: str | None, language: str | None
) -> Chat:
    """Set a chat's settings (JSON text) and language where given; the chat as it is then."""
    ensure_chat(db, chat_id, now)
    db.execute(
        "UPDATE chats SET settings = COALESCE(?, settings), language = COALESCE(?, language), updated_at = ?"
        " WHERE chat_id = ?",
        (settings, language, now, chat_id),
    )
    row = one(db, "SELECT * FROM chats WHERE chat_id = ?", (chat_id,))
    assert row is not None
    return chat_of(row)


class Bounded(Generic[K, V]):
    """A dict that forgets its oldest entries past `size` (users and chats seen lately)."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        return self._items.get(key)

    def set(self, key: K, value: V) -> None:
        self._items.pop(key, None)
        self._items[key] = value
        if len(self._items) > self._size:
            del self._items[next(iter(self._items))]

    def setdefault(self, key: K, value: V) -> V:
        found = self._items.get(key)
        if found is not None:
            return found
        self.set(key, value)
        return value

    def pop(self, key: K) -> None:
        self._items.pop(key, None)


class Part:
    """What each part of `SqliteStorage` works with: the database, the clock, and the state kept in memory.

    This process is the only one that writes the file (the lock in `Database.open`), so what it keeps in memory
    is exact: every open table (loaded when the storage opens, kept in step by each commit), and the users and
    chats seen lately (set by each write that changes them; a read that misses goes to the reader)."""

    USERS_KEPT = 100_000
    CHATS_KEPT = 100_000

    def __init__(self, database: Database, clock: Clock) -> None:
        self._database = database
        self._clock = clock
        self._open: dict[int, Table] = {}  # table id -> the open table (lobby or playing)
        self._open_in_chat: dict[int, int] = {}  # chat id -> its open table's id
        self._users: Bounded[int, User] = Bounded(self.USERS_KEPT)
        self._chats: Bounded[int, Chat] = Bounded(self.CHATS_KEPT)
