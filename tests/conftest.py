"""The suite's tiers, by path: everything under tests/e2e is `e2e`, the heavy tests elsewhere (everything under
tests/browser, which starts Chromium, among them; a file or one test of a file in `SLOW`) are `slow`; the README's
test command runs the rest first (`-m "not e2e and not slow"`, a few minutes), then these two in parallel
(pytest-xdist). The longest tests are collected first in each worker's share (Spread), so that the parallel tier
starts them at once rather than leaving one of them to run alone at its end."""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
E2E = TESTS / "e2e"
# Every test there starts a real Chromium: a second or two, and the machine's apt-installed browser.
BROWSER = TESTS / "browser"
SLOW = {
    # Property and AI tests over thousands of random games: a few seconds to a minute each.
    "engine/bura/test_properties.py",
    "engine/bura/test_ai.py",
    "engine/bura/test_ai_exact.py",
    "engine/bura/test_ai_sim.py",
    "engine/bura/test_ai_value.py",
    "engine/buraco/test_properties.py",
    "engine/buraco/test_ai.py",
    "engine/ochko/test_properties.py",
    "engine/bura/test_replay.py",
    "benchmarks/test_ai_strength.py",
    "benchmarks/test_ochko_bench.py",
    "benchmarks/test_webapp_bench.py",  # the bot started twice, Chromium once
    # Whole bot processes started and stopped (one waits half a minute for its exit code).
    "bot/test_main.py",
    # The Mini App's boards over random games: no card a viewer may not see (a second or two each).
    "bot/games/test_bura_board.py::test_no_board_names_a_card_its_viewer_may_not_see",
    "bot/games/test_buraco_board.py::test_no_board_names_a_card_its_viewer_may_not_see",
    "bot/games/test_ochko_board.py::test_a_board_names_only_what_its_viewer_may_see",
    "bot/test_webapp.py::test_a_spectator_never_receives_a_hidden_card",
    # Every turn of random Бурако deals read twice, and rendered in every language: five to ten seconds each.
    "engine/buraco/test_turns_reading.py::test_the_turns_read_step_by_step_are_the_turns_read_afresh",
    "bot/games/test_conformance.py::test_every_move_renders_in_every_language[buraco-buraco-4p-0]",
    "bot/games/test_conformance.py::test_every_move_renders_in_every_language[buraco-buraco-4p-1]",
}
# The longest tests and their seconds on a 2-core machine (December 2026, the e2e ones with the bot forked from
# tests/e2e/forkserver.py, the machine shared). The parallel tier starts them first, spread over its workers: a
# test not named here keeps its place after them.
LONGEST = {
    "e2e/test_pacing.py": 120,
    "bot/test_main.py::test_a_database_path_that_is_a_folder": 100,
    "e2e/test_crash.py": 80,  # each of two
    "engine/buraco/test_properties.py::test_random_deals_keep_every_invariant": 75,
    "e2e/test_buraco.py": 30,  # each of two
    "e2e/test_spam.py": 35,
    "browser/test_webapp_e2e.py::test_a_bura_deal": 30,
}


def _tier(item: pytest.Item) -> str | None:
    path = Path(item.path)
    if path.is_relative_to(E2E):
        return "e2e"
    if path.is_relative_to(BROWSER):
        return "slow"
    if path.is_relative_to(TESTS):
        file = path.relative_to(TESTS).as_posix()
        name = f"{file}::{item.name}"
        if file in SLOW or any(name.startswith(f"{test}[") or name == test for test in SLOW if "::" in test):
            return "slow"
    return None


def _seconds(item: pytest.Item) -> int | None:
    path = Path(item.path)
    if not path.is_relative_to(TESTS):
        return None
    name = f"{path.relative_to(TESTS).as_posix()}::{item.name}"
    return next((seconds for prefix, seconds in LONGEST.items() if name.startswith(prefix)), None)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        tier = _tier(item)
        if tier is not None:
            item.add_marker(tier)


class Spread:
    """After `-m` has deselected: xdist's worksteal hands each worker a contiguous share of the collection
    (the first half to one of two, the second to the other) and steals from the ends of the shares, so the
    longest tests are put at the fronts of the shares, each where the estimated seconds are fewest; a
    collection of the longest tests at the front of the first share ran them one after another on one worker."""

    def __init__(self, workers: int) -> None:
        self.workers = workers

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        longest = sorted(
            ((seconds, index) for index, item in enumerate(items) if (seconds := _seconds(item)) is not None),
            reverse=True,
        )
        sizes = []  # as xdist's worksteal splits the collection between idle workers
        left = len(items)
        for done in range(self.workers):
            sizes.append(left // (self.workers - done))
            left -= sizes[-1]
        shares: list[list[pytest.Item]] = [[] for _ in sizes]
        load = [0] * len(sizes)
        for seconds, index in longest:
            least = min((s for s in range(len(sizes)) if len(shares[s]) < sizes[s]), key=lambda s: load[s])
            shares[least].append(items[index])
            load[least] += seconds
        placed = {index for _, index in longest}
        rest = iter(item for index, item in enumerate(items) if index not in placed)
        for share, size in zip(shares, sizes, strict=True):
            share.extend(next(rest) for _ in range(size - len(share)))
        items[:] = [item for share in shares for item in share]


def pytest_configure(config: pytest.Config) -> None:
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    if workers > 1:
        config.pluginmanager.register(Spread(workers), "spread-the-longest")
