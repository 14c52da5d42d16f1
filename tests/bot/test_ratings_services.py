"""Ratings through the services: a match's end commits its people's ratings with its last move and tells their
changes with the result; a game against the computer is not rated; /rating and /top read them."""

from __future__ import annotations

from bot.games.bura.settings import MatchChoice
from bot.i18n import Translations
from bot.services.ratings import points
from bot.storage import Table, TableStatus
from bot.table_settings import TableSettings
from bot.telegram.callbacks import LobbyOp
from engine.bura.match import Match
from tests.bot.test_play_alone import _first_deal_played
from tests.bot.test_services import ANNA, BORIS, GROUP, World, started, tap, world
from tests.e2e.players import find_seed

__all__ = ["world"]


async def play_to_the_end(world: World, table: Table) -> Table:
    """Every move the cheapest legal one (the timer's), through `GameService.commit_move`, to the match's end."""
    game = world.tables.game
    for _ in range(500):
        async with world.tables.core.live.table(table.table_id) as held:
            current, state = held.table, held.state
            assert current is not None and state is not None
            seat = state.match.to_act()
            assert seat is not None
            action = state.game.auto_action(state.match, seat)
            assert action is not None
            before = state.game.before(state.match)
            events = state.game.play(state.match, (action,))
            await game.commit_move(current, state, events, before)
            if state.match.finished:
                break
    finished = await world.storage.get_table(table.table_id)
    assert finished is not None and finished.status is TableStatus.FINISHED
    return finished


async def a_one_deal_match(world: World) -> Table:
    """Anna and Boris at a match of one deal that is not over as it is dealt."""
    settings = TableSettings(options={"match": MatchChoice.SINGLE_DEAL})

    def goes_on(match: Match) -> bool:
        return not match.finished

    world.tables.core.test_seed = find_seed(settings, 2, goes_on, prefix="rated")
    await world.storage.upsert_chat(GROUP, language="ru")
    await world.storage.set_chat_settings(GROUP, {"match": MatchChoice.SINGLE_DEAL.value})
    await started(world, ANNA, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    await tap(world, LobbyOp.JOIN, BORIS, update_id=2)
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=3)).alert
    return await world.table()


async def test_a_finished_match_commits_the_ratings_and_tells_their_changes(world: World) -> None:
    table = await a_one_deal_match(world)
    await play_to_the_end(world, table)
    changes = await world.storage.rating_changes(table.table_id)
    assert [c.user_id for c in changes] == [ANNA.user_id, BORIS.user_id]
    assert {c.before for c in changes} == {1000} and {c.game for c in changes} == {"bura"}
    ratings = await world.storage.ratings_of("bura", [ANNA.user_id, BORIS.user_id])
    for change in changes:
        rating = ratings[change.user_id]
        assert rating.matches == 1 and points(rating.mu, rating.sigma) == change.after
    await world.deliver()
    result = next(text for text in world.api.texts(GROUP) if "📈 Рейтинг:" in text)
    for change in changes:
        delta = change.after - change.before
        shown = f"+{delta}" if delta > 0 else f"−{-delta}" if delta < 0 else "±0"
        name = "Аня &lt;3" if change.user_id == ANNA.user_id else "Борис"
        assert f"{name} {change.after} ({shown})" in result, result
    assert "матч" in result.lower()  # the line ends the match's result, with «Ещё матч» under it
    sent = next(call for call in world.api.to(GROUP) if "📈 Рейтинг:" in str(call.payload.get("text")))
    assert "reply_markup" in sent.payload


async def test_a_game_against_the_computer_is_not_rated(world: World) -> None:
    await world.storage.upsert_chat(ANNA.user_id)
    await world.storage.set_chat_settings(ANNA.user_id, {"options": {"match": "one"}})
    table = await _first_deal_played(world)
    finished = await world.storage.get_table(table.table_id)
    assert finished is not None and finished.status is TableStatus.FINISHED
    assert await world.storage.rating_changes(table.table_id) == []
    assert await world.storage.user_ratings(ANNA.user_id) == []
    assert not any("Рейтинг" in text for text in world.api.texts(ANNA.user_id))


async def test_rating_and_top_read_the_ratings(world: World) -> None:
    table = await a_one_deal_match(world)
    await play_to_the_end(world, table)
    stats = world.tables.stats
    ru = Translations().get("ru")
    mine = await stats.group_rating(GROUP, ANNA.user_id, ANNA.name, None)
    assert mine.startswith("📈 Аня &lt;3 — рейтинг"), mine
    assert "место в чате из 2" in mine and "из 2 всего" in mine and "1 матч" in mine
    assert "Ваш рейтинг не виден в общем топе" in mine
    top = await stats.top(GROUP)
    assert top.startswith("🏆 Лучшие игроки чата по рейтингу"), top
    assert "1. " in top and "2. " in top
    assert "Общий рейтинг" not in await stats.overall_top(ru)
    assert await stats.private_rating(ANNA.user_id, ANNA.name, ru, "public") == (
        "Готово: ваш рейтинг теперь виден в общем топе."
    )
    overall = await stats.overall_top(ru)
    assert "Общий рейтинг" in overall and "Аня &lt;3" in overall and "Борис" not in overall
    assert "Ваш рейтинг виден в общем топе" in await stats.private_rating(ANNA.user_id, ANNA.name, ru, None)
    await stats.private_rating(ANNA.user_id, ANNA.name, ru, "private")
    assert "Аня" not in await stats.overall_top(ru)
    assert await stats.private_rating(3, "Вика", ru, None) == ru.t("ratings-none")
