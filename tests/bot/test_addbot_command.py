"""/addbot [easy|hard] in a group: a computer takes a seat in the lobby, for the creator or an admin, before the
deal; with a level, the table's computers play at that level (issue: computer players)."""

from __future__ import annotations

from bot.games.registry import game_for
from bot.table_settings import ComputerLevel
from bot.telegram.callbacks import LobbyOp
from tests.bot import test_services
from tests.bot.test_services import ANNA, BORIS, GROUP, World, admin, started, state_of, tap

world = test_services.world  # the same fixture: a real SQLite storage, a recording Bot API, a fake clock


async def _lobby(world: World) -> None:
    await started(world, ANNA, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    await tap(world, LobbyOp.JOIN, BORIS, update_id=2)
    await world.deliver()


async def test_addbot_seats_a_computer_and_redraws_the_lobby(world: World) -> None:
    await _lobby(world)
    reply = await world.tables.lobby.add_computer_command(GROUP, ANNA, is_admin=admin(False), update_id=3)
    assert reply.text == "🤖 Компьютер сел за стол." and not reply.alert
    table = await world.table()
    assert [(seat.seat, seat.user_id) for seat in table.seats] == [(0, ANNA.user_id), (1, BORIS.user_id), (2, None)]
    await world.deliver()
    assert "🤖 Компьютер (слабый)" in world.api.to(GROUP)[-1].payload["text"]
    # A redelivered update changes nothing.
    again = await world.tables.lobby.add_computer_command(GROUP, ANNA, is_admin=admin(False), update_id=3)
    assert again.text is None
    assert len((await world.table()).seats) == 3


async def test_addbot_with_a_level_sets_the_level_of_the_tables_computers(world: World) -> None:
    await _lobby(world)
    await world.tables.lobby.add_computer_command(
        GROUP, ANNA, is_admin=admin(False), update_id=3, level=ComputerLevel.HARD
    )
    assert (await world.tables.core.chat_settings(GROUP)).computer_level is ComputerLevel.HARD
    await world.deliver()
    assert "🤖 Компьютер (сильный)" in world.api.to(GROUP)[-1].payload["text"]
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=4)).alert
    state = state_of(await world.table())
    assert state.computers == frozenset({2}) and state.settings.computer_level is ComputerLevel.HARD


async def test_addbot_is_refused_to_others_without_a_lobby_and_once_dealt(world: World) -> None:
    no_lobby = await world.tables.lobby.add_computer_command(GROUP, ANNA, is_admin=admin(True), update_id=1)
    assert no_lobby.text == "Компьютер можно посадить, пока стол собирается: сначала /new."
    await started(world, ANNA, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=2)
    await tap(world, LobbyOp.JOIN, BORIS, update_id=3)
    table = await world.table()
    stranger = await world.tables.lobby.add_computer_command(
        GROUP, BORIS, is_admin=admin(False), update_id=4, level=ComputerLevel.HARD
    )
    assert stranger.text == "Это может сделать только тот, кто собрал стол, или админ группы."
    assert (await world.table()).version == table.version
    assert (await world.tables.core.chat_settings(GROUP)).computer_level is ComputerLevel.EASY
    assert not (await world.tables.lobby.add_computer_command(GROUP, BORIS, is_admin=admin(True), update_id=5)).alert
    assert len((await world.table()).seats) == 3  # an admin may
    await tap(world, LobbyOp.START, ANNA, update_id=6)
    dealt = await world.table()
    playing = await world.tables.lobby.add_computer_command(GROUP, ANNA, is_admin=admin(False), update_id=7)
    assert playing.text == "Игра уже идёт: компьютер можно посадить только до начала сдачи."
    assert (await world.table()).version == dealt.version


async def test_addbot_at_a_full_table_changes_nothing(world: World) -> None:
    await _lobby(world)
    settings = await world.tables.core.chat_settings(GROUP)
    most = game_for(settings).player_range(settings)[1]
    for update_id in range(3, 3 + most - 2):
        await world.tables.lobby.add_computer_command(GROUP, ANNA, is_admin=admin(False), update_id=update_id)
    table = await world.table()
    assert len(table.seats) == most
    full = await world.tables.lobby.add_computer_command(
        GROUP, ANNA, is_admin=admin(False), update_id=99, level=ComputerLevel.HARD
    )
    assert full.text and "6" in full.text
    assert (await world.table()).version == table.version
    assert (await world.tables.core.chat_settings(GROUP)).computer_level is ComputerLevel.EASY


async def test_the_creator_removes_the_computer_seated_last(world: World) -> None:
    await _lobby(world)
    for update_id in (3, 4):
        await world.tables.lobby.add_computer_command(GROUP, ANNA, is_admin=admin(False), update_id=update_id)
    refused = await tap(world, LobbyOp.REMOVE_COMPUTER, BORIS, update_id=5)
    assert refused.alert and len((await world.table()).seats) == 4
    reply = await tap(world, LobbyOp.REMOVE_COMPUTER, ANNA, update_id=6)
    assert reply.text == "🤖 Компьютер встал из-за стола."
    table = await world.table()
    assert [(seat.seat, seat.user_id, seat.name) for seat in table.seats] == [
        (0, ANNA.user_id, ANNA.name),
        (1, BORIS.user_id, BORIS.name),
        (2, None, "🤖 Компьютер"),  # alone again: not numbered
    ]
    await tap(world, LobbyOp.REMOVE_COMPUTER, ANNA, update_id=7)
    assert [seat.user_id for seat in (await world.table()).seats] == [ANNA.user_id, BORIS.user_id]
    stale = await tap(world, LobbyOp.REMOVE_COMPUTER, ANNA, update_id=8)  # none left: an old button
    assert stale.alert and len((await world.table()).seats) == 2
    await world.deliver()
    assert "🤖" not in world.api.to(GROUP)[-1].payload["text"]
