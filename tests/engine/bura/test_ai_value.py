"""The learned value of two-player Бура (engine/bura/ai/value.py): its trees, the shipped model, where it is used,
and the playouts it cuts short."""

from __future__ import annotations

import math
import random
from typing import Any

from engine.bura.ai import EASY, Budget
from engine.bura.ai.playout import play_out
from engine.bura.ai.sim import LEAD_PHASE, Sim, from_deal
from engine.bura.ai.value import NAMES, Tree, Value, features, fits, shipped
from engine.bura.match import Match
from engine.bura.variant import BURA_PAGAT, BURA_STANDARD, BURKOZEL, PROFILES, SINGLE_DEAL
from tests.benchmarks.value_fit import to_value

from .stack import stacked_deal


def _logistic(total: float) -> float:
    return 1.0 / (1.0 + math.exp(-total))


# Two trees over two features: the first splits twice, the second is one leaf.
SPLIT = Tree(feature=(0, 1), threshold=(2.5, 10.0), left=(1, -1), right=(-3, -2), leaf=(0.5, -0.25, 1.0))
FLAT = Tree(feature=(), threshold=(), left=(), right=(), leaf=(0.125,))


def test_a_tree_sends_a_position_left_at_or_below_the_threshold_and_right_above() -> None:
    assert SPLIT([2.5, 10.0]) == 0.5  # left, then left at equality
    assert SPLIT([2.0, 11.0]) == -0.25  # left, then right
    assert SPLIT([3.0, 0.0]) == 1.0  # right
    value = Value(("a", "b"), (SPLIT, FLAT))
    assert value.odds([3.0, 0.0]) == _logistic(1.125)
    assert value.odds([0.0, 20.0]) == _logistic(-0.125)


def test_the_compiled_trees_add_up_as_the_trees_do() -> None:
    """``Value.odds`` runs the trees compiled into one function; it must give the loop's sum, bit for bit."""
    value = shipped()
    rng = random.Random(4)
    for number in range(30):
        match = Match(BURA_STANDARD.with_options(match=SINGLE_DEAL), 2, f"compiled/{number}")
        sim = from_deal(match.deal)
        play_out(sim, rng, 0.1, 0, 0.1, EASY, tricks=rng.randrange(6))
        for seat in (0, 1):
            x = features(sim, seat)
            assert value.odds(x) == _logistic(value.total(x))
    small = Value(("a", "b"), (SPLIT, FLAT))
    for x in ([3.0, 0.0], [2.5, 10.0], [2.0, 11.0]):
        assert small.total(x) == SPLIT(x) + FLAT(x)
        assert small.odds(x) == _logistic(small.total(x))


def test_a_value_survives_its_json() -> None:
    value = Value(("a", "b"), (SPLIT, FLAT))
    assert Value.from_json(value.to_json()) == value


class _Booster:
    """What ``value_fit.to_value`` reads of a LightGBM booster: its dump, here the two trees above."""

    def dump_model(self) -> dict[str, Any]:
        def leaf(index: int, worth: float) -> dict[str, Any]:
            return {"leaf_index": index, "leaf_value": worth}

        def split(index: int, feature: int, threshold: float, left: Any, right: Any) -> dict[str, Any]:
            return {
                "split_index": index,
                "split_feature": feature,
                "threshold": threshold,
                "decision_type": "<=",
                "left_child": left,
                "right_child": right,
            }

        first = split(0, 0, 2.5, split(1, 1, 10.0, leaf(0, 0.5), leaf(1, -0.25)), leaf(2, 1.0))
        return {
            "tree_info": [
                {"num_leaves": 3, "tree_structure": first},
                {"num_leaves": 1, "tree_structure": {"leaf_value": 0.125}},
            ]
        }


def test_a_fitted_booster_becomes_the_same_trees() -> None:
    value = to_value(_Booster())
    assert value.trees == (SPLIT, FLAT)
    assert value.names == NAMES


def _opening(hands: dict[int, str], trump: str) -> Sim:
    deal, _ = stacked_deal(BURA_STANDARD, hands, trump)
    return from_deal(deal)


def test_the_shipped_value_reads_the_features_the_engine_computes() -> None:
    value = shipped()
    assert value.names == NAMES
    assert len(value.trees) >= 50
    sim = _opening({0: "7H 8C 9D", 1: "6S KH TC"}, "AS")
    assert len(features(sim, 0)) == len(NAMES)
    assert -1.0 < value(sim, 0) < 1.0


def test_the_shipped_value_sees_what_wins_a_deal() -> None:
    """Sanity of the fitted trees: points in the pile and trumps in the hand are worth having (RULES §8, §9.2)."""
    value = shipped()
    plain = _opening({0: "7H 8C 9D", 1: "7C 8D 9H"}, "AS")
    # The same cards, but seat 0's pile already holds 29 points it knows of.
    rich = plain.copy()
    rich.points[0] = rich.known[0] = 29
    assert value(rich, 0) > value(plain, 0) + 0.2
    assert value(rich, 1) < value(plain, 1) - 0.2
    # Two trumps (the makings of a bura) against none.
    trumps = _opening({0: "KS QS 9D", 1: "7C 8D 9H"}, "AS")
    assert value(trumps, 0) > value(plain, 0) + 0.1
    assert value(trumps, 1) < value(plain, 1) - 0.1


def test_the_value_is_used_only_where_it_was_fitted() -> None:
    assert fits(BURA_STANDARD, 2)
    assert fits(BURA_STANDARD.with_options(match=SINGLE_DEAL), 2)  # the match around the deal may differ
    assert not fits(BURA_STANDARD, 3)
    assert not fits(BURA_PAGAT, 2)
    assert not fits(BURKOZEL, 2)
    assert not fits(BURA_STANDARD.with_options(claim_threshold=41), 2)
    for name, variant in PROFILES.items():
        assert Budget.default(variant, 2).horizon == (1 if fits(variant, 2) else 0), name


def test_a_playout_with_a_horizon_stops_at_the_first_lead_after_it() -> None:
    cut_short = 0
    for number in range(20):
        match = Match(BURA_STANDARD.with_options(match=SINGLE_DEAL), 2, f"horizon/{number}")
        sim = from_deal(match.deal)
        full = sim.copy()
        play_out(full, random.Random(number), 0.1, 0, 0.1, EASY)
        assert full.over
        for horizon in (1, 2):
            cut = sim.copy()
            until = sum(cut.tricks) + horizon
            play_out(cut, random.Random(number), 0.1, 0, 0.1, EASY, tricks=until)
            if not cut.over:
                cut_short += 1
                assert cut.phase == LEAD_PHASE
                assert sum(cut.tricks) == until
    assert cut_short >= 30
