"""Webhook delivery, as Telegram does it: each pending update is POSTed to the URL setWebhook gave, with the
secret in ``X-Telegram-Bot-Api-Secret-Token``; a 2xx answer confirms it, anything else (or no answer) is an
error recorded for getWebhookInfo, and the update is tried again after a pause. Updates of one chat go one at a
time, in order; different chats go in parallel, up to `max_connections` requests at once."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import aiohttp

from tests.botapi.clock import Clock
from tests.botapi.state import Update, World

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
RETRY_AFTER = 1.0  # seconds before an update the bot refused is tried again (Telegram waits longer)
REQUEST_TIMEOUT = 60.0


def chat_key(update: Update) -> int | str:
    """What orders an update: its chat (a message, a tap in a chat's message, a membership change)."""
    payload = update.payload
    chat = payload.get("chat")
    if chat is None and isinstance(payload.get("message"), dict):
        chat = payload["message"].get("chat")  # a callback query: the chat of the message tapped
    if isinstance(chat, dict) and "id" in chat:
        return int(chat["id"])
    sender = payload.get("from")
    return f"user:{sender['id']}" if isinstance(sender, dict) else f"update:{update.update_id}"


class WebhookDelivery:
    """Runs beside the fake server while it is up; idle unless a webhook is set."""

    def __init__(self, world: World, clock: Clock, retry_after: float = RETRY_AFTER) -> None:
        self.world = world
        self.clock = clock
        self.retry_after = retry_after
        self.attempts = 0  # POSTs made, answered or not
        # True: nothing is posted, the updates wait (a network cut between Telegram and the bot, for a test
        # that wants an update Telegram holds); getWebhookInfo counts them as pending, as Telegram does.
        self.paused = False
        self._busy: dict[int | str, asyncio.Task[None]] = {}
        self._task: asyncio.Task[None] | None = None
        self._session: aiohttp.ClientSession | None = None
        self._stopping = False

    def pause(self, paused: bool = True) -> None:
        self.paused = paused
        self.world.changed.fire()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="webhook-delivery")

    async def stop(self) -> None:
        # A flag as well as the cancel: Python 3.11's wait_for may swallow a cancel that meets a wake-up.
        self._stopping = True
        self.world.changed.fire()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for task in list(self._busy.values()):
            task.cancel()
        await asyncio.gather(*self._busy.values(), return_exceptions=True)
        if self._session is not None:
            await self._session.close()

    async def _run(self) -> None:
        while not self._stopping:
            hook = self.world.webhook
            if hook is not None and not self.paused:
                for update in list(self.world.updates):
                    key = chat_key(update)
                    if key in self._busy or len(self._busy) >= hook.max_connections:
                        continue
                    if any(chat_key(earlier) == key for earlier in self._earlier(update)):
                        continue  # an older update of this chat waits first
                    self._busy[key] = asyncio.create_task(self._deliver(key, update))
            await self.world.changed.wait(self.retry_after)

    def _earlier(self, update: Update) -> list[Update]:
        return [other for other in self.world.updates if other.update_id < update.update_id]

    async def _deliver(self, key: int | str, update: Update) -> None:
        try:
            hook = self.world.webhook
            if hook is None:
                return
            if self._session is None:
                self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=REQUEST_TIMEOUT))
            headers = {SECRET_HEADER: hook.secret_token} if hook.secret_token else {}
            self.attempts += 1
            error: str | None = None
            try:
                async with self._session.post(hook.url, json=update.to_api(), headers=headers) as response:
                    if not 200 <= response.status < 300:
                        error = f"Wrong response from the webhook: {response.status} {response.reason}"
            except (aiohttp.ClientError, TimeoutError) as failure:
                error = f"Connection failed: {type(failure).__name__}"
            if error is None:
                hook.delivered += 1
                with contextlib.suppress(ValueError):
                    self.world.updates.remove(update)
            else:
                hook.last_error_date, hook.last_error_message = int(self.clock.now()), error
                await asyncio.sleep(self.retry_after)
        finally:
            self._busy.pop(key, None)
            self.world.changed.fire()
