"""Worlds: complete deals consistent with everything a seat has seen, the hidden cards dealt at random.

:func:`unseen_cards` works out once per decision which cards the seat cannot see and which public facts pin some
of them to a place (the drawn trump card, shown combos); :func:`determinize` lays one shuffle of them into the
hidden places and builds the deal; :func:`deal_unseen` lays out the same shuffle without building it, for the
inference to weigh (engine/bura/ai/inference.py). Only the view is read.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.bura.cards import BY_INDEX, Card, deck
from engine.bura.combos import Held, combo_rules
from engine.bura.deal import Deal, Play, Trick
from engine.bura.variant import TrumpCard, Variant
from engine.bura.views import SeatView, TrickView
from engine.core.shuffle import shuffle


@dataclass(slots=True)
class Places:
    """How many unseen cards each hidden place of a view takes, in the order ``_lay`` fills them: the others'
    hands (besides the cards pinned to them), the stock and the dead cards (less the turned-up trump card when it
    lies there), the face-down answers (in trick order, play by play)."""

    hands: dict[int, int]
    stock: int
    dead: int
    hidden: list[int]

    @property
    def total(self) -> int:
        return sum(self.hands.values()) + self.stock + self.dead + sum(self.hidden)


@dataclass(slots=True)
class Unseen:
    """The cards a seat cannot see, in deck order, and the public facts that pin some of them to a place."""

    pool: list[Card]
    pinned: dict[int, list[Card]]  # public cards known to sit in a hand: the drawn trump card, shown combos
    stock_trump: bool  # the turned-up trump card still lies in the stock
    dead_trump: bool  # ... or among the dead cards
    places: Places  # the hidden places of the view and how many of these cards each takes


def unseen_cards(view: SeatView, variant: Variant) -> Unseen:
    table = view.table
    seat = view.seat
    sizes = dict(table.hand_sizes)
    tricks = [*table.history, *([table.trick] if table.trick is not None else [])]
    placed: set[Card] = set(view.hand)
    for trick in tricks:
        placed.update(trick.lead)
        for play in trick.plays:
            placed.update(play.cards)  # open ones, and face-down ones this seat may see
    pinned: dict[int, list[Card]] = {}
    trump_card = table.trump_card
    holder = table.trump_card_holder
    stock_trump = dead_trump = False
    if trump_card not in placed:
        if holder is None and table.stock:
            stock_trump = True
        elif holder is None and table.dead:
            dead_trump = True
        elif holder is not None and holder != seat and sizes[holder]:
            pinned[holder] = [trump_card]
        if stock_trump or dead_trump or holder in pinned:
            placed.add(trump_card)
    for shown in table.shown:
        room = sizes[shown.seat] - len(pinned.get(shown.seat, []))
        extra = [c for c in shown.cards if c not in placed][: max(room, 0)]
        if shown.seat != seat and extra:
            pinned.setdefault(shown.seat, []).extend(extra)
            placed.update(extra)
    pool = [card for card in deck(variant.deck_size) if card not in placed]
    hidden = [play.count for trick in tricks for play in trick.plays if len(play.cards) != play.count]
    places = Places(
        {s: max(0, sizes[s] - len(pinned.get(s, []))) for s in table.seats if s != seat},
        max(0, table.stock - 1 if stock_trump else table.stock),
        max(0, table.dead - 1 if dead_trump else table.dead),
        hidden,
    )
    return Unseen(pool, pinned, stock_trump, dead_trump, places)


@dataclass(slots=True)
class Layout:
    """Where one shuffle of the unseen cards lies: the others' hands, the stock (top last), the dead cards and
    the hidden face-down answers (in trick order, play by play); and how many unseen cards were left over, with
    no hidden place the view names (:func:`unplaced`)."""

    hands: dict[int, list[Card]]
    stock: list[Card]
    dead: list[Card]
    hidden: list[tuple[Card, ...]]
    left: int


def _lay(view: SeatView, unseen: Unseen, rng: random.Random, variant: Variant | None) -> Layout:
    """One shuffle of the unseen cards by ``rng``, laid in the hidden places in a fixed order (``unseen.places``):
    the others' hands (after the cards pinned to them), the stock, the dead cards, the face-down answers. Without
    a ``variant`` (it says where the turned-up trump card lies in the stock) the stock and the dead cards are
    skipped, not built: what the inference needs."""
    table = view.table
    room = unseen.places
    pool = list(unseen.pool)
    shuffle(pool, rng)
    at = 0
    hands: dict[int, list[Card]] = {}
    for s, count in room.hands.items():
        hands[s] = sorted([*unseen.pinned.get(s, []), *pool[at : at + count]], key=BY_INDEX)
        at += count
    trump_card = table.trump_card
    stock: list[Card] = []
    dead: list[Card] = []
    if variant is not None:
        stock = pool[at : at + room.stock]
        if unseen.stock_trump:
            stock = [trump_card, *stock] if variant.trump_card is TrumpCard.UNDER_STOCK else [*stock, trump_card]
        dead = pool[at + room.stock : at + room.stock + room.dead]
        if unseen.dead_trump:
            dead = [trump_card, *dead]
    at += room.stock + room.dead
    hidden: list[tuple[Card, ...]] = []
    for count in room.hidden:
        hidden.append(tuple(pool[at : at + count]))
        at += count
    return Layout(hands, stock, dead, hidden, len(pool) - at)


def unplaced(unseen: Unseen) -> int:
    """How many of the unseen cards have no hidden place their view names: cards the only player with cards took
    as an unopposed last trick (RULES §7.4) lie in a pile the view does not say, so no world can be laid out then."""
    return len(unseen.pool) - unseen.places.total


def deal_unseen(
    view: SeatView, unseen: Unseen, rng: random.Random
) -> tuple[dict[int, list[Card]], list[tuple[Card, ...]]]:
    """The others' hands and the hidden face-down answers (in trick order) of one shuffle of the unseen cards,
    dealt as :func:`determinize` deals them, without building the deal."""
    layout = _lay(view, unseen, rng, None)
    return layout.hands, layout.hidden


def lay_out(
    view: SeatView, variant: Variant, unseen: Unseen, rng: random.Random
) -> tuple[dict[int, list[Card]], list[Card], list[tuple[Card, ...]]]:
    """The others' hands, the stock (top last) and the hidden face-down answers (in trick order) of one shuffle of
    the unseen cards: the cards of the world :func:`determinize` builds from the same ``rng``."""
    layout = _lay(view, unseen, rng, variant)
    return layout.hands, layout.stock, layout.hidden


def determinize(view: SeatView, variant: Variant, rng: random.Random, unseen: Unseen | None = None) -> Deal:
    """A complete deal consistent with everything ``view`` shows, the hidden cards dealt at random.

    Only the view is read: the unseen cards are taken in deck order and shuffled by ``rng``, then laid in the
    hidden places (other hands, the stock, dead cards, others' face-down answers) in a fixed order.
    """
    table = view.table
    if unseen is None:
        unseen = unseen_cards(view, variant)
    layout = _lay(view, unseen, rng, variant)
    hands = {**layout.hands, view.seat: list(view.hand)}
    hidden = iter(layout.hidden)

    def rebuild(trick: TrickView) -> Trick:
        plays = [
            Play(p.seat, p.cards if len(p.cards) == p.count else next(hidden), p.face_down, p.beats)
            for p in trick.plays
        ]
        best = trick.lead
        for play in plays:
            if play.beats:
                best = play.cards
        return Trick(trick.number, trick.leader, trick.lead, plays, best, trick.owner)

    history = [rebuild(t) for t in table.history]
    current = rebuild(table.trick) if table.trick is not None else None
    rules = {rule.combo: rule for rule in combo_rules(variant)}
    return Deal.from_position(
        variant,
        table.players,
        seats=table.seats,
        dealer=table.dealer,
        trump_card=table.trump_card,
        hands=hands,
        stock=layout.stock,
        dead=layout.dead,
        trump_card_holder=table.trump_card_holder,
        history=history,
        trick=current,
        tricks_won=table.tricks_won,
        phase=table.phase,
        rightful=table.rightful,
        leader=table.leader,
        forced_lead=table.forced_lead,
        shown=[Held(s.seat, rules[s.combo], s.cards) for s in table.shown if s.combo in rules],
        number=table.deal_number,
    )


def clone(deal: Deal) -> Deal:
    """A copy of ``deal`` that plays on independently (:meth:`Deal.copy`)."""
    return deal.copy()
