"""What one seat, or a spectator, may see: the only way the bot and computer players look at a match.

A view holds no card that its viewer may not see: not another seat's hand, not a face-down card before a
claim or the end of the deal reveals it (RULES §6.6), not the stock or the dead cards. Public facts that name
a card in a hand are kept: the turned-up trump card and who drew it, and combos shown to the table.
Captured points appear only when the variant does not hide them (§6.7 strict mode).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.bura.actions import Action, Claim
from engine.bura.cards import Card, set_beats
from engine.bura.combos import Combo
from engine.bura.deal import Deal, Phase, Trick
from engine.bura.match import Match
from engine.core.cards import Suit


@dataclass(frozen=True, slots=True)
class PlayView:
    seat: int
    cards: tuple[Card, ...]  # empty when face down and hidden from the viewer
    count: int
    face_down: bool
    beats: bool


@dataclass(frozen=True, slots=True)
class TrickView:
    number: int
    leader: int
    lead: tuple[Card, ...]
    plays: tuple[PlayView, ...]
    owner: int  # who takes it now (the last beater, or the leader)


@dataclass(frozen=True, slots=True)
class ShownCombo:
    seat: int
    combo: Combo
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PublicView:
    """Everything a spectator of the table may see."""

    variant: str
    players: int
    seats: tuple[int, ...]  # seats playing this deal
    teams: bool
    deal_number: int
    dealer: int
    trump: Suit
    trump_card: Card
    shokha: bool  # [B08] 6♠ beats every card (RULES §3.4)
    trump_card_holder: int | None  # who drew the turned-up card (public), None while it lies in the stock
    stock: int
    dead: int
    hand_sizes: tuple[tuple[int, int], ...]  # (seat, cards held)
    phase: Phase
    rightful: int
    leader: int
    to_act: int | None
    trick: TrickView | None
    history: tuple[TrickView, ...]
    tricks_won: tuple[int, ...]  # per side
    points: tuple[int, ...] | None  # per side, only when captured points are not hidden
    shown: tuple[ShownCombo, ...]
    forced_lead: tuple[Card, ...] | None  # the shown combo the seizer must lead
    scores: tuple[int, ...]
    wins: tuple[int, ...]
    pot: int
    doubled_next: bool
    finished: bool
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    active: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one player may see: the public view, his hand, what he knows of his side's pile, his moves."""

    seat: int
    side: int
    table: PublicView
    hand: tuple[Card, ...]
    known_pile: tuple[Card, ...]  # cards of his side's pile he may know (open ones, his own face-down ones)
    hidden_in_pile: int  # face-down cards of his side's pile he may not look at
    legal: tuple[Action, ...]
    may_claim: bool


def _trick_view(trick: Trick, viewer: int | None, peek: bool) -> TrickView:
    # Hot path: every picture of a table views each trick of the deal so far (a list, then a tuple, costs less
    # than a tuple of a generator).
    plays = [
        PlayView(
            play.seat,
            play.cards if (not play.face_down or peek or play.seat == viewer) else (),
            len(play.cards),
            play.face_down,
            play.beats,
        )
        for play in trick.plays
    ]
    return TrickView(trick.number, trick.leader, trick.lead, tuple(plays), trick.owner)


def public_view(match: Match) -> PublicView:
    return _public(match, None)


def last_trick(deal: Deal) -> TrickView | None:
    """The last trick taken in ``deal``, as anyone may see it (face-down answers hidden): the trick that ended
    a deal, shown once the next deal is dealt."""
    return _trick_view(deal.history[-1], None, False) if deal.history else None


def _public(match: Match, viewer: int | None) -> PublicView:
    deal = match.deal
    # RULES §6.6 [V10] taker peeks: the winner sees the face-down cards of the trick he took while it still lies
    # on the table; the next lead gathers it (hidden from then on), as does the end of the deal.
    peeked = (
        deal.history[-1]
        if deal.variant.taker_peeks and deal.history and deal.trick is None and deal.phase is not Phase.OVER
        else None
    )
    history = tuple(
        [_trick_view(trick, viewer, peek=trick is peeked and viewer == trick.owner) for trick in deal.history]
    )
    shown = tuple([ShownCombo(held.seat, held.rule.combo, held.cards) for held in deal.shown])
    return PublicView(
        variant=match.variant.name,
        players=match.players,
        seats=deal.seats,
        teams=deal.teams,
        deal_number=deal.number,
        dealer=deal.dealer,
        trump=deal.trump,
        trump_card=deal.trump_card,
        shokha=match.variant.shokha,
        trump_card_holder=deal.trump_card_holder,
        stock=len(deal.stock),
        dead=len(deal.dead),
        hand_sizes=tuple((seat, len(deal.hands[seat])) for seat in deal.seats),
        phase=deal.phase,
        rightful=deal.rightful,
        leader=deal.leader,
        to_act=match.to_act(),
        trick=_trick_view(deal.trick, viewer, False) if deal.trick is not None else None,
        history=history,
        tricks_won=tuple(deal.tricks_won),
        points=None
        if match.variant.hide_captured_points
        else tuple(deal.pile_points(side) for side in range(deal.sides)),
        shown=shown,
        forced_lead=deal.forced_lead,
        scores=tuple(match.scores),
        wins=tuple(match.wins),
        pot=match.pot,
        doubled_next=match.doubled_next,
        finished=match.finished,
        winners=match.winners,
        losers=match.losers,
        active=tuple(match.active),
    )


def current_best(trick: TrickView) -> tuple[Card, ...]:
    """The set a responder must beat: the last beating answer, or the lead (RULES §6.5)."""
    best = trick.lead
    for play in trick.plays:
        if play.beats:
            best = play.cards
    return best


def answer_beats(seat_view: SeatView, cards: tuple[Card, ...]) -> bool:
    """Whether ``cards``, answered face up to the trick on the table, would beat it (RULES §6.4, §6.5)."""
    table = seat_view.table
    trick = table.trick
    return trick is not None and set_beats(cards, current_best(trick), table.trump, table.shokha)


def view(match: Match, seat: int) -> SeatView:
    """What ``seat`` may see now."""
    deal = match.deal
    side = match.side_of(seat)
    known: list[Card] = []
    hidden = 0
    if seat in deal.hands and side < len(deal.piles):
        for entry in deal.piles[side]:
            if entry.face_down and entry.played_by != seat:
                hidden += 1  # RULES §6.6/§6.7: not even the taker may look
            else:
                known.append(entry.card)
    legal = tuple(match.legal_actions(seat))
    return SeatView(
        seat=seat,
        side=side,
        table=_public(match, seat),
        hand=tuple(deal.hands.get(seat, ())),
        known_pile=tuple(known),
        hidden_in_pile=hidden,
        legal=legal,
        may_claim=any(isinstance(action, Claim) for action in legal),
    )
