"""What only the SQLite backend does: the file, its migrations, the one-process lock, the group commit, and how it
behaves when the disk fails."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from bot.storage import OutboxKind, OutboxMessage, SqliteStorage, StaleVersion, StartupRefused, StorageUnavailable
from bot.storage.base import SchemaTooNew
from bot.storage.sqlite import FaultHooks
from bot.storage.sqlite.migrations import LATEST, MIGRATIONS, current_version, migrate


async def test_open_creates_the_folder_and_the_file(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "deeper" / "bura.sqlite3"
    async with await SqliteStorage.open(path):
        pass
    assert path.is_file()


async def test_wal_full_sync_and_foreign_keys_are_on(tmp_path: Path) -> None:
    path = tmp_path / "bura.sqlite3"
    async with await SqliteStorage.open(path) as storage:
        await storage.ping()
        pragmas = await storage.database.write(
            lambda db: (db.execute("PRAGMA synchronous").fetchone()[0], db.execute("PRAGMA foreign_keys").fetchone()[0])
        )
        assert pragmas == (2, 1), "synchronous = FULL: a commit is on the disk when the caller hears of it"
        # foreign keys are per connection: the writer enforces them
        with pytest.raises(sqlite3.IntegrityError):
            await storage.enqueue([OutboxMessage(chat_id=1, kind=OutboxKind.SEND, table_id=999)])
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_migrations_are_applied_once_and_reopening_keeps_the_data(tmp_path: Path) -> None:
    path = tmp_path / "bura.sqlite3"
    async with await SqliteStorage.open(path) as storage:
        await storage.upsert_chat(-100, language="en")
        table = await storage.create_table(-100, creator_id=7, settings={})
    async with await SqliteStorage.open(path) as storage:
        chat = await storage.get_chat(-100)
        assert await storage.get_open_table(-100) == table, "open tables are loaded when the file opens"
    assert chat is not None
    assert chat.language == "en"
    with sqlite3.connect(path) as db:
        versions = [row[0] for row in db.execute("SELECT version FROM schema_version ORDER BY version")]
    assert versions == [number for number, _, _ in MIGRATIONS]


def _database_at(tmp_path: Path, version: int, sql: str) -> Path:
    """A database file migrated up to ``version`` only (as an older release left it), with ``sql`` run in it."""
    path = tmp_path / "bura.sqlite3"
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        migrate(db, 0.0, [migration for migration in MIGRATIONS if migration[0] <= version])
        db.execute(sql)
    return path


async def test_a_database_of_the_last_release_keeps_its_outbox_through_migration_4(tmp_path: Path) -> None:
    # Migration 4 builds the outbox anew (two more kinds, `replaces`) and gives tables a forum thread: a row
    # pending in a version-3 database keeps its place, payload and digest, and is delivered as before.
    path = _database_at(
        tmp_path,
        3,
        "INSERT INTO outbox (chat_id, kind, ref, payload, created_at, next_attempt_at, digest)"
        " VALUES (5, 'edit', 'hand:1', '{\"text\":\"hand\"}', 1.0, 1.0, 'abc')",
    )
    async with await SqliteStorage.open(path) as storage:
        [pending] = await storage.fetch_outbox(now=2_000.0)
        assert (pending.kind, pending.ref, pending.payload, pending.digest, pending.replaces) == (
            OutboxKind.EDIT,
            "hand:1",
            {"text": "hand"},
            "abc",
            False,
        )
        await storage.enqueue([OutboxMessage(chat_id=-1, kind=OutboxKind.PIN, ref="table")])
        table = await storage.create_table(-1, creator_id=7, settings={}, thread_id=3)
        assert table.thread_id == 3


async def test_migration_5_keeps_the_old_tallies_as_bura(tmp_path: Path) -> None:
    # The stats of a version-4 database (Бура's columns, one row a player) become counters of the Бура tally.
    path = _database_at(
        tmp_path,
        4,
        "INSERT INTO stats (chat_id, user_id, deals_played, deals_won, matches_played, matches_won, buras,"
        " false_claims) VALUES (-1, 7, 5, 3, 1, 1, 2, 0), (-1, 8, 5, 2, 1, 0, 0, 1)",
    )
    async with await SqliteStorage.open(path) as storage:
        assert [(s.user_id, s.game, s.counts) for s in await storage.chat_stats(-1)] == [
            (7, "bura", {"deals_played": 5, "deals_won": 3, "matches_played": 1, "matches_won": 1, "buras": 2}),
            (8, "bura", {"deals_played": 5, "deals_won": 2, "matches_played": 1, "false_claims": 1}),
        ]


def test_a_failing_migration_leaves_the_previous_version(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "x.sqlite3", isolation_level=None)
    try:
        broken = (*MIGRATIONS, (99, "broken", ("CREATE TABLE extra (x INTEGER)", "NOT SQL")))
        with pytest.raises(sqlite3.OperationalError):
            migrate(db, 0.0, broken)
        assert current_version(db) == MIGRATIONS[-1][0]
        assert db.execute("SELECT name FROM sqlite_master WHERE name = 'extra'").fetchone() is None
    finally:
        db.close()


def _future(path: Path, rename: bool) -> None:
    """A database as a newer bot may leave it: schema version 99, a table renamed."""
    with sqlite3.connect(path, isolation_level=None) as db:
        migrate(db, 0.0)
        db.execute("INSERT INTO schema_version VALUES (99, 'from the future', 0)")
        if rename:
            db.execute("ALTER TABLE tables RENAME TO game_tables")


@pytest.mark.parametrize("rename", [False, True])
async def test_a_schema_newer_than_the_code_is_refused_untouched(tmp_path: Path, rename: bool) -> None:
    path = tmp_path / "bura.sqlite3"
    _future(path, rename)
    before = path.read_bytes()
    with pytest.raises(SchemaTooNew) as refused:
        await SqliteStorage.open(path)
    assert (refused.value.found, refused.value.known) == (99, LATEST)
    assert isinstance(refused.value, StartupRefused)
    assert path.read_bytes() == before
    async with await SqliteStorage.open(tmp_path / "other.sqlite3"):
        pass  # the refusal let go of everything (the lock of that file included)
    with pytest.raises(SchemaTooNew):
        await SqliteStorage.open(path)


async def test_a_file_with_tables_but_no_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "foreign.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (x TEXT)")
    with pytest.raises(StartupRefused):
        await SqliteStorage.open(path)


async def test_one_process_per_database(tmp_path: Path) -> None:
    path = tmp_path / "bura.sqlite3"
    async with await SqliteStorage.open(path):
        with pytest.raises(StartupRefused, match="another bot process"):
            await SqliteStorage.open(path)
    async with await SqliteStorage.open(path):
        pass  # closing let it go


async def test_the_lock_of_a_killed_process_is_free(tmp_path: Path) -> None:
    path = tmp_path / "bura.sqlite3"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import asyncio, sys\n"
            "from bot.storage import SqliteStorage\n"
            "async def main():\n"
            f"    await SqliteStorage.open({str(path)!r})\n"
            "    print('held', flush=True)\n"
            "    await asyncio.sleep(60)\n"
            "asyncio.run(main())\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(StartupRefused, match=f"pid {holder.pid}"):
            await SqliteStorage.open(path)
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()
    async with await SqliteStorage.open(path):
        pass  # the system let go of a dead process's lock


async def test_checkpoint_copies_the_log_back(tmp_path: Path) -> None:
    path = tmp_path / "bura.sqlite3"
    async with await SqliteStorage.open(path) as storage:
        for chat in range(20):
            await storage.create_table(-chat - 1, creator_id=7, settings={"n": chat})
        assert await storage.checkpoint() > 0
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM tables").fetchone() == (20,)


async def test_close_commits_what_waits_and_a_second_close_does_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bura.sqlite3"
    storage = await SqliteStorage.open(path)
    writes = [asyncio.create_task(storage.create_table(-chat - 1, creator_id=7, settings={})) for chat in range(30)]
    await asyncio.sleep(0)
    await storage.close()
    await storage.close()
    assert all(write.done() and not write.exception() for write in writes)
    with pytest.raises(StorageUnavailable):
        await storage.upsert_chat(-5)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM tables").fetchone() == (30,)


async def test_writes_waiting_together_are_committed_together(tmp_path: Path) -> None:
    """Group commit: a hundred tables' moves made at once cost a few syncs, not a hundred."""
    async with await SqliteStorage.open(tmp_path / "bura.sqlite3") as storage:
        tables = [await storage.create_table(-chat - 1, creator_id=7, settings={}) for chat in range(100)]
        before = storage.database.batches
        moved = await asyncio.gather(*(storage.commit_move(t.table_id, 0, '{"n": 1}') for t in tables))
        assert [table.version for table in moved] == [1] * 100
        assert storage.database.batches - before <= 3


async def test_a_refused_write_in_a_batch_undoes_only_itself(tmp_path: Path) -> None:
    async with await SqliteStorage.open(tmp_path / "bura.sqlite3") as storage:
        first = await storage.create_table(-1, creator_id=7, settings={})
        second = await storage.create_table(-2, creator_id=7, settings={})
        outcomes = await asyncio.gather(
            storage.commit_move(first.table_id, 0, '{"a": 1}', events=[{"a": 1}]),
            storage.commit_move(second.table_id, 5, '{"b": 1}', events=[{"b": 1}]),  # stale
            storage.commit_move(second.table_id, 0, '{"b": 2}', events=[{"b": 2}]),
            return_exceptions=True,
        )
        assert isinstance(outcomes[1], StaleVersion)
        assert [await storage.get_events(t.table_id) for t in (first, second)] == [
            [e for e in await storage.get_events(first.table_id) if e.payload == {"a": 1}],
            [e for e in await storage.get_events(second.table_id) if e.payload == {"b": 2}],
        ]
        again = await storage.get_table(second.table_id)
        assert again is not None and again.state == '{"b": 2}'


async def test_a_full_disk_fails_the_write_whole_and_the_storage_recovers(tmp_path: Path) -> None:
    """SQLite's own "database or disk is full" (the file may not grow): nothing of the change is written, the
    caller hears StorageUnavailable, and once there is room again the same change goes through."""
    async with await SqliteStorage.open(tmp_path / "bura.sqlite3") as storage:
        table = await storage.create_table(-1, creator_id=7, settings={})
        pages = await storage.database.write(lambda db: db.execute("PRAGMA page_count").fetchone()[0])
        await storage.database.write(lambda db: db.execute(f"PRAGMA max_page_count = {pages}"))
        big = "x" * 200_000
        with pytest.raises(StorageUnavailable):
            await storage.commit_move(table.table_id, 0, f'{{"big": "{big}"}}', events=[{"n": 1}])
        assert await storage.get_table(table.table_id) == table
        assert await storage.get_events(table.table_id) == []
        await storage.database.write(lambda db: db.execute("PRAGMA max_page_count = 1073741823"))
        moved = await storage.commit_move(table.table_id, 0, f'{{"big": "{big}"}}', events=[{"n": 1}])
        assert moved.version == 1


async def test_fault_hooks_fail_every_commit_while_the_disk_is_full(tmp_path: Path) -> None:
    folder = tmp_path / "hooks"
    folder.mkdir()
    async with await SqliteStorage.open(tmp_path / "bura.sqlite3", hooks=FaultHooks(folder)) as storage:
        (folder / "disk-full").touch()
        with pytest.raises(StorageUnavailable, match="disk is full"):
            await storage.upsert_chat(-1)
        assert await storage.get_chat(-1) is None
        (folder / "disk-full").unlink()
        assert (await storage.upsert_chat(-1)).chat_id == -1


async def test_the_event_loop_goes_on_while_a_commit_waits_for_the_disk(tmp_path: Path) -> None:
    """A commit held in the writer's thread (as a slow disk would hold it) stops no coroutine of the bot."""
    folder = tmp_path / "hooks"
    folder.mkdir()
    storage = await SqliteStorage.open(tmp_path / "bura.sqlite3", hooks=FaultHooks(folder))
    table = await storage.create_table(-1, creator_id=7, settings={})
    (folder / "hold-commit").touch()
    held = asyncio.create_task(storage.commit_move(table.table_id, 0, "{}"))
    for _ in range(500):
        if (folder / "commit-held").exists():
            break
        await asyncio.sleep(0.01)
    assert (folder / "commit-held").exists()
    ticks = 0
    for _ in range(10):
        await asyncio.sleep(0.001)
        ticks += 1
    assert ticks == 10 and not held.done()
    assert await storage.get_open_table(-1) == table, "reads go on too (from memory, or from the reader)"
    assert await storage.get_events(table.table_id) == []
    (folder / "hold-commit").unlink()
    assert (await held).version == 1
    await storage.close()
