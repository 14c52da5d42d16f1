"""Buraco's 108 cards: two packs of 52 and four jokers (RULES §17.1), their values (§17.7) and codes.

Cards are interned by kind: the two copies of 7♥ are the same ``Card`` object, and so are the four jokers.
No rule tells the copies apart (RULES §17.7a-5 forbids giving back any card equal to a lone pile card), so a
hand is a multiset of kinds.

Ranks are numbers: 1 is the ace, 2..10, 11 J, 12 Q, 13 K; the joker has rank 0 and no suit.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter
from typing import Any, ClassVar, Final, final

from engine.core.cards import SUIT_BY_TEXT, SUITS, Suit

ACE: Final = 1
TWO: Final = 2
KING: Final = 13
JOKER_RANK: Final = 0

_RANK_CODES: Final = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}
_RANK_BY_CODE: Final = {**{str(r): r for r in range(2, 10)}, "A": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13}


def _value(rank: int) -> int:
    # RULES §17.7: joker 20, a 2 10 (wild or natural, §17.7a-13), ace 15, K-8 10, 7-3 5.
    if rank == JOKER_RANK:
        return 20
    if rank == TWO:
        return 10
    if rank == ACE:
        return 15
    return 10 if rank >= 8 else 5


@final
class Card:
    """One kind of card: an immutable, interned value (``Card(7, Suit.HEARTS) is Card.parse("7H")``)."""

    __slots__ = ("code", "index", "rank", "suit", "value")
    _interned: ClassVar[dict[tuple[int, Suit | None], Card]] = {}

    rank: int
    suit: Suit | None
    value: int
    index: int  # sort order: suit by suit, ace to king, jokers last
    code: str

    def __new__(cls, rank: int, suit: Suit | None) -> Card:
        try:
            return cls._interned[(rank, suit)]
        except KeyError:
            pass
        if rank == JOKER_RANK:
            if suit is not None:
                raise ValueError("a joker has no suit")
            index, code = 4 * KING, "JK"
        else:
            if suit is None or not ACE <= rank <= KING:
                raise ValueError(f"no card of rank {rank}")
            index = SUITS.index(suit) * KING + rank - 1
            code = _RANK_CODES.get(rank, str(rank)) + suit.value
        card = object.__new__(cls)
        for name, value in (("rank", rank), ("suit", suit), ("value", _value(rank)), ("index", index), ("code", code)):
            object.__setattr__(card, name, value)
        cls._interned[(rank, suit)] = card
        return card

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card, (self.rank, self.suit))

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self  # interned and immutable

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __str__(self) -> str:
        if self.suit is None:
            return "🃏"
        return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(self.rank, str(self.rank)) + self.suit.symbol

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def may_be_wild(self) -> bool:
        """A joker always substitutes; a 2 substitutes anywhere but before the 3 of its own suit (§17.4)."""
        return self.rank <= TWO and self.rank != ACE

    @staticmethod
    def parse(text: str) -> Card:
        """Parse "7H", "TD", "10D", "Q♠" or "JK" (the joker) into the card."""
        text = text.strip().upper()
        if text in ("JK", "🃏"):
            return JOKER
        rank = _RANK_BY_CODE.get(text[:-1])
        suit = SUIT_BY_TEXT.get(text[-1:]) or SUIT_BY_TEXT.get(text[-1:].lower())
        if rank is None or suit is None:
            raise ValueError(f"not a card: {text!r}")
        return Card(rank, suit)


JOKER: Final = Card(JOKER_RANK, None)
KINDS: Final[tuple[Card, ...]] = (*(Card(rank, suit) for suit in SUITS for rank in range(ACE, KING + 1)), JOKER)
WILDS: Final[tuple[Card, ...]] = (JOKER, *(Card(TWO, suit) for suit in SUITS))


BY_INDEX: Final = attrgetter("index")  # sort key for hands (C-level, for the hot path)


def deck() -> list[Card]:
    """The 108 cards in a fixed order: two of every suited kind, then the four jokers (RULES §17.1)."""
    return [card for card in KINDS if not card.is_joker for _ in range(2)] + [JOKER] * 4


def cards(text: str) -> tuple[Card, ...]:
    """Parse a space-separated list of cards, e.g. ``cards("3H 4H JK")`` -- handy in tests and scenarios."""
    return tuple(Card.parse(part) for part in text.split())


def codes(hand: Iterable[Card]) -> str:
    """The inverse of :func:`cards`."""
    return " ".join(card.code for card in hand)


def value(hand: Iterable[Card]) -> int:
    """The sum of the cards' values (RULES §17.7)."""
    return sum(card.value for card in hand)
