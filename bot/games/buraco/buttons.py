"""What Buraco's hand buttons carry: a typed ``HandButton`` and its codec (``HandCb.op`` and ``HandCb.cards``).

The wire format stays as old keyboards in chats carry it: the op letter, and a payload of the selection (the
hand's order and a bitmask of the marked places, :class:`Selection`) with, for a meld, the arrangement before it
(``"<plan>.<selection>"``) and, for an addition, the run and the plan (``"<run>.<plan>.<selection>"``; a keyboard
drawn before runs had several plans carries ``"<run>.<selection>"``, the default plan 0). A sort button carries
the order to show. Anything else is no button of ours: ``ValueError``, answered as a stale button.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from bot.games.buraco.moves import BY_SUIT, Selection
from bot.telegram.callbacks import REFRESH, parse_id


class Op(StrEnum):
    """Buraco's hand buttons, one letter each; REFRESH (🔄) is every game's."""

    TOGGLE = "t"  # mark or unmark a card: the selection after the tap
    STOCK = "s"  # draw from the stock
    PILE = "p"  # take the discard pile
    KEEP = "k"  # keep the first card drawn (RULES §17.7a-1)
    REJECT = "j"  # reject it
    MELD = "m"  # lay the marked cards as a new run: the plan and the selection
    ADD = "a"  # add the marked cards to a run of the pair's: the run, the plan and the selection
    DISCARD = "x"  # discard the one marked card (the selection)
    CANCEL = "c"  # take back an opening's draft
    SORT = "o"  # show the hand in the other order (the order)
    REFRESH = REFRESH


_PLANNED: Final = re.compile(r"([0-9]+)\.(?:([0-9]+)\.)?([A-Za-z0-9_-]*)")


@dataclass(frozen=True, slots=True)
class HandButton:
    """One of Buraco's hand buttons as data: the op, the selection it carries, and for a meld the plan, for an
    addition the run (from 0) and the plan."""

    op: Op
    selection: Selection = field(default_factory=Selection)
    run: int | None = None
    plan: int = 0

    def payload(self) -> str:
        """What ``HandCb.cards`` carries."""
        packed = self.selection.pack()
        if self.op is Op.MELD:
            return f"{self.plan}.{packed}"
        if self.op is Op.ADD:
            return f"{self.run}.{self.plan}.{packed}"
        if self.op is Op.SORT:
            return self.selection.order
        if self.op in (Op.TOGGLE, Op.REFRESH, Op.DISCARD):
            return packed
        return ""

    @classmethod
    def read(cls, op: str, payload: str, size: int) -> HandButton:
        """The button ``op`` and ``payload`` are, for a hand of ``size`` cards; ``ValueError`` for anything no
        button of ours carries."""
        kind = Op(op)
        if kind is Op.SORT:
            return cls(kind, Selection.unpack(payload or BY_SUIT, size))
        if kind in (Op.TOGGLE, Op.REFRESH, Op.DISCARD):
            return cls(kind, Selection.unpack(payload, size))
        if kind in (Op.MELD, Op.ADD):
            found = _PLANNED.fullmatch(payload)
            if found is None or (kind is Op.MELD and found.group(2) is not None):
                raise ValueError("not a meld or an addition of ours")
            first, second, packed = found.groups()
            numbers = [parse_id(first), parse_id(second) if second is not None else 0]
            if None in numbers:
                raise ValueError("not a run or a plan of ours")
            selection = Selection.unpack(packed, size)
            if kind is Op.MELD:
                return cls(kind, selection, plan=numbers[0] or 0)
            return cls(kind, selection, run=numbers[0], plan=numbers[1] or 0)
        if payload:
            raise ValueError("this button carries nothing")
        return cls(kind)
