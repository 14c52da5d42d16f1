"""Stacked decks for scenario tests: say what each seat is dealt, the trump card and the stock."""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from typing import Any

from engine.bura.cards import Card, cards, deck
from engine.bura.deal import Deal
from engine.bura.match import Match
from engine.bura.variant import Variant


class StackedRandom(random.Random):
    """A ``random.Random`` whose shuffle lays out a given order (the engine takes any Random)."""

    def __init__(self, order: Sequence[Card]) -> None:
        super().__init__(0)
        self.order = list(order)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        assert sorted(x) == sorted(self.order), "the stacked order must be a permutation of the deck"
        x[:] = self.order


def deck_order(
    variant: Variant,
    seats: Sequence[int],
    dealer: int,
    hands: dict[int, str],
    trump: str,
    stock: str = "",
) -> list[Card]:
    """The deck order that deals ``hands`` (seat -> "AS KS QS"), turns up ``trump`` and puts ``stock``
    (top first) on top of the rest; unnamed cards fill the bottom of the stock in deck order."""
    named_hands = {seat: list(cards(text)) for seat, text in hands.items()}
    trump_card = Card.parse(trump)
    top = list(cards(stock))
    used = {card for hand in named_hands.values() for card in hand} | {trump_card, *top}
    rest = [card for card in deck(variant.deck_size) if card not in used]
    order_from = list(seats).index(dealer)
    dealing = [*seats[order_from + 1 :], *seats[: order_from + 1]]
    for seat in dealing:
        hand = named_hands.setdefault(seat, [])
        while len(hand) < variant.hand_size:
            hand.append(rest.pop(0))
    result = [named_hands[seat][round_] for round_ in range(variant.hand_size) for seat in dealing]
    # The card after the hands is turned up; the Deal puts it under the stock or back on top ([V06]).
    result += [trump_card, *top, *rest]
    assert len(result) == variant.deck_size and len(set(result)) == len(result)
    return result


def stacked_deal(
    variant: Variant,
    hands: dict[int, str],
    trump: str,
    stock: str = "",
    players: int = 2,
    dealer: int = 1,
) -> tuple[Deal, list[Any]]:
    """A started deal with the given cards; returns the deal and its opening events."""
    seats = tuple(range(players))
    order = deck_order(variant, seats, dealer, hands, trump, stock)
    deal = Deal(variant, players, seats, dealer, StackedRandom(order))
    return deal, deal.begin()


def stacked_match(
    variant: Variant,
    deals: Sequence[dict[str, Any]],
    players: int = 2,
    dealer: int = 1,
) -> Match:
    """A match whose deals are stacked in turn; each item is ``dict(hands=..., trump=..., stock=...)``.

    Deals past the list are shuffled by the seed, so a stacked opening can be followed by random play.
    """
    state: dict[str, Any] = {}

    def shuffler(index: int) -> random.Random:
        if index < len(deals):
            spec = deals[index]
            match = state["match"]
            return StackedRandom(deck_order(variant, tuple(match.active), match.dealer, **spec))
        return random.Random(f"stacked/{index}")

    class _Lazy(Match):
        def __init__(self) -> None:
            state["match"] = self
            super().__init__(variant, players, "stacked", shuffler=shuffler, first_dealer=dealer)

    return _Lazy()
