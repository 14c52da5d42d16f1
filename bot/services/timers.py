"""Timers: the move timer and the idle lobby, kept in the database (they survive a restart) and polled here.

A timer row names the table and the version it was set at; a move in between replaces it, and a timer whose
version is no longer the table's is ignored. A due lobby timer closes the lobby; a due move timer lets the
game service move for the player. A timer that fails is logged and not retried in this process.

A move timer starts when the player's hand, showing his turn, has reached him (`Deadline.shown_in`); at half
time he gets a reminder in his private chat (a hand edit makes no sound; this does). Reminders are kept in
memory only: after a restart one may come twice, which costs less than a table to track.
"""

from __future__ import annotations

import asyncio
import logging

from bot.services.core import TableCore
from bot.services.game import GameService
from bot.services.lobby import LobbyService
from bot.services.messages import text_message
from bot.services.state import AWAY_AFTER_TIMEOUTS, TableState
from bot.storage import StorageError, TableStatus, Timer

logger = logging.getLogger(__name__)

REMIND_HORIZON = 3600.0  # look this far ahead for move timers (half of the longest move timer is 30 minutes)
MIN_SECONDS_TO_REMIND = 30  # a shorter timer needs no reminder


class TimerService:
    def __init__(self, core: TableCore, lobby: LobbyService, game: GameService, *, interval: float = 1.0) -> None:
        self.core = core
        self.lobby = lobby
        self.game = game
        self.interval = interval
        self._failed: set[tuple[int, int]] = set()
        # (table, due) -> when to remind; None: done. The due time is in the key: a timer is due later once it
        # starts (when the hand it waits for is shown), and so is its reminder; a new move sets a new due time.
        # The move is not: a timer kept across a move its player could not see (`Deadline.keep`) is reminded of
        # once, as if nothing had happened.
        self._reminders: dict[tuple[int, float], float | None] = {}

    async def run(self) -> None:
        """Fire due timers until cancelled."""
        while True:
            try:
                await self.fire_due()
                await self.remind_due()
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
            except StorageError as error:
                # Nothing was made (a full disk, say): the timer stays due and fires once the database can.
                logger.warning(
                    "timers: table %s, move %s waits for the database: %s", timer.table_id, timer.move_no, error
                )
            except Exception:
                self._failed.add((timer.table_id, timer.move_no))
                logger.exception("timers: table %s, move %s failed", timer.table_id, timer.move_no)
        return fired

    async def fire(self, timer: Timer) -> int:
        async with self.core.live.table(timer.table_id) as held:
            table = held.table
            if table is None or table.version != timer.move_no:
                return 0
            if table.status is TableStatus.LOBBY:
                await self.lobby.expire(table)
            elif table.status is TableStatus.PLAYING:
                await self.game.timeout(table, held.state)
            else:
                await self.core.commit(table)  # a finished table keeps no timer
            return 1

    async def remind_due(self) -> int:
        """Remind the players whose move timer is half gone; returns how many were reminded."""
        core = self.core
        now = core.clock()
        reminded = 0
        timers = [timer for timer in await core.repository.timers_due_by(now + REMIND_HORIZON) if timer.armed]
        live = {(timer.table_id, timer.due_at) for timer in timers}
        for key in [key for key in self._reminders if key not in live]:
            del self._reminders[key]  # the move was made (or the timer fired): forget it
        for timer in timers:
            key = (timer.table_id, timer.due_at)
            if key not in self._reminders:
                self._reminders[key] = await self._remind_at(timer)
            remind_at = self._reminders[key]
            if remind_at is None or now < remind_at:
                continue
            self._reminders[key] = None
            try:
                reminded += await self._remind(timer)
            except StorageError as error:
                logger.warning("timers: reminding at table %s failed: %s", timer.table_id, error)
            except Exception:
                logger.exception("timers: reminding at table %s failed", timer.table_id)
        return reminded

    async def _remind_at(self, timer: Timer) -> float | None:
        table = await self.core.repository.get_table(timer.table_id)
        if table is None or table.status is not TableStatus.PLAYING or table.state is None:
            return None
        # The timer's own seconds are real ones (TIME_SCALE applied); the table's setting is the game's.
        scale = self.core.time_scale
        seconds = timer.seconds or TableState.settings_from_json(table.state).seconds() * scale
        if seconds < MIN_SECONDS_TO_REMIND * scale:
            return None
        return timer.due_at - seconds / 2

    async def _remind(self, timer: Timer) -> int:
        core = self.core
        async with core.live.table(timer.table_id) as held:
            table, state = held.table, held.state
            if table is None or table.version != timer.move_no or state is None:
                return 0
            seat = state.match.to_act()
            user_id = next((s.user_id for s in table.seats if s.seat == seat), None)
            if seat is None or user_id is None or state.timeouts.get(seat, 0) >= AWAY_AFTER_TIMEOUTS:
                return 0
            user = await core.repository.get_user(user_id)
            if user is None or user.blocked:
                return 0
            left = max(1, round((timer.due_at - core.clock()) / core.time_scale))  # in the game's seconds
            tr = core.translations.get(user.language)
            # A small message of its own rings: the hand stays as it is, with the cards he is marking (issue 37: the
            # hand sent anew deleted the one being tapped, and an edit would neither ring nor keep his marks).
            await core.enqueue([text_message(user_id, tr.t("hand-reminder", seconds=left))])
            return 1
