"""Очко's cards: the 36-card pack (or 32, [O10]), their codes and the seniority the cut ranks by (RULES §20.4,
§20.5). What a card is *worth* depends on the table's options: see ``engine.ochko.hands``.

The canonical order (suit by suit ♠ ♣ ♥ ♦, ranks ``6 7 8 9 J Q K T A`` within a suit) is the one
docs/fairness.md §3 gives the 36-card pack, so a fair deal of Очко is checked like any other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from engine.core.cards import SUIT_BY_TEXT, SUITS, Suit


class Rank(Enum):
    """Ranks in the canonical order of the pack (docs/fairness.md §3). The value is the code ("T" is the ten)."""

    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    TEN = "T"
    ACE = "A"

    __hash__ = object.__hash__


RANKS: Final[tuple[Rank, ...]] = tuple(Rank)
# RULES §20.5, Ruling 21: the cut ranks by seniority A K Q J 10 9 8 7 6, not by the Очко values.
SENIORITY: Final[dict[Rank, int]] = {
    rank: place
    for place, rank in enumerate(
        (Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
    )
}
# RULES §20.4: the pictures («картинки») of [O04].
PICTURES: Final = frozenset({Rank.JACK, Rank.QUEEN, Rank.KING})


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card, an immutable value (``Card.parse("AS") == Card(Rank.ACE, Suit.SPADES)``)."""

    rank: Rank
    suit: Suit
    code: str = field(init=False, compare=False, repr=False)
    """Rank then suit, as in JSON and docs/fairness.md ("TD" is the ten of diamonds)."""
    index: int = field(init=False, compare=False, repr=False)
    """The place in the canonical 36-card order."""

    def __post_init__(self) -> None:
        # Computed once: codes and places are read on every snapshot and shuffle.
        object.__setattr__(self, "code", self.rank.value + self.suit.value)
        object.__setattr__(self, "index", SUITS.index(self.suit) * len(RANKS) + RANKS.index(self.rank))

    def __hash__(self) -> int:
        return self.index  # equal cards have equal places; cheaper than hashing the two enums

    def __str__(self) -> str:
        rank = "10" if self.rank is Rank.TEN else self.rank.value
        return rank + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    @staticmethod
    def parse(text: str) -> Card:
        """Parse "AS", "TD", "10D", "Q♠" or "10♦"."""
        text = text.strip()
        rank = _RANK_BY_TEXT.get("T" if text[:-1] == "10" else text[:-1].upper())
        suit = SUIT_BY_TEXT.get(text[-1:].upper())
        if rank is None or suit is None:
            raise ValueError(f"not a card: {text!r}")
        return Card(rank, suit)


_RANK_BY_TEXT: Final = {rank.value: rank for rank in Rank}


def deck(size: int = 36) -> list[Card]:
    """The canonical pack of ``size`` cards (36, or 32 without the sixes, [O10]), in the canonical order."""
    if size not in _DECKS:
        raise ValueError("Очко is played with 36 or 32 cards")
    return list(_DECKS[size])


_DECKS: Final[dict[int, tuple[Card, ...]]] = {
    36: tuple(Card(rank, suit) for suit in SUITS for rank in RANKS),
    32: tuple(Card(rank, suit) for suit in SUITS for rank in RANKS[1:]),
}


def canonical(cards: list[Card]) -> list[Card]:
    """``cards`` in the canonical order: what a reshuffle shuffles (§20.7 item 8), a function of the set alone."""
    return sorted(cards, key=lambda card: card.index)


def cards(text: str) -> tuple[Card, ...]:
    """Parse a space-separated list of cards ("TS 9D 7♦")."""
    return tuple(Card.parse(word) for word in text.split())


def codes(items: list[Card] | tuple[Card, ...]) -> list[str]:
    return [card.code for card in items]
