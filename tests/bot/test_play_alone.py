"""/play against the computer (issue 37, 6): a deal's result stays in the hand until the player plays on, and the
match ends in one last word with no card to tap and a button for another game."""

from __future__ import annotations

from bot.games.bura.buttons import HandOp, pack_cards
from bot.storage import Table
from bot.telegram.callbacks import HandCb, PlayCb
from tests.bot.test_computer import _anna_moves, _play_first_deal
from tests.bot.test_services import ANNA, World, state_of, world
from tests.matches import bura_match

__all__ = ["world"]


async def _first_deal_played(world: World) -> Table:
    """/play, and its first deal played to its end (Anna's taps and the computer's timer)."""
    await world.tables.lobby.play_alone(ANNA, None, update_id=1)
    table = await world.storage.get_open_table(ANNA.user_id)
    assert table is not None
    await world.deliver()
    await _play_first_deal(world, table.table_id, ANNA.user_id)
    await world.deliver()
    return table


async def _to_annas_turn(world: World, table_id: int) -> None:
    from bot.services.computer import COMPUTER_SECONDS

    table = await world.storage.get_table(table_id)
    assert table is not None
    if bura_match(state_of(table).match).to_act() != 0:
        world.time.now += COMPUTER_SECONDS
        assert await world.tables.timers.fire_due() == 1
        await world.deliver()


async def test_a_deals_result_stays_in_the_hand_until_the_player_moves(world: World) -> None:
    table = await _first_deal_played(world)
    result = "Сдачу берёт"
    assert result in world.api.texts(ANNA.user_id)[-1]
    await _to_annas_turn(world, table.table_id)
    assert result in world.api.texts(ANNA.user_id)[-1]  # the computer's lead does not take it away
    now = await world.storage.get_table(table.table_id)
    assert now is not None
    card = bura_match(state_of(now).match).deal.hands[0][0]
    mark = HandCb(table=now.table_id, move=now.version, op=HandOp.TOGGLE, cards=pack_cards([card]))
    assert not (await world.tables.game.tap(mark, ANNA)).alert
    await world.deliver()
    marked = world.api.to(ANNA.user_id)[-1]
    assert "✅" in str(marked.payload["reply_markup"]) and result in str(marked.payload["text"])  # a mark keeps it
    await _anna_moves(world, table.table_id, ANNA.user_id)
    await world.deliver()
    assert result not in world.api.texts(ANNA.user_id)[-1]  # played on: the result has been read


async def test_the_match_ends_in_one_last_word_and_offers_another_game(world: World) -> None:
    await world.storage.upsert_chat(ANNA.user_id)
    await world.storage.set_chat_settings(ANNA.user_id, {"options": {"match": "one"}})  # a match of one deal
    table = await _first_deal_played(world)
    last = world.api.to(ANNA.user_id)[-1]
    text = str(last.payload["text"])
    assert text.count("матч!") == 1, text  # «🏆 … выигрывает матч!» once, not in the table and the story both
    assert last.payload["reply_markup"] == {
        "inline_keyboard": [[{"text": "🔁 Сыграть ещё", "callback_data": PlayCb().pack()}]]
    }  # no card to tap
    # «Сыграть ещё» is /play's button: a new game with the chat's settings
    assert not (await world.tables.lobby.play_alone(ANNA, None, update_id=2)).alert
    again = await world.storage.get_open_table(ANNA.user_id)
    assert again is not None and again.table_id != table.table_id
    assert state_of(again).settings.option("match", "") == "one" and state_of(again).settings.move_seconds == 0
