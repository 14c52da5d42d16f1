"""The current deal's turns as everyone at the table saw them: what each seat drew, laid, added and discarded, a
morto taken, a going out (RULES §17.3-§17.6). Read-only: the deal's part of the match's action log is replayed on
the deal's own cards, so the record says exactly what the engine's events said; the bot words it.

A vulnerable pair's draft is not on the table until its opening is made (§17.5): a turn shows the draft's runs
only from the discard that makes the opening (or the last card melded that takes a morto), and a draft taken
back shows nothing.

The match keeps only its current deal; the one before it (whose last turns a new deal's table still tells) is
dealt again by the match's own dealing, from what it was then: its number, its dealer and the totals before it.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass

from engine.buraco.actions import Action, AddToRun, Discard, KeepDrawn, RejectDrawn
from engine.buraco.cards import Card
from engine.buraco.deal import SEATING, Deal
from engine.buraco.errors import IllegalAction
from engine.buraco.events import (
    Discarded,
    Drew,
    Event,
    MortoTaken,
    Opened,
    Rejected,
    RunExtended,
    RunLaid,
    TookPile,
)
from engine.buraco.match import Match
from engine.buraco.melds import Meld


@dataclass(frozen=True, slots=True)
class Placed:
    """A card added to a run: ``wild_at`` is the position it stands in as a substitute (None: a natural card)."""

    card: Card
    wild_at: int | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    """One seat's turn in the deal, so far (``over`` once it discarded). Runs are numbered from 0 in the pair's
    order, as the table numbers them from 1."""

    seat: int
    drew: bool = False  # from the stock
    rejected: Card | None = None  # the deal's first card, shown and put on the pile (§17.3)
    took: tuple[Card, ...] = ()  # the whole pile taken
    opening: int | None = None  # a vulnerable pair's opening made this turn: its points (§17.5)
    laid: tuple[tuple[int, Meld], ...] = ()  # new runs, each as it stood at the turn's end (or now)
    added: tuple[tuple[int, tuple[Placed, ...]], ...] = ()  # cards added to runs laid before this turn
    morto: bool | None = None  # a morto taken: True direta, False indireta (§17.6)
    discarded: Card | None = None
    out: bool = False  # the discard went out (batida): the deal ended with it
    over: bool = False  # the turn has ended with its discard


class TurnBuilding:
    """A turn being read, step by step."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.drew = False
        self.rejected: Card | None = None
        self.took: tuple[Card, ...] = ()
        self.opening: int | None = None
        self.laid: dict[int, Meld] = {}
        self.added: dict[int, list[Placed]] = {}
        self.morto: bool | None = None
        self.discarded: Card | None = None
        self.out = False

    def read(self, action: Action, events: list[Event], deal: Deal) -> None:
        for event in events:
            if isinstance(event, Drew):
                self.drew = True
            elif isinstance(event, Rejected):
                self.rejected = event.card
            elif isinstance(event, TookPile):
                self.took = event.cards
            elif isinstance(event, Opened):
                self.opening = event.points
                self.laid.update(enumerate(event.melds))
            elif isinstance(event, RunLaid):
                self.laid[event.run] = event.meld
            elif isinstance(event, RunExtended):
                if event.run in self.laid:
                    self.laid[event.run] = event.meld
                else:
                    assert isinstance(action, AddToRun)
                    wild = event.meld.wild_at if event.meld.wild_at == action.at else None
                    self.added.setdefault(event.run, []).append(Placed(event.card, wild))
            elif isinstance(event, MortoTaken):
                self.morto = event.direta
            elif isinstance(event, Discarded):
                self.discarded = event.card
        if isinstance(action, Discard):
            self.out = deal.over and deal.closer is not None

    def turn(self) -> Turn:
        return Turn(
            seat=self.seat,
            drew=self.drew,
            rejected=self.rejected,
            took=self.took,
            opening=self.opening,
            laid=tuple(sorted(self.laid.items())),
            added=tuple((run, tuple(cards)) for run, cards in sorted(self.added.items())),
            morto=self.morto,
            discarded=self.discarded,
            out=self.out,
            over=self.discarded is not None,
        )


def _deal_start(log: Sequence[Action], end: int) -> int | None:
    """Where the deal whose actions end at ``end`` began: its first draw, just before its only ``KeepDrawn`` or
    ``RejectDrawn`` (§17.7a-2); None when the log holds no such deal."""
    start = end - 1
    while start >= 0 and not isinstance(log[start], (KeepDrawn, RejectDrawn)):
        start -= 1
    return start - 1 if start >= 1 else None


def deal_actions(match: Match) -> list[Action] | None:
    """The current deal's actions in the match's log; None when the deal was set up without them (a stacked
    position in a test)."""
    deal = match.deal
    log = match.actions
    if deal.first_turn:
        return list(log[-1:]) if deal.drawn is not None else []
    start = _deal_start(log, len(log))
    return None if start is None else list(log[start:])


class _Reading:
    """The current deal's turns read so far, kept on its match (`Match.reading`) so that the next picture of the
    table reads only the actions since (a deal is some sixty actions; reading them all for each picture cost
    3 ms). Valid while the match's deal is the one read and its log goes on from what was read."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.replay = Deal(deal.dealer, deal.order, deal.vulnerable, renew_at_discard=deal.renew_at_discard)
        self.actions: list[Action] = []
        self.turns: list[Turn] = []
        self.building: TurnBuilding | None = None
        self.broken = False

    def read(self, actions: Sequence[Action]) -> tuple[Turn, ...] | None:
        """The turns of ``actions``, reading only those past the ones read before; None when ``actions`` do not
        go on from them (read afresh)."""
        done = len(self.actions)
        if len(actions) < done or list(actions[:done]) != self.actions:
            return None
        for action in actions[done:]:
            if self.broken:
                break
            try:
                events = self.replay.apply(action)
            except IllegalAction:
                self.broken = True  # not this deal's log: a position changed by hand (a test)
                break
            self.actions.append(action)
            if self.building is None:
                self.building = TurnBuilding(action.seat)
            self.building.read(action, events, self.replay)
            if isinstance(action, Discard):
                self.turns.append(self.building.turn())
                self.building = None
        if self.broken:
            return ()
        return (*self.turns, self.building.turn()) if self.building is not None else tuple(self.turns)


def deal_turns(match: Match) -> tuple[Turn, ...]:
    """Every turn of the current deal so far, oldest first; the last may be under way. Empty for a deal whose
    actions are not in the log (a stacked position)."""
    deal = match.deal
    actions = deal_actions(match)
    if not actions:
        return ()
    reading = match.reading
    if isinstance(reading, _Reading) and reading.deal is deal and (turns := reading.read(actions)) is not None:
        return turns
    reading = _Reading(deal)
    match.reading = reading
    return reading.read(actions) or ()


def previous_deal_turns(match: Match) -> tuple[Turn, ...]:
    """Every turn of the deal before the current one, oldest first: the last of them went out, or drew the last
    card. Empty in the first deal, and once the match is over (its last deal is still the current one)."""
    if match.finished or not match.deal_number or not match.history:
        return ()
    current = deal_actions(match)
    if current is None:
        return ()
    end = len(match.actions) - len(current)
    start = _deal_start(match.actions, end)
    if start is None:
        return ()
    return _turns(_dealt_before(match), match.actions[start:end])


def _dealt_before(match: Match) -> Deal:
    """The deal before the current one as it was dealt: the match's own dealing, asked as it stood then."""
    then = copy.copy(match)
    then.deal_number = match.deal_number - 1
    last = match.history[-1]
    then.totals = [match.totals[side] - last[side].total for side in (0, 1)]
    then.dealer = next(seat for seat in range(Match.players) if SEATING.next_seat(seat) == match.dealer)
    return then._new_deal()


def _turns(replay: Deal, actions: Sequence[Action]) -> tuple[Turn, ...]:
    """The turns of ``actions`` played on the fresh ``replay``; empty if they are not its actions."""
    turns: list[Turn] = []
    building: TurnBuilding | None = None
    for action in actions:
        try:
            events = replay.apply(action)
        except IllegalAction:
            return ()  # not this deal's log: a position changed by hand (a test)
        if building is None:
            building = TurnBuilding(action.seat)
        building.read(action, events, replay)
        if isinstance(action, Discard):
            turns.append(building.turn())
            building = None
    if building is not None:
        turns.append(building.turn())
    return tuple(turns)
