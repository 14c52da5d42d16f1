"""A Bot API that closes every connection right after its answer, though the answer said keep-alive: the client's
next request on that pooled connection fails half-way, as on a flaky network, and aiohttp names the request's
URL, token and all (``Can not write request body for http://.../bot<TOKEN>/getUpdates``). Every other request
is answered: getMe as a bot, getUpdates with nothing, any other method with True; or, for the methods in
`hanging`, never (a network that has stopped moving)."""

from __future__ import annotations

import asyncio
import json
from types import TracebackType
from typing import Any, Self

BOT = {"id": 123456, "is_bot": True, "first_name": "Бура", "username": "bura_bot"}


class ClosingBotApi:
    """`async with ClosingBotApi() as api:` serves at `api.base_url`; `api.calls` counts the answers."""

    def __init__(self, hanging: frozenset[str] = frozenset()) -> None:
        self.hanging = hanging
        self.calls: list[str] = []
        self._closing = asyncio.Event()
        self._server: asyncio.Server | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None
        host, port = self._server.sockets[0].getsockname()[:2]
        return f"http://{host}:{port}"

    async def __aenter__(self) -> Self:
        self._server = await asyncio.start_server(self._answer_once, "127.0.0.1", 0)
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        assert self._server is not None
        self._closing.set()
        self._server.close()
        await self._server.wait_closed()

    async def _answer_once(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
            lines = head.lower().split("\r\n")
            lengths = [line.split(":", 1)[1] for line in lines if line.startswith("content-length:")]
            length = int(lengths[0]) if lengths else 0
            await reader.readexactly(length)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            writer.close()
            return
        method = head.split(" ", 2)[1].rsplit("/", 1)[-1]
        self.calls.append(method)
        if method in self.hanging:
            await self._closing.wait()
            writer.close()
            return
        if method == "getUpdates":
            await asyncio.sleep(0.1)  # not a long poll, but not a busy loop either
        result: Any = BOT if method == "getMe" else [] if method == "getUpdates" else True
        body = json.dumps({"ok": True, "result": result}).encode()
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: keep-alive\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        await writer.drain()
        writer.close()  # though it said keep-alive
