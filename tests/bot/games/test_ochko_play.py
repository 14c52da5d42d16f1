"""Очко against the computer (/play in the private chat), through the services: the chat is the table and the hand,
each move's news is told above the table, and the session ends in one last word with the standings once and a
button for another game."""

from __future__ import annotations

from bot.services.computer import COMPUTER_SECONDS
from bot.storage import TableStatus
from bot.table_settings import TableSettings
from bot.telegram.callbacks import HandCb, LobbyOp, PlayCb
from tests.bot.test_services import ANNA, BORIS, GROUP, World, started, state_of, tap, world
from tests.matches import ochko_match
from tests.ochko import button_of, scripted

__all__ = ["world"]


async def test_a_session_against_the_computer_ends_with_the_standings_once(world: World) -> None:
    await world.storage.upsert_chat(ANNA.user_id)
    # «Стук» before any round: the easy computer bets the minimum, so a bank of Anna's would take hundreds of
    # rounds to grow tenfold; she knocks at once instead.
    await world.storage.set_chat_settings(ANNA.user_id, {"profile": "ochko", "options": {"knock": "any_round"}})
    assert not (await world.tables.lobby.play_alone(ANNA, None, update_id=1)).alert
    table = await world.storage.get_open_table(ANNA.user_id)
    assert table is not None
    await world.deliver()
    for _ in range(400):
        now = await world.storage.get_table(table.table_id)
        assert now is not None
        match = ochko_match(state_of(now).match)
        if match.finished:
            break
        if match.to_act() == 0:
            pressed = button_of(scripted(match, 0))
            data = HandCb(table=now.table_id, move=now.version, op=pressed.op, cards=pressed.payload())
            reply = await world.tables.game.tap(data, ANNA)
            assert not reply.alert, reply
        else:
            world.time.now += COMPUTER_SECONDS
            assert await world.tables.timers.fire_due() == 1
        await world.deliver()
    else:
        raise AssertionError("the session did not end")
    last = world.api.to(ANNA.user_id)[-1]
    text = str(last.payload["text"])
    assert text.count("Итог по фишкам:") == 1 and text.count("1. ") == 1, text
    assert last.payload["reply_markup"] == {
        "inline_keyboard": [[{"text": "🔁 Сыграть ещё", "callback_data": PlayCb().pack()}]]
    }


async def test_three_timeouts_in_a_row_take_the_player_off_the_table(world: World) -> None:
    """Where no computer takes an absent player's seat, Очко's forfeit is leaving the table (RULES §20.14 items
    7, 13): the group is told in the game's words, not that he «loses the deal», and his chips stay."""
    settings = TableSettings(profile="ochko", computer_takeover=False).model_dump(mode="json", exclude={"language"})
    await world.storage.set_chat_settings(GROUP, settings)
    await started(world, ANNA, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    await tap(world, LobbyOp.JOIN, BORIS, update_id=2)
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=3)).alert
    table_id = (await world.table()).table_id
    for _ in range(20):  # nobody answers: every move is the timer's
        found = await world.storage.get_table(table_id)
        assert found is not None
        table = found
        if table.status is not TableStatus.PLAYING:
            break
        await world.deliver()  # a move timer counts from when the hand is shown
        world.time.now += state_of(table).settings.seconds() + 1
        assert await world.tables.timers.fire_due() == 1
    await world.deliver()
    match = ochko_match(state_of(table).match)
    assert match.finished and not all(match.present), "one of them left; the other has nobody to play against"
    texts = world.api.texts(GROUP)
    assert any(text.endswith(": три хода подряд без ответа.") for text in texts), texts
    assert any("выходит из-за стола; фишки остаются в итогах" in text for text in texts), texts
    assert not any("проигрывает сдачу" in text for text in texts)
    assert sum(match.chips) == 200
