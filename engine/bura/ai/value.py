"""A learned value for the hard player's playouts in two-player Бура: how likely a side is to win the deal from a
position with every card known, if the hard player plays it on against the easy player.

Why it is there. The flat search values a move by playing it out in sampled worlds, and a playout plays the own
side's later moves by the easy player's habits, which use nothing the seat learns as the deal goes on. Every way of
planning those later moves inside the playouts that was tried (BENCHMARKS.md) did no better. This value stands
for the rest of the deal instead: a playout plays the candidate move and the trick it starts (the easy player's
answer, the draws) and stops at the next lead, and the value of that position is the odds the hard player itself,
with its inference and search, went on to win from positions like it.

What it is. Gradient-boosted decision trees over :func:`features` (LightGBM, binary log loss), fitted on the
positions at the start of every lead of deals the hard player with the base budget and full playouts played
against the easy player, each labelled by whether the hard side won the deal (tests/benchmarks/value_fit.py
plays those deals and fits the trees; the fit is deterministic). The trees are kept in ``value_bura.json`` beside
this module and evaluated here in plain Python, so the engine needs no library to use them.

A position is read with every card known (a sampled world): both hands, the stock, the true points of both piles
and what each seat may know of them. That sees nothing a seat may not: the search averages the value over the
worlds it samples from what the seat has seen, as it averages a playout's result.

Only two-player tables with the standard rules (:func:`fits`) use it: the deals it was fitted on.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from engine.bura.cards import Card
from engine.bura.variant import BURA_STANDARD, Variant
from engine.core.cards import Suit

from .sim import Sim

MODEL = Path(__file__).with_name("value_bura.json")

_HAND = (
    "n",
    "trumps",
    "trump_strength",
    "trump_top",
    "points",
    "aces",
    "tens",
    "long",
    "long_points",
    "cost",
    "trump_points",
)
NAMES: tuple[str, ...] = (
    "stock",
    "leads",
    "points",
    "points_other",
    "known",
    "known_other",
    "unseen",
    "unseen_other",
    "tricks",
    "tricks_other",
    "stock_trumps",
    "stock_points",
    "trumps_gone",
    *(f"hand_{name}" for name in _HAND),
    *(f"other_{name}" for name in _HAND),
)
"""The names of :func:`features`, in order (``value_bura.json`` names the ones it was fitted on)."""


def _hand(hand: Sequence[Card], trump: Suit) -> list[float]:
    """What a hand holds: its size, trumps (count, strength, top, points), point cards, its longest plain suit and
    that suit's points, and what the easy player's habits would count as the cost of giving it all up."""
    trumps = [card for card in hand if card.suit is trump]
    plain: dict[Suit, list[Card]] = {}
    for card in hand:
        if card.suit is not trump:
            plain.setdefault(card.suit, []).append(card)
    long = max((len(cards) for cards in plain.values()), default=0)
    long_points = max((sum(c.points for c in cards) for cards in plain.values() if len(cards) == long), default=0)
    return [
        len(hand),
        len(trumps),
        sum(card.strength for card in trumps),
        max((card.strength for card in trumps), default=-1),
        sum(card.points for card in hand),
        sum(1 for card in hand if card.points == 11),
        sum(1 for card in hand if card.points == 10),
        long,
        long_points,
        sum(card.points + (12 + card.strength if card.suit is trump else card.strength // 3) for card in hand),
        sum(card.points for card in trumps),
    ]


def features(sim: Sim, seat: int) -> list[float]:
    """The position of ``sim`` from ``seat``'s side (every card known; :data:`NAMES` says what each number is)."""
    other = next(s for s in sim.seats if s != seat)
    side, other_side = sim.side_of[seat], sim.side_of[other]
    trump = sim.trump
    mine, theirs = sim.hands[seat], sim.hands[other]
    stock_trumps = sum(1 for card in sim.stock if card.suit is trump)
    held = sum(1 for card in mine if card.suit is trump) + sum(1 for card in theirs if card.suit is trump)
    return [
        len(sim.stock),
        int(sim.leader == seat),
        sim.points[side],
        sim.points[other_side],
        sim.known[seat],
        sim.known[other],
        sim.unseen[seat],
        sim.unseen[other],
        sim.tricks[side],
        sim.tricks[other_side],
        stock_trumps,
        sum(card.points for card in sim.stock),
        9 - stock_trumps - held,
        *_hand(mine, trump),
        *_hand(theirs, trump),
    ]


@dataclass(frozen=True, slots=True)
class Tree:
    """One regression tree: internal node ``i`` sends ``x`` to ``left[i]`` if ``x[feature[i]] <= threshold[i]``,
    else to ``right[i]``; a child ``c < 0`` is leaf ``~c``, worth ``leaf[~c]``."""

    feature: tuple[int, ...]
    threshold: tuple[float, ...]
    left: tuple[int, ...]
    right: tuple[int, ...]
    leaf: tuple[float, ...]

    def __call__(self, x: Sequence[float]) -> float:
        if not self.feature:
            return self.leaf[0]
        node = 0
        feature, threshold, left, right = self.feature, self.threshold, self.left, self.right
        while node >= 0:
            node = left[node] if x[feature[node]] <= threshold[node] else right[node]
        return self.leaf[~node]


@dataclass(frozen=True, slots=True)
class Value:
    """Boosted trees: the odds are the logistic function of the sum of the trees' outputs."""

    names: tuple[str, ...]
    trees: tuple[Tree, ...]

    def odds(self, x: Sequence[float]) -> float:
        """The odds of winning the deal from the position whose :func:`features` are ``x``."""
        total = 0.0
        for tree in self.trees:
            total += tree(x)
        return 1.0 / (1.0 + math.exp(-total))

    def __call__(self, sim: Sim, seat: int) -> float:
        """The position's worth for ``seat``'s side, from -1 (lost) to +1 (won), as a playout's result is."""
        return 2.0 * self.odds(features(sim, seat)) - 1.0

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Value:
        names = tuple(str(name) for name in data["names"])  # type: ignore[attr-defined]
        trees = tuple(
            Tree(
                tuple(tree["feature"]),
                tuple(float(t) for t in tree["threshold"]),
                tuple(tree["left"]),
                tuple(tree["right"]),
                tuple(float(v) for v in tree["leaf"]),
            )
            for tree in data["trees"]  # type: ignore[attr-defined]
        )
        return cls(names, trees)

    def to_json(self) -> dict[str, object]:
        return {
            "names": list(self.names),
            "trees": [
                {
                    "feature": list(t.feature),
                    "threshold": list(t.threshold),
                    "left": list(t.left),
                    "right": list(t.right),
                    "leaf": list(t.leaf),
                }
                for t in self.trees
            ],
        }


@cache
def shipped() -> Value:
    """The value in ``value_bura.json`` (read once)."""
    value = Value.from_json(json.loads(MODEL.read_text()))
    if value.names != NAMES:
        raise ValueError(f"{MODEL.name} was fitted on other features than engine/bura/ai/value.py computes")
    return value


def _deal_rules(variant: Variant) -> dict[str, object]:
    return variant.model_dump(exclude={"name", "match"})


_STANDARD = _deal_rules(BURA_STANDARD)


def fits(variant: Variant, players: int) -> bool:
    """Whether the learned value was fitted on deals like ``variant``'s at a table of ``players``: two players and
    the standard rules of a deal (the match around it may differ)."""
    return players == 2 and _deal_rules(variant) == _STANDARD
