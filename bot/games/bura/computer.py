"""Computer players at a Bura table: the engine player that decides for a computer seat, or for an absent person.

A computer decides from its seat's view only (engine/bura/ai), as a person at the table would. Its seed names
the table and the move, so a replayed or restarted table makes the same decision again.

A computer moves when it is the seat to act (its timer is its thinking time), and also when, out of turn, it
may call «Стоп!» (RULES §9.3, §10: a seizing combo shown in the pre-lead window): it races the others for it
like a person, deciding after the same thinking time, unless someone moves first.
"""

from __future__ import annotations

from bot.table_settings import ComputerLevel
from engine.bura.actions import Action, DeclareCombo
from engine.bura.ai import Budget, EasyPlayer, HardPlayer
from engine.bura.match import Match
from engine.bura.variant import Variant
from engine.bura.views import SeatView, view


def decide(variant: Variant, seat_view: SeatView, level: ComputerLevel, seed: str) -> Action:
    """The move a computer at ``level`` makes from ``seat_view`` (plain data in and out: it runs in a worker)."""
    if level is ComputerLevel.HARD:
        budget = Budget.default(variant, len(seat_view.table.seats), seed=seed)
        return HardPlayer(variant, budget).choose(seat_view)
    return EasyPlayer(variant).choose(seat_view)


def computer_action(match: Match, seat: int, level: ComputerLevel, seed: str) -> Action:
    """The move a computer at ``level`` makes for ``seat`` now."""
    return decide(match.variant, view(match, seat), level, seed)


def out_of_turn_caller(match: Match, computers: frozenset[int]) -> int | None:
    """A computer seat, not the one to act, that may call «Стоп!» now (the first in seat order), or None."""
    to_act = match.to_act()
    for seat in sorted(computers):
        if seat != to_act and any(isinstance(action, DeclareCombo) for action in match.legal_actions(seat)):
            return seat
    return None
