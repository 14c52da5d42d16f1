"""The storage backends the contract suite runs on, and a clock the tests move by hand."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import OutboxKind, OutboxMessage, SqliteStorage, Storage
from bot.storage.postgres import PostgresStorage
from tests.postgres import fresh_database


class FakeClock:
    def __init__(self, now: float = 1_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
async def storage(request: pytest.FixtureRequest, tmp_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    """Each backend, fresh and empty."""
    if request.param == "sqlite":
        async with await SqliteStorage.open(tmp_path / "bura.sqlite3", clock=clock) as opened:
            yield opened
    elif request.param == "postgres":
        async with await PostgresStorage.open(await fresh_database(), clock=clock) as opened:
            yield opened
    else:  # pragma: no cover - a backend named above without a branch here
        raise AssertionError(request.param)


def table_message(chat_id: int, text: str) -> OutboxMessage:
    return OutboxMessage(
        chat_id=chat_id, kind=OutboxKind.EDIT, ref="table", key=f"table-msg:{chat_id}", payload={"text": text}
    )


def hand(chat_id: int, text: str, kind: OutboxKind = OutboxKind.EDIT) -> OutboxMessage:
    key = None if kind is OutboxKind.SEND else f"hand:1:{chat_id}"
    return OutboxMessage(chat_id=chat_id, kind=kind, ref="hand:1", key=key, payload={"text": text})
