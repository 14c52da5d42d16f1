"""Property tests over thousands of random legal games of every profile (hypothesis).

After every move: every card is in exactly one place; the seat to act has a legal move; ``legal_actions``
is deterministic; no view shows a card its viewer may not see (RULES §6.6, §6.7). On sampled moves, what holds by
construction of the one truth (``legal_actions``): every listed action applies, and every action it does not list
is refused with a specific reason, changing nothing. At the end of each deal: a played-out deck holds 120 points
(RULES §3.3). At the end: replay from JSON gives the same state.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bura.actions import Action, Claim, DeclareCombo, Lead, Pass, RespondFaceDown, RespondOpen
from engine.bura.cards import ALL_CARDS, Card, deck, points
from engine.bura.combos import Combo
from engine.bura.deal import Phase
from engine.bura.errors import IllegalAction, Reason
from engine.bura.events import OutcomeKind, Responded, TrickTaken
from engine.bura.match import Match
from engine.bura.players import random_step
from engine.bura.variant import PROFILES, Variant
from engine.bura.views import public_view, view

CASES = [
    (name, players)
    for name, variant in PROFILES.items()
    for players in range(variant.min_players, variant.max_players + 1)
]
DEALS_PER_GAME = 4


def _cards_in(value: Any) -> Iterator[Card]:
    """Every card anywhere inside a view (dataclasses, tuples, named tuples)."""
    if isinstance(value, Card):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _cards_in(getattr(value, field.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _cards_in(item)


def _public_cards(match: Match) -> set[Card]:
    """Cards everyone has seen: the turned-up trump, open leads and answers, shown combos."""
    deal = match.deal
    seen = {deal.trump_card}
    tricks = [*deal.history, *([deal.trick] if deal.trick is not None else [])]
    for trick in tricks:
        seen.update(trick.lead)
        for play in trick.plays:
            if not play.face_down:
                seen.update(play.cards)
    for held in deal.shown:
        seen.update(held.cards)
    return seen


def _peeks(match: Match, seat: int) -> bool:
    """RULES §6.6 [V10] taker peeks: whether ``seat`` took the last trick and the next lead has not gathered it."""
    deal = match.deal
    gathered = deal.trick is not None or deal.phase is Phase.OVER
    return deal.variant.taker_peeks and bool(deal.history) and deal.history[-1].owner == seat and not gathered


def _own_face_down(match: Match, seat: int) -> set[Card]:
    deal = match.deal
    tricks = [*deal.history, *([deal.trick] if deal.trick is not None else [])]
    own = {card for trick in tricks for play in trick.plays if play.seat == seat for card in play.cards}
    if _peeks(match, seat):
        own.update(card for play in deal.history[-1].plays for card in play.cards)
    for pile in deal.piles:  # an unopposed last trick holds the player's own cards
        own.update(entry.card for entry in pile if entry.played_by == seat)
    return own


def check_conservation(match: Match) -> None:
    deal = match.deal
    places: list[Card] = [*deal.stock, *deal.dead]
    for hand in deal.hands.values():
        places.extend(hand)
    for pile in deal.piles:
        places.extend(entry.card for entry in pile)
    if deal.trick is not None:
        places.extend(deal.trick.lead)
        for play in deal.trick.plays:
            places.extend(play.cards)
    assert len(places) == len(set(places)), "a card is in two places"
    assert sorted(places) == deck(match.variant.deck_size), "a card is missing"


def check_views(match: Match) -> None:
    public = _public_cards(match)
    leaked = set(_cards_in(public_view(match))) - public
    assert not leaked, f"public view shows hidden cards {leaked}"
    for seat in match.active:
        seat_view = view(match, seat)
        own_hand = set(match.deal.hands.get(seat, ()))
        assert set(seat_view.hand) == own_hand
        allowed = public | own_hand | _own_face_down(match, seat)
        shown = set(_cards_in(dataclasses.replace(seat_view, legal=())))
        assert shown <= allowed, f"seat {seat} sees hidden cards {shown - allowed}"
        for action in seat_view.legal:
            assert set(getattr(action, "cards", ())) <= own_hand
        if _peeks(match, seat):  # and he does see all of the trick he took
            assert all(len(play.cards) == play.count for play in seat_view.table.history[-1].plays)


def _key(action: Action) -> tuple[Any, ...]:
    """The move an action makes: its cards as a set (named in any order), repeats kept."""
    cards = tuple(sorted(getattr(action, "cards", ())))
    return (type(action), action.seat, cards, getattr(action, "combo", None))


def _with_cards(kind: int, seat: int, played: tuple[Card, ...]) -> Action:
    if kind == 0:
        return Lead(seat, played)
    if kind == 1:
        return RespondOpen(seat, played)
    return RespondFaceDown(seat, played)


def random_action(rng: random.Random, players: int) -> Action:
    """Any action at all: a seat on or off the table, any kind, any cards of the deck."""
    seat = rng.randrange(-1, players + 1)
    kind = rng.randrange(6)
    if kind < 3:
        return _with_cards(kind, seat, tuple(rng.sample(ALL_CARDS, rng.randint(0, 5))))
    if kind == 3:
        return Claim(seat)
    if kind == 4:
        return DeclareCombo(seat, rng.choice(list(Combo)))
    return Pass(seat)


def near_miss(match: Match, rng: random.Random) -> Action:
    """An action a player might try: a listed one changed a little (a card swapped, dropped or added, another
    kind or seat, the cards reordered), or cards of a seat's own hand in any number, repeats possible."""
    seat = rng.choice(match.active)
    hand = list(match.deal.hands.get(seat, ()))
    legal = [action for s in match.active for action in match.legal_actions(s)]
    if legal and rng.random() < 0.6:
        base = rng.choice(legal)
        played = list(getattr(base, "cards", ()))
        change = rng.randrange(5)
        if change == 0 and played:
            played[rng.randrange(len(played))] = rng.choice([*hand, *ALL_CARDS[:4]] or ALL_CARDS)
        elif change == 1 and played:
            played.pop(rng.randrange(len(played)))
        elif change == 2:
            played.append(rng.choice(hand or ALL_CARDS))
        elif change == 3:
            return _with_cards(rng.randrange(3), rng.choice(match.active), tuple(played))
        rng.shuffle(played)
        return _with_cards(rng.randrange(3), base.seat, tuple(played)) if played or rng.random() < 0.5 else base
    played = [rng.choice(hand or ALL_CARDS) for _ in range(rng.randint(0, 5))] if rng.random() < 0.2 else []
    if not played and hand:
        played = rng.sample(hand, rng.randint(0, len(hand)))
    return _with_cards(rng.randrange(3), seat, tuple(played))


def check_refusals(match: Match, rng: random.Random, tries: int = 8, every_time: bool = True) -> None:
    """One truth: whatever ``legal_actions`` does not list is refused with a specific reason (never the
    catch-all ``NOT_LEGAL``), the same one ``diagnose`` gives, and nothing changes."""
    legal = {_key(action) for seat in range(match.players) for action in match.legal_actions(seat)}
    before = match.snapshot()
    for number in range(tries):
        action = random_action(rng, match.players) if number % 2 else near_miss(match, rng)
        if _key(action) in legal:
            continue
        with pytest.raises(IllegalAction) as refused:
            match.apply(action)
        assert refused.value.reason is not Reason.NOT_LEGAL, f"no specific reason for {action}"
        assert match.diagnose(action) is refused.value.reason
        if every_time:
            assert match.snapshot() == before, f"refused {action} changed the state"
    assert match.snapshot() == before


def check_every_legal_action_applies(match: Match) -> None:
    for seat in match.active:
        for action in match.legal_actions(seat):
            copy.deepcopy(match).apply(action)


def check_events_public(events: list[Any]) -> None:
    """Events are public: a face-down answer shows only its count until the claim or the end reveals it."""
    for event in events:
        if isinstance(event, Responded) and event.face_down:
            assert event.cards == ()
        if isinstance(event, TrickTaken):
            assert len(event.open_cards) + event.face_down >= 2


def play_checked_game(variant: Variant, players: int, seed: int) -> Match:
    rng = random.Random(seed)
    match = Match(variant, players, seed)
    step = 0
    while not match.finished and match.deal_number <= DEALS_PER_GAME:
        check_conservation(match)
        seat = match.to_act()
        assert seat is not None and match.legal_actions(seat), "the seat to act has no legal action"
        assert match.legal_actions(seat) == match.legal_actions(seat)
        check_views(match)
        if step % 5 == 0:
            check_refusals(match, rng)
        if step % 11 == 0:
            check_every_legal_action_applies(match)
        deal = match.deal
        events = match.apply(random_step(match, rng))
        outcome = deal.outcome
        if outcome is not None and outcome.kind in (OutcomeKind.VOID, OutcomeKind.PLAYED_OUT):
            played = sum(outcome.points) + points(deal.dead)
            assert played == 120, f"a played-out deck holds {played} points"  # RULES §3.3
        check_events_public(events)
        step += 1
    replayed = Match.from_json(json.loads(json.dumps(match.to_json())))
    assert replayed.snapshot() == match.snapshot()
    return match


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{name}-{n}" for name, n in CASES])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_keep_every_invariant(name: str, players: int, seed: int) -> None:
    play_checked_game(PROFILES[name], players, seed)


PEEKING = [(name, PROFILES[name].with_options(taker_peeks=True)) for name in ("BURA_STANDARD", "BURKOZEL")]


@pytest.mark.parametrize(("name", "variant"), PEEKING, ids=[name for name, _ in PEEKING])
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), data=st.data())
def test_taker_peeks_games_keep_every_invariant(name: str, variant: Variant, seed: int, data: st.DataObject) -> None:
    """RULES §6.6 [V10]: with the taker-peeks option no view shows more than the taker's trick on the table."""
    players = data.draw(st.integers(variant.min_players, variant.max_players), label="players")
    play_checked_game(variant, players, seed)


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{name}-{n}" for name, n in CASES])
def test_every_refused_action_gets_a_specific_reason(name: str, players: int) -> None:
    """Over 300 states of random play, 24 tries each (near misses of the listed moves and anything at all):
    ``diagnose`` never falls back on ``NOT_LEGAL`` and a refusal changes nothing."""
    variant = PROFILES[name]
    rng = random.Random(f"refusals/{name}/{players}")
    match = Match(variant, players, "refusals")
    for _ in range(300):
        if match.finished:
            match = Match(variant, players, rng.randrange(2**32))
        check_refusals(match, rng, tries=24, every_time=False)
        match.apply(random_step(match, rng))


@pytest.mark.parametrize("name", list(PROFILES))
def test_replay_is_deterministic(name: str) -> None:
    """The same config, seed and actions give the same state, and the same seed deals the same cards."""
    variant = PROFILES[name]
    first = Match(variant, variant.min_players, "same")
    second = Match(variant, variant.min_players, "same")
    assert first.snapshot() == second.snapshot()
    rng = random.Random(5)
    for _ in range(40):
        if first.finished:
            break
        action = random_step(first, rng)
        first.apply(action)
        second.apply(action)
        assert first.snapshot() == second.snapshot()


def play_light_deals(variant: Variant, players: int, seed: int, deals: int) -> int:
    """Cheaper checks, many more deals: conservation, a move for the seat to act, 120 points."""
    rng = random.Random(seed)
    match = Match(variant, players, seed)
    played = 0
    while played < deals:
        while match.finished:  # a match can end at its very first deal (a dealt bura in a single deal)
            match = Match(variant, players, rng.randrange(2**32))
        seat = match.to_act()
        assert seat is not None and match.legal_actions(seat)
        deal = match.deal
        match.apply(random_step(match, rng))
        if deal.over:
            played += 1
            check_conservation_of(deal)
            outcome = deal.outcome
            assert outcome is not None
            if outcome.kind in (OutcomeKind.VOID, OutcomeKind.PLAYED_OUT):
                assert sum(outcome.points) + points(deal.dead) == 120  # RULES §3.3
    return played


def check_conservation_of(deal: Any) -> None:
    places = [*deal.stock, *deal.dead, *(c for hand in deal.hands.values() for c in hand)]
    places.extend(entry.card for pile in deal.piles for entry in pile)
    assert sorted(places) == deck(deal.variant.deck_size)


@pytest.mark.parametrize("name", list(PROFILES))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), data=st.data())
def test_thousands_of_deals_per_profile(name: str, seed: int, data: st.DataObject) -> None:
    """40 examples x 50 deals: 2,000 random deals per profile, every player count drawn by hypothesis."""
    variant = PROFILES[name]
    players = data.draw(st.integers(variant.min_players, variant.max_players), label="players")
    assert play_light_deals(variant, players, seed, 50) == 50
