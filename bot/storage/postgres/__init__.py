"""The `Storage` contract on PostgreSQL through asyncpg: one database that several bot instances share.

`bot.storage.postgres.database` has the connections (a group-committing writer, a pool of readers, a listener
that hears other instances' commits); each concern of the contract has its module. What the instances share,
and how: a table is moved by one writer at a time (its row lock and version), a chat's messages are delivered by
one instance at a time (a lease), a due timer is fired by one instance (a claim), and the bot-wide send budget
is split between the instances alive (`instances`).
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from typing import Self

from bot.storage.faults import FaultHooks
from bot.storage.postgres.chats import Chats
from bot.storage.postgres.database import Connection, Database, Heard
from bot.storage.postgres.history import HistoryPart
from bot.storage.postgres.inbox import Inbox
from bot.storage.postgres.outbox import Outbox
from bot.storage.postgres.ratings import RatingsPart
from bot.storage.postgres.retention import Retention
from bot.storage.postgres.rows import Clock
from bot.storage.postgres.stats import StatsPart
from bot.storage.postgres.tables import Tables
from bot.storage.postgres.timers import Timers

__all__ = ["Database", "PostgresStorage", "instance_name"]

ALIVE_SECONDS = 15.0  # an instance that has not said it is alive for this long is gone


def _runs(pid: int) -> bool:
    """A process with this pid runs on this host (and is not this one: a container restarted reuses its pid)."""
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def instance_name() -> str:
    """This process among the instances: host, pid, and a random part (a pid comes back after a restart)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class PostgresStorage(Chats, Tables, Inbox, Outbox, StatsPart, RatingsPart, HistoryPart, Timers, Retention):
    """Open it with `await PostgresStorage.open(url)` (or `async with`); close it with `await close()`."""

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        clock: Clock = time.time,
        instance: str | None = None,
        hooks: FaultHooks | None = None,
        password: str | None = None,
    ) -> Self:
        """Connect, apply the migrations (instances take turns), and say this instance is alive. `password`
        goes to the server apart from `url`, as it is."""
        database = await Database.open(url, now=clock(), hooks=hooks, password=password)
        storage = cls(database, clock, instance or instance_name())
        try:
            await storage._take_over_from_the_dead()
            await storage.heartbeat()
        except BaseException:
            await database.close()
            raise
        return storage

    @property
    def database(self) -> Database:
        return self._database

    @property
    def instance(self) -> str:
        return self._instance

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Let go of this instance's chats and say it is gone, commit what waits, and close (a second call does
        nothing)."""
        if not self._database.closing:
            me = self._instance
            try:
                await self.release_leases()
                await self._database.write(lambda db: db.execute("DELETE FROM instances WHERE instance = $1", me))
            except Exception:  # the server is gone: the leases run out by themselves
                pass
        await self._database.close()

    async def ping(self) -> None:
        await self._database.read(lambda db: db.fetchval("SELECT MAX(version) FROM schema_version"))

    async def _take_over_from_the_dead(self) -> None:
        """Free at once what instances of this host that are gone held (a restart after a crash: the same host,
        a process that no longer runs, or this very pid in a container that started again), rather than wait
        for their leases and claims to run out. Other hosts' instances are left to time."""
        host = self._instance.split(":", 1)[0]

        def gone(owner: str) -> bool:
            name, _, rest = owner.partition(":")
            pid = rest.partition(":")[0]
            return name == host and owner != self._instance and pid.isdigit() and not _runs(int(pid))

        async def apply(db: Connection) -> None:
            owners = {row["owner"] for row in await db.fetch("SELECT DISTINCT owner FROM chat_leases")}
            owners |= {row["instance"] for row in await db.fetch("SELECT instance FROM instances")}
            owners |= {
                row["claimed_by"]
                for row in await db.fetch("SELECT DISTINCT claimed_by FROM timers WHERE claimed_by IS NOT NULL")
            }
            dead = sorted(owner for owner in owners if gone(owner))
            if dead:
                await db.execute("DELETE FROM chat_leases WHERE owner = ANY($1::text[])", dead)
                await db.execute("DELETE FROM instances WHERE instance = ANY($1::text[])", dead)
                await db.execute(
                    "UPDATE timers SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ANY($1::text[])",
                    dead,
                )

        await self._database.write(apply, kind="take-over")

    async def heartbeat(self) -> int:
        """Say this instance is alive; returns how many instances are (this one included): each of them takes
        that share of the bot-wide send budget (bot/telegram/pacer.py)."""
        now, me = self._clock(), self._instance

        async def apply(db: Connection) -> int:
            await db.execute(
                "INSERT INTO instances (instance, seen_at) VALUES ($1, $2)"
                " ON CONFLICT (instance) DO UPDATE SET seen_at = excluded.seen_at",
                me,
                now,
            )
            await db.execute("DELETE FROM instances WHERE seen_at < $1", now - 4 * ALIVE_SECONDS)
            alive = await db.fetchval("SELECT COUNT(*) FROM instances WHERE seen_at >= $1", now - ALIVE_SECONDS)
            return max(1, int(alive or 0))

        return await self._database.write(apply, kind="heartbeat")

    async def listen(self, callback: Heard) -> None:
        """Call `callback` with their chats whenever any instance commits messages to the outbox (the sender's
        wake-up; None: look at every chat)."""
        await self._database.listen(callback)
