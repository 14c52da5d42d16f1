"""Combinations (RULES §9): which a hand holds, what each does, and how they rank against each other.

A combo is a property of a full hand (§9.1). The variant decides which combos exist, their effect and their
order of precedence; :func:`combo_rules` turns the options into one ranked table, highest first.

The shokha [B08] (engine decisions, RULES §3.4 says only that it joins a set of any suit and beats every card):
it joins a hand of one suit as a member of that suit, so it stands in a molodka of any suit and, being
"always the highest trump" (P-de), in a bura; it stands for a ten in the Tvaladze Москва (§13); in no other
combo. Where cards are compared (§9.4 TOP_CARD, [V20] HIGHER_CARDS) it is the highest card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Final

from engine.bura.cards import ALL_CARDS, SHOKHA, Card, Rank
from engine.bura.variant import SmallMoscow, ThreeAces
from engine.core.cards import Suit

if TYPE_CHECKING:
    from engine.bura.variant import Variant


class Combo(Enum):
    """The combinations of the game family (RULES §2 glossary)."""

    MOSCOW = "moscow"  # Москва: all aces (3-card: three aces as the WRU extra; 4-card: four aces)
    BURA = "bura"  # бура: every card a trump
    THREE_ACES = "three_aces"  # три туза (3-card Bura, V21)
    FOUR_ENDS = "four_ends"  # четыре конца: four aces/tens including a trump one (B02)
    MOSCOW_THREE = "moscow_three"  # Москва-3: three aces including the trump ace (B02, S4c/S4e)
    SMALL_MOSCOW = "small_moscow"  # малая Москва (V22)
    MOLODKA = "molodka"  # молодка: a full hand of one non-trump suit


class Effect(Enum):
    INSTANT_WIN = "instant_win"  # wins the deal at once (RULES §10 step 1)
    SEIZE_FREE = "seize_free"  # seizes the lead, any legal lead (§9.3)
    SEIZE_PLAY_ALL = "seize_play_all"  # seizes the lead and must lead the combo cards (§9.3)


# Enum members as module constants for the hot paths (reading ``Combo.BURA`` off the class costs about as much as
# a function call in Python 3.11).
_BURA, _MOLODKA, _MOSCOW, _THREE_ACES = Combo.BURA, Combo.MOLODKA, Combo.MOSCOW, Combo.THREE_ACES
_SMALL_MOSCOW, _FOUR_ENDS = Combo.SMALL_MOSCOW, Combo.FOUR_ENDS
_ACE, _TEN, _SIX = Rank.ACE, Rank.TEN, Rank.SIX


@dataclass(frozen=True, slots=True)
class ComboRule:
    combo: Combo
    effect: Effect
    rank: int  # position in the precedence table, 0 is the highest


_Split = tuple[tuple["ComboRule", ...], tuple["ComboRule", ...]]
# A small identity-keyed memo: hashing a pydantic model costs more than a whole trick of play.
_RULES_BY_ID: dict[int, tuple[Variant, tuple[ComboRule, ...], _Split]] = {}


def _memo(variant: Variant) -> tuple[Variant, tuple[ComboRule, ...], _Split]:
    hit = _RULES_BY_ID.get(id(variant))
    if hit is not None and hit[0] is variant:
        return hit
    if len(_RULES_BY_ID) >= 64:
        _RULES_BY_ID.clear()
    rules = _build_rules(variant)
    instant = tuple(rule for rule in rules if rule.effect is Effect.INSTANT_WIN)
    seize = tuple(rule for rule in rules if rule.effect is not Effect.INSTANT_WIN)
    hit = _RULES_BY_ID[id(variant)] = (variant, rules, (instant, seize))
    return hit


def combo_rules(variant: Variant) -> tuple[ComboRule, ...]:
    """The variant's combos in order of precedence, highest first (RULES §9.2, §9.8, §9.9)."""
    return _memo(variant)[1]


def split_rules(variant: Variant) -> _Split:
    """The combo rules that win at once (§10 step 1), and those that seize the lead (step 3), each ranked."""
    return _memo(variant)[2]


def _build_rules(variant: Variant) -> tuple[ComboRule, ...]:
    from engine.bura.variant import BuraCombo, FourAces, Molodka, SmallMoscow, ThreeAces

    table: list[tuple[Combo, Effect]] = []
    bura = {BuraCombo.INSTANT_WIN: Effect.INSTANT_WIN, BuraCombo.LEAD: Effect.SEIZE_FREE}.get(variant.bura)
    molodka = {Molodka.LEAD_ALL: Effect.SEIZE_PLAY_ALL, Molodka.LEAD_FREE: Effect.SEIZE_FREE}.get(variant.molodka)
    if variant.hand_size == 3:
        # RULES §9.2 precedence: Москва*, бура, three aces (win), three aces (lead), small Moscow, molodka.
        if variant.three_aces in (ThreeAces.MOSCOW, ThreeAces.MOSCOW_TRUMP_ACE):
            table.append((Combo.MOSCOW, Effect.INSTANT_WIN))
        if bura is not None:
            table.append((Combo.BURA, bura))
        if variant.three_aces is ThreeAces.WIN_IF_NO_BURA:
            table.append((Combo.THREE_ACES, Effect.INSTANT_WIN))
        if variant.three_aces is ThreeAces.LEAD_ONLY:
            table.append((Combo.THREE_ACES, Effect.SEIZE_FREE))
        if variant.small_moscow is not SmallMoscow.OFF:
            table.append((Combo.SMALL_MOSCOW, Effect.SEIZE_PLAY_ALL))
    else:
        # RULES §9.8 precedence: Москва (4 aces) > бура > четыре конца > Москва-3 > молодка.
        four_aces = {FourAces.INSTANT_WIN: Effect.INSTANT_WIN, FourAces.LEAD: Effect.SEIZE_FREE}.get(variant.four_aces)
        if four_aces is not None and variant.hand_size == 4:
            table.append((Combo.MOSCOW, four_aces))
        if bura is not None:
            table.append((Combo.BURA, bura))
        if variant.tvaladze_combos:
            table.append((Combo.MOSCOW, Effect.SEIZE_FREE))  # §13 KOZEL_TVALADZE: it only seizes the lead
        if variant.four_ends and variant.hand_size == 4:
            table.append((Combo.FOUR_ENDS, Effect.SEIZE_FREE))
        if variant.moscow_three:
            table.append((Combo.MOSCOW_THREE, Effect.SEIZE_FREE))
    if molodka is not None:
        table.append((Combo.MOLODKA, molodka))
    return tuple(ComboRule(combo, effect, rank) for rank, (combo, effect) in enumerate(table))


def combo_cards(combo: Combo, hand: Sequence[Card], trump: Suit, variant: Variant) -> tuple[Card, ...] | None:
    """The cards that make ``combo`` in a full ``hand``, or None if the hand does not hold it."""
    if len(hand) != variant.hand_size:
        return None
    whole = tuple(hand)
    shokha = variant.shokha
    if combo is _BURA:
        return whole if all(card.suit is trump or (shokha and card is SHOKHA) for card in hand) else None
    if combo is _MOLODKA:
        suited = [card for card in hand if card is not SHOKHA] if shokha else hand
        first = suited[0].suit if suited else Suit.SPADES
        if any(card.suit is not first for card in suited):
            return None
        # A molodka is of a non-trump suit (§9.2: all trumps make a bura); the Tvaladze set has no bura (§13).
        return whole if first is not trump or variant.tvaladze_combos else None
    if combo is _MOSCOW and variant.tvaladze_combos:
        # §13 KOZEL_TVALADZE: four of aces and tens, at least one a real ace, the shokha counting as a ten.
        ends = (_ACE, _TEN)
        if all(card.rank in ends or (shokha and card is SHOKHA) for card in hand) and any(
            card.rank is _ACE for card in hand
        ):
            return whole
        return None
    if combo in (_MOSCOW, _THREE_ACES):
        if not all(card.rank is _ACE for card in hand):
            return None
        if (
            combo is _MOSCOW
            and variant.hand_size == 3
            and variant.three_aces is ThreeAces.MOSCOW_TRUMP_ACE
            and not any(card.suit is trump for card in hand)
        ):
            return None
        return whole
    if combo is _SMALL_MOSCOW:
        rank = _SIX if variant.small_moscow is SmallMoscow.SIXES else _TEN
        if not all(card.rank is rank for card in hand):
            return None
        if rank is _SIX and not any(card.suit is trump for card in hand):
            return None
        return whole
    if combo is _FOUR_ENDS:
        ends = (_ACE, _TEN)
        if all(card.rank in ends for card in hand) and any(card.suit is trump for card in hand):
            return whole
        return None
    # Combo.MOSCOW_THREE: three aces including the trump ace, inside a bigger hand.
    aces = tuple(card for card in hand if card.rank is _ACE)
    if len(aces) >= 3 and any(card.suit is trump for card in aces):
        return tuple(sorted(aces, key=lambda card: card.suit is not trump)[:3])
    return None


@dataclass(frozen=True, slots=True)
class Held:
    """A combo held by a seat, with the cards that make it."""

    seat: int
    rule: ComboRule
    cards: tuple[Card, ...]


_ENDS: Final = frozenset(card for card in ALL_CARDS if card.rank is Rank.ACE or card.rank is Rank.TEN)


def may_hold_combo(hand: Sequence[Card], shokha: bool = False) -> bool:
    """A quick necessary test on a full ``hand`` sorted suit by suit (as a deal keeps every hand): every combo is
    of one suit, of one rank, or of at least three aces and tens; the shokha [B08] may stand in any of them. Most
    hands fail it at once (it runs for every hand before every lead: plain comparisons, nothing built)."""
    if shokha and SHOKHA in hand:
        rest = [card for card in hand if card is not SHOKHA]
        return not rest or may_hold_combo(rest) or len(_ENDS.intersection(rest)) >= 2
    first = hand[0]
    if first.suit is hand[-1].suit:
        return True
    rank = first.rank
    if hand[1].rank is rank:
        for card in hand:
            if card.rank is not rank:
                break
        else:
            return True
    others = len(hand) - 3  # how many cards other than aces and tens the hand may hold
    for card in hand:
        if card.points < 10:
            others -= 1
            if others < 0:
                return False
    return True


def best_held(
    seat: int, hand: Sequence[Card], trump: Suit, variant: Variant, rules: Sequence[ComboRule]
) -> Held | None:
    """The first of ``rules`` (ranked highest first) that the full ``hand`` holds."""
    if len(hand) != variant.hand_size or not rules:
        return None
    for rule in rules:
        found = combo_cards(rule.combo, hand, trump, variant)
        if found is not None:
            return Held(seat, rule, found)
    return None


def strength_key(held: Held, shokha: bool = False) -> tuple[int, ...]:
    """Cards from the strongest down: compares two combos card by card (RULES §9.4 TOP_CARD, [V20]); the shokha
    [B08] is the highest of all."""
    if shokha:
        return tuple(sorted((9 if card is SHOKHA else card.strength for card in held.cards), reverse=True))
    return tuple(sorted((card.strength for card in held.cards), reverse=True))
