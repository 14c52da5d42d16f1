"""What a hand is worth and who wins a duel (RULES §20.4, §20.10), as pure functions of the cards and the options.

A hand is a sequence of cards. ``value`` applies [O02] (ace 11 or 1), [O03] (exactly two aces, Ruling 4) and
[O04] (exactly five cards, all pictures, Ruling 22); ``settle`` is the table of §20.10, one ``Case`` per row.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Final

from engine.ochko.cards import PICTURES, Card, Rank
from engine.ochko.variant import Immediate, Options, TwoAces

BLACKJACK: Final = 21
# RULES §20.4: the values of the cards (the ace per [O02]).
VALUES: Final[dict[Rank, int]] = {
    Rank.TEN: 10,
    Rank.NINE: 9,
    Rank.EIGHT: 8,
    Rank.SEVEN: 7,
    Rank.SIX: 6,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.JACK: 2,
}


def card_value(card: Card, options: Options) -> int:
    return options.ace if card.rank is Rank.ACE else VALUES[card.rank]


def is_two_aces(hand: Sequence[Card]) -> bool:
    """[O03], Ruling 4: a hand of exactly two cards, both aces."""
    return len(hand) == 2 and hand[0].rank is Rank.ACE and hand[1].rank is Rank.ACE


def is_five_pictures(hand: Sequence[Card], options: Options) -> bool:
    """[O04], Ruling 22: exactly five cards, all pictures, when the table plays it."""
    return options.five_pictures and len(hand) == 5 and all(card.rank in PICTURES for card in hand)


def value(hand: Sequence[Card], options: Options) -> int:
    """RULES §20.4: the sum of the cards, except two aces ([O03], only with ace 11) and five pictures ([O04])."""
    if options.ace == 11 and is_two_aces(hand):
        return 22 if options.two_aces is TwoAces.BUST else BLACKJACK
    if is_five_pictures(hand, options):
        return BLACKJACK
    return sum(card_value(card, options) for card in hand)


def is_super(hand: Sequence[Card], options: Options) -> bool:
    """«Суперочко» [O03] SUPER: two aces that beat any other 21."""
    return options.two_aces is TwoAces.SUPER and options.ace == 11 and is_two_aces(hand)


def is_immediate(hand: Sequence[Card], options: Options) -> bool:
    """«Очко сразу» [O05]: a player's 21 paid at once (a dark card never is one, Ruling 29)."""
    if value(hand, options) != BLACKJACK:
        return False
    return options.immediate is Immediate.ANY_21 or len(hand) == 2


class Case(Enum):
    """The row of RULES §20.10 a settlement follows."""

    PLAYER_BUST = "player_bust"  # 1
    IMMEDIATE = "immediate"  # 2
    ANY_21 = "any_21"  # 3
    TWO_ACES_BUST = "two_aces_bust"  # 4
    BANKER_BUST = "banker_bust"  # 5
    DARK_OVER = "dark_over"  # 6
    HIGHER = "higher"  # 7
    LOWER = "lower"  # 8
    TIE = "tie"  # 9
    DARK_21 = "dark_21"  # 10
    SUPER = "super"  # 11


def settle_open(hand: Sequence[Card], options: Options) -> tuple[bool, Case] | None:
    """Rows 1-4: a hand settled at once, before the banker draws: (the player wins, the row), or None."""
    if value(hand, options) > BLACKJACK:
        two_aces = options.ace == 11 and is_two_aces(hand)
        return False, Case.TWO_ACES_BUST if two_aces else Case.PLAYER_BUST
    if is_immediate(hand, options):
        return True, Case.IMMEDIATE if len(hand) == 2 else Case.ANY_21
    return None


def settle(player: Sequence[Card], dark: bool, banker: Sequence[Card], options: Options) -> tuple[bool, Case]:
    """Rows 5-11: a hand that stood (or went dark) against the banker's: (the player wins, the row)."""
    mine, his = value(player, options), value(banker, options)
    if his > BLACKJACK:
        return True, Case.BANKER_BUST  # row 5: even if the dark card would bust the player
    if mine > BLACKJACK:
        return False, Case.DARK_OVER  # row 6 (an open bust never waits)
    if is_super(banker, options) != is_super(player, options):
        return is_super(player, options), Case.SUPER  # row 11, and row 10's exception
    if mine == his == BLACKJACK and dark:
        return True, Case.DARK_21  # row 10: «его очко «в темную» пришло раньше»
    if mine > his:
        return True, Case.HIGHER  # row 7
    if mine < his:
        return False, Case.LOWER  # row 8
    return False, Case.TIE  # row 9: ties to the banker
