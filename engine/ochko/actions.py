"""Очко's moves, one typed frozen class per kind (RULES §20.11). Each names the seat that makes it.

``Hit`` and ``Stand`` are the player's «Ещё» / «Хватит» and the banker's alike: the phase says whose they are.
``Leave`` is accepted from any present seat in any phase but OVER and is never in ``legal_actions`` (§20.11).

Amounts are whole chips. ``legal_actions`` lists every stake ``bank_min..chips`` and every bet ``lo..hi``
(§20.11: "STAKE lists every stake, BET every bet"; §20.8 item 1: any whole number may be typed); with virtual
stacks of a few hundred chips that stays small. The UI's four bet buttons are ``Match.bet_buttons()``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final


@dataclass(frozen=True, slots=True)
class StakeBank:
    """The banker puts up the bank: ``bank_min ≤ amount ≤ chips`` (§20.6 item 1)."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class Knock:
    """«Стук»: this round is the last of the bank (§20.6 item 4)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Deal:
    """The banker declines to knock and deals the round (§20.11 KNOCK)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Bet:
    """«На сколько идёшь?»: the player's bet against the bank, which brings his second card (§20.8 items 1-2)."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class Hit:
    """«Ещё»: one more card from the bottom (§20.8 item 3, §20.9)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Stand:
    """«Хватит» / «Себе»: the hand stops (§20.8 item 3, §20.9)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Dark:
    """«В тёмную» [O06]: one last card face down, unseen even by its holder until settlement (§20.8 item 3)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Leave:
    """The seat leaves the table (or the bot removes it after its turn timer), §20.14 items 7-9."""

    seat: int


Action = StakeBank | Knock | Deal | Bet | Hit | Stand | Dark | Leave

_KINDS: Final[dict[type[Any], str]] = {
    StakeBank: "stake",
    Knock: "knock",
    Deal: "deal",
    Bet: "bet",
    Hit: "hit",
    Stand: "stand",
    Dark: "dark",
    Leave: "leave",
}
_BY_KIND: Final = {kind: cls for cls, kind in _KINDS.items()}


def action_to_json(action: Action) -> dict[str, Any]:
    """A small JSON object: ``{"type": "bet", "seat": 1, "amount": 5}``."""
    data: dict[str, Any] = {"type": _KINDS[type(action)], "seat": action.seat}
    if isinstance(action, StakeBank | Bet):
        data["amount"] = action.amount
    return data


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"bad {key} in {data!r}")
    return value


def action_from_json(data: dict[str, Any]) -> Action:
    """The inverse of :func:`action_to_json`; ``ValueError`` for anything malformed."""
    cls = _BY_KIND.get(str(data.get("type")))
    seat = _int(data, "seat")
    if cls is StakeBank:
        return StakeBank(seat, _int(data, "amount"))
    if cls is Bet:
        return Bet(seat, _int(data, "amount"))
    if cls in (Knock, Deal, Hit, Stand, Dark, Leave):
        simple: Action = cls(seat)
        return simple
    raise ValueError(f"unknown action {data!r}")
