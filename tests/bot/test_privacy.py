"""What the bot forgets: the hourly pruning, on a real SQLite storage."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import cast

import pytest

from bot.services.privacy import DAY, UPDATES_KEPT, Pruned, Retention
from bot.storage import Delivery, OutboxKind, OutboxMessage, SqliteStorage, Storage, StorageUnavailable
from tests.bot.test_services import FakeTime


async def test_retention_prunes_a_backlog_in_short_writes(tmp_path: Path) -> None:
    time = FakeTime()
    storage = await SqliteStorage.open(tmp_path / "bura.sqlite3", clock=time.clock)
    try:
        ids = await storage.enqueue([OutboxMessage(chat_id=1, kind=OutboxKind.SEND) for _ in range(1203)])
        for outbox_id in ids[:-1]:
            await storage.record_delivery(Delivery(outbox_id=outbox_id, chat_id=1))
        await storage.store_updates([(n, "{}") for n in range(1, 4)])
        await storage.mark_updates_done([1, 2])
        time.now += 31 * DAY
        pauses: list[float] = []

        async def sleep(seconds: float) -> None:
            pauses.append(seconds)

        assert await Retention(storage, 0, clock=time.clock, sleep=sleep).prune() == Pruned(updates=2)
        assert await storage.get_outbox_item(ids[0]) is not None, "RETENTION_DAYS=0 keeps the messages"

        pruned = await Retention(storage, 30, clock=time.clock, sleep=sleep, pause=0.05).prune()
        assert pruned == Pruned(messages=1202)
        assert pauses == [0.05, 0.05], "a pause after each full write of 500 rows"
        assert [item.id for item in await storage.fetch_outbox(now=1e12)] == [ids[-1]], "the pending one stays"
        assert [update_id for update_id, _ in await storage.pending_updates()] == [3]
    finally:
        await storage.close()


class FailingStorage:
    """A database that refuses every write (a full disk)."""

    def __init__(self) -> None:
        self.calls = 0

    async def prune_updates(self, older_than: float, limit: int | None = None) -> int:
        self.calls += 1
        raise StorageUnavailable(OSError("database or disk is full"))


async def test_retention_runs_at_once_then_every_hour_and_survives_a_failure() -> None:
    failing = FailingStorage()
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 2:
            raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        await Retention(cast(Storage, failing), 30, sleep=sleep).run()
    assert (failing.calls, slept) == (2, [3600.0, 3600.0]), "at once, then an hour later, despite the failure"
    assert UPDATES_KEPT == 2 * DAY
