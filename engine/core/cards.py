"""The four suits every game of the house plays with; each game has its own ranks and cards."""

from __future__ import annotations

from enum import Enum
from typing import Final


class Suit(Enum):
    """The four suits. The value is the one-letter code used in JSON and callback data."""

    SPADES = "S"
    CLUBS = "C"
    HEARTS = "H"
    DIAMONDS = "D"

    # Members are singletons: hash by identity in C rather than Enum's Python-level hash of the name.
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]


_SUIT_SYMBOLS: Final = {Suit.SPADES: "♠", Suit.CLUBS: "♣", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦"}
SUITS: Final[tuple[Suit, ...]] = tuple(Suit)
# A suit as written in a card's code ("S") or on a card ("♠").
SUIT_BY_TEXT: Final[dict[str, Suit]] = {**{s.value: s for s in Suit}, **{s.symbol: s for s in Suit}}
