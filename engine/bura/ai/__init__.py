"""Computer players that play fair: they decide from their seat's view alone (``engine.bura.views.SeatView``).

* :class:`EasyPlayer` (``easy``): a sensible heuristic. It keeps trumps, beats cheaply when the trick is worth
  it, dumps low cards (face down where allowed), and claims when the points it remembers reach the threshold.
* :class:`HardPlayer` (``search``): determinized Monte Carlo over worlds sampled from the view (``worlds``),
  weighed by how plausible they make the others' past moves (``inference``); its work per decision is a
  :class:`Budget` in simulated moves and worlds with a seed, never a time, so a decision is reproducible. In
  two-player Бура its playouts stop after a trick and a learned value judges the rest (``value``).

Both remember points as a player would: the open cards of their side's pile they know; face-down cards they
captured they may not look at (RULES §6.7 strict mode), so a claim under uncertainty is a real decision.
Nothing here reads a ``Match`` or a real ``Deal``: the only input is the view, so the decision cannot depend on
a card the seat may not see (tests/engine/bura/test_ai.py shuffles the unseen cards to prove it).
"""

from __future__ import annotations

from engine.bura.views import current_best

from .easy import EASY, SHARP, EasyPlayer, Habits, remembered_points
from .search import Budget, HardPlayer
from .worlds import determinize

__all__ = [
    "EASY",
    "SHARP",
    "Budget",
    "EasyPlayer",
    "Habits",
    "HardPlayer",
    "current_best",
    "determinize",
    "remembered_points",
]
