"""What a move earned for the chat's tally, seat by seat, as one row a person (computers keep no stats)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage import StatsDelta, Table


def seat_stats(table: Table, earned: Iterable[tuple[int, str]]) -> list[StatsDelta]:
    """``(seat, column)`` pairs, one a point earned, summed per person at ``table``."""
    users = {seat.seat: seat.user_id for seat in table.seats}
    totals: dict[int, dict[str, int]] = {}
    for seat, column in earned:
        user = users.get(seat)
        if user is not None:
            row = totals.setdefault(user, {})
            row[column] = row.get(column, 0) + 1
    return [StatsDelta(chat_id=table.chat_id, user_id=user, **row) for user, row in totals.items()]
