"""The move timer's defaults (issue 37): a game declares its own (a Buraco turn is a draw, melds and a discard:
two minutes), and /play against the computer runs none unless the player chose one."""

from __future__ import annotations

import pytest

from bot.games.base import move_seconds
from bot.games.buraco.game import BURACO
from bot.games.registry import game_for
from bot.i18n import Translations
from bot.render.lobby import menu_row, rules_text
from bot.services.settings_menu import game_terms
from bot.services.state import TableState
from bot.table_settings import TIMER_KEY, TableSettings
from engine.buraco.match import Match
from tests.bot.test_services import ANNA, World, state_of, world

__all__ = ["world"]


@pytest.mark.parametrize(
    ("profile", "seconds", "said"), [("buraco", 120, "2 мин на ход"), ("bura", 60, "1 мин на ход")]
)
def test_a_table_that_never_chose_has_its_games_timer(profile: str, seconds: int, said: str) -> None:
    tr = Translations().get("ru")
    settings = TableSettings(profile=profile)
    assert move_seconds(game_for(settings), settings) == seconds
    terms = game_terms(settings, tr)
    row = menu_row(terms, TIMER_KEY)
    assert row is not None and row.current == str(seconds)
    assert [r.key for r in terms.menu].count(TIMER_KEY) == 1  # the game's default is no row of its own
    assert said in rules_text(settings, terms, tr)
    chosen = settings.with_code(TIMER_KEY, "30")
    assert move_seconds(game_for(chosen), chosen) == 30 and menu_row(game_terms(chosen, tr), TIMER_KEY) == row._replace(
        current="30"
    )


def test_a_buraco_turn_is_timed_by_the_games_default() -> None:
    state = TableState(match=Match(seed="t", first_dealer=3), settings=TableSettings(), title="T", game=BURACO)
    assert state.move_seconds() == 120
    assert TableSettings.model_validate({"move_seconds": 60}).seconds(120) == 60  # a stored choice stands


async def test_play_runs_no_timer_against_the_computer(world: World) -> None:
    await world.tables.lobby.play_alone(ANNA, None, update_id=1)
    table = await world.storage.get_open_table(ANNA.user_id)
    assert table is not None
    state = state_of(table)
    assert state.settings.move_seconds == 0 and state.move_seconds() is None
    world.time.now += 3600
    assert await world.tables.timers.fire_due() == 0
    await world.deliver()
    assert not any("⏳" in text for text in world.api.texts(ANNA.user_id))
