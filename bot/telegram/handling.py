"""Handling the updates of the inbox: many at once, each one once, and the "done" marks committed in batches.

Both ways updates come in, long polling (bot/telegram/polling.py) and the webhook (bot/telegram/webhook.py),
store an update in the inbox first and then start its handling here. A handler records its update as processed
in the same transaction as what it changed; an update whose handling changed nothing is marked done after it,
many in one commit. `stop()` lets the handlers under way finish; `resume()` handles what a crash or a stop left
unprocessed in the inbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.storage import InboxStore, JsonObject, StorageError

logger = logging.getLogger(__name__)

Handle = Callable[[str], Awaitable[Any]]
"""Handles one update, given as JSON text (as stored in the inbox)."""

MAX_HANDLING = 2000  # updates handled at once (the rest wait in the inbox and in Telegram)
MARK_EVERY = 0.2  # seconds between two commits of "done" marks for updates that changed nothing
STOP_GRACE = 4.0  # seconds the handlers under way get to finish when the bot stops (most take milliseconds)


def update_text(update: JsonObject) -> str:
    """An update as the inbox keeps it: compact JSON text."""
    return json.dumps(update, ensure_ascii=False, separators=(",", ":"))


class Handling:
    """The updates this process is handling, at most `MAX_HANDLING` at once."""

    def __init__(self, inbox: InboxStore, handle: Handle) -> None:
        self._inbox = inbox
        self._handle = handle
        self._slots = asyncio.Semaphore(MAX_HANDLING)
        self._waiting: set[int] = set()  # started, waiting for a slot
        self._handling: dict[int, asyncio.Task[None]] = {}
        self._done: set[int] = set()  # handled; their marks not yet committed
        self._committing: set[int] = set()  # handled; their marks being committed
        self._marking: asyncio.Task[None] | None = None
        self.handled = 0

    def knows(self, update_id: int) -> bool:
        """This process has the update in hand: under way, waiting for a slot, or handled with its mark not yet
        committed (the inbox cannot tell that one from an update no one handled)."""
        return (
            update_id in self._handling
            or update_id in self._waiting
            or update_id in self._done
            or update_id in self._committing
        )

    async def start(self, update_id: int, update: str) -> None:
        """Handle the update in the background, unless this process has it in hand already; waits for a slot."""
        if self.knows(update_id):
            return
        self._waiting.add(update_id)
        try:
            await self._slots.acquire()
        finally:
            self._waiting.discard(update_id)
        self._handling[update_id] = asyncio.create_task(self._run_one(update_id, update), name=f"update:{update_id}")

    async def resume(self) -> None:
        """Handle what the inbox holds unprocessed (a crash or a stop left it there)."""
        try:
            pending = await self._inbox.pending_updates()
        except StorageError as error:
            logger.warning("the inbox cannot be read now (%s): its updates wait for the next start", error)
            return
        if pending:
            logger.info("handling %s updates received before the restart", len(pending))
        for update_id, update in pending:
            await self.start(update_id, update)

    async def _run_one(self, update_id: int, update: str) -> None:
        try:
            await self._handle(update)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("update %s failed", update_id)
        finally:
            self._slots.release()
            self._handling.pop(update_id, None)
        self.handled += 1
        self._done.add(update_id)
        if self._marking is None or self._marking.done():
            self._marking = asyncio.create_task(self._mark_soon(), name="inbox-marks")

    async def _mark_soon(self) -> None:
        await asyncio.sleep(MARK_EVERY)
        await self.flush()

    async def flush(self) -> None:
        """Commit the "done" marks gathered so far (kept for the next try if the database refuses)."""
        if not self._done:
            return
        done, self._done = self._done, set()
        self._committing |= done
        try:
            await self._inbox.mark_updates_done(done)
        except StorageError as error:
            logger.warning("marking %s updates done failed (%s); will try again", len(done), error)
            self._done |= done
        except BaseException:
            self._done |= done  # a mark is idempotent: one that was committed after all is harmless again
            raise
        finally:
            self._committing -= done

    async def stop(self, grace: float = STOP_GRACE) -> None:
        """Let the handlers under way finish and commit their marks, for at most `grace` seconds in all (a
        database that does not answer must not hold the stop: an update handled but not marked is handled again
        after the restart, and its commit's own mark makes that a no-op)."""
        until = time.monotonic() + grace
        running = list(self._handling.values())
        if running:
            _, late = await asyncio.wait(running, timeout=grace)
            for task in late:
                task.cancel()
            with contextlib.suppress(Exception):
                await asyncio.gather(*late, return_exceptions=True)
        if self._marking is not None:
            self._marking.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._marking
        try:
            await asyncio.wait_for(self.flush(), max(0.1, until - time.monotonic()))
        except TimeoutError:
            logger.warning(
                "stopping: %s updates handled were not marked done (handled again after the restart)", len(self._done)
            )
