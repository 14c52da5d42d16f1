"""Long polling with a durable inbox: an update Telegram sent is never lost, and never handled twice.

aiogram's own polling confirms an update to Telegram (the next getUpdates' offset) as soon as it has started
its handler, so a crash while handling lost the update for good. Here a batch of updates is first stored in the
inbox (one durable commit), then confirmed, then handled; each handler records its update as processed in the
same transaction as what it changed, and an update whose handling changed nothing is marked done after it
(bot/telegram/handling.py, shared with the webhook). A restart handles again what the inbox holds unprocessed,
and an update Telegram sends twice is stored once.

When the database cannot store the batch (a full disk), the updates are handled all the same — whatever they
would change fails as well, and the user is told so (bot/handlers/errors.py) — and confirmed, so that Telegram
does not send them again and again.

A 409 Conflict (another process polls the same token, or a webhook is set) is logged once, then retried with
backoff, quietly.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from aiogram.exceptions import TelegramConflictError, TelegramUnauthorizedError
from aiogram.methods import GetUpdates

from bot.storage import InboxStore, StorageError
from bot.telegram.api import BotApi, brief
from bot.telegram.handling import STOP_GRACE, Handle, Handling, update_text

logger = logging.getLogger(__name__)

POLL_TIMEOUT = 30  # seconds a long poll waits for updates
CONFLICT_LOG_EVERY = 600.0  # seconds between two warnings while another process polls the token
BACKOFF_CAP = 30.0
HEALTH_GRACE = 30.0  # seconds past a long poll's time without an answer before /healthz says so


class Poller:
    """Fetch, store, confirm, handle. `run()` until cancelled; `stop()` lets the handlers under way finish."""

    def __init__(
        self,
        api: BotApi,
        inbox: InboxStore,
        handle: Handle,
        *,
        allowed_updates: Sequence[str] | None = None,
        timeout: int = POLL_TIMEOUT,
        backoff_cap: float = BACKOFF_CAP,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._api = api
        self._inbox = inbox
        self._allowed = list(allowed_updates) if allowed_updates is not None else None
        self._timeout = timeout
        self._backoff_cap = backoff_cap
        self._clock = clock
        self.handling = Handling(inbox, handle)
        self._asked_at: float | None = None  # when the last getUpdates was sent
        self._answered_at: float | None = None  # when the last getUpdates was answered
        self._failures = 0  # getUpdates failed this many times in a row

    def problem(self) -> str | None:
        """None while the update loop hears from Telegram: its last poll was answered, and the one in flight
        is within a long poll's time; else what is wrong (`/healthz`)."""
        if self._failures:
            return "getUpdates is failing"
        if self._asked_at is None:
            return "not polling yet"
        in_flight = self._answered_at is None or self._answered_at < self._asked_at
        if in_flight and self._clock() - self._asked_at > self._timeout + HEALTH_GRACE:
            return "a poll has gone unanswered for too long"
        return None

    async def run(self) -> None:
        await self.resume()
        offset: int | None = None
        conflict_logged_at: float | None = None
        while True:
            # After a failure, a short poll first: Telegram's answer tells at once that it is back (`problem`).
            params: dict[str, Any] = {
                "timeout": 0 if self._failures else self._timeout,
                "allowed_updates": self._allowed,
            }
            if offset is not None:
                params["offset"] = offset
            self._asked_at = self._clock()
            try:
                updates = await self._api.call(GetUpdates, params)
            except TelegramUnauthorizedError:
                raise
            except TelegramConflictError:
                now = self._clock()
                if conflict_logged_at is None or now - conflict_logged_at >= CONFLICT_LOG_EVERY:
                    # By kind, not by its text: a second process polling and a webhook set answer the same.
                    logger.warning(
                        "getUpdates is refused (409 Conflict): another process polls this bot's token, or a webhook"
                        " is set for it (WEBHOOK_URL; deleteWebhook removes it); waiting for that to stop"
                    )
                    conflict_logged_at = now
                self._failures += 1
                await asyncio.sleep(self._backoff(self._failures))
                continue
            except Exception as error:
                self._failures += 1
                if self._failures <= 3 or self._failures % 20 == 0:
                    logger.warning("getUpdates failed (%s); retrying", brief(error))
                await asyncio.sleep(self._backoff(self._failures))
                continue
            self._failures, self._answered_at = 0, self._clock()
            if conflict_logged_at is not None:
                logger.info("polling again: the other process stopped")
                conflict_logged_at = None
            if not isinstance(updates, list) or not updates:
                continue
            batch = [(int(update["update_id"]), update_text(update)) for update in updates if isinstance(update, dict)]
            if not batch:
                continue
            if offset is None:
                # The first batch since the start may hold updates stored (and handled) before: only the ones
                # the inbox did not know are handled.
                new = await self._store(batch)
                storing = None
            else:
                # Later batches hold only updates above the offset: new ones. Their handling starts at once,
                # while their storing commits (it is queued first, so a handler's own commit, which marks its
                # update processed, comes after it); the next poll, which confirms them, waits for it.
                new = {update_id for update_id, _ in batch}
                storing = asyncio.ensure_future(self._store(batch))
                await asyncio.sleep(0)  # the storing is queued before any handler's write
            offset = max(update_id for update_id, _ in batch) + 1  # confirmed with the next poll
            for update_id, update in batch:
                if update_id in new:
                    await self.handling.start(update_id, update)
            if storing is not None:
                await storing

    async def resume(self) -> None:
        """Handle what the inbox holds unprocessed (a crash or a stop left it there)."""
        await self.handling.resume()

    async def _store(self, batch: list[tuple[int, str]]) -> set[int]:
        try:
            return set(await self._inbox.store_updates(batch))
        except StorageError as error:
            logger.warning("the inbox cannot store %s updates (%s): handling them without it", len(batch), error)
            return {update_id for update_id, _ in batch if not self.handling.knows(update_id)}

    async def stop(self, grace: float = STOP_GRACE) -> None:
        """Let the handlers under way finish (for at most `grace` seconds), then commit their marks."""
        await self.handling.stop(grace)

    def _backoff(self, failures: int) -> float:
        return float(min(self._backoff_cap, 0.5 * 2 ** min(failures, 10)))
