"""What only PostgreSQL has to hold: several instances on one database (the contract itself runs on it too, in
test_contract.py). Every test runs against a real server (tests/postgres.py)."""

from __future__ import annotations

import asyncio
import socket
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bot.storage import (
    Deadline,
    Delivery,
    OutboxKind,
    OutboxMessage,
    StaleVersion,
    StartupRefused,
    StorageUnavailable,
)
from bot.storage.faults import FaultHooks
from bot.storage.postgres import PostgresStorage
from bot.storage.postgres.database import LOCK_TIMEOUT_MS
from bot.storage.postgres.migrations import LATEST, MIGRATION_LOCK
from bot.storage.postgres.rows import LEASE_SECONDS, RENEW_EVERY
from bot.storage.postgres.timers import CLAIM_SECONDS
from tests.bot.storage.conftest import FakeClock, table_message
from tests.postgres import fresh_database


@pytest.fixture
async def url() -> str:
    return await fresh_database()


@pytest.fixture
async def pair(url: str, clock: FakeClock) -> AsyncIterator[tuple[PostgresStorage, PostgresStorage]]:
    """Two instances of the bot on one database."""
    async with (
        await PostgresStorage.open(url, clock=clock, instance="a") as a,
        await PostgresStorage.open(url, clock=clock, instance="b") as b,
    ):
        yield a, b


def sends(*chats: int) -> list[OutboxMessage]:
    return [OutboxMessage(chat_id=chat, kind=OutboxKind.SEND, payload={"n": n}) for n, chat in enumerate(chats)]


async def test_a_chat_s_messages_go_to_one_instance_at_a_time(
    pair: tuple[PostgresStorage, PostgresStorage], clock: FakeClock
) -> None:
    a, b = pair
    ids = await a.enqueue(sends(1, 2, 1))
    taken_by_a = [item.id for item in await a.fetch_outbox(now=clock.now)]
    assert taken_by_a == ids, "the first to ask takes both chats"
    assert await b.fetch_outbox(now=clock.now) == [], "chats held by a are not b's"
    more = await b.enqueue(sends(2, 3))
    assert [item.id for item in await b.fetch_outbox(now=clock.now, skip=taken_by_a)] == [more[1]], "chat 3 is free"
    assert [item.id for item in await a.fetch_outbox(now=clock.now, skip=taken_by_a)] == [more[0]], (
        "a row b committed for a chat a holds goes to a"
    )


async def test_a_dead_instance_s_chats_are_taken_over_when_its_lease_runs_out(
    pair: tuple[PostgresStorage, PostgresStorage], clock: FakeClock
) -> None:
    a, b = pair
    [row] = await a.enqueue(sends(1))
    assert [item.id for item in await a.fetch_outbox(now=clock.now)] == [row]
    # a stops answering (killed): its row is still pending, and b may not touch it while the lease lasts
    assert await b.fetch_outbox(now=clock.now + LEASE_SECONDS - 1) == []
    assert [item.id for item in await b.fetch_outbox(now=clock.now + LEASE_SECONDS)] == [row]
    assert await a.fetch_outbox(now=clock.now + LEASE_SECONDS) == [], "and a, if it comes back, has lost it"


async def test_a_chat_whose_row_is_still_being_delivered_stays_with_its_instance(
    pair: tuple[PostgresStorage, PostgresStorage], clock: FakeClock
) -> None:
    a, b = pair
    [row] = await a.enqueue(sends(1))
    assert [item.id for item in await a.fetch_outbox(now=clock.now)] == [row]
    for _ in range(10):  # a retries that row for a long while (Telegram is down) and asks for more meanwhile
        clock.now += RENEW_EVERY
        assert await a.fetch_outbox(now=clock.now, skip=[row]) == []
        assert await b.fetch_outbox(now=clock.now) == [], "b never takes the chat a is delivering to"


async def test_an_instance_that_stops_lets_go_of_its_chats_at_once(url: str, clock: FakeClock) -> None:
    async with await PostgresStorage.open(url, clock=clock, instance="b") as b:
        async with await PostgresStorage.open(url, clock=clock, instance="a") as a:
            [row] = await a.enqueue(sends(1))
            assert [item.id for item in await a.fetch_outbox(now=clock.now)] == [row]
        assert [item.id for item in await b.fetch_outbox(now=clock.now)] == [row]


async def test_instances_asking_together_never_both_take_a_chat(
    pair: tuple[PostgresStorage, PostgresStorage], clock: FakeClock
) -> None:
    a, b = pair
    await a.enqueue(sends(*range(1, 41)))
    got_a, got_b = await asyncio.gather(a.fetch_outbox(now=clock.now), b.fetch_outbox(now=clock.now))
    chats_a, chats_b = {item.chat_id for item in got_a}, {item.chat_id for item in got_b}
    assert not chats_a & chats_b
    later = [*await a.fetch_outbox(now=clock.now), *await b.fetch_outbox(now=clock.now)]
    assert {item.chat_id for item in [*got_a, *got_b, *later]} == set(range(1, 41)), "every chat has its instance"


async def test_a_due_timer_fires_on_one_instance_and_is_taken_over_if_that_one_dies(
    pair: tuple[PostgresStorage, PostgresStorage], clock: FakeClock
) -> None:
    a, b = pair
    table = await a.create_table(-100, creator_id=7, settings={})
    await a.commit_move(table.table_id, 0, "{}", deadline=Deadline(seconds=5))
    assert await b.due_timers(clock.now) == [], "not due yet"
    clock.now += 5
    [claimed] = await a.due_timers(clock.now)
    assert claimed.table_id == table.table_id
    assert await b.due_timers(clock.now) == [], "a fires it"
    assert [timer.table_id for timer in await b.timers_due_by(clock.now + 10)] == [table.table_id], (
        "the reminders' look ahead only reads: it sees the timer"
    )
    assert await b.due_timers(clock.now) == [], "and took nothing"
    clock.now += CLAIM_SECONDS
    assert [timer.table_id for timer in await b.due_timers(clock.now)] == [table.table_id], "a died: b fires it"


async def test_two_instances_moving_one_table_at_once_commit_one_move(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    a, b = pair
    table = await a.create_table(-100, creator_id=7, settings={})
    results = await asyncio.gather(
        a.commit_move(table.table_id, 0, '{"by": "a"}', outbox=[table_message(-100, "a")]),
        b.commit_move(table.table_id, 0, '{"by": "b"}', outbox=[table_message(-100, "b")]),
        return_exceptions=True,
    )
    [moved] = [result for result in results if not isinstance(result, BaseException)]
    [refused] = [result for result in results if isinstance(result, BaseException)]
    assert isinstance(refused, StaleVersion) and refused.actual == 1
    stored = await b.get_table(table.table_id)
    assert stored is not None and (stored.version, stored.state) == (1, moved.state)
    [message] = await a.fetch_outbox(now=2_000.0)
    assert message.payload["text"] == ("a" if moved.state == '{"by": "a"}' else "b")


async def test_a_write_waiting_for_a_row_another_instance_holds_waits_and_holds_up_no_other(
    url: str, pair: tuple[PostgresStorage, PostgresStorage]
) -> None:
    a, _ = pair
    busy = await a.create_table(-100, creator_id=7, settings={})
    calm = await a.create_table(-200, creator_id=8, settings={})
    other = await asyncpg.connect(url)
    try:
        holding = other.transaction()
        await holding.start()
        await other.execute("SELECT 1 FROM tables WHERE table_id = $1 FOR UPDATE", busy.table_id)
        waiting = asyncio.create_task(a.commit_move(busy.table_id, 0, '{"n": 1}'))
        await asyncio.sleep(0.3)  # past the lock timeout: the write went into a later group
        moved = await asyncio.wait_for(a.commit_move(calm.table_id, 0, '{"n": 1}'), 3.0)
        assert moved.version == 1, "another table's move is not held up behind it"
        assert not waiting.done()
        await holding.rollback()
        assert (await asyncio.wait_for(waiting, 5.0)).version == 1
    finally:
        await other.close()


async def test_every_instance_hears_of_messages_committed_on_another_and_for_which_chats(
    pair: tuple[PostgresStorage, PostgresStorage], clock: FakeClock
) -> None:
    a, b = pair
    heard: asyncio.Queue[frozenset[int] | None] = asyncio.Queue()
    await b.listen(heard.put_nowait)
    await a.enqueue(sends(1, 2))
    assert await asyncio.wait_for(heard.get(), 5.0) == frozenset({1, 2})
    # A chat's rows are read by whoever delivers it: only its chats, not the whole outbox.
    assert [item.chat_id for item in await b.fetch_outbox(now=clock.now, chats={2})] == [2]
    await a.release_leases()  # let go of chats: every instance looks at every chat
    assert await asyncio.wait_for(heard.get(), 5.0) is None


async def test_instances_alive_share_the_send_budget(url: str, clock: FakeClock) -> None:
    async with await PostgresStorage.open(url, clock=clock, instance="a") as a:
        assert await a.heartbeat() == 1
        async with await PostgresStorage.open(url, clock=clock, instance="b"):
            assert await a.heartbeat() == 2
        assert await a.heartbeat() == 1, "an instance that stops says so"
        async with await PostgresStorage.open(url, clock=clock, instance="c"):
            clock.now += 60  # c stopped saying it is alive (killed)
            assert await a.heartbeat() == 1


async def test_instances_starting_together_migrate_once(url: str, clock: FakeClock) -> None:
    opened = await asyncio.gather(*(PostgresStorage.open(url, clock=clock, instance=f"i{n}") for n in range(3)))
    try:
        db = await asyncpg.connect(url)
        try:
            assert await db.fetchval("SELECT COUNT(*) FROM schema_version") == LATEST
        finally:
            await db.close()
    finally:
        for storage in opened:
            await storage.close()


async def test_an_instance_waits_for_a_migration_longer_than_the_lock_timeout(url: str, clock: FakeClock) -> None:
    """Another instance migrating for longer than a write's lock timeout does not stop this one from starting."""
    other = await asyncpg.connect(url)
    try:
        await other.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
        opening = asyncio.create_task(PostgresStorage.open(url, clock=clock))
        await asyncio.sleep(3 * LOCK_TIMEOUT_MS / 1000)
        assert not opening.done()
        await other.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
        async with await opening:
            pass
    finally:
        await other.close()


async def test_a_schema_newer_than_the_code_is_refused(url: str, clock: FakeClock) -> None:
    async with await PostgresStorage.open(url, clock=clock):
        pass
    db = await asyncpg.connect(url)
    try:
        await db.execute("INSERT INTO schema_version VALUES ($1, 'from the future', 0)", LATEST + 1)
    finally:
        await db.close()
    with pytest.raises(StartupRefused, match="newer"):
        await PostgresStorage.open(url, clock=clock)


async def test_a_server_that_drops_the_connection_fails_one_write_and_the_next_works(
    url: str, pair: tuple[PostgresStorage, PostgresStorage]
) -> None:
    a, b = pair
    db = await asyncpg.connect(url)
    try:
        # Every connection of instance a's writer goes, as when the server restarts.
        await db.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid != pg_backend_pid() AND application_name = ''"
        )
    finally:
        await db.close()
    outcomes = []
    for _ in range(3):
        try:
            await a.upsert_chat(-1, language="en")
            outcomes.append("ok")
        except StorageUnavailable:
            outcomes.append("unavailable")
    assert outcomes[-1] == "ok", outcomes
    chat = await b.get_chat(-1)
    assert chat is not None and chat.language == "en"


async def test_a_restart_on_the_same_host_takes_over_at_once_what_the_dead_process_held(
    url: str, clock: FakeClock
) -> None:
    host = socket.gethostname()
    dead = subprocess.Popen(["true"])
    dead.wait()
    crashed = f"{host}:{dead.pid}:0badf00d"  # this host, a process that is gone (killed, the bot restarted)
    elsewhere = "other-host:1:cafe"  # alive or not, another host's process is left to its lease
    async with (
        await PostgresStorage.open(url, clock=clock, instance=crashed) as old,
        await PostgresStorage.open(url, clock=clock, instance=elsewhere) as other,
    ):
        await old.enqueue(sends(1))
        assert [item.chat_id for item in await old.fetch_outbox(now=clock.now)] == [1]
        await other.enqueue(sends(2))
        assert [item.chat_id for item in await other.fetch_outbox(now=clock.now)] == [2]
        async with await PostgresStorage.open(url, clock=clock) as restarted:
            assert [item.chat_id for item in await restarted.fetch_outbox(now=clock.now)] == [1]


async def test_a_failed_commit_fails_the_write_whole_and_the_next_one_works(
    url: str, clock: FakeClock, tmp_path: Path
) -> None:
    # The server refuses the commit (its disk is full, BURA_TEST_HOOKS): nothing of the move was written.
    async with await PostgresStorage.open(url, clock=clock, hooks=FaultHooks(tmp_path)) as storage:
        table = await storage.create_table(-100, creator_id=7, settings={})
        (tmp_path / "disk-full").touch()
        with pytest.raises(StorageUnavailable):
            await storage.commit_move(table.table_id, 0, '{"n": 1}', outbox=[table_message(-100, "x")])
        (tmp_path / "disk-full").unlink()
        assert await storage.fetch_outbox(now=clock.now) == []
        stored = await storage.get_table(table.table_id)
        assert stored is not None and stored.version == 0
        assert (await storage.commit_move(table.table_id, 0, '{"n": 1}')).version == 1


async def test_a_move_committed_while_its_update_is_being_stored_marks_the_stored_update(
    url: str, pair: tuple[PostgresStorage, PostgresStorage]
) -> None:
    # The inbox's store of a batch and a handler's move commit in two transactions at once (two writers): the
    # move waits for the stored row and marks it processed, rather than taking it for one handled before.
    a, _ = pair
    table = await a.create_table(-100, creator_id=7, settings={})
    other = await asyncpg.connect(url)
    try:
        storing = other.transaction()
        await storing.start()
        await other.execute("INSERT INTO inbox (update_id, payload, received_at) VALUES (77, '{}', 0)")
        moving = asyncio.create_task(a.commit_move(table.table_id, 0, '{"n": 1}', update_id=77))
        await asyncio.sleep(0.1)
        await storing.commit()
        assert (await asyncio.wait_for(moving, 5.0)).version == 1
    finally:
        await other.close()
    assert await a.is_update_processed(77)
    assert await a.pending_updates() == []


async def test_deliveries_of_many_chats_go_to_the_server_as_one_statement(url: str, clock: FakeClock) -> None:
    # A sender records a delivery for each call it makes: a group's deliveries are written by one statement
    # (bot/storage/postgres/outbox.py), never made again write by write for want of it.
    async with await PostgresStorage.open(url, clock=clock) as storage:
        ids = await storage.enqueue(sends(*range(1, 21)))
        statements = 0

        def count(record: object) -> None:
            nonlocal statements
            statements += "UPDATE outbox" in getattr(record, "query", "")

        writer = storage.database.writer
        assert writer is not None
        writer.add_query_logger(count)
        await asyncio.gather(
            *(
                storage.record_delivery(Delivery(outbox_id=row, chat_id=chat, ref="m", message_id=chat, content="x"))
                for row, chat in zip(ids, range(1, 21), strict=True)
            )
        )
        writer.remove_query_logger(count)
        assert statements == 1 and storage.database.redone == 0
        refs = [await storage.get_message_ref(chat, "m") for chat in range(1, 21)]
        assert [ref.message_id if ref else None for ref in refs] == list(range(1, 21))
