"""What an admin watches: `/healthz` and `/metrics` (Prometheus) on `HTTP_PORT`, beside the bot's own work (in
webhook mode on the webhook's server as well).

The figures are the process's (a Prometheus server scrapes each instance): taps answered and how long each took
from the start of its update's handling to Telegram's acknowledgement of the answer (the move committed and
synced in between), moves committed, outbox rows waiting, 429s Telegram answered, and updates that failed.
`/healthz` is 200 while the update loop runs and its last poll got an answer (in webhook mode: the webhook is
served and set), and the database answers a ping; 503 with a short reason otherwise (a load balancer or Docker
takes the instance out; the database's own error goes to the log, not to whoever asks).

Who may ask: `HTTP_HOST` is loopback unless the admin says otherwise; on the webhook's server, which a proxy
exposes to the internet, both answer only requests from this host that did not come through a proxy.
"""

from __future__ import annotations

import asyncio
import contextvars
import ipaddress
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from bot.startup import StartupError

logger = logging.getLogger(__name__)

REGISTRY = CollectorRegistry(auto_describe=True)
TAPS = Counter("bura_taps", "Taps (callback queries) answered", registry=REGISTRY)
ANSWER_SECONDS = Histogram(
    "bura_tap_answer_seconds",
    "From the start of a tap's handling to its answer acknowledged by Telegram (the move committed before it)",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=REGISTRY,
)
MOVES = Counter("bura_moves", "Moves committed (a person's, the computer's, or a timer's)", registry=REGISTRY)
TOO_MANY = Counter("bura_telegram_429", "Calls Telegram refused with 429 Too Many Requests", registry=REGISTRY)
ERRORS = Counter("bura_update_errors", "Updates whose handling failed (the user was told)", registry=REGISTRY)
OUTBOX = Gauge("bura_outbox_pending", "Outbox rows not yet delivered", registry=REGISTRY)

# When the update now being handled started (set by the update loop, read where its tap is answered).
HANDLING_SINCE: contextvars.ContextVar[float | None] = contextvars.ContextVar("handling_since", default=None)


def tap_answered() -> None:
    TAPS.inc()
    since = HANDLING_SINCE.get()
    if since is not None:
        ANSWER_SECONDS.observe(time.monotonic() - since)


@dataclass
class Health:
    """What `/healthz` asks: is the update loop alive and answered, is the database there."""

    loop_alive: Callable[[], str | None]  # None when well, else what is wrong
    ping_database: Callable[[], Awaitable[None]]
    outbox_depth: Callable[[], Awaitable[int]]


PING_TIMEOUT = 5.0  # seconds /healthz waits for the database's answer
PROBLEM_LOG_EVERY = 60.0  # seconds between two log lines of the database's failing ping
FORWARDED = ("Forwarded", "X-Forwarded-For", "X-Real-IP", "Via")


def from_this_host(request: web.Request) -> bool:
    """The request comes from this host itself, not through a proxy (which may run on this host too, and would
    then connect from loopback on behalf of anyone outside)."""
    if any(name in request.headers for name in FORWARDED):
        return False
    remote = request.remote or ""
    try:
        return ipaddress.ip_address(remote.partition("%")[0]).is_loopback
    except ValueError:
        return False


def add_routes(app: web.Application, health: Health, *, local_only: bool = False) -> None:
    """`/healthz` and `/metrics` on `app`: their own server's (`HTTP_PORT`), or, `local_only`, the webhook's,
    which a proxy exposes: there they answer only requests from this host itself (404 to anyone else)."""
    logged_at = -PROBLEM_LOG_EVERY

    def allowed(request: web.Request) -> None:
        if local_only and not from_this_host(request):
            raise web.HTTPNotFound()

    async def healthz(request: web.Request) -> web.Response:
        nonlocal logged_at
        allowed(request)
        problem = health.loop_alive()
        if problem is None:
            try:
                await asyncio.wait_for(health.ping_database(), PING_TIMEOUT)
            except Exception as error:
                # The reason, short; the database's own words (names, addresses) go to the log only.
                problem = "the database does not answer"
                if time.monotonic() - logged_at >= PROBLEM_LOG_EVERY:
                    logged_at = time.monotonic()
                    logger.warning("healthz: the database does not answer: %r", error)
        if problem is not None:
            return web.Response(status=503, text=f"unhealthy: {problem}\n")
        return web.Response(text="ok\n")

    async def metrics(request: web.Request) -> web.Response:
        allowed(request)
        try:
            OUTBOX.set(await asyncio.wait_for(health.outbox_depth(), PING_TIMEOUT))
        except Exception as error:
            logger.info("metrics: the outbox depth is unknown now (%r)", error)
        return web.Response(body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST})

    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics)


def application(health: Health) -> web.Application:
    app = web.Application()
    add_routes(app, health)
    return app


async def serve(health: Health, host: str, port: int) -> web.AppRunner:
    """Start the server; the caller cleans the runner up when the bot stops."""
    runner = web.AppRunner(application(health), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as error:
        await runner.cleanup()
        raise StartupError(f"HTTP_PORT {port}: cannot listen on {host}: {error.strerror or error}") from error
    logger.info("health and metrics on http://%s:%s/healthz and /metrics", host, port)
    return runner
