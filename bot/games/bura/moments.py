"""What Bura's messages need of a move: the match as it was before it, who the game waits for, the stats."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.games.base import Waiting, Waits
from bot.games.stats import seat_stats
from bot.storage import Counter, StatsDelta, Table
from engine.bura.actions import DeclareCombo
from engine.bura.combos import Combo
from engine.bura.deal import Deal
from engine.bura.events import DealEnded, Event, MatchEnded, OutcomeKind
from engine.bura.match import Match
from engine.bura.variant import Rules
from engine.bura.views import TrickView, last_trick

# The tally a deal counts in, by what the lobby calls the game: Бура (every Bura profile), Буркозёл, Козёл,
# Козёл на очки.
_TALLIES = {Rules.BURKOZEL: "bk", Rules.KOZEL_MONEY: "kozel", Rules.KOZEL_POINTS: "kp"}


def tally_of(match: Match) -> str:
    return _TALLIES.get(match.variant.game, "bura")


class BuraCounter(StrEnum):
    """The Bura family's own counters in the chat's tally (``stats-<name>`` in the locales)."""

    BURAS = "buras"  # deals won with a Бура in hand
    FALSE_CLAIMS = "false_claims"  # «Вскрываюсь!» with too few points


@dataclass(frozen=True, slots=True)
class Before:
    """What a move's messages need of the match as it was before it: the scores (what a deal changed), the
    deal (the trick that ended it), and who had something to do (a player whose turn comes is pinged)."""

    scores: tuple[int, ...]
    deal: Deal
    waiting: Waits  # see `waiting_for`
    tricks: int = 0  # tricks the deal had taken before the move (the deal itself goes on changing)

    @classmethod
    def of(cls, match: Match) -> Before:
        return cls(tuple(match.scores), match.deal, waiting_for(match), len(match.deal.history))

    def final_trick(self, match: Match) -> TrickView | None:
        """The trick that ended the deal, if this move ended it with a trick (the table shows the next deal at
        once); None when the deal goes on, or ended otherwise (a claim after a trick shown already)."""
        if match.deal is self.deal and not match.finished:
            return None
        if not self.deal.over or len(self.deal.history) <= self.tricks:
            return None
        return last_trick(self.deal)


def waiting_for(match: Match) -> Waits:
    """What the game waits for, seat by seat: ``(seat, MOVE)`` for the one to act, ``(seat, CALL)`` for any
    that may call «Стоп!» out of turn. A seat is pinged for each new one: a player whose call window was open
    is pinged again when his answer is due."""
    if match.finished:
        return frozenset()
    waits = set()
    seat = match.to_act()
    if seat is not None:
        waits.add((seat, Waiting.MOVE))
    for other in range(match.players):
        if any(isinstance(action, DeclareCombo) for action in match.legal_actions(other)):
            waits.add((other, Waiting.CALL))
    return frozenset(waits)


def stats_for(table: Table, match: Match, events: Sequence[Event]) -> list[StatsDelta]:
    """The tally a move earned: deals played and won, buras, false claims, matches played and won."""
    earned: list[tuple[int, Counter | BuraCounter]] = []

    def add(seat: int, column: Counter | BuraCounter) -> None:
        earned.append((seat, column))

    for event in events:
        if isinstance(event, DealEnded):
            outcome = event.outcome
            winners = set(outcome.winners)
            if outcome.kind is OutcomeKind.FALSE_CLAIM and outcome.seat is not None:
                add(outcome.seat, BuraCounter.FALSE_CLAIMS)
                claimant = match.side_of(outcome.seat)
                winners = {match.side_of(seat) for seat in outcome.seats} - {claimant}
            elif outcome.kind is OutcomeKind.FORFEIT and outcome.seat is not None:
                winners = {match.side_of(seat) for seat in outcome.seats} - {match.side_of(outcome.seat)}
            elif outcome.kind is OutcomeKind.VOID:
                winners = set()
            elif outcome.kind is OutcomeKind.PLAYED_OUT and len(winners) == len(
                {match.side_of(s) for s in outcome.seats}
            ):
                winners = set()  # a full tie wins nobody a deal
            for seat in outcome.seats:
                add(seat, Counter.DEALS_PLAYED)
                if match.side_of(seat) in winners:
                    add(seat, Counter.DEALS_WON)
            if outcome.kind is OutcomeKind.WIN and outcome.combo is Combo.BURA and outcome.seat is not None:
                add(outcome.seat, BuraCounter.BURAS)
        elif isinstance(event, MatchEnded):
            for seat in range(match.players):
                add(seat, Counter.MATCHES_PLAYED)
                if match.side_of(seat) in event.winners:
                    add(seat, Counter.MATCHES_WON)
    return seat_stats(table, tally_of(match), earned)
