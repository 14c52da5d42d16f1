"""How a Bura-family match ended, side by side: what ratings are computed from (issue 38)."""

from __future__ import annotations

from typing import Final

from bot.games.base import Standing
from engine.bura.match import Match
from engine.bura.variant import MatchKind

_PENALTIES: Final = frozenset({MatchKind.PENALTY_12, MatchKind.BURKOZEL})


def bura_standing(match: Match) -> Standing:
    """The Bura family: the winners first; then the sides still playing by their score (won deals or a pot's
    chips: the more the better; penalty points: the fewer); then the eliminated, the last one out the best."""
    sides = range(match.sides)
    seats = tuple(tuple(match.seats_of(side)) for side in sides)
    if not match.winners:
        return Standing(seats, tuple(1 for _ in sides))  # a tied single deal: nobody won
    sign = 1 if match.variant.match.kind in _PENALTIES else -1
    single = match.variant.match.kind is MatchKind.SINGLE_DEAL
    out = {side: index for index, side in enumerate(match.eliminated)}

    def key(side: int) -> tuple[int, int]:
        if side in match.winners:
            return (0, 0)
        if side in out:
            return (2, -out[side])
        return (1, 0 if single else sign * match.scores[side])  # one deal: its losers lose alike

    keys = [key(side) for side in sides]
    ordered = sorted(set(keys))
    return Standing(seats, tuple(ordered.index(k) + 1 for k in keys))
