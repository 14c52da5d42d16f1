"""What a match's end costs: ``python -m tests.benchmarks.match_end [--runs 200]``.

Two people play a one-deal match of Бура in a group (the services over SQLite on a file, as
tests/bot/test_services.py builds them), each move the timer's cheapest one. The match's last move is applied by
the engine untimed; then ``GameService.commit_move`` of it is timed: everything the bot does before it can tell
the players — the messages rendered, the ratings read and computed (issue 38), the one transaction that commits
state, events, outbox, tallies and ratings, synced to disk. A run a new table; the same two people throughout
(their ratings grow as they would). Prints p50, p90, p99 and the maximum in milliseconds. Figures, not a test:
they depend on the machine's disk and load (say what else ran).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bot.games.bura.settings import MatchChoice
from bot.table_settings import TableSettings
from bot.telegram.callbacks import LobbyOp
from engine.bura.match import Match
from tests.bot.test_services import ANNA, BORIS, GROUP, World, a_world, started, tap
from tests.e2e.players import find_seed


async def last_move_committed(world: World, run: int) -> float:
    """A new one-deal table played to its last move; the seconds its commit took."""
    await world.tables.lobby.open(GROUP, ANNA, update_id=run * 10 + 1)
    await tap(world, LobbyOp.JOIN, BORIS, update_id=run * 10 + 2)
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=run * 10 + 3)).alert
    table_id = (await world.table()).table_id
    game = world.tables.game
    while True:
        async with world.tables.core.live.table(table_id) as held:
            table, state = held.table, held.state
            assert table is not None and state is not None
            seat = state.match.to_act()
            assert seat is not None
            action = state.game.auto_action(state.match, seat)
            assert action is not None
            before = state.game.before(state.match)
            events = state.game.play(state.match, (action,))
            started_at = time.perf_counter()
            await game.commit_move(table, state, events, before)
            took = time.perf_counter() - started_at
            if state.match.finished:
                await world.deliver()
                return took


async def main(runs: int) -> None:
    settings = TableSettings(options={"match": MatchChoice.SINGLE_DEAL})

    def goes_on(match: Match) -> bool:
        return not match.finished

    with tempfile.TemporaryDirectory() as folder:
        async with a_world(Path(folder)) as world:
            world.tables.core.test_seed = find_seed(settings, 2, goes_on, prefix="bench")
            await world.storage.upsert_chat(GROUP, language="ru")
            await world.storage.set_chat_settings(GROUP, {"match": MatchChoice.SINGLE_DEAL.value})
            await started(world, ANNA, BORIS)
            for warm in range(5):
                await last_move_committed(world, 10_000 + warm)
            times = sorted([await last_move_committed(world, run) for run in range(runs)])
    ms = [t * 1000 for t in times]
    cut = statistics.quantiles(ms, n=100, method="inclusive")
    print(f"match-end commit_move over {runs} runs: p50 {cut[49]:.2f} ms, p90 {cut[89]:.2f} ms, p99 {cut[98]:.2f} ms,")
    print(f"max {ms[-1]:.2f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    asyncio.run(main(parser.parse_args().runs))
