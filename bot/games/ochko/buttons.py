"""What Очко's hand buttons carry: an op letter and, for an amount, the amount in plain digits
(``HandCb.op`` and ``HandCb.cards``).

A bet or a stake button carries the amount it means, so the engine checks it when tapped: a stale or forged
amount gets the engine's refusal. The stepper («−10 −1 +1 +10») carries the amount it moves to, which the hand is
drawn with again (``Redraw.selection``) under «Ставка N». Anything else is no button of ours: ``ValueError``,
answered as a stale button.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from bot.telegram.callbacks import REFRESH, parse_id


class Op(StrEnum):
    """Очко's hand buttons, one letter each; REFRESH (🔄) is every game's."""

    STAKE = "s"  # put up the bank: the amount
    BET = "b"  # bet against the bank: the amount
    STEP = "n"  # the stepper: the amount to show under «Ставка N» (no move)
    KNOCK = "k"  # «Стук»
    DEAL = "d"  # «Сдавать»: no knock
    HIT = "h"  # «Ещё»
    STAND = "t"  # «Хватит»
    DARK = "x"  # «В тёмную»
    REFRESH = REFRESH


AMOUNTS: Final = frozenset({Op.STAKE, Op.BET, Op.STEP})


@dataclass(frozen=True, slots=True)
class HandButton:
    """One hand button as data: the op and, for a stake, a bet or the stepper, the amount."""

    op: Op
    amount: int | None = None

    def payload(self) -> str:
        return "" if self.amount is None else str(self.amount)

    @classmethod
    def read(cls, op: str, payload: str) -> HandButton:
        """The button ``op`` and ``payload`` are; ``ValueError`` for anything no button of ours carries."""
        kind = Op(op)
        if kind in AMOUNTS:
            amount = parse_id(payload)
            if amount is None:
                raise ValueError("not an amount of ours")
            return cls(kind, amount)
        if payload:
            raise ValueError("this button carries nothing")
        return cls(kind)


def read_selection(selection: str) -> int | None:
    """The stepper's amount a hand is drawn with (None: none chosen, or data no button of ours carries)."""
    return parse_id(selection) if selection else None
