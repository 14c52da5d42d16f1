"""The house's shuffle deals what ``random.Random.shuffle`` deals, so stored games replay the same cards."""

from __future__ import annotations

import random

import pytest

from engine.core.shuffle import shuffle


@pytest.mark.parametrize("size", [0, 1, 2, 3, 24, 32, 36, 52, 108, 300])
def test_the_order_of_a_seed_is_the_one_random_shuffle_gives(size: int) -> None:
    for seed in range(200):
        ours = list(range(size))
        theirs = list(range(size))
        shuffle(ours, random.Random(seed))
        random.Random(seed).shuffle(theirs)
        assert ours == theirs


def test_the_generator_is_left_where_random_shuffle_leaves_it() -> None:
    ours, theirs = random.Random("seed/3"), random.Random("seed/3")
    shuffle(list(range(36)), ours)
    theirs.shuffle(list(range(36)))
    assert ours.getstate() == theirs.getstate()


def test_a_random_of_another_class_keeps_its_own_shuffle() -> None:
    class Reversing(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            x.reverse()

    items = [1, 2, 3]
    shuffle(items, Reversing(0))
    assert items == [3, 2, 1]


def test_every_order_comes_up() -> None:
    rng = random.Random(5)
    seen = set()
    for _ in range(2000):
        items = [0, 1, 2, 3]
        shuffle(items, rng)
        seen.add(tuple(items))
    assert len(seen) == 24
