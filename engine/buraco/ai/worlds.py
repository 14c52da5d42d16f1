"""Worlds: the cards a seat cannot see, dealt at random in a way consistent with everything it does see.

A seat sees its own hand (and its draft), the whole pile, both pairs' runs, how many cards each hand, the stock
and the untouched mortos hold, and the cards that went into a hand with a pile (``SeatView.seen``). The cards
it cannot see are the 108 less all of those, taken in deck order (so the list depends on the view alone); a
world shuffles them with the player's own ``random.Random`` and deals them into the hidden places in a fixed
order: the other hands clockwise after the seat (each beside the cards it is known to hold), the stock, the
mortos. :func:`determinize` builds that world as a real ``Deal`` (``Deal.from_position``) for the engine to
play on.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.buraco.cards import BY_INDEX, Card, deck
from engine.buraco.deal import HAND, Deal
from engine.buraco.views import SeatView
from engine.core.shuffle import shuffle

_DECK: tuple[Card, ...] = tuple(sorted(deck(), key=BY_INDEX))


@dataclass(frozen=True, slots=True)
class Unseen:
    """The cards ``seat`` cannot see and where they lie hidden."""

    seat: int
    pool: tuple[Card, ...]  # in deck order
    hidden: tuple[int, int, int, int]  # per seat, the cards of that hand it cannot see (0 for the seat itself)
    stock: int
    mortos: int

    @property
    def mean_value(self) -> float:
        """The average value of a card it cannot see (RULES §17.7), for hands it cannot look into."""
        return sum(card.value for card in self.pool) / len(self.pool) if self.pool else 0.0


def unseen(view: SeatView) -> Unseen:
    table = view.table
    seat = view.seat
    visible: dict[Card, int] = {}

    def saw(cards: Sequence[Card]) -> None:
        for card in cards:
            visible[card] = visible.get(card, 0) + 1

    saw(view.hand)
    for meld in view.draft:
        saw(meld.cards)
    saw(table.pile)
    for side in table.runs:
        for meld in side:
            saw(meld.cards)
    hidden = [0, 0, 0, 0]
    for other in range(4):
        if other == seat:
            continue
        saw(view.seen[other])
        hidden[other] = table.hand_sizes[other] - len(view.seen[other])
    pool: list[Card] = []
    for card in _DECK:
        if visible.get(card, 0):
            visible[card] -= 1
        else:
            pool.append(card)
    if len(pool) != sum(hidden) + table.stock + HAND * table.mortos:
        raise ValueError("the view does not account for the 108 cards")
    return Unseen(seat, tuple(pool), (hidden[0], hidden[1], hidden[2], hidden[3]), table.stock, table.mortos)


@dataclass(frozen=True, slots=True)
class World:
    """One guess at the hidden cards: the others' whole hands, the stock (top last) and the mortos."""

    hands: tuple[tuple[Card, ...], ...]  # the seat's own hand is its real one
    stock: tuple[Card, ...]
    mortos: tuple[tuple[Card, ...], ...]


def sample(view: SeatView, hidden: Unseen, rng: random.Random) -> World:
    """Shuffle the unseen cards and deal them (see the module docstring)."""
    pool = list(hidden.pool)
    shuffle(pool, rng)
    at = 0
    hands: list[tuple[Card, ...]] = [view.hand] * 4
    for step in range(1, 4):
        other = (view.seat + step) % 4
        count = hidden.hidden[other]
        hands[other] = (*view.seen[other], *pool[at : at + count])
        at += count
    stock = tuple(pool[at : at + hidden.stock])
    at += hidden.stock
    mortos = tuple(tuple(pool[at + HAND * n : at + HAND * (n + 1)]) for n in range(hidden.mortos))
    return World(tuple(hands), stock, mortos)


def determinize(view: SeatView, world: World) -> Deal:
    """The world as a ``Deal`` at the view's moment, for the engine to play on."""
    table = view.table
    side = view.side
    draft = (view.draft if side == 0 else (), view.draft if side == 1 else ())
    assert table.turn is not None
    return Deal.from_position(
        dealer=table.dealer,
        vulnerable=table.vulnerable,
        hands=world.hands,
        stock=world.stock,
        pile=table.pile,
        mortos=world.mortos,
        runs=(table.runs[0] + draft[0], table.runs[1] + draft[1]),
        opened=table.opened,
        # direta or not changes no rule; a morto not yet played from was taken by discarding
        morto_taken=(
            _taken(table.morto_takers[0], table.unplayed_morto[0]),
            _taken(table.morto_takers[1], table.unplayed_morto[1]),
        ),
        unplayed_morto=table.unplayed_morto,
        turn=table.turn,
        phase=table.phase,
        first_turn=table.first_turn,
        drawn=view.drawn,
        forbidden=view.forbidden,
    )


def _taken(taker: int | None, unplayed: int | None) -> tuple[int, bool] | None:
    return None if taker is None else (taker, unplayed is None)
