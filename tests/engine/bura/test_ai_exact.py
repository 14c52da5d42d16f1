"""The hard player's exact endgame search (engine/bura/ai/exact.py): a stacked endgame whose best line is known, and
the pruned search against plain minimax over every move in random small endgames."""

from __future__ import annotations

import pytest

from engine.bura.actions import Lead
from engine.bura.ai.exact import Exhausted, moves, solve
from engine.bura.ai.sim import DOWN, LEAD, LEAD_PHASE, OPEN, OVER_PHASE, Sim, convertible, from_deal
from engine.bura.cards import Card, cards
from engine.bura.deal import Phase
from engine.bura.events import PileCard
from engine.bura.variant import BURA_5, PROFILES
from tests.engine.bura.stack import stacked_deal
from tests.engine.bura.test_ai_sim import declare_pending, random_deals


def plain_minimax(sim: Sim, side: int) -> float:
    """Every legal move tried, nothing pruned or remembered."""
    if sim.phase == OVER_PHASE:
        return sim.value(side)
    scores = []
    for move in sim.legal():
        child = sim.copy()
        child.apply(move)
        scores.append(plain_minimax(child, side))
    return max(scores) if sim.side_of[sim.to_act()] == side else min(scores)


def _endgame() -> Sim:
    """Бура-5 (most points wins, RULES §11.4), stock empty, 41 points each so far, hearts trump. Seat 1 led the ten
    of spades; seat 0 holds the ace of spades and the six of clubs, seat 1 keeps the king of clubs."""
    deal, _ = stacked_deal(BURA_5, hands={0: "AS 6C 7D 8D 9D", 1: "TS KC 7C 8C 9C"}, trump="6H")
    deal.hands = {0: list(cards("AS 6C")), 1: list(cards("TS KC"))}
    deal.stock = []
    forty = [PileCard(card, False, 0) for card in cards("AH TH AD KH QH JD")]  # 11 + 10 + 11 + 4 + 3 + 2 points
    deal.piles = [list(forty), list(forty)]
    deal.phase = Phase.LEAD
    deal.leader = deal.rightful = 1
    deal._seizers = {}
    deal._legal_cache = {}
    deal.apply(Lead(1, cards("TS")))
    assert convertible(deal)
    return from_deal(deal)


def test_the_exact_search_beats_a_ten_that_decides_the_deal() -> None:
    """Taken with the ace, the ten gives seat 0 the most points; thrown away face down, the ten and then the ace
    go to seat 1 (the king of clubs wins the last trick either way)."""
    sim = _endgame()
    assert sim.points[0] == sim.points[1] == 41
    ace, six = Card.parse("AS"), Card.parse("6C")
    values = {}
    for move in sim.legal():
        child = sim.copy()
        child.apply(move)
        values[move] = solve(child, side=0)
    assert values[(OPEN, (ace,))] == 1.0  # 62 against 45: seat 0 has the most points
    assert values[(DOWN, (six,))] == values[(OPEN, (six,))] == -1.0  # 41 against 66
    assert values[(DOWN, (ace,))] == -1.0
    assert moves(sim) == [(OPEN, (ace,)), (DOWN, (ace,)), (OPEN, (six,))]  # a non-beating twin is tried once
    assert solve(sim, side=0) == 1.0
    assert solve(sim, side=1) == -1.0


def test_a_search_too_big_for_its_budget_says_so() -> None:
    sim = _endgame()
    with pytest.raises(Exhausted):
        solve(sim, side=0, limit=1)


SMALL = [
    ("BURKOZEL", 4),
    ("BURKOZEL", 2),
    ("BURA_STANDARD", 2),
    ("BURA_STANDARD", 3),
    ("BURA_5", 2),
    ("KOZEL_MONEY", 3),
]


@pytest.mark.parametrize(("name", "players"), SMALL, ids=[f"{n}-{p}" for n, p in SMALL])
def test_pruned_search_equals_plain_minimax(name: str, players: int) -> None:
    """Alpha-beta, equivalent cards, face-down twins and the table of trick starts change no value."""
    variant = PROFILES[name]
    checked = 0
    for deal in random_deals(variant, players, 600, seed=3):
        declare_pending(deal)
        if deal.stock or deal.over or not convertible(deal):
            continue
        sim = from_deal(deal)
        if sum(len(hand) for hand in sim.hands.values()) > 7:
            continue
        for side in sim.active_sides:
            assert solve(sim, side) == pytest.approx(plain_minimax(sim, side))
        checked += 1
    assert checked >= 5


def test_equivalent_cards_are_tried_once() -> None:
    """Nine and eight of clubs touch once the other clubs are out of every hand, and are worth nothing: one of them
    is enough; the ace of clubs is not their equal."""
    sim = _endgame()
    sim.hands[0] = list(cards("8C 9C AC"))
    sim.hands[1] = list(cards("KD 6D"))
    sim.phase = LEAD_PHASE
    sim.leader = sim.rightful = 0
    sim.forced = None
    sim.lead = sim.best = ()
    sim.plays = []
    sim.responders = []
    leads = [move for move in moves(sim) if move[0] == LEAD]
    assert (LEAD, cards("8C")) in leads
    assert (LEAD, cards("9C")) not in leads
    assert (LEAD, cards("AC")) in leads
