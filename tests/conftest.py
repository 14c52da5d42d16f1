"""The suite's tiers, by path: everything under tests/e2e is `e2e`, the heavy tests elsewhere are `slow`; the
README's test command runs the rest first (`-m "not e2e and not slow"`, a few minutes), then these two in
parallel (pytest-xdist). The longest tests are collected first, so that the parallel tier starts them at once
rather than leaving one of them to run alone at its end."""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
E2E = TESTS / "e2e"
SLOW = {
    # Property and AI tests over thousands of random games: a few seconds to a minute each.
    "engine/bura/test_properties.py",
    "engine/bura/test_ai.py",
    "engine/bura/test_ai_exact.py",
    "engine/bura/test_ai_sim.py",
    "engine/bura/test_ai_value.py",
    "engine/buraco/test_properties.py",
    "engine/buraco/test_ai.py",
    "benchmarks/test_ai_strength.py",
    # Whole bot processes started and stopped (one waits half a minute for its exit code).
    "bot/test_main.py",
}
# The longest tests, longest first (seconds on a 2-core machine, serial, December 2026): the parallel tier
# begins with them. A test not named here keeps its place after them.
LONGEST = (
    "e2e/test_buraco.py::test_two_people_and_two_computers",  # 140
    "e2e/test_crash.py",  # 170 and 155
    "e2e/test_pacing.py",  # 120
    "e2e/test_buraco.py",  # 75
    "engine/buraco/test_properties.py::test_random_deals_keep_every_invariant",  # 50
    "e2e/test_observability.py",  # 35
    "bot/test_main.py::test_a_database_path_that_is_a_folder",  # 33
)


def _tier(item: pytest.Item) -> str | None:
    path = Path(item.path)
    if path.is_relative_to(E2E):
        return "e2e"
    if path.is_relative_to(TESTS) and path.relative_to(TESTS).as_posix() in SLOW:
        return "slow"
    return None


def _rank(item: pytest.Item) -> int:
    path = Path(item.path)
    if not path.is_relative_to(TESTS):
        return len(LONGEST)
    name = f"{path.relative_to(TESTS).as_posix()}::{item.name}"
    return next((i for i, prefix in enumerate(LONGEST) if name.startswith(prefix)), len(LONGEST))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        tier = _tier(item)
        if tier is not None:
            item.add_marker(tier)
    items.sort(key=_rank)  # stable: the rest keep their order
