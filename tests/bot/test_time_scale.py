"""TIME_SCALE: the game's clock runs faster (a tenth here) for move timers, reminders, a computer's thinking time
and an idle lobby, while every player still reads the game's own seconds."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.config import describe_settings_error
from bot.i18n import Translations
from bot.services import TableService
from bot.telegram.callbacks import LobbyOp
from tests.bot.test_config import settings
from tests.bot.test_services import (
    ANNA,
    GROUP,
    World,
    a_legal_play,
    a_world,
    playing_table,
    started,
    state_of,
    tap,
    user_of,
)
from tests.matches import bura_match

SCALE = 0.1


def test_the_game_runs_in_real_seconds_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TIME_SCALE", raising=False)
    assert settings(monkeypatch).time_scale == 1.0
    assert settings(monkeypatch, TIME_SCALE="0.05").time_scale == 0.05


@pytest.mark.parametrize("value", ["0", "2", "fast"])
def test_a_bad_time_scale_names_its_variable(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    with pytest.raises(ValidationError) as error:
        settings(monkeypatch, TIME_SCALE=value)
    assert describe_settings_error(error.value).startswith("TIME_SCALE")


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with a_world(tmp_path, time_scale=SCALE) as made:
        yield made


def test_the_timers_poll_at_the_scale() -> None:
    tables = TableService(None, Translations(), None, time_scale=SCALE)  # type: ignore[arg-type]
    assert tables.timers.interval == pytest.approx(SCALE)


async def test_a_move_timer_runs_out_at_the_scale_and_shows_its_own_minute(world: World) -> None:
    await playing_table(world)
    assert any("⏳ 1 мин на ход" in text for text in world.api.texts(GROUP)), "the table shows the setting, not 6 s"
    world.time.now += 60 * SCALE - 0.1
    assert await world.tables.timers.fire_due() == 0
    world.time.now += 0.2
    assert await world.tables.timers.fire_due() == 1


async def test_the_reminder_comes_at_half_time_and_counts_the_games_seconds(world: World) -> None:
    table = await playing_table(world)
    seat = bura_match(state_of(table).match).to_act()
    assert seat is not None
    actor = user_of(table, seat)
    world.time.now += 30 * SCALE - 0.1
    assert await world.tables.timers.remind_due() == 0
    world.time.now += 0.2  # 31 of the game's seconds gone: 29 left
    assert await world.tables.timers.remind_due() == 1
    await world.deliver()
    assert any("Осталось 29 с" in text for text in world.api.texts(actor.user_id))


async def test_an_idle_lobby_closes_at_the_scale_and_says_thirty_minutes(world: World) -> None:
    await started(world, ANNA)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    world.time.now += 30 * 60 * SCALE - 1
    assert await world.tables.timers.fire_due() == 0
    world.time.now += 2
    assert await world.tables.timers.fire_due() == 1
    await world.deliver()
    assert any("30 минут" in text for text in world.api.texts(GROUP))


async def test_a_computer_thinks_a_scaled_second(world: World) -> None:
    await started(world, ANNA)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    await tap(world, LobbyOp.ADD_COMPUTER, ANNA, update_id=2)
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=3)).alert
    await world.deliver()
    table = await world.table()
    if bura_match(state_of(table).match).to_act() != 1:  # Anna first: she moves, and the computer is to act
        actor, button = a_legal_play(table)
        assert actor == ANNA
        await world.tables.game.tap(button, ANNA, update_id=4)
        table = await world.table()
    assert bura_match(state_of(table).match).to_act() == 1
    [timer] = await world.storage.timers_due_by(world.time.now + 1.0 * SCALE)
    assert timer.table_id == table.table_id
