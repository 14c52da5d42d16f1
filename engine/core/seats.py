"""Seats around a table and the sides they play for, computed once.

Seats are numbered clockwise from 0. In a partnership game partners sit opposite (RULES §4, §17.1): with four
players seats 0 and 2 are side 0, seats 1 and 3 side 1. Without partners every seat is its own side.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where and for which side."""

    players: int
    partners: bool = False
    side: tuple[int, ...] = field(init=False)
    members: tuple[tuple[int, ...], ...] = field(init=False)

    def __post_init__(self) -> None:
        if self.players < 2:
            raise ValueError("a table needs two players at least")
        if self.partners and self.players % 2:
            raise ValueError("partners need an even number of players")
        sides = 2 if self.partners else self.players
        side = tuple(seat % sides for seat in range(self.players))
        object.__setattr__(self, "side", side)
        object.__setattr__(
            self, "members", tuple(tuple(s for s in range(self.players) if side[s] == n) for n in range(sides))
        )

    @property
    def sides(self) -> int:
        return len(self.members)

    def next_seat(self, seat: int) -> int:
        """The seat to the left, the next one clockwise."""
        return (seat + 1) % self.players

    def partner_of(self, seat: int) -> int | None:
        if not self.partners:
            return None
        return next(s for s in self.members[self.side[seat]] if s != seat)

    def opponents_of(self, side: int) -> tuple[int, ...]:
        return tuple(n for n in range(self.sides) if n != side)
