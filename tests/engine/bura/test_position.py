"""``Deal.from_position``: a deal built from where every card lies stands exactly where the real one stands.

For many random deals of every profile, at random moments, the deal rebuilt from the real deal's position has
the same state, the same legal actions for every seat, the same views, and the same future: the same actions
applied to both give the same events, legal actions and state to the end of the deal.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine.bura.actions import DeclareCombo
from engine.bura.cards import Card, cards, codes
from engine.bura.combos import Combo
from engine.bura.deal import Deal, Phase
from engine.bura.match import Match
from engine.bura.players import random_step
from engine.bura.variant import BURA_STANDARD, PROFILES, PreLeadPriority, SameComboTie
from engine.bura.views import public_view, view
from tests.engine.bura.stack import stacked_deal

VARIANTS = {
    **PROFILES,
    "CLAIM_FIRST": BURA_STANDARD.with_options(name="CLAIM_FIRST", pre_lead_priority=PreLeadPriority.CLAIM_FIRST),
    "HIGHER_CARDS": PROFILES["BURKOZEL"].with_options(name="HIGHER_CARDS", same_combo_tie=SameComboTie.HIGHER_CARDS),
}
CASES = [
    (name, players)
    for name, variant in VARIANTS.items()
    for players in range(variant.min_players, variant.max_players + 1)
]


def position_of(deal: Deal, everything: bool = True) -> Deal:
    """The real deal's position fed to ``from_position``; without ``everything``, only what a view tells."""
    extra: dict[str, Any] = {}
    if everything:
        extra = {"piles": deal.piles, "tricks_won": deal.tricks_won, "standing": deal.standing}
    return Deal.from_position(
        deal.variant,
        deal.players,
        seats=deal.seats,
        dealer=deal.dealer,
        trump_card=deal.trump_card,
        hands=deal.hands,
        stock=deal.stock,
        dead=deal.dead,
        trump_card_holder=deal.trump_card_holder,
        history=deal.history,
        trick=deal.trick,
        phase=deal.phase,
        rightful=deal.rightful,
        leader=deal.leader,
        forced_lead=deal.forced_lead,
        shown=deal.shown,
        passed=deal.passed,
        number=deal.number,
        **extra,
    )


def state(deal: Deal) -> dict[str, Any]:
    """Every field of a deal's play (the shuffle's ``deck_order`` aside), as plain data."""
    return {
        "dealer": deal.dealer,
        "number": deal.number,
        "trump": (deal.trump, deal.trump_card, deal.trump_card_holder),
        "phase": deal.phase,
        "rightful": deal.rightful,
        "leader": deal.leader,
        "hands": {seat: codes(hand) for seat, hand in deal.hands.items()},
        "stock": codes(deal.stock),
        "dead": codes(deal.dead),
        "piles": [[(e.card.code, e.face_down, e.played_by) for e in pile] for pile in deal.piles],
        "tricks_won": list(deal.tricks_won),
        "history": [repr(trick) for trick in deal.history],
        "trick": repr(deal.trick),
        "responders": list(deal.responders),
        "forced_lead": deal.forced_lead,
        "standing": deal.standing,
        "shown": list(deal.shown),
        "passed": sorted(deal.passed),
        "pending_instant": deal.pending_instant,
        "last_trick_winner": deal.last_trick_winner,
        "outcome": repr(deal.outcome),
    }


def legal(deal: Deal) -> dict[int, list[Any]]:
    return {seat: deal.legal_actions(seat) for seat in deal.seats}


def check_same_future(real: Deal, rebuilt: Deal, rng: random.Random) -> None:
    """The same random actions, applied to both, give the same events and states to the end of the deal."""
    while not real.over:
        assert legal(rebuilt) == legal(real)
        options = [action for actions in legal(real).values() for action in actions]
        action = rng.choice(options)
        assert rebuilt.apply(action) == real.apply(action)
        assert state(rebuilt) == state(real)


def check_position(match: Match, rng: random.Random) -> None:
    deal = match.deal
    rebuilt = position_of(deal)
    assert state(rebuilt) == state(deal)
    assert legal(rebuilt) == legal(deal)
    twin = copy.copy(match)
    twin.deal = rebuilt
    assert public_view(twin) == public_view(match)
    for seat in match.active:
        assert view(twin, seat) == view(match, seat)
    if deal.phase is not Phase.FINAL_CLAIM:  # no unopposed last trick yet: the piles follow from the tricks
        derived, real = state(position_of(deal, everything=False)), state(deal)
        if deal.phase is not Phase.LEAD:  # the last window's combo stays on after its lead, and tells nothing
            del derived["standing"], real["standing"]
        assert derived == real
    check_same_future(copy.deepcopy(deal), rebuilt, random.Random(rng.random()))


def random_moments(name: str, players: int, count: int, rng: random.Random) -> Iterator[Match]:
    """``count`` random moments of random play of VARIANTS[name] (the match is played on after each)."""
    variant = VARIANTS[name]
    match = Match(variant, players, f"{name}/{players}/{rng.random()}")
    checked = 0
    while checked < count:
        if match.finished:
            match = Match(variant, players, rng.randrange(2**32))
        if rng.random() < 0.4:
            yield match
            checked += 1
        match.apply(random_step(match, rng))


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{name}-{n}" for name, n in CASES])
def test_a_rebuilt_position_stands_where_the_real_deal_stands(name: str, players: int) -> None:
    rng = random.Random(f"position/{name}/{players}")
    for match in random_moments(name, players, 80, rng):
        check_position(match, rng)


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{name}-{n}" for name, n in CASES])
def test_a_copy_plays_on_without_touching_the_original(name: str, players: int) -> None:
    """``Deal.copy`` (a computer copies a world for every move it tries): at random moments the copy has the same
    future as the deal, and playing it to the end leaves the deal's state and legal actions as they were."""
    rng = random.Random(f"copy/{name}/{players}")
    for match in random_moments(name, players, 20, rng):
        deal = match.deal
        before, actions = state(deal), legal(deal)
        check_same_future(copy.deepcopy(deal), deal.copy(), random.Random(rng.random()))
        assert state(deal) == before
        assert legal(deal) == actions


@pytest.mark.parametrize(
    ("hands", "holder"),
    [
        ({0: "6C 7S 8H", 1: "7H 9H JH", 2: "AS AC AH"}, 1),  # seat 1 seized; seat 2's three aces may answer
        ({0: "AS AC AH", 1: "7H 9H JH", 2: "6C 7S 8H"}, 0),  # R showed his three aces and keeps the lead
    ],
)
def test_a_position_in_the_middle_of_a_seizure_race(hands: dict[int, str], holder: int) -> None:
    """RULES §9.5, §10: after seat 1's «Стоп!» with a molodka, the rebuilt deal stands where the real one does:
    the same seat holds the lead, the same higher combo may still answer, the same future."""
    deal, _ = stacked_deal(BURA_STANDARD, hands, "9D", players=3, dealer=2)
    deal.apply(DeclareCombo(1, Combo.MOLODKA))
    assert deal.leader == holder
    rebuilt = position_of(deal)
    assert state(rebuilt) == state(deal)
    assert legal(rebuilt) == legal(deal)
    check_same_future(deal, rebuilt, random.Random(3))


def test_a_position_that_is_not_the_whole_deck_is_refused() -> None:
    deal, _ = stacked_deal(BURA_STANDARD, {0: "QS 7S AH", 1: "9D JS 6H"}, "8D")
    hands: dict[int, list[Card]] = {0: list(cards("QS 7S AH")), 1: list(cards("9D JS 6H"))}
    with pytest.raises(ValueError, match="every card"):
        Deal.from_position(
            BURA_STANDARD,
            2,
            seats=(0, 1),
            dealer=1,
            trump_card=deal.trump_card,
            hands=hands,
            stock=deal.stock[1:],  # a card missing
            rightful=0,
        )
    with pytest.raises(ValueError, match="one of play"):
        Deal.from_position(
            BURA_STANDARD,
            2,
            seats=(0, 1),
            dealer=1,
            trump_card=deal.trump_card,
            hands=hands,
            stock=deal.stock,
            rightful=0,
            phase=Phase.RESPOND,
        )
