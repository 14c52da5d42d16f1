"""Computer players at a table: the engine player that decides for a computer seat, or for an absent person.

A computer decides from its seat's view only (engine/bura/ai.py), as a person at the table would. Its seed names
the table and the move, so a replayed or restarted table makes the same decision again.

A computer moves when it is the seat to act (its timer is its thinking time), and also when, out of turn, it
may call «Стоп!» (RULES §9.3, §10: a seizing combo shown in the pre-lead window): it races the others for it
like a person, deciding after the same thinking time, unless someone moves first.

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

from bot.table_settings import ComputerLevel
from engine.bura.actions import Action, DeclareCombo
from engine.bura.ai import EasyPlayer, HardPlayer
from engine.bura.match import Match
from engine.bura.variant import Variant
from engine.bura.views import SeatView, view

logger = logging.getLogger(__name__)

COMPUTER_SECONDS = 1.0  # a computer "thinks" this long, so people can follow the table


def decide(variant: Variant, seat_view: SeatView, level: ComputerLevel, seed: str) -> Action:
    """The move a computer at ``level`` makes from ``seat_view`` (plain data in and out: it runs in a worker)."""
    player = HardPlayer(variant, seed=seed) if level is ComputerLevel.HARD else EasyPlayer(variant)
    return player.choose(seat_view)


def computer_action(match: Match, seat: int, level: ComputerLevel, seed: str) -> Action:
    """The move a computer at ``level`` makes for ``seat`` now."""
    return decide(match.variant, view(match, seat), level, seed)


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

    async def action(self, match: Match, seat: int, level: ComputerLevel, seed: str) -> Action:
        seat_view = view(match, seat)
        if level is not ComputerLevel.HARD:
            return decide(match.variant, seat_view, level, seed)
        if self.processes <= 0:
            return await asyncio.to_thread(decide, match.variant, seat_view, level, seed)
        if self._pool is None:
            self._pool = self._make_pool(self.processes)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, decide, match.variant, seat_view, level, seed)
        except BrokenProcessPool:
            logger.exception("a computer's worker process died; starting another")
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            return await asyncio.to_thread(decide, match.variant, seat_view, level, seed)

    def close(self) -> None:
        """Stop the workers (the bot is stopping): a decision still running is dropped; its timer stays due, so
        the computer decides again when the bot is back."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def out_of_turn_caller(match: Match, computers: frozenset[int]) -> int | None:
    """A computer seat, not the one to act, that may call «Стоп!» now (the first in seat order), or None."""
    to_act = match.to_act()
    for seat in sorted(computers):
        if seat != to_act and any(isinstance(action, DeclareCombo) for action in match.legal_actions(seat)):
            return seat
    return None
