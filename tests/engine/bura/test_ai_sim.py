"""The hard player's fast deal (engine/bura/ai/sim.py) plays the rules of ``Deal``: the same games on both, compared
move by move, from thousands of random states of every profile it supports."""

from __future__ import annotations

import copy
import random

import pytest

from engine.bura.actions import Action, Claim, DeclareCombo, Lead, Pass, RespondFaceDown, RespondOpen
from engine.bura.ai.easy import EASY, SHARP
from engine.bura.ai.playout import habit_move
from engine.bura.ai.search import rollout_choice
from engine.bura.ai.sim import (
    CLAIM,
    DOWN,
    LEAD,
    OPEN,
    PASS,
    Move,
    Sim,
    convertible,
    from_deal,
    from_view,
    supported,
)
from engine.bura.ai.worlds import clone, determinize, unseen_cards
from engine.bura.deal import Deal, Phase
from engine.bura.match import Match
from engine.bura.players import random_step
from engine.bura.variant import PROFILES, SINGLE_DEAL, FollowSuit, Variant
from engine.bura.views import view

CASES = [
    (name, players)
    for name, v in PROFILES.items()
    if supported(v)
    for players in range(v.min_players, v.max_players + 1)
]


def as_move(action: Action) -> Move:
    if isinstance(action, Claim):
        return (CLAIM, ())
    if isinstance(action, Pass):
        return (PASS, ())
    if isinstance(action, Lead):
        return (LEAD, action.cards)
    if isinstance(action, RespondOpen):
        return (OPEN, action.cards)
    assert isinstance(action, RespondFaceDown)
    return (DOWN, action.cards)


def declare_pending(deal: Deal) -> None:
    """Everyone holding a lead-seizing combo says «Стоп!» before the leader moves, as :class:`Sim` resolves it."""
    while deal.phase is Phase.LEAD and not convertible(deal):
        for seat in deal.clockwise_from(deal.rightful):
            declare = [a for a in deal.legal_actions(seat) if isinstance(a, DeclareCombo)]
            if declare and seat != deal.leader:
                deal.apply(declare[0])
                break
        else:
            return


def assert_same(deal: Deal, sim: Sim) -> None:
    assert sim.over == deal.over
    assert sim.hands == deal.hands
    assert sim.stock == deal.stock
    assert sim.points == [deal.pile_points(side) for side in range(deal.sides)]
    assert sim.tricks == deal.tricks_won
    for seat in deal.seats:
        pile = deal.piles[deal.side_of[seat]]
        assert sim.known[seat] == sum(e.card.points for e in pile if not e.face_down or e.played_by == seat)
        assert sim.unseen[seat] == sum(1 for e in pile if e.face_down and e.played_by != seat)
    if deal.over:
        assert deal.outcome is not None
        assert sim.winners == deal.outcome.winners
        return
    to_act = deal.to_act()
    assert to_act is not None
    assert to_act == sim.to_act()
    assert [as_move(a) for a in deal.legal_actions(to_act)] == sim.legal()


def random_deals(variant: Variant, players: int, count: int, seed: int) -> list[Deal]:
    """Deals of random play, each caught at a random moment (mid-window states included)."""
    rng = random.Random(seed)
    deals: list[Deal] = []
    while len(deals) < count:
        match = Match(variant.with_options(match=SINGLE_DEAL), players, rng.randrange(10**9))
        stop = rng.randrange(40)
        for _ in range(stop):
            if match.finished:
                break
            match.apply(random_step(match, rng))
        if not match.finished:
            deals.append(copy.deepcopy(match.deal))
    return deals


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_sim_plays_the_rules_of_deal(name: str, players: int) -> None:
    variant = PROFILES[name]
    rng = random.Random(players)
    for deal in random_deals(variant, players, 60, seed=players):
        declare_pending(deal)
        sim = from_deal(deal)
        assert_same(deal, sim)
        while not deal.over:
            legal = deal.legal_actions(deal.to_act() or 0)
            pick = rng.randrange(len(legal))
            deal.apply(legal[pick])
            sim.apply(sim.legal()[pick])
            declare_pending(deal)
            assert_same(deal, sim)


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_sim_copies_play_on_alone(name: str, players: int) -> None:
    """A copy of a sim, like a clone of a deal, plays on without touching the original."""
    variant = PROFILES[name]
    rng = random.Random(5)
    for deal in random_deals(variant, players, 20, seed=7):
        declare_pending(deal)
        sim = from_deal(deal)
        twin = sim.copy()
        dealt = clone(deal)
        while not twin.over:
            twin.apply(rng.choice(twin.legal()))
        while not dealt.over:
            dealt.apply(rng.choice(dealt.legal_actions(dealt.to_act() or 0)))
            declare_pending(dealt)
        assert_same(deal, sim)


def test_follow_suit_and_the_shokha_are_not_simulated() -> None:
    """The sim's rules model knows neither a duty to follow suit [V08] nor the shokha [B08] and Tvaladze's
    combinations (RULES §3.4, §13): those play out on Deal; every other profile on the sim."""
    assert not supported(PROFILES["BURA_STANDARD"].with_options(follow_suit=FollowSuit.SINGLE_LEAD))
    assert not supported(PROFILES["BURKOZEL"].with_options(shokha=True))
    assert not supported(PROFILES["KOZEL_TVALADZE"])
    assert all(supported(variant) for name, variant in PROFILES.items() if name != "KOZEL_TVALADZE")


FIELDS = [
    "hands",
    "stock",
    "dead",
    "points",
    "tricks",
    "known",
    "unseen",
    "phase",
    "leader",
    "rightful",
    "forced",
    "lead",
    "best",
    "owner",
    "plays",
    "open_value",
    "responders",
    "threshold",
    "seats",
    "side_of",
    "active_sides",
    "trump",
]


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_a_sim_built_from_the_view_is_the_determinized_world(name: str, players: int) -> None:
    """``from_view`` lays the hidden cards as ``determinize`` does from the same dice, without building a deal."""
    variant = PROFILES[name]
    built = 0
    for index, deal in enumerate(random_deals(variant, players, 40, seed=11)):
        match = Match(variant.with_options(match=SINGLE_DEAL), players, 0)
        match.deal = deal
        seat = deal.to_act()
        assert seat is not None
        seat_view = view(match, seat)
        unseen = unseen_cards(seat_view, variant)
        direct = from_view(seat_view, variant, unseen, random.Random(index))
        world = determinize(seat_view, variant, random.Random(index), unseen)
        if direct is None:
            assert world.phase is Phase.LEAD
            continue
        built += 1
        assert convertible(world)
        slow = from_deal(world)
        for field in FIELDS:
            assert getattr(direct, field) == getattr(slow, field), field
    assert built > 20


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_sim_habits_choose_as_the_playouts_on_deal_do(name: str, players: int) -> None:
    """The sim's playout policy (the easy habits and SHARP, no random moves) picks the move ``rollout_choice``
    picks on the same deal: its shortcuts (the weakest cards of a suit as the cheapest lead, one pass over the
    answers) change no choice."""
    variant = PROFILES[name]
    rng = random.Random(0)
    for habits in (EASY, SHARP):
        for deal in random_deals(variant, players, 25, seed=13):
            declare_pending(deal)
            sim = from_deal(deal)
            while not deal.over:
                seat = deal.to_act()
                assert seat is not None
                chosen = rollout_choice(deal, deal.legal_actions(seat), rng, 0.0, habits)
                assert habit_move(sim, rng, 0.0, habits) == as_move(chosen)
                deal.apply(chosen)
                sim.apply(as_move(chosen))
                declare_pending(deal)
