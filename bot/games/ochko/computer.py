"""Computer players at an Очко table: engine/ochko/ai decides for a computer seat from its seat's view only, one
action at a time (a stake, a knock or not, a bet, a card or not). ``easy`` plays the easy level, ``odds`` the
harder one. Plain data in and out, so it may run in a worker."""

from __future__ import annotations

from bot.table_settings import ComputerLevel
from engine.ochko.actions import Action
from engine.ochko.ai import easy, odds
from engine.ochko.views import SeatView


def decide(view: SeatView, level: ComputerLevel) -> Action:
    """The action a computer at ``level`` takes from ``view`` (its seat is to act: it has a legal action)."""
    policy = easy if level is ComputerLevel.EASY else odds
    action = policy(view)
    if action is None:
        raise ValueError("a computer was asked to act with nothing to do")
    return action
