"""Database rows to the storage's DTOs, the same for every backend (a row is read by its column names)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from bot.storage.base import Chat, Event, JsonObject, OutboxItem, Seat, Stats, Table, Timer, User, payload_text


class Row(Protocol):
    """A row of either driver: sqlite3.Row and asyncpg.Record both read by column name."""

    def keys(self) -> Iterable[str]: ...

    def __getitem__(self, key: str, /) -> Any: ...


def dumps(value: JsonObject) -> str:
    return payload_text(value)


def loads(text: str) -> JsonObject:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"expected a JSON object, got {type(value).__name__}")
    return value


def columns(row: Row, *json_columns: str) -> dict[str, Any]:
    """A row as a dict for a DTO's `model_validate`, with its JSON text columns parsed."""
    found: dict[str, Any] = dict(row)
    for name in json_columns:
        found[name] = loads(found[name])
    return found


def table_of(row: Row, seats: Sequence[Seat]) -> Table:
    return Table.model_validate({**columns(row, "settings"), "seats": tuple(seats)})


def seat_of(row: Row) -> Seat:
    return Seat(seat=row["seat"], user_id=row["user_id"], name=row["name"])


def chat_of(row: Row) -> Chat:
    return Chat.model_validate(columns(row, "settings"))


def user_of(row: Row) -> User:
    return User.model_validate(columns(row))


def stats_of(row: Row) -> Stats:
    return Stats.model_validate(columns(row))


def event_of(row: Row) -> Event:
    return Event.model_validate(columns(row, "payload"))


def outbox_item_of(row: Row) -> OutboxItem:
    found = columns(row, "payload")
    found["digest"] = found.get("digest") or ""
    found["replaces"] = bool(found.get("replaces"))
    found["done"] = bool(found.get("done"))
    return OutboxItem.model_validate(found)


def timer_of(row: Row) -> Timer:
    return Timer(
        table_id=row["table_id"],
        due_at=row["due_at"],
        move_no=row["move_no"],
        seconds=row["seconds"],
        armed=row["wait_chat"] is None,
    )
