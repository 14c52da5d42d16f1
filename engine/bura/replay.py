"""«Как это было»: a finished deal of a Bura-family match replayed as one seat saw it (issue 38, part 4).

The match keeps only the deal on the table, so the deal asked for is dealt and played again from the match's
own dealing and action log (as ``Match.fair_export`` does). What the record holds comes from two places only:

* the seat's views (``engine.bura.views.view``) after every move of the deal: his hand, the tricks as he saw
  them (his own face-down answers, a taken trick he peeked at under [V10] taker peeks), the trump card and
  who drew it, the combinations shown;
* the deal's public events: the calls («Бура!», «Стоп!», «Вскрываюсь!» with the claimant's pile) and the deal's
  end, which turns every won pile over (RULES §6.6: nobody may look at a face-down card "until a claim is made
  or the deal ends"; ``DealEnded.piles``). The cards the end revealed are kept apart from what the views showed.

So it never names another seat's hand, the stock, the dead cards, or a face-down card before the end; a card
another player still held when the deal ended (a claim, a combination) stays unnamed.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass

from engine.bura.actions import LoggedAction
from engine.bura.cards import Card
from engine.bura.deal import Deal
from engine.bura.events import (
    CardsDrawn,
    Claimed,
    ComboShown,
    DealEnded,
    DealOutcome,
    DealStarted,
    Eliminated,
    Event,
    LastCardsTaken,
    LeadSeized,
    MatchEnded,
    PileCard,
    Redealt,
    ScoreChanged,
    SeizureFailed,
    TrickTaken,
)
from engine.bura.match import Match
from engine.bura.variant import MatchKind
from engine.bura.views import SeatView, TrickView, view

CALLS = (ComboShown, LeadSeized, SeizureFailed, Claimed)
"""The events of a call the table hears: a combination shown («Бура!», «Стоп!» and its answer), a claim."""

_END = (DealEnded, ScoreChanged, Eliminated, MatchEnded)


@dataclass(frozen=True, slots=True)
class SeenTrick:
    """A trick of the deal. ``trick`` is the richest view the seat had of it while the deal went on (his own
    face-down answers, a trick he took and peeked at); ``revealed`` holds, per answer, the face-down cards that
    only the deal's end turned over (empty for the others); ``drawn`` the cards he drew after it, ``trump_to``
    the seat that drew the turned-up card then."""

    trick: TrickView
    revealed: tuple[tuple[Card, ...], ...]
    drawn: tuple[Card, ...]
    trump_to: int | None = None  # who drew the turned-up trump card after it (a public fact, RULES §7.3)


@dataclass(frozen=True, slots=True)
class SeenCalls:
    """Calls heard at the table, in order (``CALLS``): ``ComboShown``, ``LeadSeized``, ``SeizureFailed``,
    ``Claimed`` (whose pile the claim turned over)."""

    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class LastCards:
    """RULES §7.4: the only player still holding cards took them as an unopposed last trick, face down; the deal's
    end turned them over (or they were his own)."""

    seat: int
    cards: tuple[Card, ...]


Step = SeenTrick | SeenCalls | LastCards


@dataclass(frozen=True, slots=True)
class DealReplay:
    """Deal ``deal`` as ``seat`` saw it: the trump, his hand, each trick and call in order, and the end."""

    deal: int
    seat: int
    seats: tuple[int, ...]  # the seats that played the deal
    teams: bool
    dealer: int
    leader: int  # the rightful first leader
    trump_card: Card
    trump_card_holder: int | None  # who drew the turned-up card by the deal's end (public), None: nobody
    hand: tuple[Card, ...]  # his hand as dealt
    steps: tuple[Step, ...]
    kept: tuple[Card, ...]  # his cards still in hand when the deal ended
    end: tuple[Event, ...]  # DealEnded, ScoreChanged, and Eliminated / MatchEnded if the deal brought them
    scores_before: tuple[int, ...]  # the match score before the deal

    @property
    def outcome(self) -> DealOutcome:
        return next(event.outcome for event in self.end if isinstance(event, DealEnded))

    @property
    def scores(self) -> tuple[int, ...]:
        """The match score after the deal (see ``ScoreChanged``)."""
        return next(event.scores for event in self.end if isinstance(event, ScoreChanged))

    def cards(self) -> set[Card]:
        """Every card the record names (what a renderer may show)."""
        named = {self.trump_card, *self.hand, *self.kept}
        for step in self.steps:
            if isinstance(step, SeenTrick):
                named.update(step.trick.lead)
                named.update(card for play in step.trick.plays for card in play.cards)
                named.update(card for cards in step.revealed for card in cards)
                named.update(step.drawn)
            elif isinstance(step, LastCards):
                named.update(step.cards)
            else:
                for event in step.events:
                    if isinstance(event, ComboShown):
                        named.update(event.cards)
                    elif isinstance(event, Claimed):
                        named.update(entry.card for entry in event.pile)
        for event in self.end:
            if isinstance(event, DealEnded):
                named.update(entry.card for pile in event.piles for entry in pile)
        return named


def deal_over(match: Match, number: int) -> bool:
    """Whether deal ``number`` (from 1) of ``match`` has been played to its end."""
    return 1 <= number < match.deal_number or (number == match.deal_number and match.deal.over)


class _Replica(Match):
    """The match played again, keeping every deal it deals (a deal a dealt combination ends at once is never
    the match's ``deal`` after a move: the next one is dealt in the same move)."""

    def __init__(self, match: Match) -> None:
        self.dealt: list[Deal] = []
        opening = match.start_events[0]
        assert isinstance(opening, DealStarted | Redealt)
        super().__init__(
            match.variant,
            match.players,
            match.seed,
            match.shuffler,  # the match's own dealing (the seed's, the fair shuffle's, or a stacked test deck)
            opening.dealer,
            fair=match.fair,
        )

    @property
    def deal(self) -> Deal:
        return self.dealt[-1]

    @deal.setter
    def deal(self, deal: Deal) -> None:
        self.dealt.append(deal)

    def at(self, deal: Deal) -> Match:
        """The match as a view sees it with ``deal`` on the table (a deal over, or the one being played)."""
        pinned = copy.copy(self)
        pinned.dealt = [deal]
        return pinned


class _Reader:
    """Deal ``number`` read move by move as ``seat`` sees it."""

    def __init__(self, number: int, seat: int, replica: _Replica) -> None:
        self.number = number
        self.seat = seat
        self.side_of = replica.side_of
        self.deal: Deal | None = None
        self.pinned: Match | None = None
        self.first: SeatView | None = None
        self.last: SeatView | None = None
        self.started: DealStarted | None = None
        self.scores_before: tuple[int, ...] = (0,) * replica.sides  # then the score after each deal before
        self.steps: list[Step | int] = []  # a trick stands as its number until the end fills it in
        self.seen: dict[int, TrickView] = {}  # each trick at its richest, by number
        self.drawn: dict[int, tuple[Card, ...]] = {}
        self.trump_to: dict[int, int] = {}
        self.end: list[Event] = []
        self.last_taken: list[LastCardsTaken] = []

    def read(self, replica: _Replica, events: list[Event], playing: int) -> bool:
        """Take in one move's ``events`` (``playing``: the number of the deal the move was made in); True once
        the deal has ended."""
        number = playing
        mine: list[Event] = []
        for event in events:
            if isinstance(event, DealStarted):
                number = event.deal_number
                if number == self.number:
                    self.started = event
                    self.deal = next(deal for deal in reversed(replica.dealt) if deal.number == number)
                    self.pinned = replica.at(self.deal)
                    self.scores_before = _after_ante(replica, self.deal, self.scores_before)
            elif number == self.number:
                mine.append(event)
            elif isinstance(event, ScoreChanged) and number < self.number:
                self.scores_before = event.scores
        if self.pinned is None:
            return False  # not dealt yet
        seen = view(self.pinned, self.seat)
        before = self.last or seen
        if self.first is None:
            self.first = seen
        self._look(seen)
        calls: list[Event] = []
        for event in mine:
            if isinstance(event, CALLS):
                calls.append(event)
                continue
            if calls:
                self.steps.append(SeenCalls(tuple(calls)))
                calls = []
            if isinstance(event, TrickTaken):
                self.steps.append(event.trick_number)
                self.drawn[event.trick_number] = tuple(card for card in seen.hand if card not in before.hand)
            elif isinstance(event, CardsDrawn) and event.trump_card_to is not None and self.drawn:
                self.trump_to[max(self.drawn)] = event.trump_card_to
            elif isinstance(event, LastCardsTaken):
                self.last_taken.append(event)
            elif isinstance(event, _END):
                self.end.append(event)
        if calls:
            self.steps.append(SeenCalls(tuple(calls)))
        self.last = seen
        return any(isinstance(event, DealEnded) for event in mine)

    def _look(self, seen: SeatView) -> None:
        """Keep each trick as the richest view of it so far: a face-down answer's cards once seen stay known."""
        table = seen.table
        tricks = [*table.history, *([table.trick] if table.trick is not None else [])]
        for trick in tricks:
            known = self.seen.get(trick.number)
            if known is None or len(known.plays) < len(trick.plays):
                merged = trick if known is None else _merge(trick, known)
            else:
                merged = _merge(known, trick)
            self.seen[trick.number] = merged

    def replay(self) -> DealReplay:
        assert self.first is not None and self.last is not None and self.started is not None
        ended = next(event for event in self.end if isinstance(event, DealEnded))
        tricks = [self.seen[step] for step in self.steps if isinstance(step, int)]  # not one a forfeit cut short
        revealed, last_cards = _revealed(tricks, ended, self.side_of)
        steps: list[Step] = []
        for step in self.steps:
            if isinstance(step, int):
                trick = self.seen[step]
                steps.append(SeenTrick(trick, revealed[step], self.drawn.get(step, ()), self.trump_to.get(step)))
            else:
                steps.append(step)
        for taken in self.last_taken:
            cards = self.last.hand if taken.seat == self.seat else ()
            steps.append(LastCards(taken.seat, last_cards.get(taken.seat, cards)))
        table = self.last.table
        return DealReplay(
            deal=self.number,
            seat=self.seat,
            seats=table.seats,
            teams=table.teams,
            dealer=self.started.dealer,
            leader=self.started.leader,
            trump_card=table.trump_card,
            trump_card_holder=table.trump_card_holder,
            hand=self.first.hand,
            steps=tuple(steps),
            kept=self.last.hand,
            end=tuple(self.end),
            scores_before=self.scores_before,
        )


def _after_ante(match: Match, deal: Deal, scores: tuple[int, ...]) -> tuple[int, ...]:
    """The match score as the deal began: in the pot model every side in it has paid its ante (RULES §12.1),
    as the table showed before the deal's first move."""
    if match.variant.match.kind is not MatchKind.POT:
        return scores
    sides = {match.side_of(seat) for seat in deal.seats}
    ante = match.variant.match.ante
    return tuple(score - ante if side in sides else score for side, score in enumerate(scores))


def _merge(base: TrickView, other: TrickView) -> TrickView:
    """``base`` with the face-down cards ``other`` shows and ``base`` does not."""
    plays = list(base.plays)
    for index, play in enumerate(other.plays[: len(plays)]):
        if play.cards and not plays[index].cards:
            plays[index] = play
    return TrickView(base.number, base.leader, base.lead, tuple(plays), base.owner)


def _revealed(
    tricks: list[TrickView], ended: DealEnded, side_of: Callable[[int], int]
) -> tuple[dict[int, tuple[tuple[Card, ...], ...]], dict[int, tuple[Card, ...]]]:
    """What the deal's end turned over: per trick, per answer, the face-down cards the seat had not seen; and the
    last cards a lone holder took (RULES §7.4). A won pile is its tricks in order, each as the lead and the
    answers as played, then any last cards (``engine.bura.deal``)."""
    piles: list[list[PileCard]] = [list(pile) for pile in ended.piles]
    at = [0] * len(piles)
    revealed: dict[int, tuple[tuple[Card, ...], ...]] = {}
    for trick in sorted(tricks, key=lambda t: t.number):
        side = side_of(trick.owner)
        pile = piles[side]
        at[side] += len(trick.lead)
        answers: list[tuple[Card, ...]] = []
        for play in trick.plays:
            entries = pile[at[side] : at[side] + play.count]
            at[side] += play.count
            hidden = play.face_down and not play.cards  # not his own, nor one he peeked at
            answers.append(tuple(entry.card for entry in entries) if hidden else ())
        revealed[trick.number] = tuple(answers)
    last: dict[int, tuple[Card, ...]] = {}
    for side, pile in enumerate(piles):
        for entry in pile[at[side] :]:
            last[entry.played_by] = (*last.get(entry.played_by, ()), entry.card)
    return revealed, last


def replay_deal(match: Match, number: int, seat: int) -> DealReplay | None:
    """Deal ``number`` (from 1, as ``Match.deal_number`` counts) of ``match`` as ``seat`` saw it; None while
    that deal is not over, or when ``seat`` did not play in it. The same whenever it is asked."""
    if not deal_over(match, number) or not 0 <= seat < match.players:
        return None
    replica = _Replica(match)
    reader = _Reader(number, seat, replica)
    actions: list[LoggedAction] = list(match.actions)
    done = reader.read(replica, list(replica.start_events), 0)
    for logged in actions:
        if done:
            break
        playing = replica.deal_number
        done = reader.read(replica, replica.replay(logged), playing)
    if not done or reader.deal is None or seat not in reader.deal.seats:
        return None
    return reader.replay()
