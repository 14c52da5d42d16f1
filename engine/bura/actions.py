"""Moves: one typed, frozen class per kind of move, with its JSON form (RULES §2 glossary).

Actions name the seat that makes them, so an action log is a list of actions and nothing else. They are values:
equal when their fields are, hashable, immutable.

The moves that name cards are built by legal_actions for every legal set on every state, so their constructor
fills the slots directly rather than through the frozen dataclass's ``object.__setattr__`` per field (1.5 µs a
move; this way 0.9 µs).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.bura.cards import Card, cards, codes
from engine.bura.combos import Combo


@dataclass(frozen=True, slots=True, init=False)
class Lead:
    """Lead k cards of one suit (заход), RULES §6.1; or the cards of a combo that must be led (§9.3)."""

    seat: int
    cards: tuple[Card, ...]

    def __init__(self, seat: int, cards: tuple[Card, ...]) -> None:
        _LEAD_SEAT(self, seat)
        _LEAD_CARDS(self, cards)


@dataclass(frozen=True, slots=True, init=False)
class RespondOpen:
    """Answer the trick face up with exactly k cards (RULES §6.2); it takes the trick if it beats (§6.5)."""

    seat: int
    cards: tuple[Card, ...]

    def __init__(self, seat: int, cards: tuple[Card, ...]) -> None:
        _OPEN_SEAT(self, seat)
        _OPEN_CARDS(self, cards)


@dataclass(frozen=True, slots=True, init=False)
class RespondFaceDown:
    """Answer with k cards face down (сброс втёмную, RULES §6.6): they never beat and stay hidden."""

    seat: int
    cards: tuple[Card, ...]

    def __init__(self, seat: int, cards: tuple[Card, ...]) -> None:
        _FACE_DOWN_SEAT(self, seat)
        _FACE_DOWN_CARDS(self, cards)


@dataclass(frozen=True, slots=True)
class Claim:
    """«Вскрываюсь!»: claim 31 (61) in the won pile (RULES §8)."""

    seat: int


@dataclass(frozen=True, slots=True)
class DeclareCombo:
    """«Стоп!»: show a lead-seizing combination before the rightful leader leads (RULES §9, §10 step 3)."""

    seat: int
    combo: Combo


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline an optional move: a «Стоп!» one could make, or the final claim window (RULES §8.2)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Forfeit:
    """Not a player's move but a table's ruling, kept in the log so replay rebuilds it: the seat loses the deal
    (the bot's rule for a player who let his move timer run out three times in a row). Never in legal_actions."""

    seat: int


def _setters(cls: type, *fields: str) -> tuple[Callable[[object, Any], None], ...]:
    """The slots' own setters (member descriptors): what a frozen class may use to fill itself once."""
    return tuple(getattr(cls, field).__set__ for field in fields)


_LEAD_SEAT, _LEAD_CARDS = _setters(Lead, "seat", "cards")
_OPEN_SEAT, _OPEN_CARDS = _setters(RespondOpen, "seat", "cards")
_FACE_DOWN_SEAT, _FACE_DOWN_CARDS = _setters(RespondFaceDown, "seat", "cards")

Action = Lead | RespondOpen | RespondFaceDown | Claim | DeclareCombo | Pass
LoggedAction = Action | Forfeit

_KINDS: dict[type[Any], str] = {
    Lead: "lead",
    RespondOpen: "open",
    RespondFaceDown: "face_down",
    Claim: "claim",
    DeclareCombo: "combo",
    Pass: "pass",
    Forfeit: "forfeit",
}


def action_to_json(action: LoggedAction) -> dict[str, Any]:
    """A small JSON object: ``{"type": "lead", "seat": 0, "cards": "QS 7S"}``."""
    data: dict[str, Any] = {"type": _KINDS[type(action)], "seat": action.seat}
    if isinstance(action, Lead | RespondOpen | RespondFaceDown):
        data["cards"] = codes(action.cards)
    elif isinstance(action, DeclareCombo):
        data["combo"] = action.combo.value
    return data


def action_from_json(data: dict[str, Any]) -> LoggedAction:
    """The inverse of :func:`action_to_json`; raises ``ValueError`` on anything malformed."""
    kind = data.get("type")
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ValueError(f"bad seat in {data!r}")
    if kind in ("lead", "open", "face_down"):
        played = cards(str(data.get("cards", "")))
        if kind == "lead":
            return Lead(seat, played)
        return RespondOpen(seat, played) if kind == "open" else RespondFaceDown(seat, played)
    if kind == "claim":
        return Claim(seat)
    if kind == "combo":
        return DeclareCombo(seat, Combo(data.get("combo")))
    if kind == "pass":
        return Pass(seat)
    if kind == "forfeit":
        return Forfeit(seat)
    raise ValueError(f"unknown action {data!r}")
