"""The chat's history through the services (issue 38): the match-end commit records the result, /history reads
the chat's last matches with their rating changes, and «Как это было» sends a deal to the one who played it."""

from __future__ import annotations

from bot.games.base import ended_deal
from bot.games.registry import game_named
from bot.i18n import Translations
from bot.services.history import MESSAGE_MOST, ago, history_text
from bot.services.replays import replay_texts
from bot.services.state import seat_names
from bot.storage import JsonObject, MatchRecord, OutboxKind, RatingChange, Seat, Table
from bot.table_settings import TableSettings
from bot.telegram.callbacks import ReplayCb
from tests.bot.test_play_alone import _first_deal_played
from tests.bot.test_ratings_services import a_one_deal_match, play_to_the_end
from tests.bot.test_services import ANNA, BORIS, GROUP, VIKA, World, admin, playing_table, world

__all__ = ["world"]

RU = Translations().get("ru")
EN = Translations().get("en")


async def test_a_finished_match_is_in_the_history_with_its_winner_score_and_rating_changes(world: World) -> None:
    table = await a_one_deal_match(world)
    finished = await play_to_the_end(world, table)
    [record] = await world.storage.match_history(GROUP, 10)
    assert record.table_id == finished.table_id
    assert record.result["over"] is True and record.result["game"] == "bura" and record.result["deals"] == 1
    text = await world.tables.history.history(GROUP)
    lines = text.split("\n")
    assert lines[0] == "📜 <b>Последние матчи</b>"
    assert lines[2].startswith("<b>1.</b> Бура") and lines[2].endswith("только что"), lines
    places = record.result["places"]
    if places == [1, 1]:
        assert lines[3] == "🤝 Ничья"
    else:
        assert lines[3] == f"🏆 {'Аня &lt;3' if places == [1, 2] else 'Борис'}"
    changes = await world.storage.rating_changes(table.table_id)
    assert lines[5].startswith("📈 Рейтинг: ") and all(str(change.after) in lines[5] for change in changes)
    world.time.now += 3 * 3600
    assert (await world.tables.history.history(GROUP)).split("\n")[2].endswith("3 ч назад")


async def test_a_stopped_match_is_in_the_history_as_stopped_and_unrated(world: World) -> None:
    table = await playing_table(world)
    await world.tables.game.stop(GROUP, ANNA, is_admin=admin(False), update_id=10)
    [record] = await world.storage.match_history(GROUP, 10)
    assert record.table_id == table.table_id and record.result["over"] is False and record.changes == ()
    lines = (await world.tables.history.history(GROUP)).split("\n")
    assert lines[3] == "⏹ Остановлен на 1-й сдаче"
    assert "Аня &lt;3" in lines[4] and "Борис" in lines[4], "the score names both"


async def test_a_lobby_never_dealt_is_not_a_match(world: World) -> None:
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    await world.tables.game.stop(GROUP, ANNA, is_admin=admin(False), update_id=2)
    assert await world.storage.match_history(GROUP, 10) == []
    assert await world.tables.history.history(GROUP) == RU.t("history-empty")


async def test_history_in_a_private_chat_lists_the_games_against_the_computer(world: World) -> None:
    await _first_deal_played(world)
    await world.tables.game.stop(ANNA.user_id, ANNA, is_admin=admin(False), update_id=50)
    text = await world.tables.history.history(ANNA.user_id)
    assert "⏹" in text and "Бура" in text


def record(number: int, names: tuple[str, str], result: JsonObject, at: float = 0.0) -> MatchRecord:
    seats = tuple(Seat(seat=seat, user_id=seat + 1, name=name) for seat, name in enumerate(names))
    return MatchRecord(table_id=number, seats=seats, finished_at=at, result=result)


BURA_SUMMARY: JsonObject = {"teams": False, "scores": [11, 6], "wins": [11, 6], "pot": 0, "out": []}
BURA_OVER: JsonObject = {
    "game": "bura",
    "settings": {},
    "deals": 7,
    "over": True,
    "summary": BURA_SUMMARY,
    "sides": [[0], [1]],
    "places": [1, 2],
}


def test_history_reads_the_result_as_the_game_summarised_it_in_english() -> None:
    change = RatingChange(table_id=1, chat_id=GROUP, user_id=2, game="bura", before=1000, after=964, at=0.0)
    entry = record(1, ("Anna", "Boris"), BURA_OVER).model_copy(update={"changes": (change,)})
    text = history_text([entry], 2 * 86400, EN)
    assert text.split("\n") == [
        "📜 <b>Last matches</b>",
        "",
        f"<b>1.</b> {EN.t('tally-separator').join(game_named('bura').rules_parts(TableSettings(), EN))} · 2 days ago",
        "🏆 Anna",
        game_named("bura").summary_text(BURA_SUMMARY, {0: "Anna", 1: "Boris"}, TableSettings(), EN),
        "📈 Rating: Boris 964 (−36)",
    ]


def test_a_partnership_wins_as_a_pair_and_a_tie_is_a_draw() -> None:
    buraco = {
        "game": "buraco",
        "settings": {"profile": "buraco"},
        "deals": 3,
        "over": True,
        "summary": {"totals": [3120, 2200]},
        "sides": [[0, 2], [1, 3]],
        "places": [1, 2],
    }
    seats = tuple(Seat(seat=s, user_id=s + 1, name=n) for s, n in enumerate(("Аня", "Борис", "Вика", "Гена")))
    text = history_text([MatchRecord(table_id=1, seats=seats, finished_at=0.0, result=buraco)], 0.0, RU)
    assert "🏆 Аня и Вика" in text and "3120" in text and "2200" in text
    tied = {**BURA_OVER, "places": [1, 1]}
    assert "🤝 Ничья" in history_text([record(1, ("Аня", "Борис"), tied)], 0.0, RU)


def test_history_leaves_out_the_oldest_matches_that_would_not_fit_one_message_and_games_it_does_not_host() -> None:
    long = "Я" * 60
    records = [record(number, (long + str(number), long), BURA_OVER) for number in range(1, 80)]
    text = history_text(records, 0.0, RU)
    assert len(text) <= MESSAGE_MOST
    assert "<b>1.</b>" in text and "<b>79.</b>" not in text
    gone = record(1, ("Аня", "Борис"), {**BURA_OVER, "game": "poker"})
    assert history_text([gone], 0.0, RU) == RU.t("history-title"), "a game this bot no longer hosts is skipped"


def test_ago_speaks_minutes_hours_and_days_with_russian_plurals() -> None:
    assert [ago(seconds, RU) for seconds in (5, 120, 7200, 86400, 3 * 86400, 5 * 86400, 21 * 86400)] == [
        "только что",
        "2 мин назад",
        "2 ч назад",
        "1 день назад",
        "3 дня назад",
        "5 дней назад",
        "21 день назад",
    ]


# -- «Как это было» -------------------------------------------------------------------------------------------


def replay_button(world: World) -> ReplayCb:
    """The last «🔎 Как это было» the group was sent, under a deal's result."""
    for call in reversed(world.api.to(GROUP)):
        rows = call.payload.get("reply_markup", {}).get("inline_keyboard", []) if call.kind is OutboxKind.SEND else []
        for row in rows:
            for found in row:
                if found["text"] == "🔎 Как это было":
                    return ReplayCb.unpack(found["callback_data"])
    raise AssertionError("no «Как это было» in the group")


async def finished_one_deal(world: World) -> Table:
    table = await a_one_deal_match(world)
    finished = await play_to_the_end(world, table)
    await world.deliver()
    return finished


async def test_the_deals_result_carries_how_it_went_and_a_player_gets_his_own_view_in_private(world: World) -> None:
    table = await finished_one_deal(world)
    button = replay_button(world)
    assert (button.table, button.deal) == (table.table_id, 1)
    before = len(world.api.to(ANNA.user_id))
    reply = await world.tables.replays.button(button.table, button.deal, GROUP, ANNA, update_id=100)
    assert reply.text == "Отправил сдачу 1 в личный чат." and not reply.alert
    await world.deliver()
    sent = world.api.to(ANNA.user_id)[before:]
    assert table.state is not None
    expected = replay_texts(table.state, 1, 0, seat_names(table.seats), RU)
    assert expected and [call.payload["text"] for call in sent] == expected
    assert all(call.payload.get("disable_notification") for call in sent), "asked for: no ring"
    # The same tap delivered again sends nothing twice.
    await world.tables.replays.button(button.table, button.deal, GROUP, ANNA, update_id=100)
    await world.deliver()
    assert len(world.api.to(ANNA.user_id)) == before + len(sent)


async def test_how_it_went_is_refused_to_a_stranger_and_to_a_button_of_another_chat(world: World) -> None:
    table = await finished_one_deal(world)
    await world.storage.upsert_user(VIKA.user_id, VIKA.name, language="en")
    pending = await world.pending()
    stranger = await world.tables.replays.button(table.table_id, 1, GROUP, VIKA, update_id=101)
    assert stranger.alert and stranger.text == EN.t("replay-not-yours")
    forged = await world.tables.replays.button(table.table_id, 1, GROUP - 1, ANNA, update_id=102)
    assert forged.alert and forged.text == RU.t("flow-stale-button")
    later = await world.tables.replays.button(table.table_id, 2, GROUP, ANNA, update_id=103)
    assert later.alert and later.text == RU.t("replay-not-over", deal=2)
    assert await world.pending() == pending, "nothing queued"


async def test_replay_in_the_private_chat_sends_the_last_deal_over_or_the_one_asked_for(world: World) -> None:
    table = await _first_deal_played(world)
    before = len(world.api.to(ANNA.user_id))
    assert await world.tables.replays.command(ANNA.user_id, ANNA, "", update_id=60) is None
    await world.deliver()
    current = await world.storage.get_table(table.table_id)
    assert current is not None and current.state is not None
    expected = replay_texts(current.state, 1, 0, seat_names(current.seats), RU)
    assert [call.payload["text"] for call in world.api.to(ANNA.user_id)[before:]] == expected
    assert await world.tables.replays.command(ANNA.user_id, ANNA, "9", update_id=61) == RU.t("replay-unknown", count=1)
    assert await world.tables.replays.command(ANNA.user_id, ANNA, "²", update_id=62) == RU.t("replay-unknown", count=1)
    assert await world.tables.replays.command(BORIS.user_id, BORIS, "", update_id=63) == RU.t("replay-no-table")


def test_ended_deal_is_the_deal_a_moves_announcements_end() -> None:
    game = game_named("bura")
    match = game.new_match(TableSettings(), 2, "ended")
    assert ended_deal(game, match, None) is None, "the start ended no deal"
    before = game.before(match)
    while game.deal_number(match) == 1 and not match.finished:
        seat = match.to_act()
        assert seat is not None
        before = game.before(match)
        game.play(match, (game.auto_action(match, seat),))
        if game.deal_number(match) == 1 and not match.finished:
            assert ended_deal(game, match, before) is None, "a trick ends no deal"
    assert ended_deal(game, match, before) == 1
