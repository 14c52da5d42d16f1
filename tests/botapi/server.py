"""`FakeTelegram`: a local Telegram Bot API server for end-to-end tests, on aiohttp.

The bot under test talks to it exactly as to api.telegram.org (`POST {base_url}/bot<token>/<method>`), and the
test acts as people through the `People` API it inherits:

    async with FakeTelegram(clock=FakeClock()) as tg:
        alice = tg.user("Alice")
        ...  # run the bot with TELEGRAM_API_BASE=tg.base_url, then tg.start_bot(alice), tg.tap(...)

Which clock: with a `FakeClock` nothing expires until the test advances it, which makes flood and callback
tests exact; a bot in a subprocess that sleeps `retry_after` real seconds needs the default `SystemClock`
(or `flood_limits=False`), or it would be refused forever. Long polling always waits in real time.

It also runs by hand: `python -m tests.botapi.server --port 8081 --token 123:ABC`.
"""

import argparse
import asyncio
import contextlib
import json
import logging
import random
import traceback
from types import TracebackType

from aiohttp import web

from tests.botapi.clock import Clock, SystemClock
from tests.botapi.errors import METHOD_NOT_FOUND, UNAUTHORIZED, ApiError, bad_request, too_many_requests
from tests.botapi.limits import FloodControl, FloodPolicy
from tests.botapi.methods import ENTITY_TOO_LARGE, MAX_UPLOAD, BotApi
from tests.botapi.params import coerce
from tests.botapi.people import People
from tests.botapi.spec import method_fields
from tests.botapi.state import Json, Request, Upload, User, World
from tests.botapi.webhook import WebhookDelivery

DEFAULT_TOKEN = "123456789:TEST-token-for-the-fake-bot-api"
# Seconds a bot has to answer a callback query. Telegram does not publish the figure; bots see "query is too
# old" after some seconds, so we take a strict 10: a bot must answer at once, as the house style asks.
CALLBACK_WINDOW = 10.0
# Parameters the spec no longer lists but Telegram (and aiogram) still send.
_LEGACY_FIELDS = {
    "reply_to_message_id": ["Integer"],
    "allow_sending_without_reply": ["Boolean"],
    "disable_web_page_preview": ["Boolean"],
}

FORM_ROOM = 1024 * 1024  # bytes of a multipart request besides its file
ATTACH = "attach://"  # a parameter naming a file part of the same request (aiogram uploads so)

log = logging.getLogger(__name__)


class FakeTelegram(People):
    """The server plus the world it serves; start it with `async with` or `start()` / `stop()`."""

    def __init__(
        self,
        token: str = DEFAULT_TOKEN,
        *,
        clock: Clock | None = None,
        flood_limits: bool = True,
        flood_policy: FloodPolicy | None = None,
        bot_name: str = "Бура",
        bot_username: str = "bura_test_bot",
        privacy_mode: bool = True,
        callback_window: float = CALLBACK_WINDOW,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        bot_id, _, secret = token.partition(":")
        if not bot_id.isdigit() or not secret:
            raise ValueError("a bot token is <bot id>:<secret>")
        clock = clock or SystemClock()
        world = World(bot=User(int(bot_id), bot_name, bot_username, is_bot=True), privacy_mode=privacy_mode)
        super().__init__(world, clock)
        self.token = token
        self.flood = FloodControl(clock, flood_policy, enabled=flood_limits)
        self.api = BotApi(world, clock, self.flood, callback_window)
        self.crashes: list[str] = []  # tracebacks of requests the fake itself failed on
        # An outage: True, every request gets a 502 from the "proxy" in front; a set of method names, only those.
        self.down: bool | frozenset[str] = False
        self._injected: dict[str, tuple[random.Random, float, int]] = {}
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None
        self.webhook = WebhookDelivery(world, clock)  # idle until the bot calls setWebhook

    @property
    def base_url(self) -> str:
        """What the bot takes as TELEGRAM_API_BASE."""
        return f"http://{self.host}:{self.port}"

    def app(self) -> web.Application:
        # Room for the largest upload Telegram takes from a bot, and the form around it: the request is read
        # whole, and a larger one is refused as Telegram refuses it (`_raw_params`).
        app = web.Application(client_max_size=MAX_UPLOAD + FORM_ROOM)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_route("*", "/{tail:.*}", self._not_found)
        return app

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app(), handler_cancellation=True, access_log=None, shutdown_timeout=0.1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self.webhook.start()

    async def stop(self) -> None:
        # Release pending long polls first so the server does not wait for them to time out.
        self.api.closing = True
        self.world.changed.fire()
        await self.webhook.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> "FakeTelegram":
        await self.start()
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.stop()

    # --- HTTP ---------------------------------------------------------------------------------------

    async def _not_found(self, request: web.Request) -> web.Response:
        return _reply(ApiError(404, "Not Found").body(), 404)

    def inject_429(self, method: str, probability: float, seed: int, retry_after: int = 1) -> None:
        """From now on refuse calls of `method` with a 429 at this rate (a seeded `random.Random`), whatever
        they are (the flood limits count only messages; this hits any method, answerCallbackQuery say)."""
        if not 0 <= probability <= 1:
            raise ValueError("probability is between 0 and 1")
        self._injected[method] = (random.Random(seed), probability, retry_after)

    def stop_injecting(self, method: str) -> None:
        self._injected.pop(method, None)

    async def _handle(self, request: web.Request) -> web.Response:
        name = self.api.by_lower_name.get(request.match_info["method"].lower(), "")
        if self.down is True or (self.down and name in self.down):
            # What a client sees while Telegram is down: the load balancer's HTML page, not the Bot API.
            self.world.history.append(Request(name, {}, self.clock.now(), False, error_code=502, description="down"))
            return web.Response(status=502, text="<html><body><h1>502 Bad Gateway</h1></body></html>")
        if request.match_info["token"] != self.token:
            return _reply(UNAUTHORIZED.body(), UNAUTHORIZED.code)
        method = self.api.by_lower_name.get(request.match_info["method"].lower())
        if method is None:
            return _reply(METHOD_NOT_FOUND.body(), METHOD_NOT_FOUND.code)
        params: Json = {}
        try:
            params = await _raw_params(request)  # recorded as sent if they cannot even be read
            params = coerce(params, method_fields(method) | _LEGACY_FIELDS)
            injected = self._injected.get(method)
            if injected is not None and injected[0].random() < injected[1]:
                raise too_many_requests(injected[2])
            result = await self.api.handlers[method](params)
        except ApiError as error:
            return self._reply(method, params, error.body(), error.code)
        except Exception:
            # A bug in the fake, not in the bot: keep it visible to the test instead of a quiet 500.
            self.crashes.append(traceback.format_exc())
            log.exception("fake Bot API failed on %s", method)
            crash = ApiError(500, "Internal Server Error: the fake Bot API crashed, see FakeTelegram.crashes")
            return self._reply(method, params, crash.body(), crash.code)
        return self._reply(method, params, {"ok": True, "result": result}, 200)

    def _reply(self, method: str, params: Json, body: Json, status: int) -> web.Response:
        """Record the call in the history, wake whoever waits for the bot, and answer it."""
        entry = Request(
            method,
            params,
            self.clock.now(),
            body["ok"],
            body.get("result"),
            body.get("error_code"),
            body.get("description"),
            body.get("parameters"),
        )
        self.world.history.append(entry)
        keys: list[int | str] = []
        with contextlib.suppress(TypeError, ValueError):
            keys.append(int(params.get("chat_id")))  # type: ignore[arg-type]  # absent or "@name": no chat key
        if "callback_query_id" in params:
            keys.append(f"query:{params['callback_query_id']}")
        self.world.touch(*keys)
        return _reply(body, status)


async def _raw_params(request: web.Request) -> Json:
    """Parameters from the query string and the body, whichever encoding the bot chose. A multipart form may
    carry files: a file part is an `Upload` under its own name, and a parameter ``attach://<name>`` stands for
    the file part <name> (how aiogram sends an InputFile)."""
    raw: Json = dict(request.query)
    if request.content_type == "application/json":
        try:
            body = await request.json()
        except ValueError:
            raise ApiError(400, "Bad Request: can't parse JSON encoded request body") from None
        if not isinstance(body, dict):
            raise ApiError(400, "Bad Request: JSON encoded request body must be an Object")
        raw.update(body)
    elif request.can_read_body:
        try:
            form = await request.post()
        except web.HTTPRequestEntityTooLarge:
            raise ENTITY_TOO_LARGE from None
        files = {
            name: Upload(value.filename or None, value.content_type or None, value.file.read())
            for name, value in form.items()
            if isinstance(value, web.FileField)
        }
        raw.update({name: value for name, value in form.items() if isinstance(value, str)})
        raw.update(files)
        for name, value in list(raw.items()):
            if isinstance(value, str) and value.startswith(ATTACH):
                part = files.get(value.removeprefix(ATTACH))
                if part is None:
                    raise bad_request(f"file {value} not found in the request")
                raw[name] = part
    return raw


def _reply(body: Json, status: int) -> web.Response:
    return web.json_response(body, status=status, dumps=lambda data: json.dumps(data, ensure_ascii=False))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="A local fake Telegram Bot API server for manual testing.")
    parser.add_argument("--port", type=int, default=8081, help="0 picks a free port")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--token", default=DEFAULT_TOKEN)
    parser.add_argument("--no-flood-limits", action="store_true", help="switch Telegram's flood limits off")
    args = parser.parse_args(argv)

    async def serve() -> None:
        tg = FakeTelegram(args.token, flood_limits=not args.no_flood_limits, host=args.host, port=args.port)
        async with tg:
            print(f"fake Bot API at {tg.base_url} (token {tg.token})", flush=True)
            await asyncio.Event().wait()

    logging.basicConfig(level=logging.INFO)
    asyncio.run(serve())


if __name__ == "__main__":
    main()
