"""The sender: per-chat order, flood control, Telegram's error answers, pacing; no network, a fake clock."""

import asyncio
import itertools
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
)
from aiogram.methods import (
    SendMessage,
)

from bot.sender import ApiRequest, Pacer, Sender, Unreachable
from bot.storage import OutboxKind, OutboxMessage, SqliteStorage

METHOD = SendMessage(chat_id=1, text="x")


class FakeTime:
    def __init__(self) -> None:
        self.now = 1_000.0
        self.waits: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


class FakeApi:
    """Records every call with the time it was made; raises the scripted errors for a text, in turn."""

    def __init__(self, time: FakeTime) -> None:
        self.time = time
        self.calls: list[tuple[float, ApiRequest]] = []
        self.failures: dict[str, list[Exception]] = {}
        self.next_message_id = 100

    async def __call__(self, request: ApiRequest) -> int | None:
        self.calls.append((self.time.now, request))
        scripted = self.failures.get(str(request.payload.get("text")))
        if scripted:
            raise scripted.pop(0)
        await asyncio.sleep(0)
        if request.kind is OutboxKind.SEND:
            self.next_message_id += 1
            return self.next_message_id
        return request.message_id

    def texts(self, chat_id: int) -> list[str]:
        return [str(request.payload.get("text")) for _, request in self.calls if request.chat_id == chat_id]


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def api(fake_time: FakeTime) -> FakeApi:
    return FakeApi(fake_time)


@pytest.fixture
async def storage(tmp_path: Path, fake_time: FakeTime) -> AsyncIterator[SqliteStorage]:
    async with await SqliteStorage.open(tmp_path / "bura.sqlite3", clock=fake_time.clock) as opened:
        yield opened


@pytest.fixture
def reports() -> list[Unreachable]:
    return []


@pytest.fixture
def sender(storage: SqliteStorage, api: FakeApi, fake_time: FakeTime, reports: list[Unreachable]) -> Sender:
    async def on_unreachable(report: Unreachable) -> None:
        reports.append(report)

    return Sender(
        storage,
        api,
        clock=fake_time.clock,
        sleep=fake_time.sleep,
        on_unreachable=on_unreachable,
        pacer=Pacer(fake_time.clock, fake_time.sleep, global_per_second=None),
        max_attempts=3,
    )


def send(chat_id: int, text: str, ref: str | None = None) -> OutboxMessage:
    return OutboxMessage(chat_id=chat_id, kind=OutboxKind.SEND, payload={"text": text}, ref=ref)


def edit(chat_id: int, text: str, ref: str = "table") -> OutboxMessage:
    return OutboxMessage(chat_id=chat_id, kind=OutboxKind.EDIT, payload={"text": text}, ref=ref)


async def pending(storage: SqliteStorage) -> list[int]:
    return [item.id for item in await storage.fetch_outbox(now=1e12)]


async def test_order_per_chat_is_kept_under_flood_control(
    storage: SqliteStorage, sender: Sender, api: FakeApi, fake_time: FakeTime
) -> None:
    api.failures["b"] = [TelegramRetryAfter(METHOD, "Too Many Requests", retry_after=5)]
    await storage.enqueue([send(-1, "a"), send(-2, "x"), send(-1, "b"), send(-2, "y"), send(-1, "c")])
    await sender.drain()
    assert api.texts(-1) == ["a", "b", "b", "c"]
    assert api.texts(-2) == ["x", "y"]
    assert await pending(storage) == []


async def test_a_stale_edit_queued_behind_a_newer_one_is_skipped(
    storage: SqliteStorage, sender: Sender, api: FakeApi
) -> None:
    # The sender took the first picture of the table before the second was committed (so the outbox could
    # not supersede it): when it gets to it, the newer one is queued behind, and only that one goes out.
    table = OutboxMessage(chat_id=-1, kind=OutboxKind.EDIT, payload={"text": "move 1"}, ref="table", key="t")
    hand = OutboxMessage(chat_id=-1, kind=OutboxKind.EDIT, payload={"text": "hand 1"}, ref="hand", key="h")
    await storage.enqueue([send(-1, "deal", ref="table"), table, hand])
    await sender.pump()
    await storage.enqueue([table.model_copy(update={"payload": {"text": "move 2"}}), send(-1, "note")])
    await sender.pump()
    await sender.drain()
    assert api.texts(-1) == ["deal", "hand 1", "move 2", "note"]
    assert await pending(storage) == []


async def test_rows_beyond_the_in_flight_cap_wait_in_the_outbox_where_newer_pictures_supersede_them(
    storage: SqliteStorage, api: FakeApi, fake_time: FakeTime
) -> None:
    sender = Sender(storage, api, clock=fake_time.clock, sleep=fake_time.sleep, max_in_flight=1)
    table = OutboxMessage(chat_id=-1, kind=OutboxKind.EDIT, payload={"text": "move 1"}, ref="table", key="t")
    await storage.enqueue([send(-1, "deal", ref="table"), table, send(-2, "other chat")])
    assert await sender.pump() == 1
    assert await sender.pump() == 0, "full: the outbox is not even read"
    await storage.enqueue([table.model_copy(update={"payload": {"text": "move 2"}})])
    await sender.drain()
    assert api.texts(-1) == ["deal", "move 2"]
    assert api.texts(-2) == ["other chat"]
    assert await pending(storage) == []


async def test_a_running_sender_takes_the_rows_it_left_as_soon_as_there_is_room(
    storage: SqliteStorage, api: FakeApi
) -> None:
    sender = Sender(storage, api, poll_interval=60.0, pacer=Pacer(lambda: 0.0, asyncio.sleep), max_in_flight=2)
    running = asyncio.create_task(sender.run())
    await storage.enqueue([send(chat, f"to {chat}") for chat in range(1, 8)])
    sender.notify()
    for _ in range(200):
        if len(api.calls) == 7:
            break
        await asyncio.sleep(0.01)
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    assert [request.chat_id for _, request in api.calls] == list(range(1, 8)), "without waiting for the next poll"


async def test_a_chat_whose_delivery_broke_off_is_picked_up_again_in_order(
    storage: SqliteStorage, sender: Sender, api: FakeApi
) -> None:
    # An unexpected error (here: recording a delivery) stops the chat's worker and leaves its rows pending,
    # below the ids the sender has taken: the next pump reads the whole outbox again, and the chat goes on in
    # order (the unrecorded delivery is made again: at least once, never lost).
    ids = await storage.enqueue([send(-1, "a"), send(-1, "b"), send(-1, "c"), send(-2, "x")])
    mark_done = storage.mark_outbox_done
    broken = [ids[1]]

    async def flaky(outbox_id: int, error: str | None = None) -> None:
        if outbox_id in broken:
            broken.remove(outbox_id)
            raise sqlite3.OperationalError("disk I/O error")
        await mark_done(outbox_id, error)

    storage.mark_outbox_done = flaky  # type: ignore[method-assign]
    await sender.drain()
    assert api.texts(-1) == ["a", "b", "b", "c"]
    assert api.texts(-2) == ["x"]
    assert await pending(storage) == []


async def test_retry_after_is_honoured(
    storage: SqliteStorage, sender: Sender, api: FakeApi, fake_time: FakeTime
) -> None:
    api.failures["hello"] = [TelegramRetryAfter(METHOD, "Too Many Requests", retry_after=7)]
    await storage.enqueue([send(5, "hello")])
    await sender.drain()
    assert 7.0 in fake_time.waits
    (first, _), (second, _) = api.calls
    assert second - first >= 7.0


async def test_message_is_not_modified_counts_as_delivered(
    storage: SqliteStorage, sender: Sender, api: FakeApi
) -> None:
    await storage.set_message_ref(-1, "table", 42)
    api.failures["same"] = [
        TelegramBadRequest(
            METHOD,
            "Bad Request: message is not modified: specified new message content and "
            "reply markup are exactly the same as a current content and reply markup of the message",
        )
    ]
    [outbox_id] = await storage.enqueue([edit(-1, "same")])
    await sender.drain()
    assert len(api.calls) == 1
    assert api.calls[0][1].message_id == 42
    item = await storage.get_outbox_item(outbox_id)
    assert item is not None
    assert (item.done, item.last_error) == (True, None)


async def test_a_blocked_user_is_reported_and_their_messages_dropped(
    storage: SqliteStorage, sender: Sender, api: FakeApi, reports: list[Unreachable]
) -> None:
    api.failures["your hand"] = [TelegramForbiddenError(METHOD, "Forbidden: bot was blocked by the user")]
    await storage.enqueue(
        [
            OutboxMessage(chat_id=7, kind=OutboxKind.SEND, payload={"text": "your hand"}, table_id=None),
            send(7, "next"),
            send(-1, "group"),
        ]
    )
    await sender.drain()
    assert api.texts(7) == ["your hand"]
    assert api.texts(-1) == ["group"]
    assert [(report.chat_id, report.is_user) for report in reports] == [(7, True)]
    user = await storage.get_user(7)
    assert user is not None
    assert user.blocked
    assert await pending(storage) == []


async def test_a_group_that_removed_the_bot_is_marked(
    storage: SqliteStorage, sender: Sender, api: FakeApi, reports: list[Unreachable]
) -> None:
    api.failures["table"] = [TelegramForbiddenError(METHOD, "Forbidden: bot was kicked from the group chat")]
    await storage.enqueue([send(-1, "table")])
    await sender.drain()
    chat = await storage.get_chat(-1)
    assert chat is not None
    assert chat.bot_removed
    assert [report.chat_id for report in reports] == [-1]


async def test_group_migration_is_followed(storage: SqliteStorage, sender: Sender, api: FakeApi) -> None:
    api.failures["first"] = [TelegramMigrateToChat(METHOD, "Bad Request: group chat was upgraded", -1001)]
    await storage.enqueue([send(-1, "first", ref="table"), send(-1, "second")])
    await sender.drain()
    assert api.texts(-1) == ["first"]
    assert api.texts(-1001) == ["first", "second"]
    chat = await storage.get_chat(-1)
    assert chat is not None
    assert chat.migrated_to == -1001
    assert await storage.get_message_ref(-1001, "table") == 101
    # rows committed later for the old id go to the new one as well
    await storage.enqueue([send(-1, "third")])
    await sender.drain()
    assert api.texts(-1001)[-1] == "third"


async def test_an_edit_of_a_vanished_message_sends_a_new_one(
    storage: SqliteStorage, sender: Sender, api: FakeApi
) -> None:
    await storage.set_message_ref(-1, "table", 42)
    api.failures["table v2"] = [TelegramBadRequest(METHOD, "Bad Request: message to edit not found")]
    await storage.enqueue([edit(-1, "table v2")])
    await sender.drain()
    assert [request.kind for _, request in api.calls] == ["edit", "send"]
    assert await storage.get_message_ref(-1, "table") == 101


async def test_an_edit_without_a_message_yet_is_sent_and_remembered(
    storage: SqliteStorage, sender: Sender, api: FakeApi
) -> None:
    await storage.enqueue([edit(-1, "v1"), edit(-1, "v2", ref="table")])
    await sender.drain()
    assert [(request.kind, request.message_id) for _, request in api.calls] == [("send", None), ("edit", 101)]


async def test_delete_forgets_the_reference(storage: SqliteStorage, sender: Sender, api: FakeApi) -> None:
    await storage.set_message_ref(7, "hand:1", 42)
    await storage.enqueue(
        [
            OutboxMessage(chat_id=7, kind=OutboxKind.DELETE, ref="hand:1"),
            OutboxMessage(chat_id=7, kind=OutboxKind.DELETE, ref="hand:1"),
        ]
    )
    await sender.drain()
    assert [(request.kind, request.message_id) for _, request in api.calls] == [("delete", 42)]
    assert await storage.get_message_ref(7, "hand:1") is None
    assert await pending(storage) == []


async def test_network_errors_are_retried_with_backoff_then_given_up(
    storage: SqliteStorage, sender: Sender, api: FakeApi, fake_time: FakeTime
) -> None:
    api.failures["flaky"] = [TelegramNetworkError(METHOD, "Request timeout error")]
    api.failures["down"] = [TelegramNetworkError(METHOD, "Request timeout error") for _ in range(5)]
    flaky, down = await storage.enqueue([send(5, "flaky"), send(6, "down")])
    await sender.drain()
    assert api.texts(5) == ["flaky", "flaky"]
    assert api.texts(6) == ["down", "down", "down"], "max_attempts=3"
    assert {2.0, 4.0} <= set(fake_time.waits)
    given_up = await storage.get_outbox_item(down)
    assert given_up is not None
    assert given_up.done
    assert given_up.last_error is not None
    assert given_up.last_error.startswith("gave up after 3 attempts")
    delivered = await storage.get_outbox_item(flaky)
    assert delivered is not None
    assert (delivered.done, delivered.attempts) == (True, 1)


async def test_a_rejected_request_is_not_retried(storage: SqliteStorage, sender: Sender, api: FakeApi) -> None:
    api.failures["bad"] = [TelegramBadRequest(METHOD, "Bad Request: can't parse entities")]
    [bad, _] = await storage.enqueue([send(5, "bad"), send(5, "good")])
    await sender.drain()
    assert api.texts(5) == ["bad", "good"]
    item = await storage.get_outbox_item(bad)
    assert item is not None
    assert item.last_error == "Bad Request: can't parse entities"


async def test_pacing_per_chat_and_per_group_minute(storage: SqliteStorage, sender: Sender, api: FakeApi) -> None:
    await storage.enqueue([send(-1, f"m{n}") for n in range(22)] + [send(5, f"p{n}") for n in range(3)])
    await sender.drain()
    group = [at for at, request in api.calls if request.chat_id == -1]
    private = [at for at, request in api.calls if request.chat_id == 5]
    assert len(group) == 22
    assert all(later - earlier >= 1.0 for earlier, later in itertools.pairwise(group))
    assert all(later - earlier >= 1.0 for earlier, later in itertools.pairwise(private))
    assert all(group[n + 20] - group[n] >= 60.0 for n in range(len(group) - 20)), "20 per minute per group"
    assert private[-1] - private[0] < 10, "a private chat is not held to the group limit"


async def test_pacer_spaces_calls_bot_wide(fake_time: FakeTime) -> None:
    pacer = Pacer(fake_time.clock, fake_time.sleep, global_per_second=10.0)
    for chat_id in range(1, 4):
        await pacer.wait(chat_id)
    assert fake_time.waits == pytest.approx([0.1, 0.1])


async def test_a_scaled_pacer_keeps_the_limits_in_proportion(fake_time: FakeTime) -> None:
    """SEND_INTERVAL=0.1: a tenth of a second per chat, 20 per 6 s in a group, 250 a second bot-wide."""
    pacer = Pacer.scaled(fake_time.clock, fake_time.sleep, interval=0.1)
    calls = []
    for _ in range(22):
        await pacer.wait(-1)
        calls.append(fake_time.now)
    assert all(later - earlier >= 0.1 - 1e-9 for earlier, later in itertools.pairwise(calls))
    assert all(calls[n + 20] - calls[n] >= 6.0 - 1e-9 for n in range(len(calls) - 20))
    assert calls[19] - calls[0] < 2.0, "the first twenty go at the chat pace"


async def test_group_pacing_can_be_switched_off(fake_time: FakeTime) -> None:
    pacer = Pacer.scaled(fake_time.clock, fake_time.sleep, interval=0.1, group_pacing=False)
    start = fake_time.now
    for _ in range(41):
        await pacer.wait(-1)
    assert fake_time.now - start == pytest.approx(4.0), "only the per-chat interval holds a group back"


async def test_notify_wakes_the_running_sender(storage: SqliteStorage, api: FakeApi) -> None:
    sender = Sender(storage, api, poll_interval=60.0, pacer=Pacer(lambda: 0.0, asyncio.sleep))
    running = asyncio.create_task(sender.run())
    await storage.enqueue([send(5, "now")])
    sender.notify()
    for _ in range(100):
        if api.calls:
            break
        await asyncio.sleep(0.01)
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    assert api.texts(5) == ["now"]
