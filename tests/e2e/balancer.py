"""A reverse proxy in front of several bot instances, as Caddy is in compose.yaml: each webhook POST goes to the
next instance in turn (round robin); one that does not answer is left out and the request goes to the next, and
when none answers Telegram gets a 502 (and posts the update again later)."""

from __future__ import annotations

import contextlib
import socket
from collections import Counter
from types import TracebackType
from typing import Self

import aiohttp
from aiohttp import web


def free_port() -> int:
    with contextlib.closing(socket.socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def outside_address() -> str | None:
    """An address of this host that is not loopback (what a request from another machine or container comes
    from, as seen by a server listening on 0.0.0.0), or None on a host without one. (A UDP connect sends
    nothing: it only picks the interface a packet would leave by.)"""
    with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_DGRAM)) as probe:
        try:
            probe.connect(("10.254.254.254", 9))
        except OSError:
            return None
        address = str(probe.getsockname()[0])
    return None if address.startswith("127.") or address == "0.0.0.0" else address


class Balancer:
    """`async with Balancer(["http://127.0.0.1:8001/hook", ...]) as balancer:`; Telegram's webhook is
    `balancer.url`. `served[i]` counts the updates instance i answered with a 2xx."""

    def __init__(self, backends: list[str], path: str = "/hook") -> None:
        self.backends = backends
        self.path = path
        self.port = free_port()
        self.served: Counter[int] = Counter()
        self.refused: Counter[int] = Counter()  # answered, but not with a 2xx
        self._next = 0
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.path}"

    async def __aenter__(self) -> Self:
        app = web.Application()
        app.router.add_post(self.path, self._forward)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60))
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _forward(self, request: web.Request) -> web.Response:
        assert self._session is not None
        body = await request.read()
        headers = {name: value for name, value in request.headers.items() if name.lower().startswith("x-telegram")}
        headers["Content-Type"] = request.headers.get("Content-Type", "application/json")
        for _ in range(len(self.backends)):
            index = self._next % len(self.backends)
            self._next += 1
            try:
                async with self._session.post(self.backends[index], data=body, headers=headers) as answer:
                    text = await answer.read()
                    if 200 <= answer.status < 300:
                        self.served[index] += 1
                    else:
                        self.refused[index] += 1
                    return web.Response(status=answer.status, body=text)
            except (aiohttp.ClientError, TimeoutError):
                continue  # that instance is down: the next one
        return web.Response(status=502, text="no instance answered")
