"""The Mini App benchmark (tests/benchmarks/webapp.py) at a tiny size, so that it cannot rot: two tables played
from the Mini App for a few seconds against the real bot, the figures present and in their order; and the page's
first load in Chromium, once, where the browser is installed."""

from __future__ import annotations

import os

import pytest

from tests.benchmarks import webapp


async def test_taps_in_the_mini_app_are_answered_then_seen_in_the_group_and_the_stream() -> None:
    args = webapp.parse(
        ["--tables", "2", "--seconds", "4", "--warmup", "1", "--think", "0.3", "--idle", "0.5", "--skip-browser"]
    )
    taps = (await webapp.run(args)).taps
    assert taps.tables == 2 and taps.streams == 4
    assert len(taps.answered) > 0 and len(taps.floor_idle) == args.floor_samples and len(taps.floor_loaded) > 0
    assert len(taps.visible) + taps.unseen == len(taps.in_group) + taps.not_in_group == len(taps.answered)
    assert taps.unseen == 0 and taps.not_in_group == 0, (taps.unseen, taps.not_in_group)
    assert not taps.refused, taps.refused
    for values in (taps.answered, taps.visible, taps.in_group, taps.floor_idle, taps.floor_loaded):
        assert all(0 < value < webapp.WAIT for value in values)
    # Committed before anybody hears of it: the answer comes before the group's edit, the stream's poll after both.
    cuts = {name: webapp.cuts(getattr(taps, name)) for name in ("answered", "in_group", "visible", "floor_loaded")}
    assert all(value is not None for value in cuts.values()), cuts
    p50 = {name: value[0] for name, value in cuts.items() if value is not None}
    assert p50["floor_loaded"] < p50["answered"] <= p50["in_group"], p50
    assert p50["answered"] < p50["visible"], p50


@pytest.mark.skipif(not os.access(webapp.CHROMIUM, os.X_OK), reason=f"no Chromium at {webapp.CHROMIUM}")
async def test_the_first_load_counts_the_page_and_each_games_table(capsys: pytest.CaptureFixture[str]) -> None:
    args = webapp.parse(["--tables", "1", "--seconds", "1", "--warmup", "0", "--idle", "0", "--loads", "2"])
    page = (await webapp.run(args, report=True)).page
    assert page is not None
    assert "/webapp/" in page.files and all(body > 0 for body, _, _ in page.files.values())
    assert set(page.tables) == {"Бура", "Бурако"} and all(body > 0 for body, _, _ in page.tables.values())
    assert page.loads == page.drawn == 2
    for what in ("first-contentful-paint", "hand cards in the DOM", "cards waited for, now()"):
        assert len(page.paints[what]) == 2 and all(value > 0 for value in page.paints[what])
    assert "the page " in capsys.readouterr().out
