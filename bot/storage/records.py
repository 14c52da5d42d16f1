"""Database rows to the storage's DTOs and back, the same for every backend (a row is read by its column names)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from bot.storage.base import (
    Chat,
    Deadline,
    Event,
    JsonObject,
    MatchRecord,
    OutboxItem,
    OutboxMessage,
    Rating,
    RatingChange,
    RatingUpdate,
    Seat,
    Stats,
    StatsDelta,
    Table,
    Timer,
    User,
    payload_text,
)

UNSHOWN_GRACE = 3600.0
"""A move timer waiting for its message to be shown fires anyway this long after its own time: a message that
never arrives (and is never given up) must not hold the table for ever."""


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


def stats_of(rows: Iterable[Row]) -> list[Stats]:
    """Tallies from their counters' rows (``chat_id, user_id, game, name, value``), by game, then player."""
    counts: dict[tuple[int, int, str], dict[str, int]] = {}
    for row in rows:
        counts.setdefault((row["chat_id"], row["user_id"], row["game"]), {})[row["name"]] = row["value"]
    return [
        Stats(chat_id=chat, user_id=user, game=game, counts=found)
        for (chat, user, game), found in sorted(counts.items(), key=lambda item: (item[0][2], item[0][1]))
    ]


def stats_rows(deltas: Iterable[StatsDelta]) -> list[tuple[int, int, str, str, int]]:
    """The counters' rows a move adds to (an increment of 0 adds no row)."""
    return [
        (delta.chat_id, delta.user_id, delta.game, name, value)
        for delta in deltas
        for name, value in delta.counts.items()
        if value
    ]


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


def timer_row(
    table_id: int,
    version: int,
    deadline: Deadline,
    outbox: Sequence[OutboxMessage],
    ids: Sequence[int],
    now: float,
) -> tuple[int, float, int, float, int | None, str | None, int | None]:
    """The `timers` row of a deadline set by a commit: table, due, move, seconds, and what it waits for (the
    chat, ref and outbox row of the message of this commit it counts from: the last one of its chat and ref)."""
    if deadline.shown_in is not None:
        chat_id, ref = deadline.shown_in
        rows = [i for message, i in zip(outbox, ids, strict=True) if (message.chat_id, message.ref) == (chat_id, ref)]
        if rows:
            due = now + deadline.seconds + UNSHOWN_GRACE
            return (table_id, due, version, deadline.seconds, chat_id, ref, rows[-1])
    return (table_id, now + deadline.seconds, version, deadline.seconds, None, None, None)


def rating_of(row: Row) -> Rating:
    return Rating.model_validate(columns(row))


def match_record_of(row: Row, seats: Sequence[Seat], changes: Iterable[RatingChange]) -> MatchRecord:
    """A finished match from its table's row (``table_id, result, updated_at``)."""
    return MatchRecord(
        table_id=row["table_id"],
        seats=tuple(seats),
        finished_at=row["updated_at"],
        result=loads(row["result"]),
        changes=tuple(change for change in changes if change.table_id == row["table_id"]),
    )


def rating_change_of(row: Row) -> RatingChange:
    return RatingChange(
        table_id=row["table_id"],
        chat_id=row["chat_id"],
        user_id=row["user_id"],
        game=row["game"],
        before=row["rating_before"],
        after=row["rating_after"],
        at=row["at"],
    )


def rating_rows(ratings: Iterable[RatingUpdate], now: float) -> list[tuple[int, str, float, float, float]]:
    """The `ratings` rows a match's end sets (user, game, mu, sigma, when)."""
    return [(rating.user_id, rating.game, rating.mu, rating.sigma, now) for rating in ratings]


def rating_change_rows(
    table_id: int, chat_id: int, ratings: Iterable[RatingUpdate], now: float
) -> list[tuple[int, int, int, str, int, int, float]]:
    """The `rating_changes` rows of a match's end (table, chat, user, game, before, after, when)."""
    return [(table_id, chat_id, r.user_id, r.game, r.before, r.after, now) for r in ratings]
