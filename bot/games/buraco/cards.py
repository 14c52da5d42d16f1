"""Buraco's card labels: ranks as the locale writes them (Т К Д В or A K Q J, digits for the rest), the four suits
drawn alike, the joker 🃏; a run with its substitute marked by the rank it stands for (``🃏→5``, RULES §17.4)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from bot.i18n import Translator
from engine.buraco.cards import Card
from engine.buraco.melds import Meld
from engine.core.cards import Suit

JOKER_TEXT: Final = "🃏"
WILD_MARK: Final = "→"  # a substitute in a run, before the rank it stands for
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


def rank_label(card: Card, tr: Translator) -> str:
    """The card's rank as the locale writes it (``Д``, ``10``), the joker's 🃏: a drawn card's corner."""
    return JOKER_TEXT if card.suit is None else _ranks(tr)[card.rank]


def cards_text(cards: Iterable[Card], tr: Translator) -> str:
    return " ".join(card_text(card, tr) for card in cards)


def rank_text(position: int, tr: Translator) -> str:
    """A place in a run as its rank (14: the ace above the king)."""
    return _ranks(tr)[1 if position == 14 else position]


def meld_text(meld: Meld, tr: Translator) -> str:
    """``3♥️ 4♥️ 🃏→5 6♥️``: a run low to high, its substitute (a joker or a two out of its place) marked with the
    rank it stands for."""
    labels = [card_text(card, tr) for card in meld.cards]
    if meld.wild_at is not None:
        labels[meld.wild_at - meld.low] += WILD_MARK + rank_text(meld.wild_at, tr)  # wild_at: its position
    return " ".join(labels)


def meld_ends(meld: Meld, tr: Translator) -> str:
    """``3♥️–9♥️``: a run by its ends, short enough for a button (the whole of it when it is three cards)."""
    if len(meld.cards) <= 3:
        return meld_text(meld, tr)
    ends = [card_text(meld.cards[0], tr), card_text(meld.cards[-1], tr)]
    if meld.wild_at == meld.low:
        ends[0] += WILD_MARK + rank_text(meld.low, tr)
    if meld.wild_at == meld.high:
        ends[1] += WILD_MARK + rank_text(meld.high, tr)
    return "–".join(ends)
