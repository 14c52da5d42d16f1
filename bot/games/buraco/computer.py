"""Computer players at a Buraco table: the engine player that decides for a computer seat, from its seat's view
only (engine/buraco/ai), one atomic move at a time; the service asks again until the turn is over. The seed
names the table and the move, so a restarted table makes the same decision again."""

from __future__ import annotations

from bot.table_settings import ComputerLevel
from engine.buraco.actions import Action
from engine.buraco.ai import Budget, EasyPlayer, HardPlayer
from engine.buraco.views import SeatView


def decide(view: SeatView, level: ComputerLevel, seed: str) -> Action:
    """The move a computer at ``level`` makes from ``view`` (plain data in and out: it runs in a worker)."""
    if level is ComputerLevel.HARD:
        return HardPlayer(Budget(seed=seed)).choose(view)
    return EasyPlayer().choose(view)
