"""Meld plans: what a hand can lay and add to its pair's runs, and the atomic moves that do it.

The engine's moves are atomic (a new run of three, one card added), so a player thinks in plans: the runs a set
of cards makes, grown and laid one move at a time (:func:`plan`). A plan is greedy but not blind:

1. every natural card that fits an end of one of the pair's runs goes there, and a natural that stands where a
   substitute stands takes its place (the substitute moves to an end, RULES §17.4);
2. the naturals left make new clean runs, the most cards in the fewest runs (an exact search per suit);
3. substitutes (jokers, then twos) go where each brings the most naturals along: across a one-card gap at the
   end of a clean run, or into a new run from two naturals; at least ``wild_gain`` naturals a substitute, or
   onto a run of six to make a (dirty) canastra when ``dirty_canastra`` says so (§17.4: one substitute a run).

:func:`fit` then keeps back cards when the plan would leave the hand where the turn could not end: an empty hand
is only a direta, one card only an indireta or going out (seed L41, §17.7a-12) -- the engine's dead-end guard,
seen from the player's side, so that a plan's moves stay legal. :func:`worth` weighs a plan for comparisons.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from engine.buraco.actions import Action, AddToRun, NewRun
from engine.buraco.cards import ACE, BY_INDEX, JOKER, WILDS, Card
from engine.buraco.melds import CANASTRA, HIGH, LOW, Addition, Meld, add, is_natural, natural, plan_new
from engine.core.cards import SUITS, Suit

Counts = dict[Card, int]

# _NAT[suit][position]: the natural card at each position 1..14 (index 0 unused)
_NAT: dict[Suit, tuple[Card, ...]] = {
    suit: (natural(suit, 1), *(natural(suit, p) for p in range(LOW, HIGH + 1))) for suit in SUITS
}
_WILD_ORDER: tuple[Card, ...] = (JOKER, *(w for w in WILDS if w is not JOKER))  # jokers go first, twos kept


@dataclass(frozen=True, slots=True)
class Lay:
    """Lay a new run of three; it becomes run number ``run`` of the pair."""

    run: int
    suit: Suit
    low: int
    laid: tuple[Card, Card, Card]


@dataclass(frozen=True, slots=True)
class Grow:
    """Add one card to run number ``run`` of the pair."""

    run: int
    step: Addition


Move = Lay | Grow


def to_action(move: Move, seat: int) -> Action:
    if isinstance(move, Lay):
        return NewRun(seat, move.suit, move.low, move.laid)
    return AddToRun(seat, seat % 2, move.run, move.step.card, move.step.at, move.step.moved_to)


@dataclass(frozen=True, slots=True)
class Plan:
    """Runs after the plan (the pair's own ones grown, then the new ones), its moves in order, the cards left."""

    melds: tuple[Meld, ...]
    base: int  # how many of ``melds`` were on the table (or in the draft) before
    moves: tuple[Move, ...]
    left: tuple[Card, ...]
    laid: int  # the points of the cards the plan lays
    bonus: int  # the canastra bonuses it adds (RULES §17.7)

    @property
    def placed(self) -> int:
        """How many cards the plan lays."""
        return sum(3 if isinstance(move, Lay) else 1 for move in self.moves)

    @property
    def gain(self) -> int:
        return self.laid + self.bonus


def count(cards: Iterable[Card]) -> Counts:
    counts: Counts = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return counts


def _take(counts: Counts, card: Card) -> bool:
    have = counts.get(card, 0)
    if have:
        counts[card] = have - 1
        return True
    return False


def _grow(meld: Meld, counts: Counts, steps: list[Addition]) -> Meld:
    """Step 1: naturals onto the ends of ``meld``, and onto its substitute's place."""
    row = _NAT[meld.suit]
    while True:
        if meld.high < HIGH and _take(counts, row[meld.high + 1]):
            step = Addition(row[meld.high + 1], meld.high + 1)
        elif meld.low > LOW and _take(counts, row[meld.low - 1]):
            step = Addition(row[meld.low - 1], meld.low - 1)
        elif meld.wild_at is not None and len(meld.cards) < HIGH and _take(counts, row[meld.wild_at]):
            substitute = meld.at(meld.wild_at)
            ends = [p for p in (meld.low - 1, meld.high + 1) if LOW <= p <= HIGH]
            # a two that reaches its own place makes the run clean again; else grow upwards
            to = next((p for p in ends if is_natural(substitute, meld.suit, p)), ends[-1])
            step = Addition(row[meld.wild_at], meld.wild_at, to)
        else:
            return meld
        steps.append(step)
        meld = add(meld, step)


@lru_cache(maxsize=1 << 16)
def _runs_of(avail: tuple[int, ...]) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The best set of clean runs over ``avail`` (copies at positions 1..14, index 0 unused): the score (cards
    laid, then longer runs) and the runs as (low, length). Exhaustive over the lowest card still there."""
    p = next((i for i in range(1, HIGH + 1) if avail[i]), 0)
    if not p:
        return 0, ()
    rest = list(avail)
    rest[p] -= 1
    best = _runs_of(tuple(rest))  # that copy stays in the hand
    length = 0
    taken = list(avail)
    while p + length <= HIGH and taken[p + length]:
        taken[p + length] -= 1
        length += 1
        if length >= 3:
            score, runs = _runs_of(tuple(taken))
            score += 100 * length + length * length
            if score > best[0]:
                best = (score, ((p, length), *runs))
    return best


def _clean_runs(suit: Suit, counts: Counts) -> list[Meld]:
    """Step 2: new clean runs of ``suit`` from the naturals in ``counts`` (which lose them)."""
    row = _NAT[suit]
    have = [0] + [counts.get(row[p], 0) for p in range(LOW, HIGH)] + [0]
    if sum(1 for c in have if c) < 3:
        return []
    aces = have[1]
    best: tuple[int, tuple[tuple[int, int], ...]] = (0, ())
    for high_aces in range(aces + 1):  # an ace may stand low or high (§17.4)
        have[1], have[HIGH] = aces - high_aces, high_aces
        found = _runs_of(tuple(have))
        if found[0] > best[0]:
            best = found
    melds = []
    for low, length in best[1]:
        laid = row[low : low + length]
        for card in laid:
            counts[card] -= 1
        melds.append(Meld(suit, low, tuple(laid), None))
    return melds


@dataclass(frozen=True, slots=True)
class _Use:
    """One place for a substitute (step 3)."""

    naturals: int  # the naturals it brings along
    meld: int | None  # the run it joins, or None for a new run
    at: int  # where the substitute stands
    cards: tuple[tuple[int, Card], ...]  # the naturals: (position, card)
    suit: Suit


def _span(row: tuple[Card, ...], counts: Counts, start: int, step: int, ace: bool = False) -> list[tuple[int, Card]]:
    """The naturals in ``counts`` at ``start``, ``start + step``, ... without a gap, one copy each; ``ace``: an
    ace is already in the run (the other end needs the second one)."""
    found: list[tuple[int, Card]] = []
    p = start
    while LOW <= p <= HIGH:
        card = row[p]
        if counts.get(card, 0) < (2 if card.rank == ACE and ace else 1):
            break
        ace |= card.rank == ACE
        found.append((p, card))
        p += step
    return found


def _wild_uses(melds: Sequence[Meld], counts: Counts) -> list[_Use]:
    """Step 3's options for one substitute, best first."""
    uses: list[_Use] = []
    for index, meld in enumerate(melds):
        if meld.wild_at is not None or len(meld.cards) >= HIGH:
            continue
        row = _NAT[meld.suit]
        ace = any(card.rank == ACE for card in meld.cards)
        if meld.high < HIGH:
            far = _span(row, counts, meld.high + 2, 1, ace)
            uses.append(_Use(len(far), index, meld.high + 1, tuple(far), meld.suit))
        if meld.low > LOW:
            far = _span(row, counts, meld.low - 2, -1, ace)
            uses.append(_Use(len(far), index, meld.low - 1, tuple(far), meld.suit))
    for suit in SUITS:
        row = _NAT[suit]
        if sum(1 for p in range(LOW, HIGH) if counts.get(row[p], 0)) < 2:
            continue
        for gap in range(LOW, HIGH + 1):
            if counts.get(row[gap], 0):
                continue  # a substitute where the natural card is at hand is wasted
            # a new run with its substitute at ``gap``: the naturals reaching out on both sides of it
            below = _span(row, counts, gap - 1, -1)
            above = _span(row, counts, gap + 1, 1, any(card.rank == ACE for _, card in below))
            if len(below) + len(above) >= 2:
                uses.append(_Use(len(below) + len(above), None, gap, (*reversed(below), *above), suit))
    uses.sort(key=lambda use: (-use.naturals, use.meld is None))
    return uses


def _pick_wild(melds: Sequence[Meld], counts: Counts, wild_gain: int, dirty_canastra: bool) -> tuple[_Use, Card] | None:
    """The best use of one substitute and the substitute itself, both taken out of ``counts``; a two left
    after the clean runs may be one, but never a card the same use needs as a natural."""
    if not any(counts.get(w, 0) for w in WILDS):
        return None
    for use in _wild_uses(melds, counts):
        if use.naturals < wild_gain and not (
            dirty_canastra and use.meld is not None and len(melds[use.meld].cards) == CANASTRA - 1
        ):
            continue
        for _, card in use.cards:
            counts[card] -= 1
        wild = next((w for w in _WILD_ORDER if counts.get(w, 0)), None)
        if wild is not None:
            counts[wild] -= 1
            return use, wild
        for _, card in use.cards:
            counts[card] += 1
    return None


def plan(
    hand: Mapping[Card, int] | Iterable[Card],
    runs: Sequence[Meld],
    *,
    wild_gain: int = 2,
    dirty_canastra: bool = False,
) -> Plan:
    """The greedy plan for ``hand`` with the pair's ``runs`` (see the module docstring); ``wild_gain``: the
    fewest naturals a substitute must bring along; ``dirty_canastra``: a substitute may make a run of six a
    canastra."""
    counts = dict(hand) if isinstance(hand, Mapping) else count(hand)
    melds = list(runs)
    base = len(melds)
    grown: list[list[Addition]] = [[] for _ in melds]
    for index in range(base):
        melds[index] = _grow(melds[index], counts, grown[index])
    for suit in SUITS:
        melds.extend(_clean_runs(suit, counts))
    while True:
        chosen = _pick_wild(melds, counts, wild_gain, dirty_canastra)
        if chosen is None:
            break
        use, wild = chosen
        if use.meld is not None:
            meld = melds[use.meld]
            steps = grown[use.meld] if use.meld < base else None
            first = Addition(wild, use.at)
            meld = add(meld, first)
            if steps is not None:
                steps.append(first)
            for position, card in use.cards:
                step = Addition(card, position)
                meld = add(meld, step)
                if steps is not None:
                    steps.append(step)
            melds[use.meld] = meld
        else:
            placed = sorted([*use.cards, (use.at, wild)], key=lambda item: item[0])
            melds.append(Meld(use.suit, placed[0][0], tuple(card for _, card in placed), use.at))
    moves: list[Move] = []
    for index in range(base):
        moves.extend(Grow(index, step) for step in grown[index])
    for index in range(base, len(melds)):
        three, low, steps = plan_new(melds[index])
        moves.append(Lay(index, melds[index].suit, low, three))
        moves.extend(Grow(index, step) for step in steps)
    left = tuple(sorted((card for card, n in counts.items() for _ in range(n)), key=BY_INDEX))
    laid = sum(meld.value for meld in melds) - sum(meld.value for meld in runs)
    bonus = sum(meld.bonus for meld in melds) - sum(meld.bonus for meld in runs)
    return Plan(tuple(melds), base, tuple(moves), left, laid, bonus)


# -- the turn must be able to end ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ending:
    """What the hand may be left with after melding (the engine's dead-end guard, seen from the player)."""

    empty: bool  # a direta: the pair has no morto and one is available (seed L39)
    one: bool | None  # one card, to discard: an indireta (True), or going out if a clean canastra (None)
    forbidden: Card | None  # the lone pile card taken this turn, which may not be the card discarded


def ending(has_morto: bool, mortos: int, forbidden: Card | None) -> Ending:
    if not has_morto:
        # §17.7a-12: with no morto left to take, a pair can never empty a hand
        return Ending(empty=mortos > 0, one=mortos > 0, forbidden=forbidden)
    return Ending(empty=False, one=None, forbidden=forbidden)  # §17.6: out only with a clean canastra


def _ends_well(result: Plan, end: Ending) -> bool:
    left = result.left
    if not left:
        return end.empty
    if len(left) == 1:
        if end.one is None:
            if not any(meld.clean_canastra for meld in result.melds):
                return False
        elif not end.one:
            return False
    return end.forbidden is None or any(card is not end.forbidden for card in left)


def fit(
    hand: Sequence[Card],
    runs: Sequence[Meld],
    end: Ending,
    *,
    wild_gain: int = 2,
    dirty_canastra: bool = False,
    keep: Sequence[Card] = (),
) -> Plan:
    """:func:`plan`, keeping back the fewest cards (``keep`` first) that let the turn end legally."""
    counts = count(hand)
    for card in keep:
        if counts.get(card, 0):
            counts[card] -= 1
    kept = [card for card in keep if card in hand]
    result = _with_kept(plan(counts, runs, wild_gain=wild_gain, dirty_canastra=dirty_canastra), kept)
    while not _ends_well(result, end):
        options = []
        for card in sorted((c for c, n in counts.items() if n and c is not end.forbidden), key=BY_INDEX):
            # the lone pile card kept back could never be the discard (§17.7a-5)
            trial = dict(counts)
            trial[card] -= 1
            options.append((plan(trial, runs, wild_gain=wild_gain, dirty_canastra=dirty_canastra), card, trial))
        if not options:
            return result
        best, card, counts = max(options, key=lambda option: (_keep_score(option[0], option[1]), -option[1].index))
        kept.append(card)
        result = _with_kept(best, kept)
    return result


def _keep_score(result: Plan, kept: Card) -> float:
    return result.gain - 0.5 * kept.value - (30 if kept.may_be_wild else 0)


def _with_kept(result: Plan, kept: Sequence[Card]) -> Plan:
    if not kept:
        return result
    left = tuple(sorted((*result.left, *kept), key=BY_INDEX))
    return Plan(result.melds, result.base, result.moves, left, result.laid, result.bonus)


# -- weighing --------------------------------------------------------------------------------------------------


def progress(melds: Iterable[Meld]) -> float:
    """How far runs are on the way to canastras, beyond their points and bonuses: a long clean run is worth
    more than its cards (a clean canastra is 200 and the key to going out, §17.6)."""
    total = 0.0
    for meld in melds:
        size = len(meld.cards)
        if size >= CANASTRA:
            continue
        total += (size - 2) * (14.0 if meld.clean else 6.0)
    return total


def shape(left: Sequence[Card], runs: Sequence[Meld]) -> float:
    """What the cards left in a hand promise: pairs and near-runs of one suit, cards one gap from a run's end,
    substitutes. A rough count, to tell hands apart."""
    total = 0.0
    positions: dict[Suit, list[int]] = {}
    for card in left:
        if card.may_be_wild or card.suit is None:
            total += 12.0
            continue
        positions.setdefault(card.suit, []).append(card.rank)
        if card.rank == ACE:
            positions[card.suit].append(HIGH)
    for suit, ranks in positions.items():
        unique = sorted(set(ranks))
        for a, b in pairwise(unique):
            if b - a == 1:
                total += 6.0
            elif b - a == 2:
                total += 3.0
        for meld in runs:
            if meld.suit is suit and any(r in (meld.low - 2, meld.high + 2) for r in unique):
                total += 2.0
    return total


def worth(result: Plan, runs: Sequence[Meld]) -> float:
    """A plan's value for comparing hands: what it lays, its bonuses, its progress towards canastras, and
    the promise of what it leaves, less the cards stuck in the hand."""
    return (
        result.gain
        + progress(result.melds)
        - progress(runs)
        + shape(result.left, result.melds)
        - 0.3 * sum(card.value for card in result.left)
    )
