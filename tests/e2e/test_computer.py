"""Against the computer, end to end: /play in the private chat, and a computer seated from a group's lobby. The
game's clock runs at TIME_SCALE here: a computer's second of thought lasts a twentieth (its search does not)."""

from __future__ import annotations

import asyncio

import pytest

from bot.services import TableState
from bot.storage import TableStatus
from bot.table_settings import ComputerLevel
from bot.telegram.callbacks import LobbyCb, LobbyOp
from tests.botapi import FakeTelegram
from tests.e2e import test_game
from tests.e2e.conftest import SCALED, SEED, BotProcess, Launch
from tests.e2e.harness import open_lobby, play_alone
from tests.e2e.reader import BotDatabase
from tests.e2e.test_game import MOVE_WAIT, Players, _button, deal_number

storage = test_game.storage  # a reader of the bot's database


@pytest.fixture
async def bot(launch: Launch) -> BotProcess:
    return await launch(SEED, SCALED)


async def _play_first_deal(players: Players, human_seats: set[int]) -> tuple[int, int]:
    """People move with their buttons; the computer moves by itself. Returns (human moves, computer moves)."""
    human = computer = 0
    loop = asyncio.get_running_loop()
    while await deal_number(players) == 1:
        table = await players.table()
        if table.status is not TableStatus.PLAYING:
            break
        assert table.state is not None
        seat = TableState.from_json(table.state).match.to_act()
        if seat in human_seats:
            assert await players.move()
            human += 1
            continue
        deadline = loop.time() + MOVE_WAIT
        while (await players.table()).version == table.version:  # the computer thinks a (scaled) second
            assert loop.time() < deadline, "the computer did not move"
            await asyncio.sleep(0.05)
        computer += 1
    return human, computer


async def test_play_against_the_computer_in_the_private_chat(
    tg: FakeTelegram, bot: BotProcess, storage: BotDatabase
) -> None:
    players, table = await play_alone(tg, storage, "/play hard")  # the strong computer thinks in the bot's worker
    anna = players.user(0)
    assert table.status is TableStatus.PLAYING
    assert [seat.user_id for seat in table.seats] == [anna.id, None]
    assert table.state is not None
    assert TableState.from_json(table.state).settings.computer_level is ComputerLevel.HARD
    human, computer = await _play_first_deal(players, {0})
    assert human > 0 and computer > 0
    events = await storage.get_events(table.table_id)
    assert any(event.payload["type"] == "DealEnded" for event in events)
    texts = [message.text or "" for message in tg.messages(tg.private_chat(anna), from_bot=True)]
    assert any("Компьютер" in text for text in texts)  # the table names its computer player


async def test_a_computer_seated_from_the_lobby_plays_with_the_group(
    tg: FakeTelegram, bot: BotProcess, storage: BotDatabase
) -> None:
    anna = tg.user("Аня", "anna")
    lobby = await open_lobby(tg, anna, tg.group("Вечер", owner=anna))
    join = _button(lobby, lambda d: d.startswith("l:") and LobbyCb.unpack(d).op is LobbyOp.JOIN)
    assert join is not None
    table_id = LobbyCb.unpack(str(join["callback_data"])).table
    assert not (await tg.wait_answer(tg.tap(anna, lobby, text=str(join["text"])))).show_alert
    add = _button(lobby, lambda d: d.startswith("l:") and LobbyCb.unpack(d).op is LobbyOp.ADD_COMPUTER)
    assert add is not None
    assert not (await tg.wait_answer(tg.tap(anna, lobby, text=str(add["text"])))).show_alert
    await tg.wait_for(lambda: "🤖" in (lobby.text or ""), MOVE_WAIT, "the computer in the lobby")
    start = _button(lobby, lambda d: d.startswith("l:") and LobbyCb.unpack(d).op is LobbyOp.START)
    assert start is not None
    assert not (await tg.wait_answer(tg.tap(anna, lobby, text=str(start["text"])))).show_alert
    table = await storage.get_table(table_id)
    assert table is not None and table.status is TableStatus.PLAYING
    human_seat = next(seat.seat for seat in table.seats if seat.user_id == anna.id)
    players = Players(tg, storage, {human_seat: anna}, table_id)
    await tg.wait_for(lambda: players.hand(anna), MOVE_WAIT, "Anna's hand")
    human, computer = await _play_first_deal(players, {human_seat})
    assert human > 0 and computer > 0


async def test_addbot_in_the_group_seats_a_computer(tg: FakeTelegram, bot: BotProcess, storage: BotDatabase) -> None:
    """/addbot hard, typed in the group by the table's creator: a strong computer sits down in the lobby."""
    anna = tg.user("Аня", "anna")
    group = tg.group("Вечер", owner=anna)
    tg.add_bot(group)
    await tg.wait_bot_message(group, timeout=MOVE_WAIT)
    said = tg.send_message(anna, group, "/new")
    lobby = await tg.wait_bot_message(group, after=said, timeout=MOVE_WAIT)
    any_lobby_button = _button(lobby, lambda d: d.startswith("l:"))
    assert any_lobby_button is not None
    table_id = LobbyCb.unpack(str(any_lobby_button["callback_data"])).table
    said = tg.send_message(anna, group, "/addbot hard")
    reply = await tg.wait_bot_message(group, after=said, timeout=MOVE_WAIT)
    assert reply.text == "🤖 Компьютер сел за стол."
    assert reply.reply_to is not None and reply.reply_to.message_id == said.message_id  # an answer is a reply
    await tg.wait_for(lambda: "🤖 Компьютер (сильный)" in (lobby.text or ""), MOVE_WAIT, "the lobby redrawn")
    table = await storage.get_table(table_id)
    assert table is not None and [seat.user_id for seat in table.seats] == [anna.id, None]
