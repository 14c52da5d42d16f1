"""Benchmark: how much a hard computer's thinking slows the bot's event loop, in a thread or a worker process.

Run: ``.venv/bin/python -m tests.benchmarks.thinking [--decisions N]``.

While ``Thinker`` (bot/services/computer.py) makes N hard decisions one after another (the first move of N
fresh deals, the heaviest of a deal), a probe on the event loop sleeps 2 ms again and again and records how
late it wakes: every await of the bot (a database query, a Bot API call) waits about as long. Printed for no
thinking at all, thinking in a thread (``COMPUTER_PROCESSES=0``) and in one worker process (the default).
"""

from __future__ import annotations

import argparse
import asyncio
import time

from bot.games.bura.game import BURA
from bot.services.computer import Thinker
from bot.table_settings import ComputerLevel
from engine.bura.match import Match
from engine.bura.variant import BURA_STANDARD, SINGLE_DEAL


async def _probe(stop: asyncio.Event) -> list[float]:
    late = []
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(0.002)
        late.append(time.perf_counter() - started - 0.002)
    return late


async def _think(thinker: Thinker | None, decisions: int) -> tuple[list[float], float]:
    stop = asyncio.Event()
    probe = asyncio.create_task(_probe(stop))
    started = time.perf_counter()
    variant = BURA_STANDARD.with_options(match=SINGLE_DEAL)
    if thinker is None:
        await asyncio.sleep(2.0)
    else:
        for number in range(decisions):
            match = Match(variant, 2, f"thinking/{number}")
            seat = match.to_act()
            assert seat is not None
            await thinker.action(BURA.decision(match, seat, ComputerLevel.HARD, f"thinking/{number}"))
    wall = time.perf_counter() - started
    stop.set()
    return await probe, wall


def _report(label: str, late: list[float], wall: float) -> None:
    late.sort()

    def at(share: float) -> float:
        return late[min(len(late) - 1, int(share * len(late)))] * 1000

    print(
        f"{label:<22} wake-ups {len(late):>5}  late p50 {at(0.5):5.2f} ms  p99 {at(0.99):5.2f} ms  "
        f"max {late[-1] * 1000:5.1f} ms  wall {wall:4.1f} s",
        flush=True,
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decisions", type=int, default=15)
    args = parser.parse_args()
    late, wall = await _think(None, 0)
    _report("no thinking", late, wall)
    late, wall = await _think(Thinker(processes=0), args.decisions)
    _report("thread", late, wall)
    worker = Thinker(processes=1)
    try:
        # The worker process starts at the first hard decision (once per bot): start it outside the measured run.
        match = Match(BURA_STANDARD, 2, "start")
        await worker.action(BURA.decision(match, match.to_act() or 0, ComputerLevel.HARD, "start"))
        late, wall = await _think(worker, args.decisions)
    finally:
        worker.close()
    _report("worker process", late, wall)


if __name__ == "__main__":
    asyncio.run(main())
