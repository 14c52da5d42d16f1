"""Card labels: Russian ranks Т К Д В or English A K Q J, suit symbols with red suits in colour, trumps marked.

A label is plain text (no HTML), so the same label serves messages and button captions.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from bot.i18n import Translator
from engine.cards import RANKS, Card, Rank, Suit

BACK: Final = "🂠"  # a face-down card
TRUMP_MARK: Final = "★"  # after every trump card, so a phone screen shows at a glance what beats what

# Black suits stay text symbols; red suits get the emoji presentation selector, which phones draw in red.
_SUITS: Final = {Suit.SPADES: "♠", Suit.CLUBS: "♣", Suit.HEARTS: "♥️", Suit.DIAMONDS: "♦️"}


def suit_text(suit: Suit) -> str:
    return _SUITS[suit]


def card_text(card: Card, tr: Translator, trump: Suit | None = None) -> str:
    """``Д♠``, ``10♦️★`` (a trump), ``Q♥️`` in English."""
    label = _ranks(tr)[card.rank] + _SUITS[card.suit]
    return label + TRUMP_MARK if card.suit is trump else label


@lru_cache(maxsize=16)
def _ranks(tr: Translator) -> dict[Rank, str]:
    """A language's rank letters, looked up once: a hand keyboard alone names a card a dozen times."""
    return {rank: tr.t(f"card-rank-{rank.value}") for rank in RANKS}


def cards_text(cards: Iterable[Card], tr: Translator, trump: Suit | None = None) -> str:
    """Cards separated by spaces, in the given order."""
    return " ".join(card_text(card, tr, trump) for card in cards)


def backs(count: int) -> str:
    """``count`` face-down cards."""
    return " ".join([BACK] * count)
