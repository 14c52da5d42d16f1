"""Cards: suits, ranks, the 36- and 32-card decks, strength and points, and who beats whom.

RULES §3 (cards), §6.3 (one card beats another) and §6.4 (a set beats a set), with the shokha of §3.4 [B08].

Cards are interned: there is exactly one ``Card`` object per (rank, suit), so equality and hashing are by
identity (fast, which matters for the thousands of playouts a computer player runs per decision).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum
from itertools import permutations
from operator import attrgetter
from typing import Any, ClassVar, Final, final

from engine.core.cards import SUIT_BY_TEXT, SUITS, Suit


class Rank(Enum):
    """Ranks in ace-ten order, lowest first (RULES §3.2). The value is the one-letter code ("T" is the ten)."""

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
# RULES §3.2: strength index 6:0 ... K:6, 10:7, A:8 -- compare by this, never by face value.
STRENGTH: Final[dict[Rank, int]] = {rank: index for index, rank in enumerate(RANKS)}
# RULES §3.3: card points, a separate table from strength.
POINTS: Final[dict[Rank, int]] = {
    Rank.ACE: 11,
    Rank.TEN: 10,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.JACK: 2,
    Rank.NINE: 0,
    Rank.EIGHT: 0,
    Rank.SEVEN: 0,
    Rank.SIX: 0,
}


@final
class Card:
    """One playing card: an immutable, interned value (``Card(Rank.ACE, Suit.SPADES) is Card.parse("AS")``)."""

    __slots__ = ("code", "index", "points", "rank", "strength", "suit")
    _interned: ClassVar[dict[tuple[Rank, Suit], Card]] = {}

    rank: Rank
    suit: Suit
    strength: int
    points: int
    index: int
    code: str

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        try:
            return cls._interned[(rank, suit)]
        except KeyError:
            pass
        card = object.__new__(cls)
        for name, value in (
            ("rank", rank),
            ("suit", suit),
            ("strength", STRENGTH[rank]),
            ("points", POINTS[rank]),
            ("index", SUITS.index(suit) * len(RANKS) + STRENGTH[rank]),
            ("code", rank.value + suit.value),
        ):
            object.__setattr__(card, name, value)
        cls._interned[(rank, suit)] = card
        return card

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card, (self.rank, self.suit))

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __str__(self) -> str:
        rank = "10" if self.rank is Rank.TEN else self.rank.value
        return rank + self.suit.symbol

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    @staticmethod
    def parse(text: str) -> Card:
        """Parse "AS", "TD", "10D", "Q♠" or "10♦" into the card."""
        text = text.strip()
        if len(text) < 2:
            raise ValueError(f"not a card: {text!r}")
        rank_text, suit_text = text[:-1], text[-1]
        rank_text = "T" if rank_text == "10" else rank_text.upper()
        suit = SUIT_BY_TEXT.get(suit_text.upper())
        rank = _RANK_BY_TEXT.get(rank_text)
        if suit is None or rank is None:
            raise ValueError(f"not a card: {text!r}")
        return Card(rank, suit)


_RANK_BY_TEXT: Final = {r.value: r for r in Rank}

# Sort key for hands: suit by suit, weakest first (C-level, for the hot path).
BY_INDEX: Final = attrgetter("index")

ALL_CARDS: Final[tuple[Card, ...]] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)

# RULES §3.4 [B08]: the shokha (шоха), 6♠, when the variant has it: it beats every card, the trump ace included.
SHOKHA: Final = Card(Rank.SIX, Suit.SPADES)


def cards(text: str) -> tuple[Card, ...]:
    """Parse a space-separated list of cards, e.g. ``cards("QS 7S")`` -- handy in tests and scenarios."""
    return tuple(Card.parse(part) for part in text.split())


def codes(hand: Iterable[Card]) -> str:
    """The inverse of :func:`cards`."""
    return " ".join(card.code for card in hand)


def deck(size: int) -> list[Card]:
    """A fresh, ordered deck of 36 cards, or 32 without the sixes (RULES §3.1 [V01])."""
    if size == 36:
        return list(ALL_CARDS)
    if size == 32:
        return [card for card in ALL_CARDS if card.rank is not Rank.SIX]
    raise ValueError(f"no deck of {size} cards")


def beats(x: Card, y: Card, trump: Suit, shokha: bool = False) -> bool:
    """RULES §6.3: x beats y by a higher card of the same suit, or by a trump over a non-trump; with the shokha
    [B08] (``shokha``), 6♠ beats every other card and no card beats it."""
    if shokha and (x is SHOKHA or y is SHOKHA):
        return x is SHOKHA and y is not SHOKHA
    if x.suit is y.suit:
        return x.strength > y.strength
    return x.suit is trump


def set_beats(played: Sequence[Card], best: Sequence[Card], trump: Suit, shokha: bool = False) -> bool:
    """RULES §6.4: a bijection exists in which every played card beats its own card of ``best``.

    Brute force over at most 5! assignments: a greedy sort is wrong as soon as ``best`` mixes suits. With the
    shokha the same search holds: 6♠ in ``played`` can take any partner, and a ``best`` holding it is never beaten.
    """
    k = len(played)
    if k != len(best):
        return False
    if k == 1 and not shokha:  # the common case, beats() inlined (hot path)
        x = played[0]
        y = best[0]
        return x.strength > y.strength if x.suit is y.suit else x.suit is trump
    # Each card of best needs a beater; a quick necessary check prunes most hopeless sets. (Plain loops: this is
    # on the hot path of every open answer, and generators cost more than the few cards they walk.)
    for target in best:
        for card in played:
            if beats(card, target, trump, shokha):
                break
        else:
            return False
    for order in permutations(best):
        for card, target in zip(played, order, strict=True):
            if not beats(card, target, trump, shokha):
                break
        else:
            return True
    return False


def points(hand: Iterable[Card]) -> int:
    """Sum of card points (RULES §3.3)."""
    return sum(card.points for card in hand)
