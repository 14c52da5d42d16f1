"""The house's shuffle: a deal is rebuilt from its seed, so the order a seed gives is ours to keep.

:func:`shuffle` lays a list out in exactly the order ``random.Random.shuffle`` gives it on CPython 3.11 to 3.13
(Fisher-Yates from the end, each index drawn by ``getrandbits`` of the bound's bit length and redrawn while out of
range), so the seeds of games stored before it still deal the same cards. Owning it does two things: the order a
seed deals no longer hangs on the interpreter's private ``_randbelow`` (a stored game replays the same on any
Python), and it costs half as much, one local ``getrandbits`` call per place instead of two method calls: a deal
and every world a computer player samples begin with a shuffle.

A ``Random`` of another class keeps its own ``shuffle`` (the tests' stacked decks override it to lay a chosen
order).
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from functools import cache
from typing import TypeVar

T = TypeVar("T")


@cache
def _plan(size: int) -> tuple[tuple[int, int, int], ...]:
    """For each place from the last down to the second: (the place, the bound of its draw, the bits drawn)."""
    return tuple((n - 1, n, n.bit_length()) for n in range(size, 1, -1))


def shuffle(items: MutableSequence[T], rng: random.Random) -> None:
    """Shuffle ``items`` in place by ``rng``: the order ``rng.shuffle(items)`` gives (see the module docstring)."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i, n, k in _plan(len(items)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
