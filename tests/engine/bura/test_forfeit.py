"""A forfeit: the table's ruling that a seat loses the deal (the bot's rule for three timeouts in a row).

It is not a player's move (never in legal_actions) but it is logged, so replay rebuilds it; it is charged as a
lost deal, RULES §8.4 LOSE_DEAL, in every match model (§12).
"""

from __future__ import annotations

import json

import pytest

from engine.bura.actions import Forfeit, Lead
from engine.bura.errors import IllegalAction, Reason
from engine.bura.events import DealEnded, OutcomeKind
from engine.bura.match import Match
from engine.bura.variant import BURA_STANDARD, BURKOZEL, PENALTY_12, SINGLE_DEAL


def _first_lead(match: Match) -> None:
    seat = match.to_act()
    assert seat is not None
    match.apply(next(a for a in match.legal_actions(seat) if isinstance(a, Lead)))


def test_a_forfeit_loses_the_deal_and_the_next_deal_is_dealt() -> None:
    """RULES §12.2: the opponent gets the won deal (+1) and, as winner, deals next (§5.5)."""
    match = Match(BURA_STANDARD, 2, "forfeit-1")
    _first_lead(match)
    events = match.forfeit(0)
    ended = next(e for e in events if isinstance(e, DealEnded))
    assert ended.outcome.kind is OutcomeKind.FORFEIT
    assert ended.outcome.seat == 0 and ended.outcome.winners == (1,)
    assert match.wins == [0, 1] and match.scores == [0, 1]
    assert match.deal_number == 2 and match.dealer == 1
    assert not any(isinstance(action, Forfeit) for action in match.legal_actions(1))  # a ruling, not a move


def test_a_forfeit_is_replayed_from_the_log() -> None:
    match = Match(BURA_STANDARD, 2, "forfeit-2")
    _first_lead(match)
    match.forfeit(1)
    _first_lead(match)
    data = json.loads(json.dumps(match.to_json()))
    assert {"type": "forfeit", "seat": 1} in data["actions"]
    assert Match.from_json(data).snapshot() == match.snapshot()


def test_a_forfeit_costs_the_penalty_of_a_lost_deal() -> None:
    """RULES §12.3 (2 to the loser) and §12.4 (Буркозёл: the worst line of the table, 6)."""
    penalty = Match(BURA_STANDARD.with_options(match=PENALTY_12), 2, "forfeit-3")
    penalty.forfeit(0)
    assert penalty.scores == [2, 0]
    burkozel = Match(BURKOZEL, 2, "forfeit-4")
    burkozel.forfeit(1)
    assert burkozel.scores == [0, 6]


def test_no_forfeit_after_the_match_is_over() -> None:
    match = Match(BURA_STANDARD.with_options(match=SINGLE_DEAL), 2, "forfeit-5")
    match.forfeit(0)
    assert match.finished and match.winners == (1,)
    before = match.snapshot()
    with pytest.raises(IllegalAction) as refused:
        match.forfeit(1)
    assert refused.value.reason is Reason.MATCH_OVER
    assert match.snapshot() == before
