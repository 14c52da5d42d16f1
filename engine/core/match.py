"""The ``Match`` protocol: what the bot may ask of any game's match, whatever the game.

A match is config + seed + action log. ``legal_actions(seat)`` is the one truth of what a seat may do;
``apply`` plays one of them (and refuses anything else with ``IllegalAction``, changing nothing) and returns
the events to announce; ``to_json`` keeps what rebuilds the match exactly; ``snapshot`` is every field as
plain data, so two matches are in the same state iff their snapshots are equal.

The protocol is generic over the game's own action and event types, so a caller that knows the game keeps
them typed end to end (``Match[bura.Action, bura.Event]``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

ActionT = TypeVar("ActionT")
EventT_co = TypeVar("EventT_co", covariant=True)


@runtime_checkable
class Match(Protocol[ActionT, EventT_co]):
    players: int
    finished: bool

    def to_act(self) -> int | None:
        """The seat whose move it is, or None once the match is over."""
        ...

    def legal_actions(self, seat: int) -> Sequence[ActionT]:
        """Every action ``seat`` may take now, in a fixed order; empty when it is not his to act."""
        ...

    def apply(self, action: ActionT) -> Sequence[EventT_co]:
        """Verify and play ``action``; return the events it caused."""
        ...

    def to_json(self) -> dict[str, Any]:
        """Config + seed + action log (JSON: plain data of any shape)."""
        ...

    def snapshot(self) -> dict[str, Any]:
        """Every field of the state as plain data."""
        ...
