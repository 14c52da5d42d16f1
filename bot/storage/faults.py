"""Faults injected where a real one would strike, for tests only (``BURA_TEST_HOOKS=<folder>``).

Files in the folder make the database writer fail or stop inside its commit: ``disk-full``: every commit fails
as on a full disk, until the file is removed. ``hold-commit``: a commit of a move stops before COMMIT, writes
``commit-held`` and waits there while ``hold-commit`` is there (for the test to kill the process in the middle of
a group commit). SQLite's writer calls `before_commit` in its thread; PostgreSQL's, `before_commit_async` on the
event loop (its commit is a message to the server, and the process waits for the answer)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

POLL = 0.01


@dataclass(frozen=True)
class FaultHooks:
    folder: Path

    def before_commit(self, kinds: Sequence[str]) -> None:
        if self.disk_full():
            raise sqlite3.OperationalError("database or disk is full")
        if self._hold(kinds):
            while (self.folder / "hold-commit").exists():
                time.sleep(POLL)

    async def before_commit_async(self, kinds: Sequence[str]) -> None:
        if self.disk_full():
            raise OSError("could not extend file: No space left on device")
        if self._hold(kinds):
            while (self.folder / "hold-commit").exists():
                await asyncio.sleep(POLL)

    def disk_full(self) -> bool:
        return (self.folder / "disk-full").exists()

    def _hold(self, kinds: Sequence[str]) -> bool:
        if "move" in kinds and (self.folder / "hold-commit").exists():
            (self.folder / "commit-held").touch()
            return True
        return False
