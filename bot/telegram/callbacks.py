"""Callback data of every inline button: typed aiogram factories, short prefixes, within 64 bytes.

Every button names its table and the table's move number (version), so the service rejects stale, forged and
foreign taps instead of trusting them (STYLE: bot/ rule 4). The hand keyboard is stateless: a card button
carries the selection that tapping it would make, and an action button carries the selection it plays, so a
restart loses no selection and the server keeps no UI state.
"""

from __future__ import annotations

from enum import StrEnum

from aiogram.filters.callback_data import CallbackData

from engine.cards import Card

MAX_CALLBACK_BYTES = 64


class LobbyOp(StrEnum):
    JOIN = "j"
    LEAVE = "l"
    START = "s"
    SETTINGS = "o"
    CANCEL = "c"
    ADD_COMPUTER = "a"
    REMOVE_COMPUTER = "r"


class LobbyCb(CallbackData, prefix="l"):
    """A lobby button: ``l:<op>:<table>``."""

    op: LobbyOp
    table: int


class SettingCb(CallbackData, prefix="s"):
    """A settings button: ``s:<table>:<key>:<value>`` (keys and values are short codes)."""

    table: int
    key: str
    value: str


class HandOp(StrEnum):
    TOGGLE = "t"  # select or unselect a card: ``cards`` is the selection after the tap
    PLAY = "p"  # lead, or answer face up, with ``cards``
    FACE_DOWN = "d"  # answer face down with ``cards``
    CLAIM = "c"  # «Вскрываюсь!»
    COMBO = "b"  # «Стоп!» / show a combo: ``cards`` is empty, the combo is the seat's
    PASS = "n"  # decline a «Стоп!» or the final claim window
    REFRESH = "r"  # re-send the hand (after a restart or a lost message)


class HandCb(CallbackData, prefix="h"):
    """A hand button: ``h:<table>:<move>:<op>:<cards>``; ``cards`` is card codes joined, e.g. ``QS7S``."""

    table: int
    move: int
    op: HandOp
    cards: str = ""

    @staticmethod
    def data(table: int, move: int, op: HandOp, cards: str = "") -> str:
        """``HandCb(...).pack()`` without building the model: a hand has a dozen buttons and is redrawn after
        every tap (tests/bot/test_callbacks.py holds the two to the same text and to the 64-byte limit)."""
        return f"h:{table}:{move}:{op.value}:{cards}"


def pack_cards(cards: tuple[Card, ...] | list[Card]) -> str:
    """``(Q♠, 7♠)`` -> ``"QS7S"``: two ASCII bytes a card."""
    return "".join(card.code for card in cards)


def unpack_cards(text: str) -> tuple[Card, ...]:
    """The inverse of :func:`pack_cards`; raises ``ValueError`` on anything that is not a list of cards."""
    if len(text) % 2:
        raise ValueError(f"not a list of cards: {text!r}")
    return tuple(Card.parse(text[i : i + 2]) for i in range(0, len(text), 2))
