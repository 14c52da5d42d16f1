"""Computer players. ``RandomPlayer`` picks any legal move: the opponent of tests and benchmarks.

A player sees only its seat's view (``engine.bura.views``), as a person at the table would.
"""

from __future__ import annotations

import random
from typing import Protocol

from engine.bura.actions import Action
from engine.bura.match import Match
from engine.bura.views import SeatView


class Player(Protocol):
    def choose(self, seat_view: SeatView) -> Action:
        """One of ``seat_view.legal``."""
        ...


class RandomPlayer:
    """Uniform over the legal moves."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, seat_view: SeatView) -> Action:
        if not seat_view.legal:
            raise ValueError("no legal action")
        return self.rng.choice(seat_view.legal)


def random_step(match: Match, rng: random.Random) -> Action:
    """Pick a legal action of any seat at random (optional moves such as «Стоп!» race the one to act)."""
    options = [action for seat in match.active for action in match.legal_actions(seat)]
    if not options:
        raise ValueError("no seat has a legal action")
    return rng.choice(options)


def play_random_match(match: Match, rng: random.Random, max_actions: int = 100_000) -> int:
    """Play random legal actions until the match ends (or ``max_actions``); returns the actions played."""
    played = 0
    while not match.finished and played < max_actions:
        match.apply(random_step(match, rng))
        played += 1
    return played
