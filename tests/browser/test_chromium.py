"""The browser pipeline itself, before any Mini App: Debian's Chromium opens a page that a local aiohttp server
serves, draws its SVG card within a phone's width, runs its script (a tap that asks the server and writes its
answer into the page) and leaves a screenshot as wide as the viewport. Each check needs the real thing: the text
the page shows comes from the server's answer, and the server counts what it was sent."""

from __future__ import annotations

import secrets
import struct
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web
from playwright.async_api import expect

from tests.browser.conftest import DESKTOP, PHONE, PageAt, Screenshot

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Card</title>
<style>
  body { margin: 0; padding: 16px; font-family: sans-serif; }
  #card { display: block; width: 100%; max-width: 240px; height: auto; }
  button { margin-top: 12px; font-size: 18px; }
</style>
</head>
<body>
<svg id="card" viewBox="0 0 240 336" role="img" aria-label="Ace of spades">
  <rect x="2" y="2" width="236" height="332" rx="16" fill="#fff" stroke="#222" stroke-width="4"/>
  <text x="24" y="60" font-size="44">A</text>
  <text x="120" y="200" font-size="120" text-anchor="middle">♠</text>
</svg>
<button id="play" type="button">Play</button>
<p id="status">waiting</p>
<script>
document.getElementById("play").addEventListener("click", async () => {
  const response = await fetch("/play", {
    method: "POST",
    headers: {"content-type": "application/json"},
    body: JSON.stringify({card: "AS", width: window.innerWidth}),
  });
  const answer = await response.json();
  document.getElementById("status").textContent = "played " + answer.card + " " + answer.token;
});
</script>
</body>
</html>
"""


class CardServer:
    """Serves PAGE at / and answers POST /play with the card and a token of its own, keeping what it was sent."""

    def __init__(self) -> None:
        self.token = secrets.token_hex(8)
        self.plays: list[dict[str, object]] = []
        self.url = ""

    async def page(self, request: web.Request) -> web.Response:
        return web.Response(text=PAGE, content_type="text/html")

    async def play(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.plays.append(body)
        return web.json_response({"card": body["card"], "token": self.token})


@pytest.fixture
async def server() -> AsyncIterator[CardServer]:
    served = CardServer()
    app = web.Application()
    app.add_routes([web.get("/", served.page), web.post("/play", served.play)])
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    served.url = f"http://{host}:{port}/"
    try:
        yield served
    finally:
        await runner.cleanup()


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from the PNG's header (the IHDR chunk comes first)."""
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n" and header[12:16] == b"IHDR", f"{path} is not a PNG"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


async def test_a_page_runs_draws_and_talks_to_its_server_at_both_widths(
    server: CardServer, page_at: PageAt, screenshot: Screenshot
) -> None:
    errors: list[str] = []  # the pages' uncaught script errors
    for played, width in enumerate((PHONE, DESKTOP), start=1):
        page = await page_at(width)
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.goto(server.url)
        status = page.locator("#status")
        await expect(status).to_have_text("waiting")
        assert await page.evaluate("window.innerWidth") == width

        await page.locator("#play").click()
        await expect(status).to_have_text(f"played AS {server.token}")
        assert server.plays[-1] == {"card": "AS", "width": width}
        assert len(server.plays) == played

        box = await page.locator("#card").bounding_box()
        viewport = page.viewport_size
        assert box is not None and viewport is not None
        assert box["width"] > 100 and box["height"] > 100, "the card is drawn, not collapsed"
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], (box, viewport)
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], (box, viewport)

        path = await screenshot(page)
        assert path.name.endswith(f"-{width}.png")
        shot_width, shot_height = png_size(path)
        assert shot_width == width, "one device pixel a CSS pixel, and nothing wider than the viewport"
        assert shot_height >= viewport["height"]
    assert errors == []
