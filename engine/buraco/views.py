"""What anyone may see of a Buraco table (RULES §17.2): the runs of both pairs, the whole discard pile, how
many cards are in the stock, each hand and the mortos (never their cards), the scores; and what one seat sees
besides: his own hand, his draft of an opening not yet made, the first card drawn before he keeps it.

The bot renders only these views (a ``HandView`` for a seat's hand); the partner's hand is as hidden as the
opponents' (§17.2).

A computer player (engine.buraco.ai) decides from a ``SeatView`` alone, so the view also carries what a
player at the table remembers: which seat took which morto and whether it has played from it yet, which pairs
have opened, the seat's legal actions, and the cards seen going into each hand when a pile was taken (a pile
is taken face up, §17.3) and not seen leaving it since.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.buraco.actions import (
    Action,
    AddToRun,
    Discard,
    KeepDrawn,
    NewRun,
    RejectDrawn,
    TakePile,
)
from engine.buraco.cards import BY_INDEX, Card
from engine.buraco.deal import HAND, Phase
from engine.buraco.match import Match
from engine.buraco.melds import Meld


@dataclass(frozen=True, slots=True)
class TableView:
    deal_number: int  # from 1
    dealer: int
    turn: int | None
    phase: Phase
    first_turn: bool
    stock: int
    pile: tuple[Card, ...]  # bottom first; every card stays visible (§17.3)
    mortos: int  # still untouched
    morto_taken: tuple[bool, bool]
    hand_sizes: tuple[int, int, int, int]
    runs: tuple[tuple[Meld, ...], tuple[Meld, ...]]  # per side, numbered from 1 in this order
    vulnerable: tuple[bool, bool]
    totals: tuple[int, int]
    finished: bool
    winner: int | None
    opened: tuple[bool, bool] = (False, False)  # a pair has runs on the table (its opening made, §17.5)
    morto_takers: tuple[int | None, int | None] = (None, None)  # the seat that took each pair's morto
    unplayed_morto: tuple[int | None, int | None] = (None, None)  # an indireta's taker not yet played from it


@dataclass(frozen=True, slots=True)
class HandView:
    """What one seat sees of the table: the table, and his own hand, draft, first card and forbidden discard."""

    table: TableView
    seat: int
    hand: tuple[Card, ...]  # sorted by suit then rank, jokers last
    draft: tuple[Meld, ...]  # an opening being laid (§17.5), not on the table yet
    drawn: Card | None  # the deal's first card, before it is kept or refused
    forbidden: Card | None  # the lone pile card just taken: no equal card may be discarded this turn
    fresh: Card | None = None  # the card he drew from the stock this turn, while it is still in his hand

    @property
    def side(self) -> int:
        return self.seat % 2


@dataclass(frozen=True, slots=True)
class SeatView(HandView):
    """A hand's view with what a player at the table remembers and may do: what a computer decides from."""

    legal: tuple[Action, ...] = ()  # what the seat may do now (empty when it is not his to act)
    # per seat: cards seen going into that hand with a pile and not seen leaving it since (melded or
    # discarded); a draft taken back is forgotten, so these are always in that hand, perhaps not all of it
    seen: tuple[tuple[Card, ...], ...] = ((), (), (), ())


def table_view(match: Match) -> TableView:
    deal = match.deal
    sizes = [len(hand) for hand in deal.hands]
    for side in (0, 1):
        if deal.drafting(side) and deal.runs[side]:
            # the draft's cards are still the drafting seat's, as far as anyone else can tell
            sizes[deal.turn] += sum(len(meld.cards) for meld in deal.runs[side])
    return TableView(
        deal_number=match.deal_number + (0 if match.finished else 1),
        dealer=deal.dealer,
        turn=match.to_act(),
        phase=deal.phase,
        first_turn=deal.first_turn,
        stock=len(deal.stock),
        pile=tuple(deal.pile),
        mortos=len(deal.mortos),
        morto_taken=(deal.morto_taken[0] is not None, deal.morto_taken[1] is not None),
        hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3]),
        runs=(tuple(deal.table_runs(0)), tuple(deal.table_runs(1))),
        vulnerable=deal.vulnerable,
        totals=(match.totals[0], match.totals[1]),
        finished=match.finished,
        winner=match.winner,
        opened=(deal.opened[0], deal.opened[1]),
        morto_takers=(_taker(deal.morto_taken[0]), _taker(deal.morto_taken[1])),
        unplayed_morto=(deal.unplayed_morto[0], deal.unplayed_morto[1]),
    )


def _taker(taken: tuple[int, bool] | None) -> int | None:
    return None if taken is None else taken[0]


def hand_view(match: Match, seat: int) -> HandView:
    """What the seat's hand message shows (the bot renders it after every move: no scan of the deal's log)."""
    deal = match.deal
    side = deal.side_of(seat)
    mine = seat == deal.turn
    return HandView(
        table=table_view(match),
        seat=seat,
        hand=tuple(sorted(deal.hands[seat], key=BY_INDEX)),
        draft=tuple(deal.runs[side]) if mine and deal.drafting(side) else (),
        drawn=deal.drawn if mine else None,
        forbidden=deal.forbidden if mine else None,
        fresh=deal.fresh if mine and deal.fresh in deal.hands[seat] else None,
    )


def seat_view(match: Match, seat: int) -> SeatView:
    """The hand's view, the seat's legal actions and the cards seen going into each hand: a computer's input."""
    shown = hand_view(match, seat)
    return SeatView(
        table=shown.table,
        seat=seat,
        hand=shown.hand,
        draft=shown.draft,
        drawn=shown.drawn,
        forbidden=shown.forbidden,
        fresh=shown.fresh,
        legal=tuple(match.legal_actions(seat)),
        seen=seen_in_hands(match),
    )


def seen_in_hands(match: Match) -> tuple[tuple[Card, ...], ...]:
    """Per seat, the cards everyone saw going into that hand with a pile and not seen leaving it since.

    Read from the current deal's actions, as a player at the table follows them: a deal's actions start with
    its first draw, just before the only ``KeepDrawn`` or ``RejectDrawn`` (§17.7a-2); a refused first card is
    shown (§17.3) and is the top of the deal's stock, ``order[66]``.
    """
    deal = match.deal
    if deal.first_turn:
        return ((), (), (), ())
    log = match.actions
    start = len(log) - 1
    while start >= 0 and not isinstance(log[start], (KeepDrawn, RejectDrawn)):
        start -= 1
    if start < 0:  # a position set up without its actions (a stacked test): nothing was seen
        return ((), (), (), ())
    pile: list[Card] = []
    seen: list[list[Card]] = [[], [], [], []]
    for action in log[start:]:
        if isinstance(action, Discard):
            pile.append(action.card)
            _forget(seen[action.seat], action.card)
        elif isinstance(action, TakePile):
            seen[action.seat].extend(pile)
            pile.clear()
        elif isinstance(action, NewRun):
            for card in action.laid:
                _forget(seen[action.seat], card)
        elif isinstance(action, AddToRun):
            _forget(seen[action.seat], action.card)
        elif isinstance(action, RejectDrawn):
            pile.append(deal.order[6 * HAND])
    return tuple(tuple(sorted(cards, key=BY_INDEX)) for cards in seen)


def _forget(cards: list[Card], card: Card) -> None:
    if card in cards:
        cards.remove(card)
