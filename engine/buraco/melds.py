"""Melds: runs of one suit (RULES §17.4), how a set of cards can be laid, and what may be added to a run.

A run sits on positions 1..14 of its suit: 1 is the ace low, 2..13 the ranks, 14 the ace high; no
wrap-around (§17.7a-14). At most one card in it is a substitute: a joker, or a 2 anywhere but position 2 of
its own suit (there it is natural, and one more substitute may join, §17.7a-1). Clean = no substitute.

The engine's moves are atomic (see :mod:`engine.buraco.actions`): a new run is laid as three cards and grows
one card at a time. Every run of any length is reachable that way: any three adjacent positions of a valid run
hold at most one substitute, so they are a valid run themselves. :func:`arrangements` and :func:`plan_new`
turn a player's marked cards into that sequence, :func:`addition_plans` cards added to a run (one plan for
each place a substitute may end up: the player's choice, as with one card).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.buraco.cards import ACE, WILDS, Card
from engine.buraco.errors import Reason
from engine.core.cards import SUITS, Suit

LOW: int = 1
HIGH: int = 14
CANASTRA: int = 7  # §17.4: a canastra from 7 cards, substitutes included


def natural(suit: Suit, position: int) -> Card:
    """The card that stands at ``position`` of a ``suit`` run without substituting."""
    return Card(ACE if position in (LOW, HIGH) else position, suit)


def is_natural(card: Card, suit: Suit, position: int) -> bool:
    return card.suit is suit and (card.rank == position or (card.rank == ACE and position == HIGH))


@dataclass(frozen=True, slots=True)
class Meld:
    """A run on the table: ``cards[i]`` stands at position ``low + i``; ``wild_at`` is the substitute's."""

    suit: Suit
    low: int
    cards: tuple[Card, ...]
    wild_at: int | None

    @property
    def high(self) -> int:
        return self.low + len(self.cards) - 1

    @property
    def clean(self) -> bool:
        return self.wild_at is None

    @property
    def canastra(self) -> bool:
        return len(self.cards) >= CANASTRA

    @property
    def clean_canastra(self) -> bool:
        return self.wild_at is None and len(self.cards) >= CANASTRA

    @property
    def value(self) -> int:
        return sum(card.value for card in self.cards)

    @property
    def bonus(self) -> int:
        """RULES §17.7: each canastra scores its highest category only; a dirty one 100 at any length."""
        size = len(self.cards)
        if size < CANASTRA:
            return 0
        if self.wild_at is not None:
            return 100
        return 1000 if size == 14 else 500 if size == 13 else 200

    def __deepcopy__(self, memo: dict[int, Any]) -> Meld:
        return self  # immutable

    def at(self, position: int) -> Card:
        return self.cards[position - self.low]


def arrange(suit: Suit, low: int, laid: Sequence[Card]) -> Meld | Reason:
    """The run ``laid`` in position order from ``low``, or why it is not one (RULES §17.4)."""
    size = len(laid)
    if size < 3:
        return Reason.MELD_TOO_SHORT
    if size > HIGH:
        return Reason.MELD_TOO_LONG
    if low < LOW or low + size - 1 > HIGH:
        return Reason.BAD_ARRANGEMENT
    wild: int | None = None
    for offset, card in enumerate(laid):
        position = low + offset
        if is_natural(card, suit, position):
            continue
        if card.may_be_wild:
            if wild is not None:
                return Reason.TWO_SUBSTITUTES
            wild = position
            continue
        return Reason.NOT_SAME_SUIT if card.suit is not suit else Reason.BAD_ARRANGEMENT
    return Meld(suit, low, tuple(laid), wild)


def _fit(suit: Suit, low: int, chosen: Sequence[Card], ace_high_first: bool = False) -> Meld | None:
    """``chosen`` laid on positions ``low..`` with every natural on its own place, if that is a run.

    Only the ace has two places (1 and 14): a lone ace in a window holding both takes the low one, or with
    ``ace_high_first`` the high one, leaving the other to the substitute (RULES §17.7a-10)."""
    left = list(chosen)
    positions = range(low, low + len(chosen))
    placed: list[Card | None] = [None] * len(chosen)
    for position in reversed(positions) if ace_high_first else positions:
        card = natural(suit, position)
        if card in left:
            left.remove(card)
            placed[position - low] = card
    gaps = placed.count(None)
    if gaps != len(left) or gaps > 1:
        return None
    if gaps:
        wild = left[0]
        position = low + placed.index(None)
        if not wild.may_be_wild or is_natural(wild, suit, position):
            return None
        placed[position - low] = wild
        return Meld(suit, low, tuple(c for c in placed if c is not None), position)
    return Meld(suit, low, tuple(c for c in placed if c is not None), None)


def preference(meld: Meld) -> tuple[int, int]:
    """RULES §17.7a-10: where the player does not say, clean if possible, else the highest top end."""
    return (0 if meld.clean else 1, -meld.high)


def arrangements(chosen: Sequence[Card]) -> list[Meld] | Reason:
    """Every way ``chosen`` (in any order) can be laid as one run, the default first; or why none."""
    size = len(chosen)
    if size < 3:
        return Reason.MELD_TOO_SHORT
    if size > HIGH:
        return Reason.MELD_TOO_LONG
    plain = [card for card in chosen if not card.may_be_wild]
    suits = {card.suit for card in plain}
    if len(suits) > 1:
        return Reason.SETS_NOT_ALLOWED if len({card.rank for card in plain}) == 1 else Reason.NOT_SAME_SUIT
    ranks = [card.rank for card in plain if card.rank != ACE]
    if len(ranks) != len(set(ranks)):
        return Reason.DUPLICATE_RANK
    candidates = [s for s in suits if s is not None] or sorted(
        {card.suit for card in chosen if card.suit is not None}, key=SUITS.index
    )
    found: list[Meld] = []
    for suit in candidates:
        for low in range(LOW, HIGH - size + 2):
            # a run of 14 holds both places of the ace: a lone ace may take either (§17.7a-10)
            for ace_high_first in (False, True) if size == HIGH else (False,):
                meld = _fit(suit, low, chosen, ace_high_first)
                if meld is not None and meld not in found:
                    found.append(meld)
    if found:
        return sorted(found, key=preference)
    wilds = sum(1 for card in chosen if card.may_be_wild)
    naturals_of_two = min(1, sum(1 for card in chosen if card.rank == 2 and card.suit in candidates))
    if wilds - naturals_of_two > 1:
        return Reason.TWO_SUBSTITUTES
    if size <= 13 and any(_wraps(suit, chosen) for suit in candidates):
        return Reason.WRAPS_AROUND
    return Reason.NOT_CONSECUTIVE


def _wraps(suit: Suit, chosen: Sequence[Card]) -> bool:
    """Would the cards be a run if K-A-2 were allowed (it is not: RULES §17.7a-14)?"""
    size = len(chosen)
    for start in range(1, 14):
        ranks = [(start + i - 1) % 13 + 1 for i in range(size)]
        if ranks == sorted(ranks):
            continue  # no wrap in this window: _fit already tried it
        left = list(chosen)
        gaps = 0
        for rank in ranks:
            card = Card(rank, suit)
            if card in left:
                left.remove(card)
            else:
                gaps += 1
        if gaps == len(left) <= 1 and all(card.may_be_wild for card in left):
            return True
    return False


# -- the atomic steps: a new run of three, one card added ------------------------------------------------------


def new_runs(hand: Mapping[Card, int]) -> list[tuple[Suit, int, tuple[Card, Card, Card]]]:
    """Every run of three that ``hand`` (kind -> count) can lay: for each suit, 12 windows, each clean or with
    one of the five substitutes in one of its three places. At most 190 a suit, however many cards the hand
    holds."""
    wilds = [card for card in WILDS if hand.get(card, 0)]
    runs: list[tuple[Suit, int, tuple[Card, Card, Card]]] = []
    for suit in SUITS:
        row = _NATURALS[suit]
        have = [hand.get(card, 0) for card in row]  # have[p]: copies of the natural card at position p
        for low in range(LOW, HIGH - 1):
            present = (have[low] > 0) + (have[low + 1] > 0) + (have[low + 2] > 0)
            if present < 2 or (present == 2 and not wilds):
                continue
            window = (row[low], row[low + 1], row[low + 2])
            if present == 3:
                runs.append((suit, low, window))
            for spot in range(3):
                if present == 2 and have[low + spot]:
                    continue  # the one missing card is the only place a substitute can go
                position = low + spot
                for wild in wilds:
                    if wild is row[position]:
                        continue  # a 2 before the 3 of its suit is natural, not a substitute
                    if (
                        wild.rank == 2
                        and wild.suit is suit
                        and hand[wild] < 2
                        and (window[0] is wild or window[1] is wild)
                    ):
                        continue  # the run's natural 2 and this substitute would be the same card
                    laid = list(window)
                    laid[spot] = wild
                    runs.append((suit, low, (laid[0], laid[1], laid[2])))
    return runs


_NATURALS: dict[Suit, tuple[Card, ...]] = {
    suit: (natural(suit, 1), *(natural(suit, p) for p in range(LOW, HIGH + 1))) for suit in SUITS
}


@dataclass(frozen=True, slots=True)
class Addition:
    """One card added to a run: at ``at`` (an end, or the substitute's place); the substitute then moves to
    ``moved_to`` (RULES §17.4: it moves within the run, never to the hand)."""

    card: Card
    at: int
    moved_to: int | None = None


def additions(meld: Meld, hand: Mapping[Card, int]) -> list[Addition]:
    """Every single card of ``hand`` that may join ``meld`` now, with every place it may take."""
    suit = meld.suit
    ends = [p for p in (meld.low - 1, meld.high + 1) if LOW <= p <= HIGH]
    found: list[Addition] = []
    for position in ends:
        card = natural(suit, position)
        if hand.get(card, 0):
            found.append(Addition(card, position))
        if meld.wild_at is None:
            for wild in WILDS:
                if hand.get(wild, 0) and not is_natural(wild, suit, position):
                    found.append(Addition(wild, position))
    if meld.wild_at is not None:
        card = natural(suit, meld.wild_at)
        if hand.get(card, 0):
            # §17.4: the substitute moves to a free end; none left (a run of 14) means no such addition.
            found.extend(Addition(card, meld.wild_at, end) for end in ends)
    return found


def add(meld: Meld, addition: Addition) -> Meld:
    """``meld`` with ``addition`` made (the caller has checked it is one of :func:`additions`)."""
    suit, low, laid = meld.suit, meld.low, list(meld.cards)
    card, at = addition.card, addition.at
    if addition.moved_to is None:
        wild = meld.wild_at if is_natural(card, suit, at) else at
        if at < low:
            return Meld(suit, at, (card, *laid), wild)
        return Meld(suit, low, (*laid, card), wild)
    substitute = meld.at(at)
    laid[at - low] = card
    to = addition.moved_to
    wild = None if is_natural(substitute, suit, to) else to
    if to < low:
        return Meld(suit, to, (substitute, *laid), wild)
    return Meld(suit, low, (*laid, substitute), wild)


def diagnose_addition(meld: Meld, chosen: Iterable[Card]) -> Reason:
    """Why ``chosen`` cannot be added to ``meld`` (called only once no plan was found)."""
    chosen = list(chosen)
    if any(not card.may_be_wild and card.suit is not meld.suit for card in chosen):
        return Reason.NOT_SAME_SUIT
    if meld.wild_at is not None and natural(meld.suit, meld.wild_at) in chosen and len(meld.cards) == HIGH:
        return Reason.NO_PLACE_FOR_SUBSTITUTE
    if len(meld.cards) + len(chosen) > HIGH:
        return Reason.MELD_TOO_LONG
    wilds = sum(1 for card in chosen if card.may_be_wild and card.suit is not meld.suit)
    if wilds + (meld.wild_at is not None) > 1:
        return Reason.TWO_SUBSTITUTES
    return Reason.NOT_ADJACENT


@dataclass(frozen=True, slots=True)
class AdditionPlan:
    """Several cards added to a run at once: the run they make, and the one-card additions that make it in turn
    (RULES §17.7a-9). Plans of the same cards differ only in where a substitute ends up."""

    meld: Meld
    steps: tuple[Addition, ...]


def addition_plans(meld: Meld, chosen: Sequence[Card]) -> list[AdditionPlan] | Reason:
    """Every run that adding the cards of ``chosen`` to ``meld`` one by one can make, one plan each, the default
    (clean if possible, else the highest top end) first; or why none.

    RULES §17.7a-9: several cards at once are legal exactly when they could be added card by card, so where a
    substitute moves (or where an added one stands) is the player's choice, as it is for one card
    (``Addition.moved_to``): each different run reachable card by card is offered.
    """
    if not chosen:
        return Reason.NOT_ADJACENT
    found: dict[Meld, tuple[Addition, ...]] = {}  # each run reached, by the first steps found to reach it
    seen: set[tuple[Meld, tuple[int, ...]]] = set()

    def search(current: Meld, left: dict[Card, int], steps: list[Addition]) -> None:
        state = (current, tuple(left.values()))
        if state in seen:  # the same run with the same cards left: all it leads to is found already
            return
        seen.add(state)
        if not any(left.values()):
            found.setdefault(current, tuple(steps))
            return
        for step in additions(current, left):
            left[step.card] -= 1
            steps.append(step)
            search(add(current, step), left, steps)
            steps.pop()
            left[step.card] += 1

    counts: dict[Card, int] = {}
    for card in chosen:
        counts[card] = counts.get(card, 0) + 1
    if len(meld.cards) + len(chosen) <= HIGH:
        search(meld, counts, [])
    if not found:
        return diagnose_addition(meld, chosen)
    # the default first; between runs alike by it (a substitute at either ace of 14 cards), the order found
    return sorted((AdditionPlan(grown, steps) for grown, steps in found.items()), key=lambda p: preference(p.meld))


def plan_additions(meld: Meld, chosen: Sequence[Card]) -> list[Addition] | Reason:
    """The default of :func:`addition_plans`: the additions that put every card of ``chosen`` into ``meld`` one
    by one (RULES §17.7a-9), the cleanest result first."""
    plans = addition_plans(meld, chosen)
    return plans if isinstance(plans, Reason) else list(plans[0].steps)


def plan_new(meld: Meld) -> tuple[tuple[Card, Card, Card], int, list[Addition]]:
    """The atomic steps that lay ``meld``: a run of three from ``low`` and the cards added after it.

    The three are the lowest window holding the substitute (so it is laid, never added as a second one);
    the rest is added outwards, upwards first.
    """
    spot = 0 if meld.wild_at is None else min(meld.wild_at - meld.low, len(meld.cards) - 3)
    first = meld.cards[spot : spot + 3]
    start = meld.low + spot
    steps: list[Addition] = []
    for offset in range(spot + 3, len(meld.cards)):
        steps.append(Addition(meld.cards[offset], meld.low + offset))
    for offset in range(spot - 1, -1, -1):
        steps.append(Addition(meld.cards[offset], meld.low + offset))
    return (first[0], first[1], first[2]), start, steps
