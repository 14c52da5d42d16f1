"""The webhook server: an update answered 200 only once it is stored, handled once; a request without the
secret refused and changing nothing; a storage failure a 500 that Telegram tries again. A real server on a free
port, posted to as Telegram posts, with a real database."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import pytest

from bot import metrics
from bot.storage import SqliteStorage
from bot.storage.sqlite import FaultHooks
from bot.telegram.webhook import SECRET_HEADER, WebhookServer
from tests.e2e.balancer import outside_address

SECRET = "s3cret_Token-1"
PATH = "/telegram/hook"


def update(update_id: int) -> dict[str, object]:
    return {"update_id": update_id, "message": {"message_id": update_id, "text": "/start"}}


@dataclass
class Handler:
    """The bot's update handling, as the webhook server calls it: records the update ids, waits while held."""

    handled: list[int] = field(default_factory=list)
    started: list[int] = field(default_factory=list)
    release: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.release.set()

    async def __call__(self, text: str) -> None:
        update_id = json.loads(text)["update_id"]
        self.started.append(update_id)
        await self.release.wait()
        self.handled.append(update_id)


@dataclass
class Hook:
    server: WebhookServer
    storage: SqliteStorage
    handler: Handler
    hooks: Path
    http: aiohttp.ClientSession

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}{PATH}"

    async def post(self, body: object, secret: str | None = SECRET) -> int:
        """POST as Telegram does: the update as JSON (or `body` as it is, if bytes), with the secret header."""
        headers = {SECRET_HEADER: secret} if secret is not None else {}
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
        async with self.http.post(self.url, data=data, headers=headers) as response:
            return response.status


@pytest.fixture
async def hook(tmp_path: Path) -> AsyncIterator[Hook]:
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    async with await SqliteStorage.open(tmp_path / "bura.sqlite3", hooks=FaultHooks(hooks)) as storage:
        handler = Handler()
        server = WebhookServer(storage, handler, SECRET, PATH)
        await server.start("127.0.0.1", 0)
        try:
            async with aiohttp.ClientSession() as http:
                yield Hook(server, storage, handler, hooks, http)
        finally:
            await server.stop(grace=5)


async def until(condition: Callable[[], bool], what: str) -> None:
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


async def test_an_update_is_stored_before_its_200_then_handled_once(hook: Hook) -> None:
    hook.handler.release.clear()
    assert await hook.post(update(1)) == 200
    assert [update_id for update_id, _ in await hook.storage.pending_updates()] == [1], "stored at its 200"
    await until(lambda: hook.handler.started == [1], "the handling to start")
    assert await hook.post(update(1)) == 200, "sent again while under way: a no-op"
    hook.handler.release.set()
    await until(lambda: hook.handler.handled == [1], "the update handled")
    assert await hook.post(update(1)) == 200, "sent again, handled, its mark not yet committed: a no-op"
    await hook.server.handling.flush()
    assert await hook.storage.is_update_processed(1)
    assert await hook.post(update(1)) == 200, "sent again once processed: a no-op"
    await asyncio.sleep(0.05)
    assert hook.handler.started == [1]


async def test_a_request_without_the_right_secret_is_refused_and_changes_nothing(hook: Hook) -> None:
    assert await hook.post(update(5), secret=None) == 401
    assert await hook.post(update(5), secret="wrong") == 401
    assert await hook.post(update(5), secret=SECRET + "x") == 401
    assert await hook.post(update(5), secret=SECRET[:-1]) == 401
    assert hook.server.refused == 4
    await asyncio.sleep(0.05)
    assert hook.handler.started == []
    assert await hook.storage.pending_updates() == []
    assert await hook.storage.store_updates([(5, "{}")]) == [5], "the inbox never saw it"


DEEP = 100_000  # levels of nesting: far past Python's recursion limit


@pytest.mark.parametrize(
    "body",
    [
        b"{not json",
        b"[1, 2]",
        b'"an update"',
        b"42",
        b"null",
        b'{"message": {}}',
        b'{"update_id": "7"}',
        b'{"update_id": true}',
        b'{"update_id": -1}',
        b'{"update_id": 7.0}',
        b"\xff\xfe",
        b'{"update_id": 1180591620717411303424, "message": {}}',  # 2**70
        b'{"update_id": 7, "message": "a string"}',
        b'{"update_id": 7, "message": {"text": "/start"}, "callback_query": [1]}',
        b'{"update_id": 7, "message": {"chat": {"id": 1180591620717411303424}}}',
        b'{"update_id": 7, "message": {"chat": {"id": -9223372036854775809}}}',  # one below 64 bits
        b'{"update_id": 7, "message": {"date": 1e400}}',
        b'{"update_id": 7, "message": {"date": NaN}}',
        b'{"update_id": 7, "message": {"date": -Infinity}}',
        b'{"update_id": 7, "message": {"date": ' + b"9" * 5000 + b"}}",
        b'{"update_id": 7, "message": ' + b'{"a":' * DEEP + b"1" + b"}" * DEEP + b"}",
        b'{"update_id": 7, "message": {"a": ' + b"[" * DEEP + b"]" * DEEP + b"}}",
    ],
)
async def test_a_body_that_is_no_update_is_a_400(hook: Hook, body: bytes) -> None:
    assert await hook.post(body) == 400
    assert await hook.storage.pending_updates() == []
    assert hook.handler.started == []
    assert await hook.post(update(8)) == 200, "and the next update is taken as ever"


async def test_the_largest_ids_a_database_holds_are_taken(hook: Hook) -> None:
    largest = {"update_id": 2**63 - 1, "message": {"chat": {"id": -(2**63)}, "date": 1.5e300}}
    assert await hook.post(largest) == 200
    await until(lambda: hook.handler.handled == [2**63 - 1], "the update handled")


async def test_an_inbox_that_cannot_store_answers_500_and_the_retry_is_handled(hook: Hook) -> None:
    (hook.hooks / "disk-full").touch()
    assert await hook.post(update(9)) == 500
    assert await hook.post(update(9)) == 500, "Telegram tries again: still refused while the disk is full"
    await asyncio.sleep(0.05)
    assert hook.handler.started == []
    (hook.hooks / "disk-full").unlink()
    assert await hook.storage.pending_updates() == [], "nothing was stored"
    assert await hook.post(update(9)) == 200
    await until(lambda: hook.handler.handled == [9], "the retried update handled")


async def test_an_update_an_instance_stored_before_dying_is_handled_and_a_processed_one_is_not(hook: Hook) -> None:
    await hook.storage.store_updates([(11, json.dumps(update(11))), (12, json.dumps(update(12)))])
    await hook.storage.mark_updates_done([12])
    assert await hook.post(update(11)) == 200
    assert await hook.post(update(12)) == 200
    await until(lambda: hook.handler.handled == [11], "the orphaned update handled")
    await asyncio.sleep(0.05)
    assert hook.handler.started == [11]


async def test_the_stop_lets_the_handler_under_way_finish_and_commits_its_mark(hook: Hook) -> None:
    hook.handler.release.clear()
    assert await hook.post(update(21)) == 200
    await until(lambda: hook.handler.started == [21], "the handling to start")
    stopping = asyncio.create_task(hook.server.stop(grace=5))
    await asyncio.sleep(0.05)
    assert not stopping.done(), "the stop waits for the handler"
    with pytest.raises(aiohttp.ClientConnectionError):
        await hook.post(update(22))  # no longer listening
    hook.handler.release.set()
    await stopping
    assert hook.handler.handled == [21]
    assert await hook.storage.is_update_processed(21)
    assert await hook.storage.pending_updates() == []


async def test_an_update_left_in_the_inbox_is_handled_at_the_start(tmp_path: Path) -> None:
    async with await SqliteStorage.open(tmp_path / "bura.sqlite3") as storage:
        await storage.store_updates([(31, json.dumps(update(31)))])
        handler = Handler()
        server = WebhookServer(storage, handler, SECRET, PATH)
        await server.start("127.0.0.1", 0)
        try:
            await until(lambda: handler.handled == [31], "the pending update handled")
        finally:
            await server.stop()
        assert await storage.pending_updates() == []


async def test_health_and_metrics_ride_on_the_webhook_server(tmp_path: Path) -> None:
    async with await SqliteStorage.open(tmp_path / "bura.sqlite3") as storage:
        server = WebhookServer(storage, Handler(), SECRET)
        health = metrics.Health(server.problem, storage.ping, storage.outbox_depth)
        metrics.add_routes(server.app, health, local_only=True)
        assert server.problem() == "the webhook server is not serving"
        registered = asyncio.Event()

        async def register() -> None:
            await registered.wait()

        running = asyncio.create_task(server.run("127.0.0.1", 0, register))
        try:
            await until(lambda: server.port is not None, "the server to listen")
            base = f"http://127.0.0.1:{server.port}"
            async with aiohttp.ClientSession() as http:
                async with http.get(f"{base}/healthz") as response:
                    assert (response.status, await response.text()) == (503, "unhealthy: the webhook is not set yet\n")
                registered.set()
                await until(lambda: server.problem() is None, "the webhook set")
                async with http.get(f"{base}/healthz") as response:
                    assert (response.status, await response.text()) == (200, "ok\n")
                async with http.get(f"{base}/metrics") as response:
                    assert response.status == 200
                    assert "bura_moves_total" in await response.text()
                async with http.post(f"{base}/", json=update(1), headers={SECRET_HEADER: SECRET}) as response:
                    assert response.status == 200, "the webhook at the default path /"
        finally:
            running.cancel()
            await asyncio.gather(running, return_exceptions=True)
            await server.stop()


async def test_health_and_metrics_on_the_webhook_server_answer_this_host_only(tmp_path: Path) -> None:
    outside = outside_address()
    if outside is None:
        pytest.skip("this host has no address but loopback")
    async with await SqliteStorage.open(tmp_path / "bura.sqlite3") as storage:
        server = WebhookServer(storage, Handler(), SECRET, PATH)
        metrics.add_routes(
            server.app, metrics.Health(lambda: None, storage.ping, storage.outbox_depth), local_only=True
        )
        await server.start("0.0.0.0", 0)  # as in a container, behind the proxy
        try:
            async with aiohttp.ClientSession() as http:
                for path in ("/healthz", "/metrics"):
                    async with http.get(f"http://127.0.0.1:{server.port}{path}") as response:
                        assert response.status == 200, path
                    async with http.get(f"http://{outside}:{server.port}{path}") as response:
                        assert response.status == 404, f"{path} from {outside}"
                    proxied = {"X-Forwarded-For": "203.0.113.9"}  # a proxy on this host, for someone outside
                    async with http.get(f"http://127.0.0.1:{server.port}{path}", headers=proxied) as response:
                        assert response.status == 404, f"{path} through a proxy"
                headers = {SECRET_HEADER: SECRET}
                async with http.post(
                    f"http://{outside}:{server.port}{PATH}", json=update(1), headers=headers
                ) as response:
                    assert response.status == 200, "the webhook itself answers everyone"
        finally:
            await server.stop()


async def test_an_unhealthy_database_is_a_short_reason_and_its_error_goes_to_the_log(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(metrics, "PING_TIMEOUT", 0.2)
    answers: list[str] = []

    async def failing() -> None:
        raise OSError('could not connect to server at "db.internal" (10.1.2.3), port 5432: Connection refused')

    async def hanging() -> None:
        await asyncio.Event().wait()

    async def depth() -> int:
        return 0

    for ping in (failing, hanging):
        app = metrics.application(metrics.Health(lambda: None, ping, depth))
        runner = aiohttp.web.AppRunner(app)
        await runner.setup()
        site = aiohttp.web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        try:
            url = f"http://127.0.0.1:{runner.addresses[0][1]}/healthz"
            async with aiohttp.ClientSession() as http, http.get(url) as response:
                answers.append(f"{response.status} {await response.text()}")
        finally:
            await runner.cleanup()
    assert answers == ["503 unhealthy: the database does not answer\n"] * 2
    assert "10.1.2.3" in caplog.text, "the admin finds the database's words in the log"
