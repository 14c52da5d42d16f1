"""Where computer players think: the table's game says what a decision is (``GameAdapter.decision``), the
``Thinker`` makes it.

Where it thinks (:class:`Thinker`): a hard decision searches for a few hundred milliseconds of pure Python. In a
thread it would hold the GIL, and every await of the bot would wait about 5 ms for it (the interpreter's switch
interval), so taps at every table would be answered later; in a worker process the bot does not notice it.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from bot.games.base import ActionT, Decision

logger = logging.getLogger(__name__)

COMPUTER_SECONDS = 1.0  # a computer "thinks" this long, so people can follow the table


def _worker_pool(processes: int) -> Executor:
    # "spawn": a fresh interpreter, not a fork of a process that runs threads (aiosqlite's, asyncio's).
    return ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn"))


class Thinker:
    """Runs computer decisions: the easy player's at once (a heuristic, well under a millisecond), the hard
    player's in ``processes`` worker processes (0: in a thread, as tests do). A worker that dies is replaced,
    and that decision is made in a thread: a table never waits for a move that cannot come."""

    def __init__(self, processes: int = 0, pool: Callable[[int], Executor] = _worker_pool) -> None:
        self.processes = processes
        self._make_pool = pool
        self._pool: Executor | None = None

    async def action(self, decision: Decision[ActionT]) -> ActionT:
        """Make ``decision`` (the table's game says what it is): a light one at once, a heavy one elsewhere."""
        decide, args = decision.decide, decision.args
        if not decision.heavy:
            return decide(*args)
        if self.processes <= 0:
            return await asyncio.to_thread(decide, *args)
        if self._pool is None:
            self._pool = self._make_pool(self.processes)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, decide, *args)
        except BrokenProcessPool:
            logger.exception("a computer's worker process died; starting another")
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            return await asyncio.to_thread(decide, *args)

    def close(self) -> None:
        """Stop the workers (the bot is stopping): a decision still running is dropped; its timer stays due, so
        the computer decides again when the bot is back."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
