"""Buraco's moves, one typed frozen class per kind (RULES §17.3-§17.6). Each names the seat that makes it.

Melding is atomic: ``NewRun`` lays three cards, ``AddToRun`` one card. That keeps ``legal_actions`` complete
and bounded (at most 760 new runs and 14 additions per run, whatever the hand) where "any set of melds at
once" would run to millions; a vulnerable pair's opening is collected in a draft (see ``deal``), so a turn's
several melds still count together (§17.5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.buraco.cards import Card, cards, codes
from engine.core.cards import Suit


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Take the top card of the stock (the deal's first turn: the card that may then be kept or refused)."""

    seat: int


@dataclass(frozen=True, slots=True)
class TakePile:
    """Take the whole discard pile into the hand (§17.3: no conditions)."""

    seat: int


@dataclass(frozen=True, slots=True)
class KeepDrawn:
    """The deal's first turn: keep the first card drawn (§17.3)."""

    seat: int


@dataclass(frozen=True, slots=True)
class RejectDrawn:
    """The deal's first turn: show the first card drawn, put it face up on the pile, draw the next (§17.3)."""

    seat: int


@dataclass(frozen=True, slots=True)
class NewRun:
    """Lay three cards as a new run of the pair: ``laid[i]`` stands at position ``low + i`` of ``suit``."""

    seat: int
    suit: Suit
    low: int
    laid: tuple[Card, Card, Card]


@dataclass(frozen=True, slots=True)
class AddToRun:
    """Add one card to run number ``run`` of ``side`` (only one's own side's, §17.3): at position ``at``; when
    that is the substitute's place, the substitute moves to ``moved_to`` (§17.4)."""

    seat: int
    side: int
    run: int
    card: Card
    at: int
    moved_to: int | None = None


@dataclass(frozen=True, slots=True)
class CancelDraft:
    """Take back the runs of an opening not yet made (§17.5: they are not on the table until the discard)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Discard:
    """Put one card on the pile and end the turn."""

    seat: int
    card: Card


Action = DrawStock | TakePile | KeepDrawn | RejectDrawn | NewRun | AddToRun | CancelDraft | Discard

_KINDS: dict[type, str] = {
    DrawStock: "draw",
    TakePile: "pile",
    KeepDrawn: "keep",
    RejectDrawn: "reject",
    NewRun: "run",
    AddToRun: "add",
    CancelDraft: "cancel",
    Discard: "discard",
}
_SIMPLE: dict[str, type[DrawStock | TakePile | KeepDrawn | RejectDrawn | CancelDraft]] = {
    "draw": DrawStock,
    "pile": TakePile,
    "keep": KeepDrawn,
    "reject": RejectDrawn,
    "cancel": CancelDraft,
}


def action_to_json(action: Action) -> dict[str, Any]:
    """A small JSON object: ``{"type": "run", "seat": 0, "suit": "H", "low": 3, "cards": "3H 4H JK"}``."""
    data: dict[str, Any] = {"type": _KINDS[type(action)], "seat": action.seat}
    if isinstance(action, NewRun):
        data.update(suit=action.suit.value, low=action.low, cards=codes(action.laid))
    elif isinstance(action, AddToRun):
        data.update(side=action.side, run=action.run, card=action.card.code, at=action.at)
        if action.moved_to is not None:
            data["to"] = action.moved_to
    elif isinstance(action, Discard):
        data["card"] = action.card.code
    return data


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"bad {key} in {data!r}")
    return value


def action_from_json(data: dict[str, Any]) -> Action:
    """The inverse of :func:`action_to_json`; ``ValueError`` for anything malformed."""
    kind = data.get("type")
    seat = _int(data, "seat")
    if isinstance(kind, str) and kind in _SIMPLE:
        return _SIMPLE[kind](seat)
    if kind == "run":
        laid = cards(str(data.get("cards", "")))
        if len(laid) != 3:
            raise ValueError(f"a new run is three cards: {data!r}")
        return NewRun(seat, Suit(data.get("suit")), _int(data, "low"), (laid[0], laid[1], laid[2]))
    if kind == "add":
        moved = data.get("to")
        return AddToRun(
            seat,
            _int(data, "side"),
            _int(data, "run"),
            Card.parse(str(data.get("card", ""))),
            _int(data, "at"),
            None if moved is None else _int(data, "to"),
        )
    if kind == "discard":
        return Discard(seat, Card.parse(str(data.get("card", ""))))
    raise ValueError(f"unknown action {data!r}")
