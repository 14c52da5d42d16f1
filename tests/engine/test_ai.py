"""Computer players: they choose only legal moves, and they play fair.

Fairness: a player's decision depends only on what its seat may see. We take a real state, deal the cards
the seat cannot see into each other's places at random (other hands, the stock, dead cards, others' face-down
answers), check that the seat's view is unchanged, and check that the decision is the same.
"""

from __future__ import annotations

import copy
import random

import pytest

from engine.ai import EasyPlayer, HardPlayer, determinize
from engine.cards import Card
from engine.deal import Deal, Play
from engine.events import PileCard
from engine.match import Match
from engine.players import RandomPlayer, random_step
from engine.variant import BURA_STANDARD, PROFILES, SINGLE_DEAL, Variant
from engine.views import view


def _hidden_slots(deal: Deal, seat: int) -> list[Card]:
    """Every card the seat may not see, wherever it lies (the public trump card and shown combos excepted)."""
    public = {deal.trump_card} | {card for held in deal.shown for card in held.cards}
    hidden: list[Card] = []
    for other, hand in deal.hands.items():
        if other != seat:
            hidden.extend(card for card in hand if card not in public)
    hidden.extend(card for card in [*deal.stock, *deal.dead] if card not in public)
    tricks = [*deal.history, *([deal.trick] if deal.trick is not None else [])]
    for trick in tricks:
        for play in trick.plays:
            if play.face_down and play.seat != seat:
                hidden.extend(play.cards)
    return hidden


def shuffle_unseen(match: Match, seat: int, rng: random.Random) -> Match:
    """A copy of ``match`` in which the cards ``seat`` cannot see have traded places at random."""
    other = copy.deepcopy(match)
    deal = other.deal
    hidden = _hidden_slots(deal, seat)
    shuffled = list(hidden)
    rng.shuffle(shuffled)
    mapping = dict(zip(hidden, shuffled, strict=True))

    def swap(card: Card) -> Card:
        return mapping.get(card, card)

    for holder in deal.hands:
        if holder != seat:
            deal.hands[holder] = sorted((swap(card) for card in deal.hands[holder]), key=lambda c: c.index)
    deal.stock = [swap(card) for card in deal.stock]
    deal.dead = [swap(card) for card in deal.dead]
    for trick in [*deal.history, *([deal.trick] if deal.trick is not None else [])]:
        trick.plays = [
            Play(p.seat, tuple(swap(c) for c in p.cards), p.face_down, p.beats) if p.face_down and p.seat != seat else p
            for p in trick.plays
        ]
    deal.piles = [
        [PileCard(swap(e.card), e.face_down, e.played_by) if e.face_down and e.played_by != seat else e for e in pile]
        for pile in deal.piles
    ]
    deal.deck_order = ()
    deal._legal_cache = {}
    return other


def _random_states(variant: Variant, players: int, count: int, seed: int) -> list[Match]:
    rng = random.Random(seed)
    states: list[Match] = []
    match = Match(variant.with_options(match=SINGLE_DEAL), players, seed)
    while len(states) < count:
        if match.finished:
            match = Match(variant.with_options(match=SINGLE_DEAL), players, rng.randrange(10**9))
            continue
        if rng.random() < 0.3:
            states.append(copy.deepcopy(match))
        match.apply(random_step(match, rng))
    return states


CASES = [(name, players) for name, v in PROFILES.items() for players in sorted({v.min_players, v.max_players})]


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_decisions_do_not_depend_on_unseen_cards(name: str, players: int) -> None:
    variant = PROFILES[name]
    rng = random.Random(11)
    for match in _random_states(variant, players, 12, seed=players):
        seat = match.to_act()
        assert seat is not None
        seen = view(match, seat)
        twin = shuffle_unseen(match, seat, rng)
        assert view(twin, seat) == seen, "shuffling unseen cards must not change the view"
        assert EasyPlayer(variant).choose(view(twin, seat)) == EasyPlayer(variant).choose(seen)
        hard_here = HardPlayer(variant, seed=5, samples=4).choose(seen)
        hard_there = HardPlayer(variant, seed=5, samples=4).choose(view(twin, seat))
        assert hard_here == hard_there


def test_the_shuffle_really_moves_hidden_cards() -> None:
    """The fairness test would prove nothing if the twin had the same hidden cards."""
    match = Match(BURA_STANDARD, 2, 3)
    seat = match.to_act()
    assert seat is not None
    twin = shuffle_unseen(match, seat, random.Random(1))
    other = 1 - seat
    assert twin.deal.hands[seat] == match.deal.hands[seat]
    assert twin.deal.hands[other] != match.deal.hands[other] or twin.deal.stock != match.deal.stock


@pytest.mark.parametrize("name", list(PROFILES))
def test_every_level_chooses_legal_actions(name: str) -> None:
    """Thousands of random states over the profile's player counts: each level picks one of view.legal."""
    variant = PROFILES[name]
    for players in range(variant.min_players, variant.max_players + 1):
        easy = EasyPlayer(variant)
        hard = HardPlayer(variant, seed=players, samples=1)
        rand = RandomPlayer(random.Random(players))
        for match in _random_states(variant, players, 500 // (variant.max_players - variant.min_players + 1), 7):
            for seat in match.active:
                seat_view = view(match, seat)
                if not seat_view.legal:
                    continue
                for player in (easy, rand):
                    assert player.choose(seat_view) in seat_view.legal
            to_act = match.to_act()
            assert to_act is not None
            assert hard.choose(view(match, to_act)) in view(match, to_act).legal


@pytest.mark.parametrize("name", list(PROFILES))
def test_determinized_worlds_agree_with_the_view(name: str) -> None:
    """A sampled world holds every card once, the same hand sizes, and the same moves for the seat."""
    variant = PROFILES[name]
    for match in _random_states(variant, variant.max_players, 40, seed=2):
        seat = match.to_act()
        assert seat is not None
        world = determinize(view(match, seat), variant, random.Random(0))
        places = [*world.stock, *world.dead, *(c for h in world.hands.values() for c in h)]
        places += [entry.card for pile in world.piles for entry in pile]
        if world.trick is not None:
            places += [*world.trick.lead, *(c for p in world.trick.plays for c in p.cards)]
        assert sorted(places) == sorted(match.deal.deck_order)
        assert {s: len(h) for s, h in world.hands.items()} == {s: len(h) for s, h in match.deal.hands.items()}
        assert world.hands[seat] == match.deal.hands[seat]
        assert world.legal_actions(seat) == match.legal_actions(seat)


def test_easy_beats_random_in_a_short_run() -> None:
    """Sanity, not the benchmark (tests/benchmarks/ai_strength.py measures with confidence intervals)."""
    wins = {"easy": 0, "random": 0}
    for number in range(40):
        match = Match(BURA_STANDARD.with_options(match=SINGLE_DEAL), 2, f"duel/{number}")
        easy_seat = number % 2
        easy = EasyPlayer(BURA_STANDARD)
        rand = RandomPlayer(random.Random(number))
        while not match.finished:
            seat = match.to_act()
            assert seat is not None
            player = easy if seat == easy_seat else rand
            match.apply(player.choose(view(match, seat)))
        outcome = match.outcomes[-1]
        if len(outcome.winners) == 1:
            wins["easy" if outcome.winners[0] == easy_seat else "random"] += 1
    assert wins["easy"] > 3 * wins["random"]
