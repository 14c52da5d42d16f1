"""The sender: per-chat order, flood control, Telegram's error answers by kind, pacing per chat; no network, a
fake clock."""

import asyncio
import itertools
import time
from collections.abc import AsyncIterator, Collection
from pathlib import Path
from typing import Any

import pytest
from aiogram import Bot
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

from bot.services.messages import document_message
from bot.storage import (
    Delivery,
    OutboxItem,
    OutboxKind,
    OutboxMessage,
    SqliteStorage,
    StorageUnavailable,
    payload_digest,
)
from bot.telegram.api import BotApi
from bot.telegram.calls import UPLOAD, UPLOAD_MOST, Access, ApiRequest, Unreachable, bot_api_call
from bot.telegram.pacer import GROUP_LIMIT, NEWS_RESERVE, Budget, Pacer
from bot.telegram.sender import BURIED_AFTER, WORTH_DELIVERING, Sender, is_reply
from tests.botapi.server import FakeTelegram

METHOD = SendMessage(chat_id=1, text="x")
time_now = time.monotonic


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
    """Records every call with the time it was made; raises the scripted errors for a text, in turn. `access`
    is what getChatMember says of the bot in each chat (write access unless set)."""

    def __init__(self, time: FakeTime) -> None:
        self.time = time
        self.calls: list[tuple[float, ApiRequest]] = []
        self.failures: dict[str, list[Exception]] = {}
        self.next_message_id = 100
        self.access: dict[int, Access] = {}
        self.checked: list[int] = []
        self.held: dict[str, asyncio.Event] = {}  # a call with this text returns once its event is set

    async def check(self, chat_id: int) -> Access:
        self.checked.append(chat_id)
        return self.access.get(chat_id, Access.WRITE)

    async def __call__(self, request: ApiRequest) -> int | None:
        self.calls.append((self.time.now, request))
        scripted = self.failures.get(said(request))
        if scripted:
            raise scripted.pop(0)
        held = self.held.get(said(request))
        if held is not None:
            await held.wait()
        await asyncio.sleep(0)
        if request.kind is OutboxKind.SEND:
            self.next_message_id += 1
            return self.next_message_id
        return request.message_id

    def texts(self, chat_id: int) -> list[str]:
        return [said(request) for _, request in self.calls if request.chat_id == chat_id]


def said(request: ApiRequest) -> str:
    """What a call shows: its text, or a file's caption."""
    return str(request.payload.get("text", request.payload.get("caption")))


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
def paused() -> list[tuple[str, int]]:
    return []


@pytest.fixture
def sender(
    storage: SqliteStorage, api: FakeApi, fake_time: FakeTime, reports: list[Unreachable], paused: list[tuple[str, int]]
) -> Sender:
    async def on_unreachable(report: Unreachable) -> None:
        reports.append(report)

    async def on_read_only(chat_id: int) -> None:
        paused.append(("paused", chat_id))

    async def on_writable(chat_id: int) -> None:
        paused.append(("writable", chat_id))

    return Sender(
        storage,
        api,
        clock=fake_time.clock,
        sleep=fake_time.sleep,
        on_unreachable=on_unreachable,
        on_read_only=on_read_only,
        on_writable=on_writable,
        access=api.check,
        pacer=Pacer(fake_time.clock, fake_time.sleep, global_per_second=None),
    )


async def delivered(storage: SqliteStorage, message: OutboxMessage, message_id: int) -> None:
    """A live message the bot sent before (in an earlier run): its ref and what it shows."""
    [row] = await storage.enqueue([message.model_copy(update={"kind": OutboxKind.SEND})])
    content = payload_digest(message.payload)
    await storage.record_delivery(
        Delivery(outbox_id=row, chat_id=message.chat_id, ref=message.ref, message_id=message_id, content=content)
    )


def send(chat_id: int, text: str, ref: str | None = None) -> OutboxMessage:
    return OutboxMessage(chat_id=chat_id, kind=OutboxKind.SEND, payload={"text": text}, ref=ref)


def edit(chat_id: int, text: str, ref: str = "table") -> OutboxMessage:
    return OutboxMessage(chat_id=chat_id, kind=OutboxKind.EDIT, payload={"text": text}, ref=ref)


EXPORT = '{"format":"bura-bot/fair-export/v1","deals":[{"number":1,"seed":"ab"}]}'


def document(chat_id: int, caption: str, *, reply_to: int | None = None) -> OutboxMessage:
    """A file (a match's export), its caption the text the fake API keys its failures by."""
    return document_message(chat_id, "bura-match-7.json", EXPORT, caption, reply_to=reply_to)


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
    api.held["deal"] = asyncio.Event()  # the chat's worker is busy with the deal while the second move commits
    await storage.enqueue([send(-1, "deal", ref="table"), table, hand])
    await sender.pump()
    await storage.enqueue([table.model_copy(update={"payload": {"text": "move 2"}}), send(-1, "note")])
    await sender.pump()
    api.held["deal"].set()
    await sender.drain()
    assert api.texts(-1) == ["deal", "note", "hand 1", "move 2"], "the note passes the edits queued before it"
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


async def test_a_delivery_the_database_cannot_record_is_not_made_again(
    storage: SqliteStorage, sender: Sender, api: FakeApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk while recording: the message went out, so it is not sent again; its chat waits (a crash
    now repeats at most that one message), the other chats go on, and the record is made once the disk can."""
    ids = await storage.enqueue([send(-1, "a"), send(-1, "b"), send(-1, "c"), send(-2, "x")])
    record = storage.record_delivery
    failing = {ids[1]}

    async def flaky(delivery: Delivery) -> None:
        if delivery.outbox_id in failing:
            raise StorageUnavailable(OSError("database or disk is full"))
        await record(delivery)

    monkeypatch.setattr(storage, "record_delivery", flaky)
    await sender.drain()
    assert api.texts(-1) == ["a", "b"], "the chat waits for the record of b"
    assert api.texts(-2) == ["x"]
    await sender.drain()
    assert api.texts(-1) == ["a", "b"], "b is never sent twice, c still waits"
    failing.clear()
    await sender._record_unrecorded()
    await sender.drain()
    assert api.texts(-1) == ["a", "b", "c"]
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


async def test_an_edit_that_would_change_nothing_is_not_sent(
    storage: SqliteStorage, sender: Sender, api: FakeApi
) -> None:
    await delivered(storage, edit(-1, "same"), 42)
    [same, _, again] = await storage.enqueue([edit(-1, "same"), edit(-1, "new"), send(5, "other")])
    await storage.enqueue([edit(-1, "new", ref="table").model_copy(update={"key": None})])
    await sender.drain()
    assert api.texts(-1) == ["new"] and api.texts(5) == ["other"]
    item = await storage.get_outbox_item(same)
    assert item is not None and (item.done, item.last_error) == (True, "unchanged")
    ref = await storage.get_message_ref(-1, "table")
    assert ref is not None and ref.content == payload_digest({"text": "new"})
    assert again


async def test_the_first_edit_after_a_restart_that_telegram_refuses_was_made_before(
    storage: SqliteStorage, sender: Sender, api: FakeApi
) -> None:
    """Killed after Telegram took an edit and before recording it, the bot makes the same edit again, and
    Telegram refuses an edit that changes nothing (400): the message shows it already, no new message."""
    await delivered(storage, edit(-1, "v1"), 42)
    api.failures["v2"] = [TelegramBadRequest(METHOD, "Bad Request: any reason at all")]
    [row] = await storage.enqueue([edit(-1, "v2")])
    await sender.drain()
    assert [(request.kind, request.message_id) for _, request in api.calls] == [("edit", 42)]
    item = await storage.get_outbox_item(row)
    assert item is not None and item.done
    ref = await storage.get_message_ref(-1, "table")
    assert ref is not None and (ref.message_id, ref.content) == (42, payload_digest({"text": "v2"}))


@pytest.mark.parametrize("sent", ["a message", "a file"])
async def test_a_blocked_user_is_reported_and_their_messages_dropped(
    storage: SqliteStorage, sender: Sender, api: FakeApi, reports: list[Unreachable], sent: str
) -> None:
    api.failures["your hand"] = [TelegramForbiddenError(METHOD, "Forbidden: bot was blocked by the user")]
    first = send(7, "your hand") if sent == "a message" else document(7, "your hand")
    await storage.enqueue([first, send(7, "next"), send(-1, "group")])
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
    api.access[-1] = Access.GONE
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
    ref = await storage.get_message_ref(-1001, "table")
    assert ref is not None and ref.message_id == 101
    # rows committed later for the old id go to the new one as well
    await storage.enqueue([send(-1, "third")])
    await sender.drain()
    assert api.texts(-1001)[-1] == "third"


async def test_an_edit_of_a_vanished_message_sends_a_new_one(
    storage: SqliteStorage, sender: Sender, api: FakeApi
) -> None:
    """The bot may write to the chat (it asks), so a refused edit of a message it edited before in this run
    means the message is gone (deleted): the picture goes out as a new message, which later edits change."""
    await delivered(storage, edit(-1, "table v1"), 42)
    await storage.enqueue([edit(-1, "table v2")])
    await sender.drain()
    api.failures["table v3"] = [TelegramBadRequest(METHOD, "Bad Request: whatever it says")]
    await storage.enqueue([edit(-1, "table v3"), edit(-1, "table v4").model_copy(update={"key": None})])
    await sender.drain()
    assert [(request.kind, request.message_id) for _, request in api.calls] == [
        ("edit", 42),
        ("edit", 42),
        ("send", None),
        ("edit", 101),
    ]
    assert api.checked == [-1], "a group: whether the bot may still write there is asked, not read from the text"
    ref = await storage.get_message_ref(-1, "table")
    assert ref is not None and ref.message_id == 101


async def test_an_edit_without_a_message_yet_is_sent_and_remembered(
    storage: SqliteStorage, sender: Sender, api: FakeApi
) -> None:
    await storage.enqueue([edit(-1, "v1"), edit(-1, "v2", ref="table")])
    await sender.drain()
    assert [(request.kind, request.message_id) for _, request in api.calls] == [("send", None), ("edit", 101)]


async def test_delete_forgets_the_reference(storage: SqliteStorage, sender: Sender, api: FakeApi) -> None:
    await delivered(storage, OutboxMessage(chat_id=7, kind=OutboxKind.SEND, ref="hand:1"), 42)
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


async def test_network_errors_are_retried_with_capped_backoff_and_never_given_up(
    storage: SqliteStorage, sender: Sender, api: FakeApi, fake_time: FakeTime
) -> None:
    """A Bot API down for minutes: every message arrives once it is back, in order (a table waits for them)."""
    api.failures["down"] = [TelegramNetworkError(METHOD, "Request timeout error") for _ in range(40)]
    down, _ = await storage.enqueue([send(6, "down"), send(6, "after")])
    await sender.drain()
    assert api.texts(6) == ["down"] * 41 + ["after"]
    waits = fake_time.waits
    assert waits[:6] == [1.0, 2.0, 4.0, 8.0, 16.0, 30.0] and max(waits) == 30.0, "capped at 30 s"
    item = await storage.get_outbox_item(down)
    assert item is not None and (item.done, item.attempts) == (True, 40)


async def test_a_message_older_than_a_day_is_given_up(
    storage: SqliteStorage, sender: Sender, api: FakeApi, fake_time: FakeTime
) -> None:
    api.failures["stale"] = [TelegramNetworkError(METHOD, "Request timeout error")]
    [row] = await storage.enqueue([send(6, "stale")])
    fake_time.now += WORTH_DELIVERING + 1
    await sender.drain()
    item = await storage.get_outbox_item(row)
    assert item is not None and item.done and (item.last_error or "").startswith("gave up")


async def test_a_group_that_took_the_right_to_write_pauses_until_a_message_gets_through(
    storage: SqliteStorage, sender: Sender, api: FakeApi, paused: list[tuple[str, int]], fake_time: FakeTime
) -> None:
    no_rights = TelegramBadRequest(METHOD, "Bad Request: not enough rights to send text messages to the chat")
    api.failures["move 1"] = [no_rights, no_rights]
    api.access[-1] = Access.READ_ONLY
    await storage.enqueue([send(-1, "move 1"), send(-1, "move 2"), send(5, "hand")])
    await sender.drain()
    assert paused == [("paused", -1)]
    assert api.texts(-1) == ["move 1"] and api.texts(5) == ["hand"], "only the group waits"
    assert [item.payload["text"] for item in await storage.fetch_outbox(fake_time.now + 3600)] == ["move 1", "move 2"]
    fake_time.now += 61
    await sender.drain()
    assert paused == [("paused", -1)], "told once"
    api.access[-1] = Access.WRITE
    fake_time.now += 61
    await sender.drain()
    assert api.texts(-1) == ["move 1", "move 1", "move 1", "move 2"], "in order, once it may"
    assert paused == [("paused", -1), ("writable", -1)]
    assert await pending(storage) == []


@pytest.mark.parametrize("sent", ["a message", "a file"])
async def test_a_rejected_request_is_not_retried(
    storage: SqliteStorage, sender: Sender, api: FakeApi, sent: str
) -> None:
    api.failures["bad"] = [TelegramBadRequest(METHOD, "Bad Request: can't parse entities")]
    first = send(5, "bad") if sent == "a message" else document(5, "bad")
    [bad, _] = await storage.enqueue([first, send(5, "good")])
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
    for chat_id in range(1, 13):
        await pacer.wait(chat_id)
    assert fake_time.now - 1_000.0 == pytest.approx(0.2), "a second's worth at once, then ten a second"


async def test_instances_sharing_the_bot_take_their_share_of_the_bot_wide_budget(fake_time: FakeTime) -> None:
    pacer = Pacer(fake_time.clock, fake_time.sleep, global_per_second=10.0)
    pacer.share(2)  # two instances deliver for this bot (PostgreSQL): five a second each
    for chat_id in range(1, 12):
        await pacer.wait(chat_id)
    assert fake_time.now - 1_000.0 == pytest.approx(1.2), "five at once (a second's worth), then five a second"


async def test_the_bot_wide_budget_goes_to_private_chats_first(fake_time: FakeTime) -> None:
    budget = Budget(fake_time.clock, fake_time.sleep, rate=2.0)
    await budget.acquire(1)
    await budget.acquire(1)
    order: list[str] = []

    async def take(name: str, priority: int) -> None:
        await budget.acquire(priority)
        order.append(name)

    waiting = [asyncio.create_task(take(name, 1 if name.startswith("group") else 0)) for name in ("group a", "group b")]
    await asyncio.sleep(0)
    waiting.append(asyncio.create_task(take("private", 0)))
    await asyncio.gather(*waiting)
    assert order == ["private", "group a", "group b"]


def real_time_sender(storage: SqliteStorage, api: FakeApi) -> Sender:
    """A sender on the real clock, paced at a hundredth of Telegram's time (a group's "minute" is 0.6 s)."""
    pacer = Pacer.scaled(time_now, asyncio.sleep, interval=0.01)

    async def call(request: ApiRequest) -> int | None:
        api.calls.append((time_now(), request))
        return 1

    return Sender(storage, call, pacer=pacer, clock=time_now)


async def test_a_group_out_of_its_minute_holds_up_no_other_chat(tmp_path: Path, api: FakeApi) -> None:
    """Real time, scaled: a group spends its twenty calls per "minute" (0.6 s here) and its next calls wait
    for the window; a private chat and another group meanwhile go at once (with the old pacer, every chat's
    calls were queued behind the group's reserved slot). The storage keeps the sender's clock: with the fixture's
    fake one (1,000 s) no row fell due on a machine up for less than that."""
    async with await SqliteStorage.open(tmp_path / "real-time.sqlite3", clock=time_now) as storage:
        sender = real_time_sender(storage, api)
        await storage.enqueue([send(-1, f"busy {n}") for n in range(25)])
        await sender.pump()
        await asyncio.sleep(0.3)  # the busy group is out of its budget now
        await storage.enqueue([send(5, "hand"), send(-2, "calm group")])
        await sender.drain()
        times = {request.payload["text"]: at for at, request in api.calls}
        assert times["hand"] < times["busy 20"] and times["calm group"] < times["busy 20"]
        assert times["busy 20"] - times["busy 0"] >= 0.6


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


async def test_stop_lets_the_call_under_way_finish(storage: SqliteStorage) -> None:
    started, release = asyncio.Event(), asyncio.Event()
    calls: list[str] = []

    async def slow(request: ApiRequest) -> int | None:
        started.set()
        await release.wait()
        calls.append(str(request.payload["text"]))
        return 1

    sender = Sender(storage, slow, pacer=Pacer(time_now, asyncio.sleep, global_per_second=None))
    [first, _] = await storage.enqueue([send(5, "in flight"), send(5, "next")])
    await sender.pump()
    await started.wait()
    stopping = asyncio.create_task(sender.stop(grace=5.0))
    await asyncio.sleep(0.01)
    release.set()
    await stopping
    assert calls == ["in flight"], "the call under way finished and nothing more was taken"
    item = await storage.get_outbox_item(first)
    assert item is not None and item.done, "and it was recorded"


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


async def test_a_hand_sent_anew_deletes_the_old_one_through_the_outbox(
    storage: SqliteStorage, sender: Sender, api: FakeApi
) -> None:
    # A hand re-sent so that the phone rings replaces the old one: the old one's deletion is queued in the same
    # transaction that records the new message, so a crash between the two calls still deletes it.
    await delivered(storage, send(5, "hand, move 1", ref="hand:1"), message_id=50)
    anew = send(5, "hand, move 2 (your turn)", ref="hand:1").model_copy(update={"replaces": True})
    [row] = await storage.enqueue([anew])
    await sender.drain()
    assert [(r.kind, r.message_id) for _, r in api.calls] == [(OutboxKind.SEND, None), (OutboxKind.DELETE, 50)]
    deletion = await storage.get_outbox_item(row + 1)  # queued by the send's record, not by the bot's commit
    assert deletion is not None and (deletion.kind, deletion.payload, deletion.done) == (
        OutboxKind.DELETE,
        {"message_id": 50},
        True,
    )
    ref = await storage.get_message_ref(5, "hand:1")
    assert ref is not None and ref.message_id == api.next_message_id  # the new message is the live one
    assert await pending(storage) == []


async def test_the_old_hand_s_deletion_takes_no_slot_of_its_chat_s_second(
    storage: SqliteStorage, sender: Sender, api: FakeApi
) -> None:
    # The hand rang anew; the old one goes at once, and the next picture of the new hand waits only for the
    # second after the send, not for another one behind the deletion (the turn after it would show late).
    await delivered(storage, send(5, "hand, move 1", ref="hand:1"), message_id=50)
    anew = send(5, "hand, move 2 (your turn)", ref="hand:1").model_copy(update={"replaces": True})
    await storage.enqueue([anew])
    await sender.drain()
    await storage.enqueue([edit(5, "hand, 7♣ marked", ref="hand:1")])
    await sender.drain()
    [(sent_at, sent), (deleted_at, deleted), (edited_at, edited)] = api.calls
    assert (sent.kind, deleted.kind, edited.kind) == (OutboxKind.SEND, OutboxKind.DELETE, OutboxKind.EDIT)
    assert deleted_at == sent_at, "the deletion does not wait for the chat's next second"
    assert edited_at - sent_at == pytest.approx(1.0), "one second after the send, as if no deletion had come"


async def test_beside_other_instances_a_commit_s_wake_reads_only_its_chats_and_a_poll_reads_every_one(
    storage: SqliteStorage, sender: Sender, api: FakeApi, fake_time: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Where ids do not follow commits (PostgreSQL, instances side by side), reading every pending row after
    # every commit of every instance cost the server most of its work: a wake names the chats it is for.
    monkeypatch.setattr(storage, "ids_in_commit_order", False)
    asked: list[Collection[int] | None] = []
    fetch = storage.fetch_outbox

    async def watched(*args: Any, **kwargs: Any) -> list[OutboxItem]:
        asked.append(kwargs.get("chats"))
        return await fetch(*args, **kwargs)

    monkeypatch.setattr(storage, "fetch_outbox", watched)
    assert await sender.pump() == 0 and asked == [None], "the first look reads the whole outbox"
    await storage.enqueue([send(1, "one"), send(2, "two")])
    sender.notify({2})
    assert await sender.pump() == 1 and asked[-1] == {2}
    sender.notify({7})  # another chat's row: not yet due, or another instance's
    assert await sender.pump() == 0 and asked[-1] == {7}
    fake_time.now += 2.0  # the poll: every chat, however busy the bot is
    assert await sender.pump() == 1 and asked[-1] is None
    await sender.drain()
    assert sorted(request.chat_id for _, request in api.calls) == [1, 2]


def reply(chat_id: int, text: str) -> OutboxMessage:
    """A reply to a command, as `respond` (bot/handlers/common.py) queues it."""
    payload = {"text": text, "reply_parameters": {"message_id": 1, "allow_sending_without_reply": True}}
    return OutboxMessage(chat_id=chat_id, kind=OutboxKind.SEND, payload=payload)


async def test_the_table_s_messages_go_before_replies_queued_before_them(
    storage: SqliteStorage, sender: Sender, api: FakeApi
) -> None:
    await storage.enqueue([reply(-1, "reply 1"), reply(-1, "reply 2")])
    await storage.enqueue([edit(-1, "table", ref="table"), send(-1, "announcement")])
    await storage.enqueue([reply(5, "private reply"), send(5, "hand")])
    await sender.drain()
    assert api.texts(-1) == ["announcement", "table", "reply 1", "reply 2"]
    assert api.texts(5) == ["private reply", "hand"], "a private chat keeps its order: it has no table to wait for"


async def test_a_reply_leaves_the_table_its_group_s_budget(fake_time: FakeTime) -> None:
    """Replies go after two quiet intervals, while the group's window holds fewer than ten calls and fewer than
    five replies; and a reply takes no slot of its chat's second."""
    pacer = Pacer(fake_time.clock, fake_time.sleep, global_per_second=None)
    start = fake_time.now
    await pacer.wait(-1)
    assert pacer.reply_ready_at(-1) == start + 2.0, "two quiet seconds after the table's message"
    fake_time.now += 2.0
    await pacer.wait_budget(-1, reply=True)
    assert pacer.ready_at(-1) == fake_time.now, "the table's next message may go at once"
    for _ in range(8):
        await pacer.wait(-1)
    assert len(pacer._group_calls[-1]) == 10
    assert pacer.reply_ready_at(-1) == pytest.approx(start + 60 * 1.03), "half the group's minute is spent"
    assert pacer.ready_at(-1) == fake_time.now + 1.0, "the table has the other half"

    replies = Pacer(fake_time.clock, fake_time.sleep, global_per_second=None)
    first = fake_time.now
    for _ in range(5):
        await replies.wait_budget(-2, reply=True)
        fake_time.now += 2.0
    assert replies.reply_ready_at(-2) == pytest.approx(first + 60 * 1.03), "five replies a minute at most"
    assert replies.reply_wait(-2) == pytest.approx(first + 60 * 1.03 - fake_time.now)

    unpaced = Pacer(lambda: 0.0, fake_time.sleep, per_chat_interval=0, global_per_second=None, group_limit=10_000)
    for _ in range(100):
        assert unpaced.reply_wait(-3) == 0.0, "the replies' share is a quarter of the group's limit, whatever it is"
        await unpaced.wait_budget(-3, reply=True)


async def test_replies_too_old_or_too_many_are_dropped(
    storage: SqliteStorage, sender: Sender, api: FakeApi, fake_time: FakeTime
) -> None:
    [old] = await storage.enqueue([reply(-1, "old")])
    fake_time.now += 71.0
    first, *_ = await storage.enqueue([reply(-1, f"reply {n}") for n in range(5)])
    await sender.drain()
    assert api.texts(-1) == ["reply 2", "reply 3", "reply 4"], "the newest three that wait"
    item = await storage.get_outbox_item(old)
    assert item is not None and item.done and item.last_error == "a reply too late"
    item = await storage.get_outbox_item(first)
    assert item is not None and item.done and item.last_error == "too many replies waiting"


async def test_replies_dropped_while_the_database_cannot_record_it_wait_for_it(
    storage: SqliteStorage, sender: Sender, api: FakeApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = await storage.enqueue([reply(-1, f"reply {n}") for n in range(5)])
    record = storage.record_delivery
    failing = {ids[1]}

    async def flaky(delivery: Delivery) -> None:
        if delivery.outbox_id in failing:
            raise StorageUnavailable(OSError("database or disk is full"))
        await record(delivery)

    monkeypatch.setattr(storage, "record_delivery", flaky)
    await sender.pump()
    await asyncio.gather(*sender._workers.values())  # the group's worker stops as it should, not on an error
    assert api.texts(-1) == [], "the group waits for the record of its dropped reply"
    failing.clear()
    await sender._record_unrecorded()
    await sender.drain()
    assert api.texts(-1) == ["reply 2", "reply 3", "reply 4"]
    assert await pending(storage) == []


async def test_a_table_message_committed_while_a_reply_waits_for_room_goes_at_once(
    tmp_path: Path, api: FakeApi
) -> None:
    """Real time, scaled (a "minute" of 0.6 s, a reply worth 0.7 s): the table spent half its group's budget,
    so a reply waits for the window; the table's next message, committed meanwhile, goes at once, and the reply
    once the window has room."""
    async with await SqliteStorage.open(tmp_path / "real-time.sqlite3", clock=time_now) as storage:
        sender = real_time_sender(storage, api)
        await storage.enqueue([send(-1, f"table {n}") for n in range(10)])
        await sender.pump()
        await asyncio.sleep(0.4)  # ten calls made: the group's window holds half its twenty for 0.2 s more
        await storage.enqueue([reply(-1, "reply")])
        await sender.pump()
        await asyncio.sleep(0.05)
        assert api.texts(-1)[-1] == "table 9", "the reply waits"
        await storage.enqueue([send(-1, "table 10")])
        await sender.drain()
        times = {request.payload["text"]: at for at, request in api.calls}
        assert api.texts(-1)[-2:] == ["table 10", "reply"]
        assert times["table 10"] - times["table 9"] < 0.5
        assert times["reply"] - times["table 0"] >= 0.6


def table_edit(chat_id: int, text: str) -> OutboxMessage:
    """An edit of the group's live table, keyed as `MoveMessages.table_message` queues it."""
    return OutboxMessage(chat_id=chat_id, kind=OutboxKind.EDIT, payload={"text": text}, ref="table", key="table")


class HeldWindow:
    """A fake sleep that holds a wait for the group's window (over ten seconds) until `go` is set: the worker is
    caught waiting with a row in hand (`waiting` says it is), and the test commits another meanwhile."""

    def __init__(self, time: FakeTime) -> None:
        self.time = time
        self.waiting = asyncio.Event()
        self.go = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        if seconds > 10:
            self.waiting.set()
            await self.go.wait()
        await self.time.sleep(seconds)


async def test_a_call_goes_before_the_table_edits_queued_before_it(
    storage: SqliteStorage, sender: Sender, api: FakeApi, fake_time: FakeTime
) -> None:
    # Issue 37: the group's minute is spent; the table's edit of the move before waits for room, and the call
    # committed after it must not wait behind it (nor behind the edit of its own move).
    await delivered(storage, send(-1, "table, deal 1", ref="table"), message_id=40)
    await storage.enqueue([send(-1, f"filler {n}") for n in range(20)])
    await sender.drain()
    await storage.enqueue([table_edit(-1, "table, trick 5")])
    await storage.enqueue([table_edit(-1, "table, trick 6"), send(-1, "Вика: «Вскрываюсь!»")])
    await sender.drain()
    assert api.texts(-1)[20:] == ["Вика: «Вскрываюсь!»", "table, trick 6"], "the stale edit is skipped too"


async def test_an_announcement_taken_while_an_edit_waits_for_its_turn_goes_first(
    storage: SqliteStorage, api: FakeApi, fake_time: FakeTime
) -> None:
    # The worker took the edit and waits for the group's budget; a call committed meanwhile goes when it comes.
    held = HeldWindow(fake_time)
    pacer = Pacer(fake_time.clock, held.sleep, global_per_second=None)
    sender = Sender(storage, api, clock=fake_time.clock, sleep=held.sleep, pacer=pacer)
    await delivered(storage, send(-1, "table", ref="table"), message_id=40)
    await storage.enqueue([send(-1, f"filler {n}") for n in range(20)])
    await sender.drain()
    await storage.enqueue([table_edit(-1, "table, trick 5")])
    await sender.pump()
    await held.waiting.wait()
    await storage.enqueue([send(-1, "Бура!")])
    await sender.pump()
    held.go.set()
    await sender.drain()
    assert api.texts(-1)[20:] == ["Бура!", "table, trick 5"]


async def test_an_announcement_never_passes_a_send_or_a_pin(
    storage: SqliteStorage, sender: Sender, api: FakeApi
) -> None:
    # A message's own edits follow its send, and a pin its message: news passes only edits.
    pin = OutboxMessage(chat_id=-1, kind=OutboxKind.PIN, ref="table")
    await storage.enqueue([send(-1, "table", ref="table"), pin, table_edit(-1, "table 2"), send(-1, "news")])
    await sender.drain()
    kinds = [(request.kind, request.payload.get("text")) for _, request in api.calls]
    assert kinds == [
        (OutboxKind.SEND, "table"),
        (OutboxKind.PIN, None),
        (OutboxKind.SEND, "news"),
        (OutboxKind.EDIT, "table 2"),
    ]


async def test_in_a_private_chat_the_order_is_kept(storage: SqliteStorage, sender: Sender, api: FakeApi) -> None:
    await delivered(storage, send(5, "hand", ref="hand:1"), message_id=40)
    await storage.enqueue([edit(5, "hand 2", ref="hand:1"), send(5, "note")])
    await sender.drain()
    assert api.texts(5) == ["hand 2", "note"]


def no_pin_right() -> TelegramBadRequest:
    return TelegramBadRequest(METHOD, "Bad Request: not enough rights to manage pinned messages in the chat")


def pin(chat_id: int) -> OutboxMessage:
    return OutboxMessage(chat_id=chat_id, kind=OutboxKind.PIN, ref="table")


@pytest.fixture
def refused_pins() -> list[int]:
    return []


@pytest.fixture
def pin_sender(storage: SqliteStorage, api: FakeApi, fake_time: FakeTime, refused_pins: list[int]) -> Sender:
    async def on_pin_refused(chat_id: int) -> None:
        refused_pins.append(chat_id)

    pacer = Pacer(fake_time.clock, fake_time.sleep, global_per_second=None)
    return Sender(
        storage, api, clock=fake_time.clock, sleep=fake_time.sleep, on_pin_refused=on_pin_refused, pacer=pacer
    )


async def test_a_pin_refused_for_want_of_rights_is_told_once(
    storage: SqliteStorage, pin_sender: Sender, api: FakeApi, refused_pins: list[int]
) -> None:
    api.failures["None"] = [no_pin_right(), no_pin_right()]  # a pin has no text
    [_, pinned] = await storage.enqueue([send(-1, "table 1", ref="table"), pin(-1)])
    await pin_sender.drain()
    await storage.enqueue([send(-1, "table 2", ref="table"), pin(-1)])
    await pin_sender.drain()
    assert refused_pins == [-1], "told once, not at every table"
    row = await storage.get_outbox_item(pinned)
    assert row is not None and row.done and row.last_error is not None and "rights" in row.last_error
    assert await pending(storage) == []


async def test_an_unpinned_table_buried_under_news_goes_to_the_bottom_with_its_next_edit(
    storage: SqliteStorage, pin_sender: Sender, api: FakeApi
) -> None:
    api.failures["None"] = [no_pin_right()]
    await storage.enqueue([send(-1, "table", ref="table"), pin(-1)])
    await pin_sender.drain()
    [old] = [request for _, request in api.calls if request.kind is OutboxKind.SEND]
    await storage.enqueue([send(-1, f"news {n}") for n in range(BURIED_AFTER - 1)])
    await storage.enqueue([table_edit(-1, "table, move 1")])
    await pin_sender.drain()
    assert api.calls[-1][1].kind is OutboxKind.EDIT, "not buried yet: edited in place"
    await storage.enqueue([send(-1, "news, the last straw"), table_edit(-1, "table, move 2")])
    await pin_sender.drain()
    calls = [(request.kind, request.payload.get("text"), request.message_id) for _, request in api.calls[-3:]]
    ref = await storage.get_message_ref(-1, "table")
    assert ref is not None
    assert calls == [
        (OutboxKind.SEND, "news, the last straw", None),
        (OutboxKind.SEND, "table, move 2", None),  # the edit it was, as a new message at the bottom
        (OutboxKind.DELETE, None, api.next_message_id - 1 - BURIED_AFTER),  # the old table goes
    ]
    assert ref.message_id == api.next_message_id and old.payload["text"] == "table"
    await storage.enqueue([table_edit(-1, "table, move 3")])
    await pin_sender.drain()
    assert (api.calls[-1][1].kind, api.calls[-1][1].message_id) == (OutboxKind.EDIT, ref.message_id)
    assert await pending(storage) == []


async def test_a_pinned_table_stays_where_it_is_however_much_news_comes(
    storage: SqliteStorage, pin_sender: Sender, api: FakeApi, refused_pins: list[int]
) -> None:
    await storage.enqueue([send(-1, "table", ref="table"), pin(-1)])
    await storage.enqueue([send(-1, f"news {n}") for n in range(2 * BURIED_AFTER)])
    await storage.enqueue([table_edit(-1, "table, move 1")])
    await pin_sender.drain()
    assert api.calls[-1][1].kind is OutboxKind.EDIT and refused_pins == []


async def test_the_table_s_edits_leave_a_reserve_of_the_group_s_minute_to_its_news(fake_time: FakeTime) -> None:
    pacer = Pacer(fake_time.clock, fake_time.sleep, global_per_second=None)
    for _ in range(GROUP_LIMIT - NEWS_RESERVE):
        await pacer.wait(-1)
    now = fake_time.now
    assert pacer.ready_at(-1) == pytest.approx(now + 1.0), "news: the chat's next second"
    assert pacer.ready_at(-1, edit=True) > now + 40, "an edit: once the window has room beyond the reserve"
    assert pacer.ready_at(5, edit=True) == now, "a private chat has no group budget"


async def test_a_call_committed_while_an_edit_waits_for_room_goes_at_once(
    storage: SqliteStorage, api: FakeApi, fake_time: FakeTime
) -> None:
    # Issue 37: «Вскрываюсь!» committed at 41 s reached the group at 70 s. The edit the worker holds waits for
    # the group's window; the call wakes it, and goes within the reserve the edits leave it.
    held = HeldWindow(fake_time)
    pacer = Pacer(fake_time.clock, held.sleep, global_per_second=None)
    sender = Sender(storage, api, clock=fake_time.clock, sleep=held.sleep, pacer=pacer)
    await delivered(storage, send(-1, "table", ref="table"), message_id=40)
    await storage.enqueue([send(-1, f"move {n}") for n in range(GROUP_LIMIT - NEWS_RESERVE)])
    await sender.drain()
    started = api.calls[0][0]
    await storage.enqueue([table_edit(-1, "table, trick 7")])
    await sender.pump()
    await held.waiting.wait()
    committed = fake_time.now
    await storage.enqueue([send(-1, "Вика: «Вскрываюсь!»")])
    await sender.pump()
    for _ in range(50):
        if len(api.calls) > GROUP_LIMIT - NEWS_RESERVE:
            break
        await asyncio.sleep(0)
    held.go.set()
    await sender.drain()
    (called_at, call), (edited_at, edit_) = api.calls[-2:]
    assert (call.payload["text"], edit_.payload["text"]) == ("Вика: «Вскрываюсь!»", "table, trick 7")
    assert called_at - committed <= 1.0, "the call does not wait for the edit's room"
    assert edited_at >= started + 60.0, "the edit waits for the group's window"


async def test_replies_to_commands_take_the_news_reserve_not_the_table_s_share(fake_time: FakeTime) -> None:
    """A member's commands must not slow the table (issue 35): the replies in a group's window count against the
    reserve the edits leave to news, so the edits still have their sixteen calls."""
    pacer = Pacer(fake_time.clock, fake_time.sleep, global_per_second=None)
    for _ in range(4):
        fake_time.now += 5.0
        await pacer.wait_budget(-1, reply=True)
    for _ in range(GROUP_LIMIT - NEWS_RESERVE - 1):
        await pacer.wait(-1)
    assert pacer.ready_at(-1, edit=True) == pytest.approx(fake_time.now + 1.0), "the table's 16th call"
    await pacer.wait(-1)
    assert pacer.ready_at(-1, edit=True) > fake_time.now + 30, "then the window is full for edits"


async def test_a_pin_the_bot_may_not_make_is_not_asked_of_telegram(
    storage: SqliteStorage, api: FakeApi, fake_time: FakeTime, refused_pins: list[int]
) -> None:
    async def on_pin_refused(chat_id: int) -> None:
        refused_pins.append(chat_id)

    async def may_pin(chat_id: int) -> bool | None:
        return chat_id == -2  # an admin in -2 only

    pacer = Pacer(fake_time.clock, fake_time.sleep, global_per_second=None)
    sender = Sender(
        storage,
        api,
        clock=fake_time.clock,
        sleep=fake_time.sleep,
        on_pin_refused=on_pin_refused,
        may_pin=may_pin,
        pacer=pacer,
    )
    for chat_id in (-1, -2):
        await storage.enqueue([send(chat_id, "table", ref="table"), pin(chat_id)])
        await sender.drain()
    assert [(request.chat_id, request.kind) for _, request in api.calls if request.kind is OutboxKind.PIN] == [
        (-2, OutboxKind.PIN)
    ]
    assert refused_pins == [-1]


async def test_a_table_the_bot_could_not_pin_is_not_unpinned(
    storage: SqliteStorage, pin_sender: Sender, api: FakeApi
) -> None:
    api.failures["None"] = [no_pin_right()]
    await storage.enqueue([send(-1, "table", ref="table"), pin(-1)])
    await pin_sender.drain()
    await storage.enqueue([OutboxMessage(chat_id=-1, kind=OutboxKind.UNPIN, ref="table")])
    await pin_sender.drain()
    assert [request.kind for _, request in api.calls] == [OutboxKind.SEND, OutboxKind.PIN], "no unpin asked"


# -- a hand shown to one member alone in a group (ephemeral messages; issue 37) ---------------------------------


def in_group(user: int, text: str, kind: OutboxKind = OutboxKind.EDIT, query: str | None = None) -> OutboxMessage:
    where: dict[str, Any] = {"chat_id": -5}
    if query is not None:
        where["callback_query_id"] = query
    return OutboxMessage(
        chat_id=user,
        kind=kind,
        payload={"text": text, "ephemeral": where},
        ref="in-group:7",
        key=f"in-group:7:{user}",
        replaces=kind is OutboxKind.SEND,
    )


async def test_a_hand_in_the_group_is_only_edited_never_sent_unasked(
    storage: SqliteStorage, sender: Sender, api: FakeApi
) -> None:
    # Nobody asked for it (no «🃏 Мои карты» tap): the edit has no message and is not turned into a send.
    await storage.enqueue([in_group(1, "hand 1"), send(1, "private")])
    await sender.drain()
    assert api.texts(1) == ["private"]
    assert await pending(storage) == []


async def test_a_hand_in_the_group_is_sent_on_a_tap_then_edited_in_place(
    storage: SqliteStorage, sender: Sender, api: FakeApi, fake_time: FakeTime
) -> None:
    await storage.enqueue([in_group(1, "hand 1", OutboxKind.SEND, query="q1")])
    await sender.drain()
    [(_, sent)] = api.calls
    assert sent.kind is OutboxKind.SEND and sent.payload["ephemeral"] == {"chat_id": -5, "callback_query_id": "q1"}
    started = fake_time.now
    await storage.enqueue([in_group(1, "hand 2"), edit(1, "private hand", ref="hand:7")])
    await sender.drain()
    edited = api.calls[1][1]
    assert edited.kind is OutboxKind.EDIT and edited.message_id == 101, "the id the send got (the fake counts from 101)"
    assert api.texts(1) == ["hand 1", "hand 2", "private hand"]
    assert api.calls[1][0] == started + 1.0, "a pace of its own: one a second, as a chat, after the send"
    assert api.calls[2][0] == api.calls[1][0], "and no slot of the private chat's: its hand goes at once after"


async def test_a_hand_in_the_group_refused_is_forgotten_and_says_nothing_of_the_private_chat(
    storage: SqliteStorage, sender: Sender, api: FakeApi, reports: list[Unreachable]
) -> None:
    await storage.enqueue([in_group(1, "hand 1", OutboxKind.SEND, query="q1")])
    await sender.drain()
    await storage.enqueue([in_group(1, "hand 2")])
    await sender.drain()  # the first edit after the send: made
    api.failures["hand 3"] = [TelegramBadRequest(METHOD, "Bad Request: message to edit not found")]
    api.failures["hand 4"] = [TelegramForbiddenError(METHOD, "Forbidden: bot was kicked from the group chat")]
    await storage.enqueue([in_group(1, "hand 3"), send(1, "private")])
    await sender.drain()
    assert await storage.get_message_ref(1, "in-group:7") is None, "expired: forgotten"
    await storage.enqueue([in_group(1, "hand 4"), send(1, "private 2")])
    await sender.drain()
    assert api.texts(1) == ["hand 1", "hand 2", "hand 3", "private", "private 2"], "no longer edited once gone"
    assert reports == [] and api.checked == [], "neither the player nor the group is taken as unreachable"
    user = await storage.get_user(1)
    assert user is None or not user.blocked


async def test_a_hand_in_the_group_whose_tap_is_too_old_is_shown_without_it(
    storage: SqliteStorage, sender: Sender, api: FakeApi
) -> None:
    api.failures["hand 1"] = [TelegramBadRequest(METHOD, "Bad Request: query is too old")]
    await storage.enqueue([in_group(1, "hand 1", OutboxKind.SEND, query="q1")])
    await sender.drain()
    first, second = (request for _, request in api.calls)
    assert first.payload["ephemeral"] == {"chat_id": -5, "callback_query_id": "q1"}
    assert second.payload["ephemeral"] == {"chat_id": -5}
    assert (ref := await storage.get_message_ref(1, "in-group:7")) is not None and ref.message_id is not None


async def test_a_hand_in_the_group_asked_for_again_replaces_the_one_shown(
    storage: SqliteStorage, sender: Sender, api: FakeApi
) -> None:
    await storage.enqueue([in_group(1, "hand 1", OutboxKind.SEND, query="q1")])
    await sender.drain()
    old = await storage.get_message_ref(1, "in-group:7")
    await storage.enqueue([in_group(1, "hand 1 again", OutboxKind.SEND, query="q2")])
    await sender.drain()
    deletion = api.calls[-1][1]
    assert old is not None and deletion.kind is OutboxKind.DELETE and deletion.message_id == old.message_id
    assert deletion.payload["ephemeral"] == {"chat_id": -5}, "deleted in the group, not in the private chat"


# -- files: a document, its content in the row (`UPLOAD` in bot/telegram/calls.py) ----------------------------


async def test_a_file_is_a_send_like_any_other_in_its_chats_order_and_pace(
    storage: SqliteStorage, sender: Sender, api: FakeApi
) -> None:
    await storage.enqueue([send(5, "before"), document(5, "file"), send(5, "after")])
    await storage.enqueue([document(-1, f"file {n}") for n in range(GROUP_LIMIT + 1)])
    await sender.drain()
    assert api.texts(5) == ["before", "file", "after"]
    private = [at for at, request in api.calls if request.chat_id == 5]
    assert all(later - earlier >= 1.0 for earlier, later in itertools.pairwise(private))
    [file] = [request for _, request in api.calls if request.chat_id == 5 and UPLOAD in request.payload]
    assert file.kind is OutboxKind.SEND
    assert file.payload[UPLOAD] == {"filename": "bura-match-7.json", "mime_type": "application/json", "text": EXPORT}
    group = [at for at, request in api.calls if request.chat_id == -1]
    assert group[GROUP_LIMIT] - group[0] >= 60.0, "a file counts in the group's minute as a message does"
    # A file answering a command in a group is a reply, and waits for the table's messages as replies do.
    assert is_reply(document(-1, "export", reply_to=3)) and not is_reply(document(-1, "news"))
    assert await pending(storage) == []


async def test_a_file_telegram_answered_is_never_sent_again(
    storage: SqliteStorage, sender: Sender, api: FakeApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Retried while the network fails; once Telegram answered, sent once, even when the database cannot record
    it at first (the chat waits for the record, and the file is not sent again meanwhile)."""
    api.failures["file"] = [TelegramNetworkError(METHOD, "Request timeout error") for _ in range(2)]
    [row, after] = await storage.enqueue([document(5, "file"), send(5, "after")])
    record = storage.record_delivery
    failing = {row}

    async def flaky(delivery: Delivery) -> None:
        if delivery.outbox_id in failing:
            raise StorageUnavailable(OSError("database or disk is full"))
        await record(delivery)

    monkeypatch.setattr(storage, "record_delivery", flaky)
    await sender.drain()
    assert api.texts(5) == ["file", "file", "file"], "two timeouts, then Telegram's answer"
    await sender.drain()
    assert api.texts(5) == ["file", "file", "file"], "not again, and the chat waits for its record"
    failing.clear()
    await sender._record_unrecorded()
    await sender.drain()
    await sender.drain()
    assert api.texts(5) == ["file", "file", "file", "after"]
    item = await storage.get_outbox_item(row)
    assert item is not None and item.done and item.last_error is None
    assert await pending(storage) == [] and after


def test_the_outbox_carries_files_of_a_megabyte_at_most() -> None:
    fits = "я" * (UPLOAD_MOST // 2)  # two bytes each in UTF-8: the cap counts bytes, not characters
    assert document_message(5, "big.json", fits, "").payload[UPLOAD]["text"] == fits
    with pytest.raises(ValueError, match="at most"):
        document_message(5, "big.json", fits + "я", "")


async def test_a_file_row_reaches_telegram_as_an_uploaded_document(
    storage: SqliteStorage, fake_time: FakeTime, bot: Bot, tg: FakeTelegram
) -> None:
    """The production call: sendDocument as multipart/form-data, the file a part with its name and type, the
    caption HTML, a silent reply to the command (the fake takes a file from a multipart form only)."""
    anna = tg.user("Аня")
    tg.start_bot(anna)
    chat = tg.private_chat(anna)
    command = tg.send_message(anna, chat, "/verify export")
    caption = "🔐 <b>Матч 7</b>: <code>python -m engine.verify bura-match-7.json</code>"
    sender = Sender(storage, bot_api_call(BotApi(bot)), clock=fake_time.clock, sleep=fake_time.sleep)
    [row] = await storage.enqueue([document(anna.id, caption, reply_to=command.message_id)])
    await sender.drain()
    shown = tg.last_message(chat, from_bot=True)
    assert shown is not None and shown.document is not None
    assert (shown.document.file_name, shown.document.mime_type) == ("bura-match-7.json", "application/json")
    assert tg.document(shown) == EXPORT.encode()
    assert shown.caption == "🔐 Матч 7: python -m engine.verify bura-match-7.json"
    assert [entity["type"] for entity in shown.caption_entities] == ["bold", "code"]
    assert shown.reply_to is command and not shown.notified
    [request] = tg.calls("sendDocument")
    assert request.ok and UPLOAD not in request.params
    item = await storage.get_outbox_item(row)
    assert item is not None and item.done and item.last_error is None
    # Refused as Telegram refuses it (aiogram's exception, from the upload's reply): recorded, not retried.
    [refused] = await storage.enqueue([document(anna.id, "я" * 1025)])
    await sender.drain()
    item = await storage.get_outbox_item(refused)
    assert item is not None and item.done and item.last_error == "Bad Request: message caption is too long"
    assert len(tg.calls("sendDocument")) == 2
