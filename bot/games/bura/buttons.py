"""What the Bura family's hand buttons carry: the op letter (``HandCb.op``) and the cards, two ASCII bytes each."""

from __future__ import annotations

from enum import StrEnum

from bot.telegram.callbacks import REFRESH
from engine.bura.cards import Card


class HandOp(StrEnum):
    """The Bura family's hand buttons; another game names its own ops."""

    TOGGLE = "t"  # select or unselect a card: ``cards`` is the selection after the tap
    PLAY = "p"  # lead, or answer face up, with ``cards``
    FACE_DOWN = "d"  # answer face down with ``cards``
    CLAIM = "c"  # «Вскрываюсь!», confirmed
    CLAIM_ASK = "k"  # «Вскрываюсь!» tapped: the hand asks to confirm (nothing is played)
    COMBO = "b"  # «Стоп!» / show a combo: ``cards`` is empty, the combo is the seat's
    PASS = "n"  # decline a «Стоп!» or the final claim window
    REFRESH = REFRESH


def pack_cards(cards: tuple[Card, ...] | list[Card]) -> str:
    """``(Q♠, 7♠)`` -> ``"QS7S"``: two ASCII bytes a card."""
    return "".join(card.code for card in cards)


def unpack_cards(text: str) -> tuple[Card, ...]:
    """The inverse of :func:`pack_cards`; raises ``ValueError`` on anything that is not a list of cards."""
    if len(text) % 2:
        raise ValueError(f"not a list of cards: {text!r}")
    return tuple(Card.parse(text[i : i + 2]) for i in range(0, len(text), 2))
