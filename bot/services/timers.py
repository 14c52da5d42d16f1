"""Timers: the move timer and the idle lobby, kept in the database (they survive a restart) and polled here.

A timer row names the table and the version it was set at; a move in between replaces it, and a timer whose
version is no longer the table's is ignored. A due lobby timer closes the lobby; a due move timer lets the
game service move for the player. A timer that fails is logged and not retried in this process.
"""

from __future__ import annotations

import asyncio
import logging

from bot.services.core import TableCore
from bot.services.game import GameService
from bot.services.lobby import LobbyService
from bot.storage import TableStatus, Timer

logger = logging.getLogger(__name__)


class TimerService:
    def __init__(self, core: TableCore, lobby: LobbyService, game: GameService, *, interval: float = 1.0) -> None:
        self.core = core
        self.lobby = lobby
        self.game = game
        self.interval = interval
        self._failed: set[tuple[int, int]] = set()

    async def run(self) -> None:
        """Fire due timers until cancelled."""
        while True:
            try:
                await self.fire_due()
            except Exception:
                logger.exception("timers: reading the due timers failed")
            await asyncio.sleep(self.interval)

    async def fire_due(self) -> int:
        """Fire every timer due now; returns how many were fired."""
        fired = 0
        for timer in await self.core.repository.due_timers(self.core.clock()):
            if (timer.table_id, timer.move_no) in self._failed:
                continue
            try:
                fired += await self.fire(timer)
            except Exception:
                self._failed.add((timer.table_id, timer.move_no))
                logger.exception("timers: table %s, move %s failed", timer.table_id, timer.move_no)
        return fired

    async def fire(self, timer: Timer) -> int:
        async with self.core.locked(timer.table_id):
            table = await self.core.repository.get_table(timer.table_id)
            if table is None or table.version != timer.move_no:
                return 0
            if table.status is TableStatus.LOBBY:
                await self.lobby.expire(table)
            elif table.status is TableStatus.PLAYING:
                await self.game.timeout(table)
            else:
                await self.core.commit(table)  # a finished table keeps no timer
            return 1
