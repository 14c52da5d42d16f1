"""Бура end to end: people in a group and in their private chats play the real bot over the fake Bot API.

The players decide from the table's state in the database (what a careful player would know: his hand, the
trick, the points he took) and act only by tapping the buttons the bot showed them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from functools import partial

import pytest

from bot.services import TableState
from bot.storage import TableStatus
from bot.telegram.callbacks import LobbyCb, LobbyOp
from tests.botapi import FakeTelegram
from tests.e2e.conftest import BotProcess
from tests.e2e.players import MOVE_WAIT as MOVE_WAIT  # tests/e2e/test_computer.py imports these from here
from tests.e2e.players import Players as Players
from tests.e2e.players import button, lobby_button
from tests.e2e.reader import BotDatabase
from tests.matches import bura_match

_button = button


@pytest.fixture
async def storage(bot: BotProcess) -> AsyncIterator[BotDatabase]:
    """A reader of the bot's database (WAL lets it read while the bot writes)."""
    async with BotDatabase(bot.database) as reader:
        yield reader


async def open_table(tg: FakeTelegram, storage: BotDatabase) -> Players:
    """Anna opens a table in the group; Boris, who never talked to the bot, joins through the deep link."""
    anna, boris = tg.user("Аня", "anna"), tg.user("Борис", "boris")
    group = tg.group("Друзья <3", owner=anna, members=[boris])
    tg.add_bot(group)
    await tg.wait_bot_message(group, timeout=MOVE_WAIT)  # the bot says hello
    tg.start_bot(anna)
    await tg.wait_bot_message(tg.private_chat(anna), timeout=MOVE_WAIT)

    said = tg.send_message(anna, group, "/new")
    lobby = await tg.wait_bot_message(group, after=said, timeout=MOVE_WAIT)
    join = lobby_button(lobby, LobbyOp.JOIN)
    assert join is not None, lobby.button_texts
    table_id = LobbyCb.unpack(str(join["callback_data"])).table
    answer = await tg.wait_answer(tg.tap(boris, lobby, text=str(join["text"])))
    # The table's invitation: its id and a signature nobody can make up (issue 35), taken from the answer.
    assert answer.url is not None and answer.url.startswith(f"https://t.me/{tg.bot.username}?start=j{table_id}_")
    invitation = answer.url.split("?start=", 1)[1]

    tg.start_bot(boris, payload=invitation)
    await tg.wait_bot_message(tg.private_chat(boris), timeout=MOVE_WAIT)
    await tg.wait_for(lambda: "Борис" in (lobby.text or ""), MOVE_WAIT, "Boris in the lobby")

    start = lobby_button(lobby, LobbyOp.START)
    assert start is not None
    refused = await tg.wait_answer(tg.tap(boris, lobby, text=str(start["text"])))
    assert refused.show_alert  # neither the creator nor an admin
    started = await tg.wait_answer(tg.tap(anna, lobby, text=str(start["text"])))
    assert not started.show_alert
    table = await storage.get_table(table_id)
    assert table is not None and table.status is TableStatus.PLAYING
    by_seat = {seat.seat: anna if seat.user_id == anna.id else boris for seat in table.seats}
    players = Players(tg, storage, by_seat, table_id, group)
    for user in (anna, boris):
        await tg.wait_for(partial(players.hand, user), MOVE_WAIT, f"{user.first_name}'s hand")
    await tg.wait_for(lambda: lobby.deleted, MOVE_WAIT, "the lobby message to go")
    return players


async def deal_number(players: Players) -> int:
    table = await players.table()
    assert table.state is not None
    return bura_match(TableState.from_json(table.state).match).deal_number


async def test_two_players_play_a_deal_from_new_to_its_end(
    tg: FakeTelegram, bot: BotProcess, storage: BotDatabase
) -> None:
    players = await open_table(tg, storage)
    group = next(chat for chat in tg.world.chats.values() if chat.title == "Друзья <3")
    table_message = await tg.wait_for(
        lambda: next((m for m in tg.messages(group, from_bot=True) if "Друзья" in (m.text or "")), None),
        MOVE_WAIT,
        "the table message",
    )
    assert "Друзья <3" in (table_message.text or "")  # the title is escaped, not mangled

    moves = 0
    while await deal_number(players) == 1 and await players.move():
        moves += 1
    assert moves > 0
    events = await storage.get_events(players.table_id)
    assert any(event.payload["type"] == "DealEnded" for event in events)
    # The group heard the result and the next deal; the table message was edited in place all along.
    await tg.wait_for(lambda: table_message.edit_date, MOVE_WAIT, "the table message to be edited")
    assert len(tg.messages(group, from_bot=True)) < moves  # one live message, not one per move
    tallies = await storage.chat_stats(group.id)
    assert [(stats.game, stats.deals_played) for stats in tallies] == [("bura", 1), ("bura", 1)]


async def test_a_restart_in_the_middle_of_a_deal_resumes_it(
    tg: FakeTelegram, bot: BotProcess, storage: BotDatabase
) -> None:
    players = await open_table(tg, storage)
    for _ in range(3):
        assert await players.move()
    before = await players.table()
    await bot.stop()
    await bot.start()
    while await deal_number(players) == 1 and await players.move():
        pass
    after = await players.table()
    assert after.version > before.version
    assert after.state is not None and before.state is not None
    replayed = bura_match(TableState.from_json(after.state).match)
    assert replayed.actions[: len(bura_match(TableState.from_json(before.state).match).actions)] == (
        bura_match(TableState.from_json(before.state).match).actions
    )
    # Nothing was dealt again after the restart: the group heard the first deal once; each hand is one message.
    group = tg.messages(players.group, from_bot=True)
    assert sum((m.text or "").startswith("🃏 Сдача 1.") for m in group) == 1
    for user in players.by_seat.values():
        chat = tg.private_chat(user)
        # A hand sent anew (a turn rings) is followed by the old one's deletion: one hand a chat, once it lands.
        await tg.wait_for(
            lambda chat=chat: len([m for m in tg.messages(chat, from_bot=True) if m.protected]) == 1,  # type: ignore[misc]
            MOVE_WAIT,
            f"{user.first_name}'s one hand",
        )
