"""What anyone may see of a Buraco table (RULES §17.2): the runs of both pairs, the whole discard pile, how
many cards are in the stock, each hand and the mortos (never their cards), the scores; and what one seat sees
besides: his own hand, his draft of an opening not yet made, the first card drawn before he keeps it.

The bot renders only these views; the partner's hand is as hidden as the opponents' (§17.2).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.buraco.cards import BY_INDEX, Card
from engine.buraco.deal import Phase
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


@dataclass(frozen=True, slots=True)
class SeatView:
    table: TableView
    seat: int
    hand: tuple[Card, ...]  # sorted by suit then rank, jokers last
    draft: tuple[Meld, ...]  # an opening being laid (§17.5), not on the table yet
    drawn: Card | None  # the deal's first card, before it is kept or refused
    forbidden: Card | None  # the lone pile card just taken: no equal card may be discarded this turn


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
    )


def seat_view(match: Match, seat: int) -> SeatView:
    deal = match.deal
    side = deal.side_of(seat)
    mine = seat == deal.turn
    draft = tuple(deal.runs[side]) if mine and deal.drafting(side) else ()
    return SeatView(
        table=table_view(match),
        seat=seat,
        hand=tuple(sorted(deal.hands[seat], key=BY_INDEX)),
        draft=draft,
        drawn=deal.drawn if mine else None,
        forbidden=deal.forbidden if mine else None,
    )
