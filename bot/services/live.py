"""A table under its lock, with its state: the per-table lock and the cache of the states committed last.

`LiveTables.table(table_id)` is how a change begins: under the table's lock it reads the table and, for a table in
play, its state; the block decides and commits. Replaying a match from its log costs a millisecond or more, so
the state committed last is kept in memory, and used only at the version it was committed with. While a block
runs the state is out of the cache: a block that raises (a move refused half-way) leaves nothing behind and the
next change reads the database; a block that ends without committing puts the state back as it read it; a
commit (`TableCore.commit`) keeps the state it committed, at its new version.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from bot.services.state import AnyState, TableState
from bot.storage import Storage, Table, TableStatus

LIVE_STATES = 5000  # tables whose last committed state is kept in memory (a few dozen KiB each)


@dataclass(slots=True)
class _Lock:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


@dataclass(slots=True)
class Held:
    """A table read under its lock (None: there is no such table) and its state (None: not in play)."""

    table: Table | None
    state: AnyState | None
    committed: bool = False  # a commit was tried: the block puts nothing back (the commit kept what it made)


class LiveTables:
    """The locks and the live states of one bot process."""

    def __init__(self, repository: Storage) -> None:
        self.repository = repository
        self._locks: dict[int, _Lock] = {}
        self._live: dict[int, tuple[int, AnyState]] = {}  # table id -> (version, its state), oldest first
        self._held: dict[int, Held] = {}  # table id -> the block that holds its lock

    @asynccontextmanager
    async def locked(self, table_id: int) -> AsyncIterator[None]:
        """Serialize the changes of one table (moves, taps, timers) in this process. A lock lives while someone
        holds it or waits for it: taps on a thousand tables (or forged ids) leave none behind."""
        entry = self._locks.get(table_id)
        if entry is None:
            entry = self._locks[table_id] = _Lock()
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if not entry.users:
                del self._locks[table_id]

    @asynccontextmanager
    async def table(self, table_id: int) -> AsyncIterator[Held]:
        """The table and its state under the table's lock, for a change; the state is kept when the block ends
        without an error (as it was read, unless a commit kept what it made), and dropped when it raises."""
        async with self.locked(table_id):
            table = await self.repository.get_table(table_id)
            state = None
            if table is not None and table.status is TableStatus.PLAYING and table.state is not None:
                state = self._load(table, table.state)
            held = self._held[table_id] = Held(table, state)
            try:
                yield held
            finally:
                del self._held[table_id]
            if held.table is not None and held.state is not None and not held.committed:
                self.keep(held.table, held.state)

    def committing(self, table_id: int) -> None:
        """A commit of the table is being tried: the block holding it puts back nothing of what it read (the state
        may have changed; the commit keeps the state it made)."""
        held = self._held.get(table_id)
        if held is not None:
            held.committed = True

    def keep(self, table: Table, state: AnyState) -> None:
        """Keep the state of a playing table: unchanged by a read, or just committed at `table.version`."""
        self._live.pop(table.table_id, None)
        if table.status is not TableStatus.PLAYING:
            return
        self._live[table.table_id] = (table.version, state)
        if len(self._live) > LIVE_STATES:
            del self._live[next(iter(self._live))]  # the table idle longest

    def _load(self, table: Table, text: str) -> AnyState:
        live = self._live.pop(table.table_id, None)
        if live is not None and live[0] == table.version:
            return live[1]
        return TableState.from_json(text)
