"""Computer players. ``RandomPlayer`` picks any legal move: the opponent of tests and benchmarks.

A player sees only its seat's view (``engine.views``), as a person at the table would.
"""

from __future__ import annotations

import random
from typing import Protocol

from engine.actions import Action, Claim
from engine.match import Match
from engine.views import SeatView, view


class Player(Protocol):
    def choose(self, seat_view: SeatView) -> Action:
        """One of ``seat_view.legal``."""
        ...


class RandomPlayer:
    """Uniform over the legal moves; ``claim_rate`` scales how often a possible claim is made instead."""

    def __init__(self, rng: random.Random, claim_rate: float = 1.0) -> None:
        self.rng = rng
        self.claim_rate = claim_rate

    def choose(self, seat_view: SeatView) -> Action:
        legal = seat_view.legal
        if not legal:
            raise ValueError("no legal action")
        if self.claim_rate < 1.0:
            others = [action for action in legal if not isinstance(action, Claim)]
            if others and len(others) < len(legal) and self.rng.random() >= self.claim_rate:
                return self.rng.choice(others)
        return self.rng.choice(legal)


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


def play_seat_views(match: Match, players: dict[int, Player], max_actions: int = 100_000) -> int:
    """Let each seat's player choose from its own view whenever that seat is to act."""
    played = 0
    while not match.finished and played < max_actions:
        seat = match.to_act()
        assert seat is not None
        match.apply(players[seat].choose(view(match, seat)))
        played += 1
    return played
