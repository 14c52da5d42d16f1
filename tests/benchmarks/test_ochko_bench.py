"""The Очко benchmark (tests/benchmarks/ochko.py) at a tiny size, so that it cannot rot: the bare loop, the
side-by-side rates, the decision times, and the duplicate rounds with their check that both halves see the same
cards."""

from __future__ import annotations

import random

import pytest

from engine.ochko import ai
from tests.benchmarks import ochko


def test_the_bare_round_settles_at_most_one_hand_a_player() -> None:
    rng = random.Random(3)
    for players in (2, 3, 8):
        settled = [ochko.bare_round(rng, players) for _ in range(300)]
        assert all(0 <= count <= players - 1 for count in settled)
        assert max(settled) == players - 1  # most rounds play every hand


def test_the_engine_and_the_bare_loop_are_timed_side_by_side() -> None:
    speed = ochko.side_by_side(0.05, 1, 3)
    assert speed.bare > 0 and speed.engine > 0
    assert speed.ratio == speed.engine / speed.bare
    assert speed.actions_per_round >= 2  # at least a bet and a stand, or a bet and a bust


def test_decision_times_are_taken_on_the_same_views() -> None:
    result = ochko.decision_times(200, 1, 3)
    assert {name: len(values) for name, values in result.all.items()} == {"view": 200, "easy": 200, "odds": 200}
    counts = {len(values) for values in result.hit_or_stand.values()}
    assert len(counts) == 1 and 0 < counts.pop() < 200
    assert all(value > 0 for values in result.all.values() for value in values)


def test_duplicate_rounds_see_the_same_cards_and_report_an_interval() -> None:
    result = ochko.duplicate(40, 1)
    assert result.verified == len(result.diffs) == 40
    # One hand a seat a half, unless the seat before him broke the bank (the computers bet a small bank whole).
    assert 40 <= result.computer_hands <= 80 and 40 <= result.threshold_hands <= 80
    mean, low, high = result.interval()
    assert low <= mean <= high
    assert all(diff * 2 == int(diff * 2) for diff in result.diffs)  # whole chips, halved by the pairing


def test_the_same_policy_in_both_seats_ties_every_pair() -> None:
    result = ochko.duplicate(40, 2, computer=ai.easy, threshold=ai.easy)
    assert result.diffs == [0.0] * 40
    assert result.computer_won == result.threshold_won


def test_halves_dealt_other_cards_stop_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    play_half = ochko.play_half

    def other_pack(seed: int, number: int, seat: int, computer: ochko.Policy, threshold: ochko.Policy) -> ochko.Half:
        return play_half(seed, number + (seat == ochko.SEATS[1]), seat, computer, threshold)

    monkeypatch.setattr(ochko, "play_half", other_pack)
    with pytest.raises(AssertionError, match="different cards"):
        ochko.duplicate(3, 1)


def test_the_script_prints_every_part(capsys: pytest.CaptureFixture[str]) -> None:
    ochko.main(["--seconds", "0.05", "--trials", "1", "--samples", "100", "--rounds", "20", "--every", "0"])
    out = capsys.readouterr().out
    assert "engine / bare: median" in out
    assert "odds p50 / view p50" in out
    assert "20 of 20 pairs" in out and "95% CI" in out
