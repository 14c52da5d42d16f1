"""engine/core: seats and sides computed once, the refusal every game raises, the Game protocol."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.bura.match import Match
from engine.bura.variant import BURA_STANDARD
from engine.core.errors import IllegalAction
from engine.core.match import Match as AnyMatch
from engine.core.seats import Seating


def test_partners_sit_opposite() -> None:
    # RULES §4 and §17.1: with four players in two partnerships, partners sit opposite.
    seating = Seating(4, partners=True)
    assert seating.side == (0, 1, 0, 1)
    assert seating.members == ((0, 2), (1, 3))
    assert seating.partner_of(1) == 3
    assert seating.opponents_of(0) == (1,)
    assert seating.next_seat(3) == 0


def test_without_partners_every_seat_is_its_own_side() -> None:
    seating = Seating(3)
    assert seating.side == (0, 1, 2)
    assert seating.sides == 3
    assert seating.partner_of(0) is None


def test_partners_need_an_even_table() -> None:
    with pytest.raises(ValueError):
        Seating(3, partners=True)


def test_a_bura_match_is_a_game_and_its_refusals_are_the_core_kind() -> None:
    match = Match(BURA_STANDARD, 2, seed=1)
    assert isinstance(match, AnyMatch)
    seat = match.to_act()
    assert seat is not None
    other = 1 - seat
    assert match.legal_actions(other) == []
    with pytest.raises(IllegalAction):
        match.apply(replace(match.legal_actions(seat)[0], seat=other))
