"""A table under its lock with its state (bot/services/live.py): kept when a block ends, dropped when it raises,
left to the commit when one was tried."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.games.registry import game_for
from bot.services.live import LiveTables
from bot.services.state import TableState
from bot.storage import Seat, SqliteStorage, Storage, Table, TableStatus
from bot.table_settings import TableSettings


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    async with await SqliteStorage.open(tmp_path / "bura.sqlite3") as opened:
        yield opened


async def playing(storage: Storage) -> Table:
    settings = TableSettings()
    game = game_for(settings)
    state = TableState(match=game.new_match(settings, 2, "seed"), settings=settings, title="Стол", game=game)
    seats = [Seat(seat=0, user_id=1, name="Аня"), Seat(seat=1, user_id=None, name="Компьютер")]
    table = await storage.create_table(-1, creator_id=1, settings={}, seats=seats)
    return await storage.commit_move(table.table_id, 0, state.to_json(), status=TableStatus.PLAYING)


async def test_a_block_keeps_the_state_it_read_and_drops_it_when_it_raises(storage: Storage) -> None:
    table = await playing(storage)
    live = LiveTables(storage)
    async with live.table(table.table_id) as held:
        first = held.state
        assert held.table == table and first is not None
    async with live.table(table.table_id) as held:
        assert held.state is first, "kept: not replayed from the database"
    with pytest.raises(RuntimeError):
        async with live.table(table.table_id) as held:
            raise RuntimeError("a move refused half-way")
    async with live.table(table.table_id) as held:
        assert held.state is not None and held.state is not first, "dropped: read again"
        live.committing(table.table_id)  # a commit was tried in the block: it keeps what it made, if anything
        tried = held.state
    async with live.table(table.table_id) as held:
        assert held.state is not tried, "a block that tried a commit puts back nothing"
    assert live._locks == {}, "no lock outlives its block"


async def test_a_table_not_in_play_has_no_state(storage: Storage) -> None:
    lobby = await storage.create_table(-2, creator_id=1, settings={})
    live = LiveTables(storage)
    async with live.table(lobby.table_id) as held:
        assert held.table == lobby and held.state is None
    async with live.table(10_000) as held:
        assert held.table is None and held.state is None
