"""«Как это было»: a finished Buraco deal replayed as one seat saw it (issue 38, part 4).

The match keeps only the deal on the table, so the deal asked for is dealt and played again from the match's
own dealing and action log (as ``Match.fair_export`` does). Each turn is the public record the table reads
(``engine.buraco.turns.Turn``: a draw from the stock without its card, the pile taken with its cards, runs laid
and added to, the discard, a morto, going out; a vulnerable pair's draft only once its opening is made, §17.5).
The seat's own turns add what his view (``engine.buraco.views.hand_view``) showed him alone: the cards he drew,
the morto he took, his hand after the turn. Nothing else: not another hand, not the stock, not a morto's cards
that went to the other pair or to the stock (RULES §17.2: hands and mortos are hidden).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.buraco.actions import Action, CancelDraft, Discard, DrawStock, KeepDrawn, RejectDrawn
from engine.buraco.cards import BY_INDEX, Card
from engine.buraco.deal import Deal
from engine.buraco.events import DealScored, DealStarted, Event, MatchEnded, MortoTaken
from engine.buraco.match import Match
from engine.buraco.turns import Turn, TurnBuilding
from engine.buraco.views import hand_view


@dataclass(frozen=True, slots=True)
class SeenTurn:
    """One turn of the deal: ``turn`` as the table saw it; for the seat's own turns, what he alone saw."""

    turn: Turn
    drawn: tuple[Card, ...] = ()  # the cards he drew from the stock (his turns only)
    morto: tuple[Card, ...] = ()  # the morto he took, sorted (his turns only)
    hand: tuple[Card, ...] | None = None  # his hand after the turn, sorted (None: another seat's turn)


@dataclass(frozen=True, slots=True)
class DealReplay:
    """Deal ``deal`` as ``seat`` saw it: his hand as dealt, every turn in order, and how it was scored."""

    deal: int
    seat: int
    dealer: int
    first: int  # who played first
    vulnerable: tuple[bool, bool]
    hand: tuple[Card, ...]  # as dealt, sorted
    turns: tuple[SeenTurn, ...]
    kept: tuple[Card, ...]  # his hand when the deal ended
    scored: DealScored
    ended: MatchEnded | None  # the match ended with this deal

    def cards(self) -> list[Card]:
        """Every card the record names (what a renderer may show)."""
        named = [*self.hand, *self.kept]
        for seen in self.turns:
            turn = seen.turn
            named += [*seen.drawn, *seen.morto, *(seen.hand or ()), *turn.took]
            named += [card for _, meld in turn.laid for card in meld.cards]
            named += [placed.card for _, added in turn.added for placed in added]
            named += [card for card in (turn.rejected, turn.discarded) if card is not None]
        return named


def deal_over(match: Match, number: int) -> bool:
    """Whether deal ``number`` (from 1) of ``match`` has been played to its end."""
    return 1 <= number <= match.deal_number


def _sorted(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=BY_INDEX))


class _Reader:
    """The deal read action by action as ``seat`` sees it."""

    def __init__(self, number: int, seat: int, pinned: Match, started: DealStarted) -> None:
        self.number = number
        self.seat = seat
        self.pinned = pinned  # the replica with the deal pinned on its table (it moves on when the deal ends)
        self.started = started
        self.hand = hand_view(pinned, seat).hand
        self.turns: list[SeenTurn] = []
        self.building: TurnBuilding | None = None
        self.drawn: list[Card] = []
        self.morto: list[Card] = []
        self.scored: DealScored | None = None
        self.ended: MatchEnded | None = None
        self.kept: tuple[Card, ...] = ()

    def cards(self) -> list[Card]:
        """His cards now: the hand, and a draft of an opening not yet on the table (still his, §17.5)."""
        shown = hand_view(self.pinned, self.seat)
        return [*shown.hand, *(card for meld in shown.draft for card in meld.cards)]

    def read(self, action: Action, events: list[Event], before: Counter[Card] | None) -> None:
        deal = self.pinned.deal
        mine = action.seat == self.seat
        if self.building is None:
            self.building = TurnBuilding(action.seat)
        self.building.read(action, events, deal)
        if mine and before is not None and not isinstance(action, CancelDraft):
            gained = list((Counter(self.cards()) - before).elements())
            if any(isinstance(event, MortoTaken) for event in events):
                self.morto += gained  # RULES §17.6: the morto goes to his hand
            elif isinstance(action, DrawStock | KeepDrawn | RejectDrawn):
                self.drawn += gained
        for event in events:
            if isinstance(event, DealScored):
                self.scored = event
            elif isinstance(event, MatchEnded):
                self.ended = event
        if isinstance(action, Discard) or self.scored is not None:
            turn = self.building.turn()
            if turn == Turn(turn.seat):  # the deal ended before this seat did anything (RULES §17.6)
                self.building = None
                return
            hand = hand_view(self.pinned, self.seat).hand if mine else None
            if turn.rejected in self.drawn:
                self.drawn.remove(turn.rejected)  # the deal's first card, turned up for all (§17.3): no draw of his
            self.turns.append(SeenTurn(turn, tuple(self.drawn), _sorted(self.morto), hand))
            self.building = None
            self.drawn, self.morto = [], []

    def replay(self) -> DealReplay:
        assert self.scored is not None
        return DealReplay(
            deal=self.number,
            seat=self.seat,
            dealer=self.started.dealer,
            first=self.started.first,
            vulnerable=self.started.vulnerable,
            hand=self.hand,
            turns=tuple(self.turns),
            kept=hand_view(self.pinned, self.seat).hand,
            scored=self.scored,
            ended=self.ended,
        )


def _replica(match: Match) -> Match:
    opening = match.start_events[0]
    assert isinstance(opening, DealStarted)
    return Match(
        match.seed,
        match.shuffler,  # the match's own dealing (the seed's, the fair shuffle's, or a stacked test deck)
        opening.dealer,
        match.target,
        renew_at_discard=match.renew_at_discard,
        fair=match.fair,
    )


def _pinned(replica: Match, deal: Deal) -> Match:
    """The replica as a view sees it with ``deal`` on its table, while it is played and once it is over."""
    pinned = copy.copy(replica)
    pinned.deal = deal
    return pinned


def replay_deal(match: Match, number: int, seat: int) -> DealReplay | None:
    """Deal ``number`` (from 1, as ``Match.deal_number`` counts) of ``match`` as ``seat`` saw it; None while
    that deal is not over, or for a seat not at the table. The same whenever it is asked."""
    if not deal_over(match, number) or not 0 <= seat < Match.players:
        return None
    replica = _replica(match)
    reader: _Reader | None = None
    for action in match.actions:
        if replica.deal_number + 1 == number and reader is None:
            started = DealStarted(number, replica.deal.dealer, replica.deal.first, replica.deal.vulnerable)
            reader = _Reader(number, seat, _pinned(replica, replica.deal), started)
        before = Counter(reader.cards()) if reader is not None and action.seat == seat else None
        events = replica.apply(action)
        if reader is not None:
            reader.read(action, events, before)
            if reader.scored is not None:
                return reader.replay()
    return None
