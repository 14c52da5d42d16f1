"""Buraco's card labels: ranks as the locale writes them (Т К Д В or A K Q J, digits for the rest), the four suits
drawn alike, the joker 🃏."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from bot.i18n import Translator
from engine.buraco.cards import Card
from engine.core.cards import Suit

JOKER_TEXT: Final = "🃏"
# The emoji presentation of every suit: phones draw all four alike (as Bura's labels do).
SUITS: Final = {Suit.SPADES: "♠️", Suit.CLUBS: "♣️", Suit.HEARTS: "♥️", Suit.DIAMONDS: "♦️"}
_LETTERS: Final = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}


@lru_cache(maxsize=16)
def _ranks(tr: Translator) -> dict[int, str]:
    return {rank: tr.t(f"card-rank-{_LETTERS[rank]}") if rank in _LETTERS else str(rank) for rank in range(1, 14)}


def card_text(card: Card, tr: Translator) -> str:
    """``Д♠️``, ``7♥️``, ``🃏``: plain text, for messages and buttons alike."""
    if card.suit is None:
        return JOKER_TEXT
    return _ranks(tr)[card.rank] + SUITS[card.suit]


def cards_text(cards: Iterable[Card], tr: Translator) -> str:
    return " ".join(card_text(card, tr) for card in cards)
