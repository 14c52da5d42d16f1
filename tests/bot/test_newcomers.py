"""Issue 37: what a newcomer meets — the host who never opened the private chat, /rules, the private chat's
commands, «Ещё матч», a game named in /new. The table service on a real SQLite storage (tests/bot/test_services)."""

from __future__ import annotations

import pytest

from bot.games.bura.buttons import HandOp
from bot.games.bura.settings import MatchChoice
from bot.i18n import Translations
from bot.services import Actor, Reply
from bot.services.guide import help_text
from bot.services.invites import invite_payload
from bot.storage import OutboxKind, Seat, StatsDelta, Table, TableStatus
from bot.table_settings import TableSettings
from bot.telegram.callbacks import HandCb, LobbyOp, RematchCb
from engine.bura.actions import DeclareCombo
from engine.bura.match import Match
from tests.bot.test_services import (
    ANNA,
    BORIS,
    BOT,
    GROUP,
    VIKA,
    World,
    a_legal_play,
    member,
    playing_table,
    started,
    state_of,
    tap,
    user_of,
    world,
)
from tests.e2e.players import find_seed
from tests.matches import bura_match

__all__ = ["world"]  # the fixture


# -- the host who never opened the private chat ----------------------------------------------------------------


async def test_the_host_who_never_opened_the_private_chat_is_sent_there_and_the_group_told_once(world: World) -> None:
    """Dima added the bot and sent /new without ever opening its private chat: «Начать» said «Не могу прислать
    карты: Дима» in an alert with no button. Now the tap opens his private chat (the table's invitation); his
    /start there says the table waits, and the group hears quietly, once, that he is ready."""
    await started(world, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)  # Anna never started the bot
    await tap(world, LobbyOp.JOIN, BORIS, update_id=2)
    table = await world.table()
    link = f"https://t.me/{BOT}?start={invite_payload(world.tables.core.invite_key, table.table_id)}"
    refused = await tap(world, LobbyOp.START, ANNA, update_id=3)
    assert refused.url == link
    await world.deliver()
    assert not any("не могу прислать вам карты" in text for text in world.api.texts(GROUP))  # nobody else to wait for
    assert (await world.table()).status is TableStatus.LOBBY

    payload = link.split("?start=", 1)[1]
    reply = await world.tables.rejoin.join_from_link(payload, ANNA, is_member=member(True), update_id=4)
    assert reply.text is not None and "Вас ждут за столом" in reply.text
    again = await world.tables.rejoin.join_from_link(payload, ANNA, is_member=member(True), update_id=5)
    assert again.text is not None and "уже за столом" in again.text
    await world.deliver()
    ready = [call for call in world.api.to(GROUP) if "получит карты" in str(call.payload.get("text"))]
    assert len(ready) == 1 and ready[0].payload.get("disable_notification") is True
    assert "Аня &lt;3" in str(ready[0].payload["text"])
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=6)).alert
    assert (await world.table()).status is TableStatus.PLAYING


async def test_a_player_ready_while_another_is_not_is_no_signal_to_start(world: World) -> None:
    """Anna (the host) never opened the private chat, and Boris blocked the bot after he joined: when Anna opens
    it, the group hears she is ready, and that Boris still has to (a «можно начинать» then would only bring
    another refusal); when he is back, the table may start."""
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    table = await world.table()
    payload = invite_payload(world.tables.core.invite_key, table.table_id)
    await world.tables.rejoin.join_from_link(payload, BORIS, is_member=member(True), update_id=2)
    await world.storage.set_user_blocked(BORIS.user_id)
    await world.tables.rejoin.start_private(ANNA, update_id=3)
    await world.deliver()
    [first] = [text for text in world.api.texts(GROUP) if "получит карты" in text]
    assert first == "✅ Теперь Аня &lt;3 получит карты. Ещё нужно открыть личный чат с ботом: Борис."
    await world.tables.rejoin.start_private(BORIS, update_id=4)
    await world.deliver()
    *_, second = [text for text in world.api.texts(GROUP) if "получит карты" in text]
    assert second == "✅ Теперь Борис получит карты — можно начинать."


async def test_the_others_who_cannot_be_reached_get_one_quiet_group_message_with_the_link(world: World) -> None:
    await started(world, ANNA)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    table = await world.table()
    payload = invite_payload(world.tables.core.invite_key, table.table_id)
    await world.tables.rejoin.join_from_link(payload, BORIS, is_member=member(True), update_id=2)
    await world.storage.set_user_blocked(BORIS.user_id)  # he blocked the bot since
    refused = await tap(world, LobbyOp.START, ANNA, update_id=3)
    assert refused.alert and refused.text is not None and "Борис" in refused.text and refused.url is None
    await world.deliver()
    [told] = [call for call in world.api.to(GROUP) if call.kind is OutboxKind.SEND and "Борис" in str(call.payload)]
    assert told.payload.get("disable_notification") is True
    [[button]] = told.payload["reply_markup"]["inline_keyboard"]
    assert button["url"] == f"https://t.me/{BOT}?start={payload}"


async def test_a_plain_start_tells_a_seated_player_that_his_table_waits(world: World) -> None:
    """He found the bot another way (the group greeting's button): /start without the invitation still tells him
    of the table, and the group hears he is ready; a second /start is a plain greeting again."""
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    waits = await world.tables.rejoin.start_private(ANNA, update_id=2)
    assert waits.text is not None and "Вас ждут за столом" in waits.text
    assert (await world.tables.rejoin.start_private(ANNA, update_id=3)).text is None
    assert (await world.tables.rejoin.start_private(VIKA, update_id=4)).text is None  # seated nowhere
    await world.deliver()
    assert sum("получит карты" in text for text in world.api.texts(GROUP)) == 1


# -- help per game --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("ru", ["0; 31 и больше — 2; меньше 31 — 4; ни одной взятки — 6", "Втроём — 21 вместо 31", "вдвое", "12"]),
        ("en", ["most points — 0; 31 or more — 2; fewer than 31 — 4; no trick at all — 6", "doubled", "12"]),
    ],
)
def test_burkozel_help_explains_the_penalties_the_group_sees(language: str, expected: list[str]) -> None:
    """The group saw «Штрафные (до 12): …» after each deal, and /help never said where they came from."""
    tr = Translations().get(language)
    told = help_text(TableSettings(profile="bk", language=language), tr)
    assert all(part in told for part in expected), told


@pytest.mark.parametrize(
    ("profile", "expected"),
    [
        ("bura", "11 побед, опережая остальных хотя бы на 2"),
        ("kozel", "ставят в банк по 1 фишке"),
        ("b5", "11 побед"),
    ],
)
def test_every_bura_game_says_how_the_match_is_counted(profile: str, expected: str) -> None:
    told = help_text(TableSettings(profile=profile, language="ru"), Translations().get("ru"))
    assert "Счёт: " in told and expected in told, told


# -- which game: /new <game>, /rules, the private chat's /stats ----------------------------------------------


@pytest.mark.parametrize(
    ("name", "profile"),
    [
        ("бурако", "buraco"),
        ("Buraco", "buraco"),
        ("буркозёл", "bk"),
        ("Буркозел", "bk"),
        ("burkozel", "bk"),
        ("бура", "bura"),
        ("Козёл на фишки", "kozel"),
        ("kozel for points", "kp"),
        ("b5", "b5"),
        ("шахматы", None),
    ],
)
async def test_a_game_is_found_by_its_name_in_either_language(world: World, name: str, profile: str | None) -> None:
    assert world.tables.guide.game_named(name) == profile


async def test_new_with_a_game_opens_that_games_lobby_and_keeps_it_for_the_chat(world: World) -> None:
    """«Бурако» was the 8th choice under ⚙️: /new бурако opens its lobby at once."""
    await world.tables.lobby.open(GROUP, ANNA, update_id=1, profile="buraco")
    table = await world.table()
    assert table.settings["profile"] == "buraco"
    assert (await world.tables.core.chat_settings(GROUP)).profile == "buraco"
    await world.deliver()
    assert "Бурако" in world.api.texts(GROUP)[-1]
    assert "Бурако" in await world.tables.guide.rules(GROUP)  # /rules: the table's game


async def test_rules_tell_the_chats_game_or_the_one_asked_for(world: World) -> None:
    ru, en = Translations().get("ru"), Translations().get("en")
    assert (await world.tables.guide.rules(GROUP)).startswith("<b>Бура</b>")
    assert "Штрафные после сдачи" in await world.tables.guide.rules(GROUP, ru, "bk")
    assert (await world.tables.guide.rules(ANNA.user_id, en, "buraco")).startswith("<b>Buraco</b>")
    assert "/new" not in await world.tables.guide.rules(GROUP)  # the rules alone, not /help's commands


async def test_stats_in_private_sum_the_players_tallies_across_his_groups(world: World) -> None:
    for chat, won in ((GROUP, 2), (GROUP - 1, 3)):
        table = await world.storage.create_table(chat, creator_id=ANNA.user_id, settings={})
        counts = {"deals_won": won, "deals_played": 4, "matches_won": 1, "matches_played": 1}
        await world.storage.commit_move(
            table.table_id, 0, None, stats=[StatsDelta(chat_id=chat, user_id=ANNA.user_id, game="bura", counts=counts)]
        )
    told = await world.tables.stats.everywhere(ANNA.user_id, ANNA.name, Translations().get("ru"))
    assert told.splitlines()[0] == "📊 Аня &lt;3 — во всех чатах"
    assert "матчи: 2 из 2" in told and "сдачи: 5 из 8" in told, told
    nothing = await world.tables.stats.everywhere(BORIS.user_id, BORIS.name, Translations().get("en"))
    assert nothing.startswith("You have not played anywhere yet.")


# -- after a match: /score, «Ещё матч», no dead buttons --------------------------------------------------------


async def a_finished_match(world: World) -> Table:
    """Anna and Boris play a one-deal match that a false claim ends at once; every message delivered."""
    settings = TableSettings(options={"match": MatchChoice.SINGLE_DEAL})
    world.tables.core.test_seed = find_seed(settings, 2, lambda match: not match.finished, prefix="rematch")
    await world.storage.upsert_chat(GROUP, language="ru")
    await world.storage.set_chat_settings(GROUP, {"match": MatchChoice.SINGLE_DEAL.value})
    table = await playing_table(world)
    seat = bura_match(state_of(table).match).to_act()
    assert seat is not None
    claim = HandCb(table=table.table_id, move=table.version, op=HandOp.CLAIM)
    assert await world.tables.game.tap(claim, user_of(table, seat), update_id=10) == Reply()
    await world.deliver()
    finished = await world.storage.get_table(table.table_id)
    assert finished is not None and finished.status is TableStatus.FINISHED
    return finished


def rematch_button(world: World) -> RematchCb:
    marked = [call for call in world.api.to(GROUP) if "reply_markup" in call.payload and call.kind is OutboxKind.SEND]
    [[replay], [found]] = marked[-1].payload["reply_markup"]["inline_keyboard"]
    assert replay["text"] == "🔎 Как это было", "the last deal's replay, above the rematch"
    assert found["text"] == "🔁 Ещё матч"
    return RematchCb.unpack(found["callback_data"])


async def test_a_finished_match_leaves_no_buttons_in_the_hands_and_score_tells_its_result(world: World) -> None:
    """The hand kept its card buttons after «Матч окончен.», and /score said nobody plays."""
    table = await a_finished_match(world)
    for user in (ANNA, BORIS):
        hand = world.api.to(user.user_id)[-1]
        assert "Матч окончен." in str(hand.payload["text"])
        assert "reply_markup" not in hand.payload, hand.payload
    assert rematch_button(world).table == table.table_id  # under the group's result
    score = await world.tables.game.score(GROUP)
    assert score.startswith("🏁 Сейчас здесь не играют. Последний матч окончен:")
    assert "Аня &lt;3" in score and "Борис" in score and score.endswith("Новый стол: /new")


async def rematch(world: World, actor: Actor, table_id: int, update_id: int, is_member: bool = True) -> Reply:
    return await world.tables.rejoin.rematch(
        table_id, GROUP, actor, is_member=member(is_member), bot_username=BOT, update_id=update_id
    )


async def test_another_match_seats_the_same_players_each_by_his_own_tap(world: World) -> None:
    old = await a_finished_match(world)
    pressed = rematch_button(world).table
    assert (await rematch(world, VIKA, pressed, 20)).alert  # not a player of that match
    assert (await rematch(world, BORIS, pressed, 21, is_member=False)).alert  # left the group since
    assert await world.storage.get_open_table(GROUP) is None
    opened = await rematch(world, BORIS, pressed, 22)
    assert opened.text is not None and not opened.alert
    lobby = await world.table()
    assert (lobby.status, lobby.creator_id, [s.user_id for s in lobby.seats]) == (
        TableStatus.LOBBY,
        BORIS.user_id,
        [BORIS.user_id],
    )
    assert lobby.settings["options"] == {"match": MatchChoice.SINGLE_DEAL.value}  # the same settings
    assert (await rematch(world, ANNA, old.table_id + 100, 23)).alert  # forged
    # Issue 38: the last of the match's players back, it starts by itself.
    assert (await rematch(world, ANNA, pressed, 24)).text == "Все снова за столом — новый матч начался."
    started = await world.table()
    assert started.status is TableStatus.PLAYING
    assert [s.user_id for s in started.seats] == [BORIS.user_id, ANNA.user_id]
    assert (await rematch(world, ANNA, pressed, 25)).alert, "a game in progress: the button has done its work"


async def test_another_match_seats_the_computers_at_once_and_an_old_button_is_refused(world: World) -> None:
    await started(world, ANNA)
    seats = [Seat(seat=0, user_id=ANNA.user_id, name=ANNA.name), Seat(seat=1, user_id=None, name="🤖 Компьютер")]
    first = await world.storage.create_table(GROUP, ANNA.user_id, {}, seats)
    await world.storage.commit_move(first.table_id, first.version, '{"over": 1}', status=TableStatus.FINISHED)
    second = await world.storage.create_table(GROUP, ANNA.user_id, {}, seats)
    await world.storage.commit_move(second.table_id, second.version, '{"over": 2}', status=TableStatus.FINISHED)
    assert (await rematch(world, ANNA, first.table_id, 1)).alert  # an older match's button
    assert not (await rematch(world, ANNA, second.table_id, 2)).alert
    # Anna alone with a computer: nobody else to wait for, the match starts at once (issue 38).
    table = await world.table()
    assert table.status is TableStatus.PLAYING
    assert [(s.user_id, s.name) for s in table.seats] == [(ANNA.user_id, ANNA.name), (None, "🤖 Компьютер")]


# -- the hand says why the deal ended; a tap made stale by a call says so ------------------------------------


async def test_a_tap_made_stale_by_an_opponents_stop_says_who_took_the_lead(world: World) -> None:
    """Борис's «Стоп!» got in before Аня's lead: her tap said only «Эта кнопка устарела: стол уже изменился.»"""

    def stop_possible(match: Match) -> bool:
        leader = match.to_act()
        return any(isinstance(a, DeclareCombo) for s in range(2) if s != leader for a in match.legal_actions(s))

    world.tables.core.test_seed = find_seed(TableSettings(), 2, stop_possible, prefix="stale-stop")
    table = await playing_table(world)
    state = state_of(table)
    match = bura_match(state.match)
    leader, lead = a_legal_play(table)
    caller_seat = next(s for s in range(2) if any(isinstance(a, DeclareCombo) for a in match.legal_actions(s)))
    caller = user_of(table, caller_seat)
    assert caller is not leader
    stop = HandCb(table=table.table_id, move=state.shown_move(caller_seat, table.version), op=HandOp.COMBO, cards="")
    assert await world.tables.game.tap(stop, caller, update_id=10) == Reply()
    late = await world.tables.game.tap(lead, leader, update_id=11)
    name = "Аня <3" if caller is ANNA else "Борис"
    assert late == Reply(f"Поздно: {name} говорит «Стоп!» и забирает ход.", alert=True)
    await world.deliver()
    told = str(world.api.to(leader.user_id)[-1].payload["text"])
    assert "«Стоп!» — молодка" in told  # his hand tells it too
