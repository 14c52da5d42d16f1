"""Computer players for Buraco Aberto (issue #14), deciding from their seat's view alone.

* :class:`EasyPlayer` (``easy``): greedy melding, a useful pile taken, safe discards.
* :class:`HardPlayer` (``hard``): the easy player's melding, with the draw, the discard and going out weighed
  over worlds sampled from what the seat sees (``worlds``, ``search``); its work is counted in iterations
  (:class:`Budget`), never in time, so a decision is reproducible.
* :func:`auto_action`: the move the bot makes for an absent player when the timer runs out.

Both players' ``choose(view) -> Action`` returns one atomic action of ``view.legal``; the bot asks again after
each one, as it does for a person.
"""

from __future__ import annotations

from engine.buraco.actions import Action, DrawStock
from engine.buraco.deal import Phase
from engine.buraco.match import Match
from engine.buraco.views import seat_view

from .easy import EASY, EasyPlayer, Habits
from .hard import Budget, HardPlayer

__all__ = ["EASY", "Budget", "EasyPlayer", "Habits", "HardPlayer", "auto_action"]


def auto_action(match: Match, seat: int) -> Action:
    """The timer's move for an absent ``seat``: from the stock when it is time to draw (the pile is a choice the
    player should make himself), else the easy player's choice: its melds, then a safe discard, so the pair is
    never left stuck and the deal goes on."""
    view = seat_view(match, seat)
    if not view.legal:
        raise ValueError("not this seat's turn")
    draw = DrawStock(seat)
    if view.table.phase is Phase.DRAW and draw in view.legal:
        return draw
    return EasyPlayer().choose(view)
