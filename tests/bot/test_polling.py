"""The poller: updates stored before they are confirmed, handled once, a 409 told once; no network."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiogram.exceptions import TelegramConflictError, TelegramNetworkError
from aiogram.methods import GetUpdates

from bot.storage import SqliteStorage
from bot.telegram.api import BotApi
from bot.telegram.polling import Poller

METHOD = GetUpdates()


class FakeUpdates:
    """getUpdates as Telegram answers it: what is queued above the offset; failures scripted in turn."""

    def __init__(self) -> None:
        self.queued: list[dict[str, Any]] = []
        self.failures: list[Exception] = []
        self.offsets: list[int | None] = []
        self.polled = asyncio.Event()

    def push(self, *update_ids: int) -> None:
        self.queued += [{"update_id": update_id, "message": {"n": update_id}} for update_id in update_ids]

    async def call(self, method: type[Any], params: dict[str, Any]) -> Any:
        self.polled.set()
        offset = params.get("offset")
        self.offsets.append(offset)
        if self.failures:
            raise self.failures.pop(0)
        if offset is not None:
            self.queued = [update for update in self.queued if update["update_id"] >= offset]
        await asyncio.sleep(0.001)
        return list(self.queued)


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[SqliteStorage]:
    async with await SqliteStorage.open(tmp_path / "bura.sqlite3") as opened:
        yield opened


def poller(api: FakeUpdates, storage: SqliteStorage, handled: list[int]) -> Poller:
    async def handle(update: str) -> None:
        handled.append(json.loads(update)["update_id"])

    fake: BotApi = api  # type: ignore[assignment]  # duck-typed: the poller calls only `call`
    return Poller(fake, storage, handle, timeout=0, backoff_cap=0.01)


async def run_until(condition: Any, poll: Poller) -> None:
    running = asyncio.create_task(poll.run())
    try:
        for _ in range(500):
            if condition():
                break
            await asyncio.sleep(0.01)
        assert condition()
    finally:
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running
        await poll.stop()


async def test_updates_are_stored_handled_once_and_confirmed(storage: SqliteStorage) -> None:
    api, handled = FakeUpdates(), list[int]()
    api.push(1, 2, 3)
    poll = poller(api, storage, handled)
    await run_until(lambda: len(handled) == 3 and 4 in api.offsets, poll)
    assert handled == [1, 2, 3]
    assert all([await storage.is_update_processed(update_id) for update_id in (1, 2, 3)])
    api.push(4)
    await run_until(lambda: 4 in handled and 5 in api.offsets, poller(api, storage, handled))
    assert handled == [1, 2, 3, 4], "Telegram sent 1-3 again to the new poller: stored, so not handled again"


async def test_a_restart_handles_what_the_inbox_holds(storage: SqliteStorage) -> None:
    await storage.store_updates([(7, '{"update_id":7,"message":{}}')])  # stored, then the process died
    api, handled = FakeUpdates(), list[int]()
    await run_until(lambda: handled == [7], poller(api, storage, handled))
    assert await storage.pending_updates() == []


async def test_a_conflict_is_told_once_and_polling_goes_on(
    storage: SqliteStorage, caplog: pytest.LogCaptureFixture
) -> None:
    api, handled = FakeUpdates(), list[int]()
    conflict = TelegramConflictError(METHOD, "Conflict: terminated by other getUpdates request")
    api.failures = [conflict] * 20 + [TelegramNetworkError(METHOD, "timeout")] * 5
    api.push(1)
    with caplog.at_level(logging.INFO, logger="bot.telegram.polling"):
        await run_until(lambda: handled == [1], poller(api, storage, handled))
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert sum("409 Conflict" in message for message in warnings) == 1, warnings
    assert len(warnings) <= 4, "no log flood"
    assert any("polling again" in r.getMessage() for r in caplog.records)
