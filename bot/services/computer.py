"""Computer players at a table: the engine player that decides for a computer seat, or for an absent person.

A computer decides from its seat's view only (engine/ai.py), as a person at the table would. Its seed names
the table and the move, so a replayed or restarted table makes the same decision again.

A computer moves when it is the seat to act (its timer is its thinking time), and also when, out of turn, it
may call «Стоп!» (RULES §9.3, §10: a seizing combo shown in the pre-lead window): it races the others for it
like a person, deciding after the same thinking time, unless someone moves first.
"""

from __future__ import annotations

from bot.table_settings import ComputerLevel
from engine.actions import Action, DeclareCombo
from engine.ai import EasyPlayer, HardPlayer
from engine.match import Match
from engine.views import view

COMPUTER_SECONDS = 1.0  # a computer "thinks" this long, so people can follow the table


def computer_action(match: Match, seat: int, level: ComputerLevel, seed: str) -> Action:
    """The move a computer at ``level`` makes for ``seat`` now."""
    variant = match.variant
    player = HardPlayer(variant, seed=seed) if level is ComputerLevel.HARD else EasyPlayer(variant)
    return player.choose(view(match, seat))


def out_of_turn_caller(match: Match, computers: frozenset[int]) -> int | None:
    """A computer seat, not the one to act, that may call «Стоп!» now (the first in seat order), or None."""
    to_act = match.to_act()
    for seat in sorted(computers):
        if seat != to_act and any(isinstance(action, DeclareCombo) for action in match.legal_actions(seat)):
            return seat
    return None
