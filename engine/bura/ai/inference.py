"""Inference: how plausible a sampled world makes the others' past moves.

The others are modelled with the easy player's habits (engine/bura/ai/easy.py): a world in which an opponent's
past lead or answer is one those habits would not have made, had the world been true, weighs less
(:class:`Inference`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from itertools import combinations

from engine.bura.cards import BY_INDEX, Card
from engine.bura.deal import Deal
from engine.bura.variant import BuraCombo, Discards, FollowSuit, Variant
from engine.bura.views import SeatView, TrickView
from engine.core.cards import Suit

from .easy import card_cost, easy_lead_key, set_beats_fast


def lead_was_sensible(hand: Sequence[Card], led: Sequence[Card], variant: Variant, cap: int, trump: Suit) -> bool:
    """Whether the easy player's habits (lead the cheapest cards) would have led what was led from ``hand``."""
    sizes = [k for k in variant.lead_sizes if k <= cap]
    best = easy_lead_key(led, trump, shokha=variant.shokha)
    for suit in {card.suit for card in hand}:
        suited = [card for card in hand if card.suit is suit]
        for k in sizes:
            for chosen in combinations(suited, k):
                if easy_lead_key(chosen, trump, shokha=variant.shokha) < best:
                    return False
    return True


def answer_was_sensible(
    hand: Sequence[Card],
    played: tuple[Card, ...],
    face_down: bool,
    trick_best: tuple[Card, ...],
    value: int,
    variant: Variant,
    trump: Suit,
) -> bool:
    """Whether the easy player's habits (beat cheaply when worth it, else dump the cheapest cards face down)
    would have answered as ``played`` did from ``hand``."""
    k = len(played)
    if k != len(trick_best) or len(hand) < k:
        return True  # a short answer: no model
    shokha = variant.shokha
    cost_of = {card: card_cost(card, trump, shokha=shokha) for card in hand}
    combos = list(combinations(sorted(hand, key=BY_INDEX), k))  # in the order of the legal moves
    beating = [c for c in combos if set_beats_fast(c, trick_best, trump, shokha)]
    cost = sum(cost_of[card] for card in played)
    if beating:
        cheapest = min(beating, key=lambda c: sum(cost_of[card] for card in c))
        least = sum(cost_of[card] for card in cheapest)
        if value + sum(card.points for card in cheapest) >= 10 or least <= 12 * k:
            return not face_down and cost == least and set_beats_fast(played, trick_best, trump, shokha)
    if variant.discards is Discards.OPEN:
        pool = [c for c in combos if not set_beats_fast(c, trick_best, trump, shokha)] or combos
        return cost == min(sum(cost_of[card] for card in c) for c in pool)
    return face_down and cost == min(sum(cost_of[card] for card in c) for c in combos)


Test = Callable[[list[Card], tuple[Card, ...]], bool]  # (hand, cards played from it): would the habits play them


def _decision(
    trick: TrickView, seat: int, sizes: dict[int, int], variant: Variant, trump: Suit, size: int
) -> tuple[tuple[Card, ...], Test | None]:
    """The cards ``seat`` played to ``trick`` (none when they lie face down out of sight), and a test of whether
    the easy player's habits would have played them from a given hand (None when the seat did not play to it)."""
    if trick.leader == seat:
        cap = min((n for s, n in sizes.items() if s != seat and n), default=size)
        return trick.lead, partial(lead_was_sensible, variant=variant, cap=cap, trump=trump)
    best = trick.lead
    value = sum(card.points for card in trick.lead)
    for play in trick.plays:
        if play.seat == seat:
            sensible = partial(
                answer_was_sensible,
                face_down=play.face_down,
                trick_best=best,
                value=value,
                variant=variant,
                trump=trump,
            )
            return play.cards, sensible
        if play.beats:
            best = play.cards
        if not play.face_down:
            value += sum(card.points for card in play.cards)
    return (), None


def _is_bura(hand: Sequence[Card], size: int, trump: Suit) -> bool:
    return len(hand) == size and all(card.suit is trump for card in hand)


class Inference:
    """How plausible a sampled world makes the others' past moves: ``miss`` to the power of the moves that the
    easy player's habits would not have made, had the world been true (an opponent who led a king while holding
    a seven is unlikely).

    The hands the others held at each trick are rebuilt backwards from the sampled hands. Which of the later
    cards were drawn after a trick (their count follows from the drawing rules) is unknown, so every choice is
    weighed and one is followed in proportion (sequential importance sampling): the weight is an estimate of the
    likelihood of the moves seen. The model is the easy player's, so it fits a sensible player, not a random
    one; ``miss`` keeps a world that breaks the habit possible.

    Everything that follows from the view alone (hand sizes and draws at each trick, what each move was tested
    against) is worked out once per decision; a world is then only the others' hands and their hidden face-down
    answers (``worlds.deal_unseen``), so many worlds can be weighed for the cost of one played out."""

    def __init__(self, view: SeatView, template: Deal, miss: float, bura: bool = False) -> None:
        """``bura``: also use that nobody has shown a bura (RULES §9.2, an instant win): no hand the others held
        at the start of a trick, nor now, was all trumps."""
        self.miss = miss
        self.bura = bura and template.variant.bura is BuraCombo.INSTANT_WIN
        self.size = template.variant.hand_size
        self.trump = view.table.trump
        self.between_tricks = view.table.trick is None
        self.steps: list[tuple[int, list[tuple[int, int, tuple[Card, ...], int | None, Test | None]]]] = []
        self.known: dict[tuple[int, int, frozenset[Card], tuple[Card, ...]], bool] = {}
        table = view.table
        tricks = [*table.history, *([table.trick] if table.trick is not None else [])]
        slots: dict[tuple[int, int], int] = {}
        self.pile = 0  # the side's pile: the points it may see, and the hidden answers in it
        self.pile_slots: list[int] = []
        for number, trick in enumerate(tricks):
            mine = number < len(table.history) and template.side_of[trick.owner] == view.side
            if mine:
                self.pile += sum(card.points for card in trick.lead)
            for play in trick.plays:
                if len(play.cards) != play.count:
                    slots[(number, play.seat)] = len(slots)
                    if mine:
                        self.pile_slots.append(slots[(number, play.seat)])
                elif mine:
                    self.pile += sum(card.points for card in play.cards)
        variant = template.variant
        if variant.follow_suit is not FollowSuit.NEVER:
            return
        seats = table.seats
        size = variant.hand_size
        # Forward: hand sizes at each trick and the cards each seat drew after it.
        sizes = dict.fromkeys(seats, size)
        stock = variant.deck_size - size * len(seats)
        before: list[dict[int, int]] = []
        drawn: list[dict[int, int]] = []
        for trick in table.history:
            before.append(dict(sizes))
            sizes[trick.leader] -= len(trick.lead)
            for play in trick.plays:
                sizes[play.seat] -= play.count
            order = [s for s in template.clockwise_from(trick.owner) if sizes[s] < size]
            need = [size - sizes[s] for s in order]
            counts = template._draw_counts(need, stock) if stock and order else [0] * len(order)
            got = dict.fromkeys(seats, 0)
            for seat, count in zip(order, counts, strict=True):
                got[seat] = count
                sizes[seat] += count
            stock -= sum(counts)
            if any(c < n for c, n in zip(counts, need, strict=True)):
                stock = 0
            drawn.append(got)
        if table.trick is not None:
            before.append(dict(sizes))
        if any(sizes[s] != n for s, n in table.hand_sizes if s in sizes) and table.trick is None:
            return  # the drawing did not follow the plain rules (a combo lead, a short hand): no model
        trump = table.trump
        for seat in seats:
            if template.side_of[seat] == view.side:
                continue
            steps = []
            for number in range(len(tricks) - 1, -1, -1):
                played, sensible = _decision(tricks[number], seat, before[number], variant, trump, size)
                draws = drawn[number][seat] if number < len(table.history) else 0
                steps.append((number, draws, played, slots.get((number, seat)), sensible))
            self.steps.append((seat, steps))

    def points(self, hidden: Sequence[tuple[Card, ...]]) -> int:
        """The points of the side's pile in a world whose hidden face-down answers are ``hidden``."""
        return self.pile + sum(card.points for slot in self.pile_slots for card in hidden[slot])

    def weigh(self, hands: dict[int, list[Card]], hidden: Sequence[tuple[Card, ...]], rng: random.Random) -> float:
        weight = 1.0
        miss = self.miss
        known = self.known
        size = self.size
        trump = self.trump
        bura = self.bura
        for seat, steps in self.steps:
            hand = list(hands[seat])
            if bura and self.between_tricks and _is_bura(hand, size, trump):
                return 0.0
            for number, draws, shown, slot, sensible in steps:
                played = shown if slot is None else hidden[slot]
                if draws:
                    # Which of the later cards were drawn after this trick is unknown: weigh every choice, then
                    # go on with one of them in proportion (sequential importance sampling).
                    options = [
                        [card for card in hand if card not in chosen]
                        for chosen in combinations(hand, min(draws, len(hand)))
                    ]
                else:
                    options = [hand]
                if sensible is None:
                    hand = [*rng.choice(options), *played]
                    continue
                # a hand of trumps at the start of this trick would have won at once: that option cannot be
                played_trumps = sum(1 for card in played if card.suit is trump) if bura else 0
                likelihoods = []
                total = 0.0
                for option in options:
                    if (
                        bura
                        and len(option) + len(played) == size
                        and played_trumps == len(played)
                        and all(card.suit is trump for card in option)
                    ):
                        likelihoods.append(0.0)
                        continue
                    key = (seat, number, frozenset(option), played)
                    fits = known.get(key)
                    if fits is None:
                        fits = known[key] = sensible([*option, *played], played)
                    likelihood = 1.0 if fits else miss
                    likelihoods.append(likelihood)
                    total += likelihood
                if not total:
                    return 0.0
                weight *= total / len(likelihoods)
                hand = [*rng.choices(options, likelihoods)[0], *played]
        return weight
