"""The Mini App's page (bot/webapp/static/) in a real Chromium against a fake API: the real static files served as
bot/webapp/server.py serves them, and /webapp/api/ answered from hand-written boards (tests/browser/fixtures/) by a
server that keeps every request it was sent. The page is opened as Telegram opens it (the launch parameters in
the hash) and checked by the DOM contract the e2e tests rely on (body[data-version], .seat[data-seat], .pile,
.card[data-code], #hand, #actions, #notice, #replays, #error, body.dark, body[data-stream])."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from aiohttp import web
from playwright.async_api import ConsoleMessage, Page, expect

from bot.i18n import Translations
from bot.webapp.server import add_page
from tests.browser.conftest import DARK_THEME, DESKTOP, PHONE, PageAt, Screenshot

FIXTURES = Path(__file__).parent / "fixtures"
TOKEN = "tok-42.secret"
HASH = "5f4dcc3b5aa765d61d8327deb882cf99a1b2c3d4e5f60718293a4b5c6d7e8f90"
RED = "rgb(200, 16, 46)"
DARK = "rgb(27, 27, 31)"
Json = dict[str, Any]


def fixture(name: str) -> Json:
    loaded: Json = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return loaded


def init_data(*, language: str = "ru", start_param: str | None = None) -> str:
    """initData as Telegram signs it (the hash is not checked here: the API is fake), the user's JSON encoded."""
    user = {"id": 1001, "first_name": "Анна", "username": "anna", "language_code": language}
    fields = [
        ("query_id", "AAHdF6IQAAAAAN0XohDhrOrc"),
        ("user", json.dumps(user, ensure_ascii=False, separators=(",", ":"))),
        ("auth_date", "1764900000"),
    ]
    if start_param is not None:
        fields.append(("start_param", start_param))
    fields.append(("hash", HASH))
    return "&".join(f"{key}={quote(value, safe='')}" for key, value in fields)


def launch_hash(data: str, theme: Json | None = None) -> str:
    params = [("tgWebAppData", data), ("tgWebAppVersion", "8.0"), ("tgWebAppPlatform", "android")]
    if theme is not None:
        params.append(("tgWebAppThemeParams", json.dumps(theme)))
    return "#" + "&".join(f"{key}={quote(value, safe='')}" for key, value in params)


@dataclass
class Stream:
    """One open event stream: what the test sends down it (None closes it) and the Last-Event-ID it came with."""

    last_event_id: str | None
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)


class FakeApi:
    """The page and a fake /webapp/api/: the table is `view` (a fixture), taps answered by `taps` (data -> an
    answer, or a callable making one), errors by `table_error`; every request kept in `requests`."""

    def __init__(self, view: Json) -> None:
        self.view = view
        self.taps: dict[str, Json | Callable[[], Json]] = {}
        self.table_error: tuple[int, str] | None = None
        self.requests: list[tuple[str, str, str | None, Json | None]] = []  # method, path?query, auth, body
        self.streams: list[Stream] = []
        self.hold: asyncio.Event | None = None  # set: a tap is answered only once it is set
        self.url = ""

    def app(self) -> web.Application:
        app = web.Application()
        add_page(
            app, Translations()
        )  # the bot's own page, with its headers (its Content-Security-Policy holds the page to itself)
        app.router.add_get("/host", self.host)
        app.router.add_get("/webapp/api/table", self.table)
        app.router.add_post("/webapp/api/tap", self.tap)
        app.router.add_get("/webapp/api/events", self.events)
        app.router.add_get("/webapp/api/replay", self.replay)
        return app

    async def host(self, request: web.Request) -> web.Response:
        """Telegram's web client as the page sees it: a parent frame that hears postMessage and posts events."""
        src = f"/webapp/?t={quote(TOKEN)}" + launch_hash(init_data())
        page = (
            "<!doctype html><meta charset=utf-8><body><script>window.got = [];"
            "addEventListener('message', e => window.got.push(JSON.parse(e.data).eventType));</script>"
            f'<iframe id=app width=360 height=600 src="{src}"></iframe></body>'
        )
        return web.Response(text=page, content_type="text/html")

    async def keep(self, request: web.Request) -> Json | None:
        body = await request.json() if request.method == "POST" else None
        self.requests.append((request.method, request.path_qs, request.headers.get("Authorization"), body))
        return body

    def calls(self, path: str) -> list[tuple[str, str, str | None, Json | None]]:
        return [each for each in self.requests if each[1].split("?")[0] == f"/webapp/api/{path}"]

    @staticmethod
    def refuse(status: int, code: str) -> web.Response:
        return web.json_response({"error": code}, status=status)

    async def table(self, request: web.Request) -> web.Response:
        await self.keep(request)
        if self.table_error is not None:
            return self.refuse(*self.table_error)
        if request.query.get("t") != TOKEN:
            return self.refuse(404, "no_table")
        return web.json_response(self.view)

    async def tap(self, request: web.Request) -> web.Response:
        body = await self.keep(request)
        assert body is not None and body.get("t") == TOKEN
        if self.hold is not None:
            await self.hold.wait()
        answer = self.taps.get(str(body.get("data")))
        if answer is None:
            return self.refuse(400, "bad_button")
        return web.json_response(answer() if callable(answer) else answer)

    async def replay(self, request: web.Request) -> web.Response:
        await self.keep(request)
        deal = int(request.query["deal"])
        lines = [f"Сдача {deal}: сдаёт Глеб, козырь ♥", "Борис: Т♠ К♠", "Анна: 10♥ В♥ — взяла"]
        return web.json_response({"deal": deal, "lines": lines})

    async def events(self, request: web.Request) -> web.StreamResponse:
        await self.keep(request)
        stream = Stream(request.headers.get("Last-Event-ID"))
        self.streams.append(stream)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
        await response.prepare(request)
        await response.write(b"retry: 1000\n\n")
        version = self.view.get("version")
        await response.write(f"id: {version}\nevent: version\ndata: {json.dumps({'version': version})}\n\n".encode())
        while (chunk := await stream.queue.get()) is not None:
            await response.write(chunk.encode())
        return response  # the stream ends: the page has lost it

    async def send(self, chunk: str) -> None:
        await self.streams[-1].queue.put(chunk)

    async def close_streams(self) -> None:
        for stream in self.streams:
            await stream.queue.put(None)


@pytest.fixture
async def api() -> AsyncIterator[FakeApi]:
    served = FakeApi(fixture("bura"))
    runner = web.AppRunner(served.app(), shutdown_timeout=0.5)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    served.url = f"http://{host}:{port}/webapp/"
    try:
        yield served
    finally:
        await served.close_streams()
        await runner.cleanup()


@dataclass
class Opened:
    page: Page
    problems: list[str]  # console errors and uncaught exceptions
    urls: list[str]  # every URL the page asked for


async def open_page(
    page_at: PageAt,
    api: FakeApi,
    width: int = PHONE,
    *,
    query: str = f"?t={quote(TOKEN)}",
    data: str | None = None,
    theme: Json | None = None,
    proxy: bool = False,
    wait: bool = True,
) -> Opened:
    page = await page_at(width)
    opened = Opened(page, [], [])
    page.on("pageerror", lambda error: opened.problems.append(f"page error: {error}"))

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            opened.problems.append(message.text)

    page.on("console", console)
    page.on("request", lambda request: opened.urls.append(request.url))
    if proxy:  # a native client's bridge, which hears the page's events
        await page.add_init_script(
            "window.posted = []; window.TelegramWebviewProxy = "
            "{postEvent: (type, data) => window.posted.push([type, JSON.parse(data)])};"
        )
    await page.goto(api.url + query + launch_hash(data if data is not None else init_data(), theme))
    if wait:
        await expect(page.locator("body")).to_have_attribute("data-version", str(api.view["version"]))
    return opened


async def fill(page: Page, selector: str) -> str:
    value: str = await page.eval_on_selector(selector, "node => getComputedStyle(node).fill")
    return value


async def test_the_bura_board_is_drawn_with_authorization_in_a_header_only(
    api: FakeApi, page_at: PageAt, screenshot: Screenshot
) -> None:
    for width in (PHONE, DESKTOP):
        opened = await open_page(page_at, api, width, proxy=True)
        page = opened.page
        await expect(page.locator("body")).to_have_attribute("data-role", "player")
        await expect(page.locator("#title")).to_have_text("Бура · сдача 3")
        await expect(page.locator("#score")).to_have_text("Матч до 31: Анна 31 · Борис 44 · Вика 12 · Глеб 0")
        await expect(page.locator("#status > *")).to_have_text(
            ["Ваш ход: покройте две карты Бориса", "Отмечено: 10♥ В♥"]
        )
        await expect(page.locator(".seat")).to_have_count(4)
        you = page.locator('.seat[data-seat="0"]')
        await expect(you).to_have_class(re.compile(r"\byou\b"))
        await expect(you).to_have_class(re.compile(r"\bacting\b"))
        await expect(page.locator('.seat[data-seat="1"]')).not_to_have_class(re.compile(r"\b(you|acting)\b"))
        # A name is text: the markup in Вика's name is shown, not made.
        await expect(page.locator('.seat[data-seat="2"] .name')).to_have_text("Вика <b>✨</b>")
        assert await page.locator(".seat b").count() == 0
        await expect(page.locator('section[data-section="table"]')).to_be_visible()
        await expect(page.locator('section[data-section="history"] .pile')).to_have_count(2)
        await expect(page.locator('.pile[data-pile="trump"] .card[data-code="9H"]')).to_be_visible()
        trick = page.locator('.pile[data-pile="trick"] .card')
        await expect(trick).to_have_count(4)
        await expect(page.locator('.pile[data-pile="trick"] .card.down')).to_have_count(2)
        assert await page.locator('.pile[data-pile="trick"] .card.down[data-code]').count() == 0
        await expect(page.locator('.pile[data-pile="stock"] .card.down')).to_contain_text("14")
        hand = page.locator("#hand button.card")
        assert await hand.evaluate_all("cards => cards.map(card => card.dataset.code)") == ["TH", "KC", "7S", "JH"]
        await expect(page.locator("#hand button.card.marked")).to_have_count(2)
        await expect(page.locator("#actions button")).to_have_text(["Покрыть: 10♥ В♥", "Сбросить втёмную", "🔄"])
        # ♥♦ red, ♠♣ near-black, in the corner's glyph and the middle pip.
        assert await fill(page, '#hand .card[data-code="TH"] .suit') == RED
        assert await fill(page, '#hand .card[data-code="JH"] .pip') == RED
        assert await fill(page, '#hand .card[data-code="KC"] .suit') == DARK
        assert await fill(page, '.pile[data-pile="trick"] .card[data-code="AS"] .suit') == DARK
        assert await fill(page, 'section[data-section="history"] .card[data-code="TD"] .suit') == RED
        await expect(page.locator("body")).not_to_have_class(re.compile(r"\bdark\b"))
        await expect(page.locator("body")).to_have_attribute("data-stream", "open")
        assert await page.evaluate("window.posted.map(([type]) => type)") == [
            "web_app_ready",
            "web_app_expand",
            "web_app_request_theme",
        ]
        await screenshot(page)
        assert opened.problems == []

    data = init_data()
    assert api.requests, "the page asked the API"
    for method, path, auth, _body in api.requests:
        assert auth == f"tma {data}", (method, path)
        assert HASH not in path and "1001" not in path and "query_id" not in path
    assert {path.split("?")[0] for _m, path, _a, _b in api.requests} == {"/webapp/api/table", "/webapp/api/events"}
    assert all(HASH not in url for url in opened.urls)


async def test_a_hand_card_tap_posts_its_data_and_draws_the_hand_it_gets(api: FakeApi, page_at: PageAt) -> None:
    api.taps["h:42:17:t:7S"] = {"text": "", "alert": False, "version": 57, "hand": fixture("bura_marked")}
    page = (await open_page(page_at, api)).page
    await page.locator('#hand button.card[data-code="7S"]').click()
    await expect(page.locator('#hand button.card[data-code="7S"]')).to_have_class(re.compile(r"\bmarked\b"))
    await expect(page.locator("#hand button.card.marked")).to_have_count(3)
    await expect(page.locator("#actions button")).to_have_text(["🔄"])
    await expect(page.locator("#status > *").nth(1)).to_contain_text("больше, чем нужно")
    assert [body for _m, _p, _a, body in api.calls("tap")] == [{"t": TOKEN, "data": "h:42:17:t:7S"}]
    assert len(api.calls("table")) == 1, "a tap that only marks draws its own answer: no refetch"


async def test_an_action_posts_its_data_then_the_table_is_fetched_again(api: FakeApi, page_at: PageAt) -> None:
    def move() -> Json:
        api.view = fixture("bura_after")
        return {"text": "", "alert": False, "version": 58, "hand": None}

    api.taps["h:42:17:b:THJH"] = move
    opened = await open_page(page_at, api)
    page = opened.page
    await page.get_by_role("button", name="Покрыть: 10♥ В♥").click()
    await expect(page.locator("body")).to_have_attribute("data-version", "58")
    await expect(page.locator('.pile[data-pile="trick"] .card[data-code="TH"]')).to_have_count(1)
    await expect(page.locator('.seat[data-seat="1"]')).to_have_class(re.compile(r"\bacting\b"))
    await expect(page.locator("#actions button")).to_have_count(0)
    await expect(page.locator("#hand button.card")).to_have_count(2)
    assert await page.locator("#hand button.card").evaluate_all("cards => cards.every(card => card.disabled)")
    assert [body for _m, _p, _a, body in api.calls("tap")] == [{"t": TOKEN, "data": "h:42:17:b:THJH"}]
    assert len(api.calls("table")) == 2
    assert opened.problems == []


async def test_an_alert_is_shown_until_dismissed_and_a_toast_fades(api: FakeApi, page_at: PageAt) -> None:
    api.taps["h:42:17:d:THJH"] = {"text": "Сейчас не ваш ход", "alert": True, "version": 57, "hand": None}
    api.taps["h:42:17:r:"] = {"text": "Карты сняты", "alert": False, "version": 57, "hand": fixture("bura")}
    page = (await open_page(page_at, api)).page
    await page.get_by_role("button", name="Сбросить втёмную").click()
    notice = page.locator("#notice")
    await expect(notice).to_have_text("Сейчас не ваш ход")
    await expect(notice).to_be_visible()
    await expect(page.locator("#notice-box")).to_have_class(re.compile(r"\balert\b"))
    await page.wait_for_timeout(3500)
    await expect(notice).to_be_visible()  # an alert stays until the player dismisses it
    await page.locator("#notice-ok").click()
    await expect(notice).to_be_hidden()
    await page.get_by_role("button", name="🔄").click()
    await expect(notice).to_have_text("Карты сняты")
    await expect(page.locator("#notice-box")).not_to_have_class(re.compile(r"\balert\b"))
    await expect(notice).to_be_hidden(timeout=6000)


async def test_taps_wait_for_the_one_in_flight(api: FakeApi, page_at: PageAt) -> None:
    release = api.hold = asyncio.Event()
    api.taps["h:42:17:t:7S"] = {"text": "", "alert": False, "version": 57, "hand": fixture("bura_marked")}
    page = (await open_page(page_at, api)).page
    card = page.locator('#hand button.card[data-code="7S"]')
    await card.click()
    await expect(page.locator("body")).to_have_class(re.compile(r"\bbusy\b"))
    # Both are marked disabled while the tap is under way (a click waits for them); a tap gets through anyway.
    await expect(page.locator('#hand button.card[data-code="KC"]')).to_have_attribute("aria-disabled", "true")
    await page.locator('#hand button.card[data-code="KC"]').dispatch_event("click")
    await page.locator("#actions button").first.dispatch_event("click")
    await asyncio.sleep(0.2)
    release.set()
    await expect(card).to_have_class(re.compile(r"\bmarked\b"))
    await expect(page.locator("body")).not_to_have_class(re.compile(r"\bbusy\b"))
    assert [body["data"] for _m, _p, _a, body in api.calls("tap") if body] == ["h:42:17:t:7S"]


async def test_a_version_event_redraws_and_a_lost_stream_comes_back(api: FakeApi, page_at: PageAt) -> None:
    opened = await open_page(page_at, api)
    page = opened.page
    await expect(page.locator("body")).to_have_attribute("data-stream", "open")
    assert len(api.calls("table")) == 1, "the stream's first event names the version drawn: no refetch"
    await api.send(": heartbeat\n\n")
    api.view = fixture("bura_after")
    await api.send('id: 58\nevent: version\ndata: {"version": 58, "status": "playing"}\n\n')
    await expect(page.locator("body")).to_have_attribute("data-version", "58")
    await expect(page.locator("#status > *")).to_have_text(["Ходит Борис"])
    assert api.streams[0].last_event_id is None

    await api.close_streams()
    await expect(page.locator("body")).to_have_attribute("data-stream", "lost")
    await expect(page.locator("#reconnecting")).to_be_visible()
    await expect(page.locator("body")).to_have_attribute("data-stream", "open", timeout=5000)
    assert len(api.streams) == 2
    assert api.streams[1].last_event_id == "58", "the stream resumes after the last event it had"
    for _method, path, auth, _body in api.calls("events"):
        assert path == f"/webapp/api/events?t={quote(TOKEN)}" and auth == f"tma {init_data()}"

    await api.send("event: end\ndata: {}\n\n")
    api.view = {**fixture("bura_after"), "version": 59, "status": "finished"}
    await expect(page.locator("body")).to_have_attribute("data-version", "59")
    await page.wait_for_timeout(2500)
    assert len(api.streams) == 2, "after the end no stream is opened again"
    assert opened.problems == []


async def test_the_replays_of_deals_over(api: FakeApi, page_at: PageAt) -> None:
    page = (await open_page(page_at, api)).page
    await expect(page.locator("#replays")).to_contain_text("Как это было")
    await expect(page.locator("#replays button[data-deal]")).to_have_count(2)
    await page.locator('#replays button[data-deal="2"]').click()
    panel = page.locator("#replay")
    await expect(panel).to_be_visible()
    await expect(panel).to_contain_text("Сдача 2: сдаёт Глеб")
    assert await panel.evaluate("node => node.innerText") == (
        "Сдача 2: сдаёт Глеб, козырь ♥\nБорис: Т♠ К♠\nАнна: 10♥ В♥ — взяла"
    )
    assert api.calls("replay")[0][1] == f"/webapp/api/replay?t={quote(TOKEN)}&deal=2"


async def test_dark_theme_from_the_theme_params(api: FakeApi, page_at: PageAt, screenshot: Screenshot) -> None:
    api.view = fixture("buraco")
    page = (await open_page(page_at, api, theme=DARK_THEME)).page
    await expect(page.locator("body")).to_have_class(re.compile(r"\bdark\b"))
    background = await page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(23, 33, 43)"
    button = await page.eval_on_selector("#actions button", "node => getComputedStyle(node).backgroundColor")
    assert button == "rgb(82, 136, 193)"
    # The card's face stays white and its suits keep their colours.
    assert await fill(page, '#hand .card[data-code="3H"] svg > rect') == "rgb(255, 255, 255)"
    assert await fill(page, '#hand .card[data-code="3H"] .suit') == RED
    assert await fill(page, '#hand .card[data-code="KC"] .suit') == DARK
    assert await fill(page, '#hand .card[data-code="9D"] .pip') == RED
    await screenshot(page)
    # A light theme changed to from the client (a native client calls receiveEvent).
    await page.evaluate(
        "Telegram.WebView.receiveEvent('theme_changed', {theme_params: {bg_color: '#ffffff', text_color: '#000000'}})"
    )
    await expect(page.locator("body")).not_to_have_class(re.compile(r"\bdark\b"))


async def test_dark_without_telegram_theme_follows_the_system(api: FakeApi, page_at: PageAt) -> None:
    page = await page_at(PHONE)
    await page.emulate_media(color_scheme="dark")
    await page.goto(api.url + f"?t={quote(TOKEN)}" + launch_hash(init_data()))
    await expect(page.locator("body")).to_have_attribute("data-version", "57")
    await expect(page.locator("body")).to_have_class(re.compile(r"\bdark\b"))


async def test_the_start_param_names_the_table_without_a_query(api: FakeApi, page_at: PageAt) -> None:
    data = init_data(start_param=TOKEN)
    await open_page(page_at, api, query="", data=data)
    assert api.calls("table")[0][1] == f"/webapp/api/table?t={quote(TOKEN)}"
    assert api.calls("table")[0][2] == f"tma {data}"


@pytest.mark.parametrize(
    ("status", "code", "ru", "en"),
    [
        (401, "expired", "Откройте стол из Telegram ещё раз", "Open the table from Telegram again"),
        (403, "not_allowed", "Этот стол вам не виден", "You cannot see this table"),
        (404, "no_table", "Стол не найден", "Table not found"),
    ],
    ids=["401", "403", "404"],
)
async def test_a_refusal_shows_its_line(
    api: FakeApi, page_at: PageAt, status: int, code: str, ru: str, en: str
) -> None:
    api.table_error = (status, code)
    for language, line in (("ru", ru), ("en", en)):
        opened = await open_page(page_at, api, data=init_data(language=language), wait=False)
        error = opened.page.locator("#error")
        await expect(error).to_be_visible()
        await expect(error).to_contain_text(line)
        await expect(opened.page.locator("#loading")).to_be_hidden()
        assert "Error" not in (await error.text_content() or "")
    await asyncio.sleep(0.3)
    assert not api.calls("events"), "a refused page opens no stream"


async def test_a_busy_server_is_tried_again(api: FakeApi, page_at: PageAt) -> None:
    api.table_error = (503, "try_again")
    opened = await open_page(page_at, api, wait=False)
    page = opened.page
    await expect(page.locator("#error")).to_contain_text("Сервер занят")
    api.table_error = None
    await expect(page.locator("body")).to_have_attribute("data-version", "57", timeout=5000)
    await expect(page.locator("#error")).to_be_hidden()


async def test_the_spectator_sees_the_table_and_no_hand(api: FakeApi, page_at: PageAt) -> None:
    api.view = fixture("bura_spectator")
    opened = await open_page(page_at, api)
    page = opened.page
    await expect(page.locator("body")).to_have_attribute("data-role", "spectator")
    await expect(page.locator(".seat.you")).to_have_count(0)
    await expect(page.locator("#hand .card")).to_have_count(0)
    await expect(page.locator("#actions button")).to_have_count(0)
    await expect(page.locator("#replays")).to_be_hidden()
    await expect(page.locator('.pile[data-pile="trick"] .card')).to_have_count(4)
    assert opened.problems == []


async def test_the_buraco_board_fits_a_phone(api: FakeApi, page_at: PageAt, screenshot: Screenshot) -> None:
    api.view = fixture("buraco")
    for width in (PHONE, DESKTOP):
        opened = await open_page(page_at, api, width)
        page = opened.page
        await expect(page.locator("#hand button.card")).to_have_count(11)
        await expect(page.locator('.pile[data-pile="pile"] .card')).to_have_count(7)
        await expect(page.locator('section[data-section="runs-0"] .pile')).to_have_count(3)
        await expect(page.locator('section[data-section="runs-1"] .pile')).to_have_count(4)
        await expect(page.locator('.pile[data-pile="run-0-0"]')).to_contain_text("чистая канастра")
        await expect(page.locator('.pile[data-pile="morto-1"]')).to_contain_text("11")
        await expect(page.locator(".card.wild")).to_have_count(4)
        await expect(page.locator('.pile[data-pile="run-0-2"] .card.wild[data-code="JK"]')).to_have_count(1)
        await expect(page.locator('#hand .card[data-code="JK"]')).to_have_class(re.compile(r"\bjoker\b"))
        assert await page.evaluate("document.scrollingElement.scrollWidth") <= width
        hand = await page.locator("#hand button.card").evaluate_all(
            "cards => cards.map(card => card.getBoundingClientRect().width)"
        )
        assert min(hand) >= 40, hand
        await screenshot(page)
        assert opened.problems == []


async def test_the_ochko_round_in_english(api: FakeApi, page_at: PageAt, screenshot: Screenshot) -> None:
    api.view = fixture("ochko")
    opened = await open_page(page_at, api, data=init_data(language="en"))
    page = opened.page
    await expect(page.locator("html")).to_have_attribute("lang", "en")
    await expect(page.locator('.pile[data-pile="bank"] .card.down')).to_have_count(1)
    await expect(page.locator("#hand button.card")).to_have_count(2)
    assert await page.locator("#hand button.card").evaluate_all("cards => cards.every(card => card.disabled)")
    await expect(page.locator("#replays")).to_contain_text("How it went")
    await expect(page.locator("#replays button[data-deal]")).to_have_count(4)
    assert await page.evaluate("document.scrollingElement.scrollWidth") <= PHONE
    await screenshot(page)
    assert opened.problems == []


async def test_in_the_web_client_events_go_to_the_parent_frame(api: FakeApi, page_at: PageAt) -> None:
    page = await page_at(DESKTOP)
    await page.goto(api.url.removesuffix("/webapp/") + "/host")
    app = page.frame_locator("#app")
    await expect(app.locator("body")).to_have_attribute("data-version", "57")
    await expect(app.locator("body")).not_to_have_class(re.compile(r"\bdark\b"))
    got = await page.evaluate("window.got")
    assert got[:4] == ["iframe_ready", "web_app_ready", "web_app_expand", "web_app_request_theme"]
    theme = json.dumps({"eventType": "theme_changed", "eventData": {"theme_params": DARK_THEME}})
    await page.evaluate("theme => document.getElementById('app').contentWindow.postMessage(theme, '*')", theme)
    await expect(app.locator("body")).to_have_class(re.compile(r"\bdark\b"))


async def test_a_lobby_shows_its_text_and_a_visible_page_refetches(api: FakeApi, page_at: PageAt) -> None:
    api.view = {
        "status": "lobby",
        "version": 3,
        "role": "player",
        "seat": 0,
        "move": None,
        "text": "<b>Бура</b> · до 31\nЖдём игроков: 1 из 2",
        "buttons": [],
        "board": None,
    }
    opened = await open_page(page_at, api)
    page = opened.page
    await expect(page.locator("#text")).to_have_text("Бура · до 31\nЖдём игроков: 1 из 2")
    assert await page.locator("#text b").count() == 0
    await expect(page.locator("#hand .card")).to_have_count(0)
    api.view = fixture("bura")
    await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    await expect(page.locator("body")).to_have_attribute("data-version", "57")
    await expect(page.locator("#text")).to_be_hidden()
    await expect(page.locator("#hand button.card")).to_have_count(4)
    assert opened.problems == []
