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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
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
    trumps = strength = top_points = points = aces = tens = cost = 0
    top = -1
    plain: dict[Suit, list[int]] = {}  # suit -> [cards, points]
    for card in hand:
        worth = card.points
        points += worth
        if worth == 11:
            aces += 1
        elif worth == 10:
            tens += 1
        if card.suit is trump:
            trumps += 1
            strength += card.strength
            top_points += worth
            top = max(top, card.strength)
            cost += worth + 12 + card.strength
        else:
            held = plain.setdefault(card.suit, [0, 0])
            held[0] += 1
            held[1] += worth
            cost += worth + card.strength // 3
    long = max((held[0] for held in plain.values()), default=0)
    long_points = max((held[1] for held in plain.values() if held[0] == long), default=0)
    return [len(hand), trumps, strength, top, points, aces, tens, long, long_points, cost, top_points]


def features(sim: Sim, seat: int) -> list[float]:
    """The position of ``sim`` from ``seat``'s side (every card known; :data:`NAMES` says what each number is)."""
    other = sim.seats[1] if sim.seats[0] == seat else sim.seats[0]
    side, other_side = sim.side_of[seat], sim.side_of[other]
    trump = sim.trump
    mine, theirs = _hand(sim.hands[seat], trump), _hand(sim.hands[other], trump)
    stock_trumps = stock_points = 0
    for card in sim.stock:
        stock_points += card.points
        if card.suit is trump:
            stock_trumps += 1
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
        stock_points,
        9 - stock_trumps - mine[1] - theirs[1],
        *mine,
        *theirs,
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


def _compiled(trees: Sequence[Tree]) -> Callable[[Sequence[float]], float]:
    """The sum of the trees' outputs as one Python function of nested comparisons, the trees added in order (so
    its result is the loop's, bit for bit): walking the trees' arrays in a loop took most of a decision's time.

    The features are read once into local floats: comparing a float with a float constant is one of the
    comparisons CPython specialises, an int with a float is not, and a local is read faster than an item (the
    trees ran about twice as fast so; an int below 2**53 compares as its float does)."""
    count = 1 + max((f for tree in trees for f in tree.feature), default=-1)
    names = "".join(f"x{i}, " for i in range(count))
    lines = ["def total(x):", *([f"    {names}= map(float, x[:{count}])"] if count else []), "    t = 0.0"]

    def emit(tree: Tree, node: int, depth: int) -> None:
        pad = "    " * depth
        if node < 0:
            lines.append(f"{pad}t += {float(tree.leaf[~node])!r}")
            return
        lines.append(f"{pad}if x{int(tree.feature[node])} <= {float(tree.threshold[node])!r}:")
        emit(tree, tree.left[node], depth + 1)
        lines.append(f"{pad}else:")
        emit(tree, tree.right[node], depth + 1)

    for tree in trees:
        emit(tree, 0 if tree.feature else -1, 1)
    lines.append("    return t")
    scope: dict[str, Callable[[Sequence[float]], float]] = {}
    exec(compile("\n".join(lines), "<engine.bura.ai.value trees>", "exec"), scope)  # numbers and comparisons only
    return scope["total"]


@dataclass(frozen=True, slots=True)
class Value:
    """Boosted trees: the odds are the logistic function of the sum of the trees' outputs."""

    names: tuple[str, ...]
    trees: tuple[Tree, ...]
    _total: Callable[[Sequence[float]], float] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_total", _compiled(self.trees))

    def total(self, x: Sequence[float]) -> float:
        """The sum of the trees' outputs for ``x``, tree by tree (as the compiled :meth:`odds` adds them)."""
        total = 0.0
        for tree in self.trees:
            total += tree(x)
        return total

    def odds(self, x: Sequence[float]) -> float:
        """The odds of winning the deal from the position whose :func:`features` are ``x``."""
        return 1.0 / (1.0 + math.exp(-self._total(x)))

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
