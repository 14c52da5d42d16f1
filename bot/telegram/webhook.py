"""Receiving updates by webhook (WEBHOOK_URL): Telegram POSTs each update to the bot's own web server.

Telegram sends an update again, later, until it gets a 2xx for it; so an update is answered 200 only once it is
in the inbox (one durable commit), and a crash at any point loses nothing. A request without the secret
Telegram was given (setWebhook's ``secret_token``, sent back in ``X-Telegram-Bot-Api-Secret-Token``) is refused
with 401 and changes nothing; a body that is no update gets 400 (not JSON, nested too deep, a number no
database column holds, not an object, an update whose message is no object); an inbox that cannot store it (a
full disk) gets 500, and Telegram tries again later. aiogram's own webhook handler answers before the update is stored,
hence this one, on plain aiohttp.

A new update is then handled in the background as after a poll (bot/telegram/handling.py). One the inbox
knows already is a plain 200, unless it is unprocessed and no handler of this process has it: an instance died
after storing it, and this one handles it.

The same server carries `/healthz` and `/metrics` (bot/metrics.py `add_routes`), for requests from this host
only: a proxy exposes this server to the internet.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeGuard

from aiohttp import web

from bot.startup import StartupError
from bot.storage import InboxStore, StorageError
from bot.telegram.handling import STOP_GRACE, Handle, Handling, update_text

logger = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
SHUTDOWN_TIMEOUT = 2.0  # seconds the requests under way get to be answered when the bot stops (Telegram
# posts again what was not answered)
LOG_EVERY = 100  # after the first refusal or storage failure, one warning per this many more


INT64 = 2**63  # the database keeps ids as signed 64-bit integers, as Telegram's own are


def _bounded_int(text: str) -> int:
    value = int(text)
    if not -INT64 <= value < INT64:
        raise ValueError(f"a number out of range: {text[:20]}")
    return value


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"a number out of range: {text[:20]}")
    return value


def _no_constant(text: str) -> float:
    raise ValueError(f"not JSON: {text}")


def _load(body: bytes) -> object:
    """The body as JSON, refused (ValueError) if a number in it is not one a database column or Telegram's
    types hold: an integer outside 64 bits (an id of 2**70 once failed the inbox's insert with a 500), an
    infinite float, NaN."""
    return json.loads(body, parse_int=_bounded_int, parse_float=_finite_float, parse_constant=_no_constant)


def _is_update(update: object) -> TypeGuard[dict[str, Any]]:
    """An object with a non-negative integer ``update_id`` whose other fields are objects (a message, a
    callback query...): what the inbox stores and the handler reads. (Whether each object is a well-formed
    message is for the handler's parser: an update it cannot read is skipped with one line in the log.)"""
    if not isinstance(update, dict):
        return False
    update_id = update.get("update_id")
    if not isinstance(update_id, int) or isinstance(update_id, bool) or update_id < 0:
        return False
    return all(isinstance(value, dict) for key, value in update.items() if key != "update_id")


class WebhookServer:
    """The web server Telegram posts updates to; `app` takes more routes until it is started."""

    def __init__(self, inbox: InboxStore, handle: Handle, secret: str, path: str = "/") -> None:
        self._inbox = inbox
        self._secret = secret.encode()
        self.handling = Handling(inbox, handle)
        self.app = web.Application()
        self.app.router.add_post(path, self.receive)
        self._runner: web.AppRunner | None = None
        self._registered = False
        self.port: int | None = None  # the port listened on, once started
        self.refused = 0  # requests without the right secret
        self._storage_failures = 0  # in a row

    def problem(self) -> str | None:
        """None while updates can come in: the server listens and the webhook is set; else what is wrong."""
        if self._runner is None:
            return "the webhook server is not serving"
        if not self._registered:
            return "the webhook is not set yet"
        return None

    async def run(self, host: str, port: int, register: Callable[[], Awaitable[object]]) -> None:
        """Serve until cancelled: start (unless started already), then `register` (setWebhook), so that Telegram
        posts here."""
        if self._runner is None:
            await self.start(host, port)
        await register()
        self._registered = True
        await asyncio.Event().wait()

    async def start(self, host: str, port: int) -> None:
        """Handle what the inbox holds unprocessed, then listen on `host`:`port` (0: a free port)."""
        await self.handling.resume()
        runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=SHUTDOWN_TIMEOUT)
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError as error:
            await runner.cleanup()
            raise StartupError(f"WEBHOOK_PORT {port}: cannot listen on {host}: {error.strerror or error}") from error
        self._runner = runner
        self.port = int(runner.addresses[0][1])
        logger.info("webhook server listening on %s:%s", host, self.port)

    async def stop(self, grace: float = STOP_GRACE) -> None:
        """Stop listening and answer the requests under way; then let the handlers under way finish and commit
        their marks: all of it in at most `grace` seconds. The webhook stays set: other instances may serve it."""
        until = time.monotonic() + grace
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
        await self.handling.stop(max(0.0, until - time.monotonic()))

    async def receive(self, request: web.Request) -> web.Response:
        """One update from Telegram: checked, stored, answered, then handled."""
        given = request.headers.get(SECRET_HEADER, "").encode(errors="replace")
        if not hmac.compare_digest(given, self._secret):
            self.refused += 1
            if self.refused % LOG_EVERY == 1:
                logger.warning(
                    "webhook: refused %s request(s) without the right secret token (the last from %s); if they"
                    " come from Telegram, another instance has set the webhook with another WEBHOOK_SECRET",
                    self.refused,
                    request.remote,
                )
            return web.Response(status=401, text="wrong secret token\n")
        try:
            update = _load(await request.read())
            if not _is_update(update):
                return web.Response(status=400, text="not a Telegram update\n")
            text = update_text(update)
        except (ValueError, RecursionError):  # RecursionError: nested deeper than Python's parser goes
            return web.Response(status=400, text="the body is not JSON the bot can store\n")
        update_id = update["update_id"]
        try:
            handle = update_id in await self._inbox.store_updates([(update_id, text)])
            if not handle and not self.handling.knows(update_id):
                handle = not await self._inbox.is_update_processed(update_id)  # its instance died after storing it
        except StorageError as error:
            self._storage_failures += 1
            if self._storage_failures % LOG_EVERY == 1:
                logger.warning(
                    "webhook: the inbox cannot store update %s (%s): answered 500, Telegram will send it again",
                    update_id,
                    error,
                )
            return web.Response(status=500, text="the update could not be stored\n")
        self._storage_failures = 0
        if handle:
            await self.handling.start(update_id, text)  # with MAX_HANDLING under way, the 200 waits for a slot
        return web.Response()
