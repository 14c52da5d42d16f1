"""Properties over many random legal deals (STYLE.md: invariants and determinism), RULES §17."""

from __future__ import annotations

import random
from itertools import product

import pytest

from engine.buraco.actions import (
    Action,
    AddToRun,
    Discard,
    DrawStock,
    NewRun,
    TakePile,
    action_from_json,
    action_to_json,
)
from engine.buraco.cards import BY_INDEX, JOKER, KINDS, WILDS, Card, deck
from engine.buraco.deal import Phase
from engine.buraco.errors import IllegalAction
from engine.buraco.events import MortoTaken
from engine.buraco.match import Match
from engine.buraco.melds import HIGH, LOW, Meld, arrange, natural, new_runs
from engine.buraco.views import HandView, TableView, hand_view, seat_view, table_view
from engine.core.cards import SUITS, Suit
from tests.engine.buraco.stack import dealt, lay, position, took_morto

H = Suit.HEARTS

DEALS = 2000


def everything(match: Match) -> list[Card]:
    return sorted(match.deal.cards_in_play(), key=BY_INDEX)


FULL = sorted(deck(), key=BY_INDEX)


def illegal_tries(match: Match, rng: random.Random) -> list[Action]:
    """Actions that are not legal now: another seat's, cards not held, shapes not runs."""
    seat = match.to_act()
    assert seat is not None
    other = (seat + rng.randrange(1, 4)) % 4
    hand = match.deal.hands[seat]
    missing = [card for card in KINDS if card not in hand]
    tries: list[Action] = [DrawStock(other), TakePile(other), Discard(other, rng.choice(match.deal.hands[other]))]
    tries.append(Discard(seat, rng.choice(missing)))
    a, b, c = (rng.choice(KINDS) for _ in range(3))
    tries.append(NewRun(seat, rng.choice(SUITS), rng.randrange(1, 13), (a, b, c)))
    tries.append(AddToRun(seat, rng.randrange(2), rng.randrange(3), rng.choice(KINDS), rng.randrange(1, 15)))
    legal = match.legal_actions(seat)
    return [action for action in tries if action not in legal]


def play_one(seed: int, check_every: int) -> Match:
    rng = random.Random(seed)
    match = Match(seed=seed, target=1)
    steps = 0
    while not match.finished:
        seat = match.to_act()
        assert seat is not None
        legal = match.legal_actions(seat)
        assert legal, "a seat to act always has a legal action"
        assert len(match.deal.cards_in_play()) == 108
        if steps % check_every == 0:
            assert everything(match) == FULL, "the 108 cards are all accounted for"
            before = match.snapshot()
            for action in illegal_tries(match, rng):
                with pytest.raises(IllegalAction):
                    match.apply(action)
                assert match.snapshot() == before, ("an illegal action changed the state", action)
            for action in legal:  # every legal action applies
                twin = match.deal.copy()
                twin.apply(action)
                assert len(twin.cards_in_play()) == 108
            check_views(match)
        # play melds more often than chance would, so deals reach canastras, mortos and going out
        melds = [a for a in legal if isinstance(a, (NewRun, AddToRun))]
        action = rng.choice(melds) if melds and rng.random() < 0.8 else rng.choice(legal)
        assert action_from_json(action_to_json(action)) == action
        match.apply(action)
        steps += 1
    return match


def check_views(match: Match) -> None:
    """No view shows a hand but the seat's own, nor an untaken morto's cards."""
    deal = match.deal
    public = table_view(match)
    card_fields = {
        name
        for name in TableView.__dataclass_fields__
        if "Card" in str(TableView.__dataclass_fields__[name].type)
        or "Meld" in str(TableView.__dataclass_fields__[name].type)
    }
    assert card_fields == {"pile", "runs"}
    assert list(public.pile) == deal.pile
    for side in (0, 1):
        assert list(public.runs[side]) == deal.table_runs(side)
    for seat in range(4):
        view = seat_view(match, seat)
        assert sorted(view.hand) == sorted(deal.hands[seat])
        assert view.table == public
        shown = hand_view(match, seat)  # what the hand message renders: the same, without the computer's memory
        assert shown == HandView(**{name: getattr(view, name) for name in HandView.__dataclass_fields__})
        if seat != deal.turn:
            assert view.draft == () and view.drawn is None and view.forbidden is None


def test_random_deals_keep_every_invariant_and_replay_exactly() -> None:
    closed = exhausted = mortos = 0
    for seed in range(DEALS):
        match = play_one(seed, check_every=97 if seed % 10 else 7)
        replayed = Match.from_json(match.to_json())
        assert replayed.snapshot() == match.snapshot(), "replay rebuilds the same state"
        last = match.history[-1]
        assert all(isinstance(score.total, int) for score in last)
        closed += match.deal.closer is not None
        exhausted += match.deal.closer is None
        mortos += sum(taken is not None for taken in match.deal.morto_taken)
        assert match.deal.phase is Phase.OVER
    # the random deals reach every ending (the property test is only worth its endings)
    assert closed > DEALS // 20 and exhausted > DEALS // 20 and mortos > DEALS


def test_new_runs_are_exactly_the_runs_of_three_the_hand_can_lay() -> None:
    rng = random.Random(2)
    cards = deck()
    for _ in range(300):
        hand: dict[Card, int] = {}
        for card in rng.sample(cards, rng.choice((11, 14, 25))):
            hand[card] = hand.get(card, 0) + 1
        expected = set()
        for suit in SUITS:
            for low in range(LOW, HIGH - 1):
                choices = [(natural(suit, p), *WILDS) for p in range(low, low + 3)]
                for laid in product(*choices):
                    need: dict[Card, int] = {}
                    for card in laid:
                        need[card] = need.get(card, 0) + 1
                    if all(hand.get(card, 0) >= n for card, n in need.items()) and isinstance(
                        arrange(suit, low, laid), Meld
                    ):
                        expected.add((suit, low, laid))
        found = new_runs(hand)
        assert len(found) == len(set(found)) and set(found) == expected


def test_after_a_lone_pile_card_no_listed_move_leaves_the_turn_without_an_end() -> None:
    """RULES §17.7a-16: over 1,500 positions where a lone pile card (a heart or a joker) is taken into a hand of
    its copies and a few other cards, beside runs of the pair that may take the copies (clean, dirty, or dirty
    with the substitute in the copy's place), with the pair's morto taken or not and one or two left: every move
    listed keeps a move listed until the turn ends, and the guard does let copies be melded away to a morto."""
    rng = random.Random(16)
    hands_of_copies = mortos_taken = 0
    for _ in range(1500):
        rank = rng.randrange(4, 11)
        lone = rng.choice([natural(H, rank), natural(H, rank), JOKER])
        wild = rng.choice([JOKER, Card(2, Suit.SPADES)])
        runs = []
        for low in (rank - 3, rank + 1, rank - 1):
            laid = [natural(H, p) for p in range(low, low + 3)]
            if low == rank - 1:
                laid[1] = wild  # the substitute stands in the lone card's place: adding it moves the substitute
            elif rng.random() < 0.3:
                laid[rng.randrange(3)] = wild
            meld = arrange(H, low, laid)
            if isinstance(meld, Meld) and rng.random() < 0.6:
                runs.append(meld)
        deal = dealt({})
        copies = rng.randrange(4 if lone is JOKER else 2)
        others = rng.sample(["3C", "4C", "5C", "9D", "KS"], rng.randrange(4))
        try:
            lay(deal, 0, *runs)
            if rng.random() < 0.3:
                took_morto(deal, 2)
            if rng.random() < 0.1:
                deal.hands[3].extend(deal.mortos.pop())  # a morto gone into the stock long ago
            position(deal, 0, " ".join([lone.code] * copies + others), phase=Phase.DRAW, pile=lone.code)
        except ValueError:
            continue  # the runs hold the copies the hand wants
        if TakePile(0) not in deal.legal_actions(0):
            continue
        deal.apply(TakePile(0))
        while not deal.over and deal.turn == 0:
            legal = deal.legal_actions(0)
            assert legal, "a move listed after a lone pile card left the turn without an end"
            hands_of_copies += all(card is lone for card in deal.hands[0])
            events = deal.apply(rng.choice(legal))
            if any(isinstance(event, MortoTaken) for event in events):
                mortos_taken += 1
                break
    assert hands_of_copies > 100 and mortos_taken > 100
