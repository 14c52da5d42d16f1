"""Очко's card labels: ranks as the locale writes them (Т К Д В or A K Q J, 10 and the digits), the four suits
drawn alike (as the other games draw them), a dark card as a back 🂠 (RULES §20.8 item 3)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from bot.i18n import Translator
from engine.core.cards import Suit
from engine.ochko.cards import Card

BACK: Final = "🂠"
SUITS: Final = {Suit.SPADES: "♠️", Suit.CLUBS: "♣️", Suit.HEARTS: "♥️", Suit.DIAMONDS: "♦️"}


def card_text(card: Card | None, tr: Translator) -> str:
    """``Д♠️``, ``10♥️``; ``🂠`` for a card nobody may see (None)."""
    if card is None:
        return BACK
    return tr.t(f"card-rank-{card.rank.value}") + SUITS[card.suit]


def cards_text(cards: Iterable[Card | None], tr: Translator) -> str:
    return " ".join(card_text(card, tr) for card in cards)
