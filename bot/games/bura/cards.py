"""Card labels: Russian ranks Т К Д В or English A K Q J, the four suits drawn alike, trumps marked on buttons.

A label is plain text (no HTML), so the same label serves messages and button captions. Message texts name the
trump in words once («козырь — бубны ♦️») and show cards without a mark: «10♦️★» reads as "ten diamond black
star" to a screen reader. A button keeps the ★, where a glance must tell what beats what.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from bot.i18n import Translator
from engine.bura.cards import RANKS, Card, Rank
from engine.core.cards import Suit

BACK: Final = "🂠"  # a face-down card
TRUMP_MARK: Final = "★"  # after a trump on a button

# Every suit with the emoji presentation selector: phones draw all four alike, the red ones in red (a bare ♠
# next to an emoji ♥️ came out thin and small).
_SUITS: Final = {Suit.SPADES: "♠️", Suit.CLUBS: "♣️", Suit.HEARTS: "♥️", Suit.DIAMONDS: "♦️"}


def suit_text(suit: Suit) -> str:
    return _SUITS[suit]


def suit_name(suit: Suit, tr: Translator) -> str:
    """The suit in words, with its symbol: «бубны ♦️», "diamonds ♦️"."""
    return tr.t("suit-name", suit=suit.name.lower(), symbol=_SUITS[suit])


def card_text(card: Card, tr: Translator) -> str:
    """``Д♠️``, ``Q♥️`` in English: a card in a message text (the trump is named in words elsewhere)."""
    return _ranks(tr)[card.rank] + _SUITS[card.suit]


def rank_text(card: Card, tr: Translator) -> str:
    """The card's rank as the language names it: ``Д``, ``10``, ``Q`` (the Mini App draws the suit itself)."""
    return _ranks(tr)[card.rank]


def card_button(card: Card, tr: Translator, trump: Suit | None) -> str:
    """A card on a button: ``10♦️★`` when it is a trump."""
    label = card_text(card, tr)
    return label + TRUMP_MARK if card.suit is trump else label


@lru_cache(maxsize=16)
def _ranks(tr: Translator) -> dict[Rank, str]:
    """A language's rank letters, looked up once: a hand keyboard alone names a card a dozen times."""
    return {rank: tr.t(f"card-rank-{rank.value}") for rank in RANKS}


def cards_text(cards: Iterable[Card], tr: Translator) -> str:
    """Cards separated by spaces, in the given order."""
    return " ".join(card_text(card, tr) for card in cards)


def backs(count: int) -> str:
    """``count`` face-down cards."""
    return " ".join([BACK] * count)
