"""The ``Game`` protocol: what the bot may ask of any game's match, whatever the game.

A match is config + seed + action log. ``legal_actions(seat)`` is the one truth of what a seat may do;
``apply`` plays one of them (and refuses anything else with ``IllegalAction``, changing nothing) and returns
the events to announce; ``to_json`` keeps what rebuilds the match exactly; ``snapshot`` is every field as
plain data, so two matches are in the same state iff their snapshots are equal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Game(Protocol):
    players: int
    finished: bool

    def to_act(self) -> int | None:
        """The seat whose move it is, or None once the match is over."""
        ...

    def legal_actions(self, seat: int) -> Sequence[Any]:
        """Every action ``seat`` may take now, in a fixed order; empty when it is not his to act."""
        ...

    def apply(self, action: Any) -> Sequence[Any]:
        """Verify and play ``action``; return the events it caused."""
        ...

    def to_json(self) -> dict[str, Any]:
        """Config + seed + action log."""
        ...

    def snapshot(self) -> dict[str, Any]:
        """Every field of the state as plain data."""
        ...
