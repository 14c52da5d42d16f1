"""What the bot forgets (README, "What the bot keeps"): old delivered messages and finished tables' hands, every
hour (`Retention`).

Kept for good: the tallies (who won what, in each chat) and each table's row (its chat, settings, times and
seats). Gone after `RETENTION_DAYS`: the messages the bot delivered, and a finished table's game state (every
hand dealt), event log and the refs of its hand messages. Gone after two days: the ids of handled updates,
which only guard against Telegram sending one again (it does for a day at most). Never pruned: a message still
to deliver, an update not handled yet.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.services.core import Clock
from bot.storage import Storage, StorageError

logger = logging.getLogger(__name__)

DAY = 24 * 3600.0
UPDATES_KEPT = 2 * DAY
"""How long a handled update's id is kept: Telegram sends an update again for a day at most."""
PRUNE_EVERY = 3600.0
ROWS_A_WRITE = 500  # outbox rows or updates deleted in one write
TABLES_A_WRITE = 50  # tables whose private parts go in one write (a state and a few hundred events each)
PAUSE = 0.05
"""Seconds between two writes of a prune: the moves waiting for the database go first."""

Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Pruned:
    updates: int = 0
    messages: int = 0
    tables: int = 0


class Retention:
    """Prunes what the bot no longer needs, once at the start and then every hour, in short writes.

    `days` is RETENTION_DAYS: delivered messages and finished tables' private parts older than that go; 0 keeps
    them for good (handled updates still go after two days: they are nobody's data)."""

    def __init__(
        self,
        storage: Storage,
        days: int,
        *,
        clock: Clock = time.time,
        sleep: Sleep = asyncio.sleep,
        every: float = PRUNE_EVERY,
        pause: float = PAUSE,
    ) -> None:
        self.storage = storage
        self.days = days
        self.clock = clock
        self.sleep = sleep
        self.every = every
        self.pause = pause

    async def run(self) -> None:
        if self.days:
            logger.info("retention: delivered messages and finished tables' hands are kept %s days", self.days)
        else:
            logger.info("retention: RETENTION_DAYS=0, delivered messages and finished tables' hands are kept")
        while True:
            try:
                pruned = await self.prune()
                if pruned != Pruned():
                    logger.info(
                        "retention: forgot %s handled updates, %s delivered messages, %s finished tables' hands",
                        pruned.updates,
                        pruned.messages,
                        pruned.tables,
                    )
            except StorageError as error:
                logger.warning("retention: pruning failed, tried again in an hour: %s", error)
            await self.sleep(self.every)

    async def prune(self) -> Pruned:
        """One pass: everything that is old enough now, however much, a write at a time."""
        now = self.clock()
        storage = self.storage
        updates = await self._drain(lambda limit: storage.prune_updates(now - UPDATES_KEPT, limit), ROWS_A_WRITE)
        if not self.days:
            return Pruned(updates=updates)
        before = now - self.days * DAY
        messages = await self._drain(lambda limit: storage.prune_outbox(before, limit), ROWS_A_WRITE)
        tables = await self._drain(lambda limit: storage.prune_tables(before, limit), TABLES_A_WRITE)
        return Pruned(updates=updates, messages=messages, tables=tables)

    async def _drain(self, step: Callable[[int], Awaitable[int]], limit: int) -> int:
        total = 0
        while True:
            done = await step(limit)
            total += done
            if done < limit:
                return total
            await self.sleep(self.pause)
