"""The SQLite repository: migrations, one-transaction moves, optimistic versions, dedupe, the outbox."""

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import (
    OpenTableExistsError,
    OutboxKind,
    OutboxMessage,
    Seat,
    SqliteStorage,
    StaleVersion,
    StatsDelta,
    TableNotFoundError,
    TableStatus,
    UpdateAlreadyProcessedError,
)
from bot.storage.migrations import MIGRATIONS


class FakeClock:
    def __init__(self, now: float = 1_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def storage(tmp_path: Path, clock: FakeClock) -> AsyncIterator[SqliteStorage]:
    async with await SqliteStorage.open(tmp_path / "bura.sqlite3", clock=clock) as opened:
        yield opened


def table_message(chat_id: int, text: str) -> OutboxMessage:
    return OutboxMessage(
        chat_id=chat_id, kind=OutboxKind.EDIT, ref="table", key=f"table-msg:{chat_id}", payload={"text": text}
    )


async def test_open_creates_the_folder_and_the_file(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "deeper" / "bura.sqlite3"
    async with await SqliteStorage.open(path):
        pass
    assert path.is_file()


async def test_wal_and_foreign_keys_are_on(tmp_path: Path) -> None:
    path = tmp_path / "bura.sqlite3"
    async with await SqliteStorage.open(path) as storage:
        await storage.ping()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # foreign keys are per connection: check ours enforces them
    async with await SqliteStorage.open(path) as storage:
        with pytest.raises(sqlite3.IntegrityError):
            await storage.enqueue([OutboxMessage(chat_id=1, kind=OutboxKind.SEND, table_id=999)])


async def test_migrations_are_applied_once_and_reopening_keeps_the_data(tmp_path: Path) -> None:
    path = tmp_path / "bura.sqlite3"
    async with await SqliteStorage.open(path) as storage:
        await storage.upsert_chat(-100, language="en")
    async with await SqliteStorage.open(path) as storage:
        chat = await storage.get_chat(-100)
    assert chat is not None
    assert chat.language == "en"
    with sqlite3.connect(path) as db:
        versions = [row[0] for row in db.execute("SELECT version FROM schema_version ORDER BY version")]
    assert versions == [number for number, _, _ in MIGRATIONS]


async def test_checkpoint_copies_the_log_back_off_the_event_loop(tmp_path: Path) -> None:
    path = tmp_path / "bura.sqlite3"
    async with await SqliteStorage.open(path) as storage:
        for chat in range(20):
            await storage.create_table(-chat - 1, creator_id=7, settings={"n": chat})
        assert await storage.checkpoint() > 0
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM tables").fetchone() == (20,)


async def test_close_waits_for_a_checkpoint_whose_caller_was_cancelled(tmp_path: Path) -> None:
    storage = await SqliteStorage.open(tmp_path / "bura.sqlite3")
    for chat in range(50):
        await storage.create_table(-chat - 1, creator_id=7, settings={"n": chat})
    caller = asyncio.create_task(storage.checkpoint())
    await asyncio.sleep(0)  # the thread has started
    caller.cancel()
    await storage.close()  # neither raises nor closes the connection under the running checkpoint
    await storage.close()  # a second close does nothing
    assert caller.cancelled()
    async with await SqliteStorage.open(tmp_path / "bura.sqlite3") as again:
        assert await again.checkpoint() >= 0
        assert await again.get_open_table(-50) is not None


def test_a_failing_migration_leaves_the_previous_version(tmp_path: Path) -> None:
    from bot.storage.migrations import current_version, migrate

    db = sqlite3.connect(tmp_path / "x.sqlite3", isolation_level=None)
    try:
        broken = (*MIGRATIONS, (99, "broken", ("CREATE TABLE extra (x INTEGER)", "NOT SQL")))
        with pytest.raises(sqlite3.OperationalError):
            migrate(db, 0.0, broken)
        assert current_version(db) == MIGRATIONS[-1][0]
        assert db.execute("SELECT name FROM sqlite_master WHERE name = 'extra'").fetchone() is None
    finally:
        db.close()


async def test_create_table_opens_a_lobby_with_seats(storage: SqliteStorage) -> None:
    table = await storage.create_table(
        -100, creator_id=7, settings={"variant": "bura"}, seats=[Seat(seat=0, user_id=7, name="Аня")]
    )
    assert table.status is TableStatus.LOBBY
    assert table.version == 0
    assert table.state is None
    assert table.seats == (Seat(seat=0, user_id=7, name="Аня"),)
    assert await storage.get_open_table(-100) == table
    with pytest.raises(OpenTableExistsError):
        await storage.create_table(-100, creator_id=8, settings={})


async def test_commit_move_stores_state_events_outbox_and_bumps_the_version(storage: SqliteStorage) -> None:
    table = await storage.create_table(-100, creator_id=7, settings={})
    seats = [Seat(seat=0, user_id=7, name="Аня"), Seat(seat=1, user_id=None, name="Компьютер")]
    moved = await storage.commit_move(
        table.table_id,
        expected_version=0,
        new_state_json='{"phase": "play"}',
        events=[{"type": "dealt"}, {"type": "led", "seat": 0}],
        outbox=[table_message(-100, "стол")],
        update_id=500,
        status=TableStatus.PLAYING,
        seats=seats,
        deadline=1_060.0,
        stats=[StatsDelta(chat_id=-100, user_id=7, deals_played=1)],
    )
    assert moved.version == 1
    assert moved.state == '{"phase": "play"}'
    assert moved.status is TableStatus.PLAYING
    assert [seat.user_id for seat in moved.seats] == [7, None]
    assert [(event.seq, event.payload["type"]) for event in await storage.get_events(table.table_id)] == [
        (1, "dealt"),
        (2, "led"),
    ]
    [item] = await storage.fetch_outbox(now=2_000.0)
    assert (item.chat_id, item.kind, item.payload, item.table_id) == (-100, "edit", {"text": "стол"}, 1)
    assert await storage.is_update_processed(500)
    assert [(timer.table_id, timer.move_no) for timer in await storage.due_timers(2_000.0)] == [(1, 1)]
    assert (await storage.get_stats(-100, 7)).deals_played == 1

    again = await storage.commit_move(table.table_id, 1, None, events=[{"type": "beat"}])
    assert again.state == '{"phase": "play"}', "None keeps the state"
    assert [event.seq for event in await storage.get_events(table.table_id, after_seq=2)] == [3]
    assert await storage.due_timers(2_000.0) == [], "a move without a deadline clears the stale timer"


async def test_commit_move_with_a_stale_version_writes_nothing(storage: SqliteStorage) -> None:
    table = await storage.create_table(-100, creator_id=7, settings={})
    await storage.commit_move(table.table_id, 0, '{"n": 1}')
    with pytest.raises(StaleVersion) as raised:
        await storage.commit_move(
            table.table_id, 0, '{"n": 2}', events=[{"x": 1}], outbox=[table_message(-100, "x")], update_id=9
        )
    assert (raised.value.expected, raised.value.actual) == (0, 1)
    current = await storage.get_table(table.table_id)
    assert current is not None
    assert (current.version, current.state) == (1, '{"n": 1}')
    assert await storage.get_events(table.table_id) == []
    assert await storage.fetch_outbox(now=2_000.0) == []
    assert not await storage.is_update_processed(9), "a rejected move may be retried with the same update"


async def test_commit_move_is_atomic_when_it_fails_in_the_middle(storage: SqliteStorage) -> None:
    table = await storage.create_table(-100, creator_id=7, settings={})
    assert await storage.mark_update_processed(42)
    # The table row, events and outbox are written before the update id clashes at the end.
    with pytest.raises(UpdateAlreadyProcessedError):
        await storage.commit_move(
            table.table_id,
            0,
            '{"n": 1}',
            events=[{"x": 1}],
            outbox=[table_message(-100, "x")],
            update_id=42,
            status=TableStatus.PLAYING,
            seats=[Seat(seat=0, user_id=7, name="Аня")],
            deadline=5.0,
            stats=[StatsDelta(chat_id=-100, user_id=7, deals_won=1)],
        )
    current = await storage.get_table(table.table_id)
    assert current == table
    assert await storage.get_events(table.table_id) == []
    assert await storage.fetch_outbox(now=2_000.0) == []
    assert await storage.due_timers(10.0) == []
    assert (await storage.get_stats(-100, 7)).deals_won == 0


async def test_commit_move_on_a_missing_table(storage: SqliteStorage) -> None:
    with pytest.raises(TableNotFoundError):
        await storage.commit_move(404, 0, "{}")


async def test_a_redelivered_update_is_applied_once(storage: SqliteStorage) -> None:
    assert await storage.mark_update_processed(1)
    assert not await storage.mark_update_processed(1)
    await storage.enqueue([OutboxMessage(chat_id=5, kind=OutboxKind.SEND, payload={"text": "hi"})], 2)
    with pytest.raises(UpdateAlreadyProcessedError):
        await storage.enqueue([OutboxMessage(chat_id=5, kind=OutboxKind.SEND, payload={"text": "hi"})], 2)
    assert len(await storage.fetch_outbox(now=2_000.0)) == 1


async def test_prune_processed_updates(storage: SqliteStorage, clock: FakeClock) -> None:
    await storage.mark_update_processed(1)
    clock.now += 100
    await storage.mark_update_processed(2)
    assert await storage.prune_processed_updates(older_than=clock.now - 50) == 1
    assert not await storage.is_update_processed(1)
    assert await storage.is_update_processed(2)


async def test_outbox_fetch_in_order_and_mark_done(storage: SqliteStorage) -> None:
    ids = await storage.enqueue(
        [OutboxMessage(chat_id=chat, kind=OutboxKind.SEND, payload={"n": n}) for n, chat in enumerate([1, 2])]
        + [OutboxMessage(chat_id=1, kind=OutboxKind.SEND, payload={"n": 2})]
    )
    assert [item.id for item in await storage.fetch_outbox(now=2_000.0)] == ids
    assert [item.id for item in await storage.fetch_outbox(now=2_000.0, after=ids[0])] == ids[1:]
    assert [item.id for item in await storage.fetch_outbox(now=2_000.0, limit=1, skip=[ids[0]])] == [ids[1]]
    await storage.mark_outbox_done(ids[0])
    await storage.mark_outbox_done(ids[1], error="chat not found")
    assert [item.id for item in await storage.fetch_outbox(now=2_000.0)] == [ids[2]]
    failed = await storage.get_outbox_item(ids[1])
    assert failed is not None
    assert failed.done
    assert failed.last_error == "chat not found"


async def test_outbox_fetch_leaves_out_the_rows_being_delivered(storage: SqliteStorage) -> None:
    ids = await storage.enqueue([OutboxMessage(chat_id=chat, kind=OutboxKind.SEND) for chat in (1, 2, 3, 4)])
    assert [item.id for item in await storage.fetch_outbox(now=2_000.0, limit=2)] == ids[:2]
    assert [item.id for item in await storage.fetch_outbox(now=2_000.0, limit=2, skip=set(ids[:2]))] == ids[2:]
    assert await storage.fetch_outbox(now=2_000.0, skip=set(ids)) == []


async def test_outbox_retry_holds_back_the_rest_of_its_chat(storage: SqliteStorage, clock: FakeClock) -> None:
    first, second, other = await storage.enqueue(
        [OutboxMessage(chat_id=chat, kind=OutboxKind.SEND) for chat in (1, 1, 2)]
    )
    assert await storage.schedule_outbox_retry(first, next_attempt_at=clock.now + 30, error="timeout") == 1
    # chat 1 waits for its first message; chat 2 goes on
    assert [item.id for item in await storage.fetch_outbox(now=clock.now)] == [other]
    due = await storage.fetch_outbox(now=clock.now + 30)
    assert [item.id for item in due] == [first, second, other]
    assert (due[0].attempts, due[0].last_error) == (1, "timeout")
    assert await storage.schedule_outbox_retry(first, next_attempt_at=clock.now + 90, error="timeout") == 2


async def test_outbox_key_supersedes_a_pending_edit(storage: SqliteStorage) -> None:
    await storage.enqueue([table_message(-1, "old")])
    await storage.enqueue([table_message(-1, "new"), table_message(-2, "other")])
    due = await storage.fetch_outbox(now=2_000.0)
    assert [(item.chat_id, item.payload["text"]) for item in due] == [(-1, "new"), (-2, "other")]


async def test_outbox_key_supersedes_within_one_batch_and_ids_come_in_order(storage: SqliteStorage) -> None:
    ids = await storage.enqueue(
        [table_message(-1, "first"), OutboxMessage(chat_id=5, kind=OutboxKind.SEND), table_message(-1, "second")]
    )
    assert ids == sorted(ids) and len(set(ids)) == 3
    due = await storage.fetch_outbox(now=2_000.0)
    assert [(item.id, item.chat_id, item.payload.get("text")) for item in due] == [
        (ids[1], 5, None),
        (ids[2], -1, "second"),
    ]


async def test_events_are_numbered_on_across_commits(storage: SqliteStorage) -> None:
    table = await storage.create_table(-100, creator_id=7, settings={})
    other = await storage.create_table(-200, creator_id=8, settings={})
    await storage.commit_move(table.table_id, 0, None, events=[{"n": 1}, {"n": 2}, {"n": 3}])
    await storage.commit_move(other.table_id, 0, None, events=[{"n": 1}])
    await storage.commit_move(table.table_id, 1, None, events=[{"n": 4}, {"n": 5}])
    events = await storage.get_events(table.table_id)
    assert [(event.seq, event.payload["n"]) for event in events] == [(n, n) for n in range(1, 6)]
    assert [event.seq for event in await storage.get_events(other.table_id)] == [1]


async def test_cancel_outbox_for_chat(storage: SqliteStorage) -> None:
    await storage.enqueue([OutboxMessage(chat_id=chat, kind=OutboxKind.SEND) for chat in (1, 1, 2)])
    assert await storage.cancel_outbox_for_chat(1, "forbidden") == 2
    assert [item.chat_id for item in await storage.fetch_outbox(now=2_000.0)] == [2]


async def test_message_refs(storage: SqliteStorage) -> None:
    assert await storage.get_message_ref(-1, "table") is None
    await storage.set_message_ref(-1, "table", 10)
    await storage.set_message_ref(-1, "table", 11)
    assert await storage.get_message_ref(-1, "table") == 11
    await storage.delete_message_ref(-1, "table")
    assert await storage.get_message_ref(-1, "table") is None


async def test_migrate_chat_moves_tables_refs_and_pending_messages(storage: SqliteStorage) -> None:
    await storage.upsert_chat(-1, language="en")
    table = await storage.create_table(-1, creator_id=7, settings={})
    await storage.set_message_ref(-1, "table", 10)
    await storage.enqueue([table_message(-1, "x")])
    await storage.migrate_chat(-1, -1001)
    old, new = await storage.get_chat(-1), await storage.get_chat(-1001)
    assert old is not None
    assert new is not None
    assert old.migrated_to == -1001
    assert new.language == "en"
    moved = await storage.get_table(table.table_id)
    assert moved is not None
    assert moved.chat_id == -1001
    assert await storage.get_message_ref(-1001, "table") == 10
    assert [item.chat_id for item in await storage.fetch_outbox(now=2_000.0)] == [-1001]


async def test_users_and_flags(storage: SqliteStorage) -> None:
    user = await storage.upsert_user(7, "Аня", language="ru")
    assert (user.started_bot, user.blocked) == (False, False)
    await storage.set_user_started(7)
    await storage.set_user_blocked(7)
    renamed = await storage.upsert_user(7, "Анна")
    assert (renamed.name, renamed.language) == ("Анна", "ru"), "a missing language keeps the known one"
    assert (renamed.started_bot, renamed.blocked) == (True, True)
    await storage.set_user_blocked(8)
    stranger = await storage.get_user(8)
    assert stranger is not None
    assert stranger.blocked


async def test_stats_accumulate_and_rank(storage: SqliteStorage) -> None:
    table = await storage.create_table(-1, creator_id=7, settings={})
    await storage.commit_move(
        table.table_id,
        0,
        None,
        stats=[
            StatsDelta(chat_id=-1, user_id=7, deals_won=1, matches_won=1),
            StatsDelta(chat_id=-1, user_id=8, deals_won=2),
        ],
    )
    await storage.commit_move(table.table_id, 1, None, stats=[StatsDelta(chat_id=-1, user_id=8, buras=1)])
    assert [(s.user_id, s.deals_won, s.buras) for s in await storage.top_stats(-1)] == [(7, 1, 0), (8, 2, 1)]


async def test_finished_tables_free_the_chat(storage: SqliteStorage) -> None:
    table = await storage.create_table(-1, creator_id=7, settings={})
    await storage.commit_move(table.table_id, 0, None, status=TableStatus.FINISHED)
    assert await storage.get_open_table(-1) is None
    assert [t.table_id for t in await storage.list_tables(TableStatus.FINISHED)] == [table.table_id]
    await storage.create_table(-1, creator_id=8, settings={})
