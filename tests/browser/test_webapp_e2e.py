"""The Mini App end to end (issue 40): the real bot (`python -m bot`, tests/e2e/conftest.py's BotProcess) against
the fake Bot API serves its page and API on its own Mini App server (WEBAPP_URL on a loopback port), and Debian's
Chromium opens the page as Telegram launches a Mini App: the URL of the hand's ``web_app`` button (or, from the
group, the link's ``startapp`` token in initData's ``start_param``), with initData signed by the fake's bot token in
the hash. People play a Бура deal and a Бурако turn by tapping the drawn cards and the move buttons; a group member
who does not play watches and sees nobody's cards; moves made with the private hand's Telegram buttons and on the
page show up on each other.

The tests read the page through its DOM contract (bot/webapp/static/): ``body[data-version]`` (the table version
drawn), ``body[data-role]``, ``body[data-stream]``, ``body.dark``, ``#hand button.card[data-code]`` (``marked``),
``#actions button`` (its text the hand keyboard's button's), ``.pile[data-pile=...]`` holding ``.card[data-code]``,
``#error``. Which move a player makes comes from the harness's people (tests/e2e/harness.py: Бура's EasyPlayer
from the seat's view, read from the bot's database); which button makes it, from the board the API answered the
page with (its actions carry the hand keyboard's data), clicked on the page by its text.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import aiohttp
import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, Request, Response, Route, expect

from bot.games.bura.buttons import HandOp
from bot.games.bura.cards import card_text, cards_text
from bot.games.buraco import cards as buraco_cards
from bot.games.buraco.buttons import Op
from bot.i18n import Translations
from bot.services import TableState
from bot.storage import TableStatus
from bot.telegram.callbacks import HandCb
from bot.webapp.tokens import table_key, table_token
from engine.bura import events as bura_events
from engine.bura.actions import Action as BuraAction
from engine.bura.ai import EasyPlayer
from engine.bura.match import Match as BuraMatch
from engine.bura.views import public_view, view
from engine.buraco.actions import Discard, NewRun
from engine.buraco.deal import Phase
from engine.buraco.match import Match as BuracoMatch
from tests.botapi import FakeTelegram, User
from tests.browser.conftest import DARK_THEME, DESKTOP, LIGHT_THEME, PHONE, PageAt, Screenshot
from tests.e2e.conftest import SCALED, BotProcess
from tests.e2e.harness import WAIT, Game, buttons, hand_cb, intent, open_game, plain, unpack
from tests.matches import bura_match, buraco_match
from tests.webapp_auth import signed

RU = Translations().get("ru")
APP_NAME = "table"  # WEBAPP_NAME: the Mini App's short name at BotFather, in the group's t.me link
SHOWN_MS = 10_000  # a page draws what it was told within this (milliseconds, as Playwright counts)
STREAM_WITHIN = 2.5  # seconds from a commit made elsewhere to the open page (the stream polls every 0.5 s)
STREAM = "document.body.dataset.stream"  # "open", or "lost" while the page cannot reach the bot
NO_TIMER = {"timer": "0"}  # a browser's taps are slower than the harness's: no move timer plays for anyone


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def init_data(bot_token: str, user: User, start_param: str | None = None) -> str:
    """What Telegram hands the Mini App for `user`: signed with the bot's token, fresh, his language Russian."""
    person = {"id": user.id, "first_name": user.first_name, "language_code": "ru", "allows_write_to_pm": True}
    if user.username:
        person["username"] = user.username
    extra = {"query_id": f"AAQ{user.id}", **({"start_param": start_param} if start_param is not None else {})}
    return signed(bot_token, person, time.time(), **extra)


def launch_url(link: str, data: str, theme: dict[str, str]) -> str:
    """The page's URL as a Telegram client opens it: the button's URL, the launch parameters in its hash."""
    return (
        f"{link}#tgWebAppData={quote(data, safe='')}"
        f"&tgWebAppThemeParams={quote(json.dumps(theme, separators=(',', ':')), safe='')}"
        "&tgWebAppVersion=8.0&tgWebAppPlatform=tdesktop"
    )


def spaced(text: str) -> str:
    """Text with its runs of white space (line breaks included) as one space: as a page lays lines out."""
    return " ".join(text.split())


def codes_in(value: Any) -> set[str]:
    """Every card code an API answer names, wherever (a board's faces)."""
    found: set[str] = set()
    if isinstance(value, dict):
        if isinstance(value.get("code"), str) and "suit" in value:
            found.add(value["code"])
        for each in value.values():
            found |= codes_in(each)
    elif isinstance(value, list):
        for each in value:
            found |= codes_in(each)
    return found


# -- the page of one person ----------------------------------------------------------------------------------


class TablePage:
    """A person's page, and what its API answered it: the board last drawn (a table's or a tap's), every answer's
    body (what the browser was sent), its uncaught script errors and its console."""

    def __init__(self, page: Page, user: User, origin: str, token: str, init_data: str) -> None:
        self.page = page
        self.user = user
        self.origin = origin
        self.token = token  # the table's, as the page was opened with it
        self.init_data = init_data
        self.board: dict[str, Any] | None = None
        self.answers: list[Any] = []
        self.errors: list[str] = []
        self.console: list[str] = []
        self.outside: list[str] = []  # requests for anything not the bot's server (refused)
        self.calls: list[str] = []  # the answers of the bot's server: status and path
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", lambda message: self.console.append(f"{message.type}: {message.text}"))
        page.on("response", self._answered)

    async def _answered(self, response: Response) -> None:
        path = urlsplit(response.url).path
        self.calls.append(f"{response.status} {path}")
        if path not in ("/webapp/api/table", "/webapp/api/tap") or response.status != 200:
            return
        try:
            body = await response.json()
        except (PlaywrightError, ValueError):
            return
        self.answers.append(body)
        board = body.get("board") if path.endswith("/table") else (body.get("hand") or {}).get("board")
        if isinstance(board, dict):
            self.board = board

    def describe(self) -> str:
        """For a failure: what the page said, its last lines of console and its last answers."""
        return (
            f"{self.user.first_name}'s page: errors {self.errors}, console {self.console[-8:]}, "
            f"answers {self.calls[-8:]}"
        )

    async def body(self) -> str:
        """For a failure: the body's data attributes and the start of its text."""
        shown: str = await self.page.evaluate(
            "JSON.stringify({...document.body.dataset, text: document.body.innerText.slice(0, 400)})"
        )
        return shown

    # -- reading the DOM ---------------------------------------------------------------------------------

    async def version(self) -> int | None:
        value = await self.page.evaluate("document.body.dataset.version")
        return int(value) if isinstance(value, str) and value.isdigit() else None

    async def wait_version(self, version: int, timeout_ms: float = SHOWN_MS) -> None:
        """Until the page has drawn table version `version` (or a later one)."""
        if not await self.until("v => Number(document.body.dataset.version) >= v", version, timeout_ms):
            raise AssertionError(
                f"{self.user.first_name}'s page shows version {await self.version()}, not {version}; " + self.describe()
            )

    async def until(self, predicate: str, arg: object = None, timeout_ms: float = SHOWN_MS) -> bool:
        """Whether the JavaScript function `predicate` of `arg` came true on the page within `timeout_ms`. Polled
        with `evaluate` rather than Playwright's `wait_for_function`, which compiles its predicate in the page:
        the page's Content-Security-Policy (no 'unsafe-eval') refuses that, and the wait never ends."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_ms / 1000
        while not await self.page.evaluate(predicate, arg):
            if loop.time() > deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    async def codes(self, selector: str) -> list[str]:
        """The codes of the face-up cards within `selector`, in the page's order."""
        found: list[str] = await self.page.eval_on_selector_all(
            f"{selector} .card[data-code], {selector}.card[data-code]", "els => els.map(e => e.dataset.code)"
        )
        return found

    async def hand(self) -> list[str]:
        found: list[str] = await self.page.eval_on_selector_all(
            "#hand button.card[data-code]", "els => els.map(e => e.dataset.code)"
        )
        return found

    async def action_texts(self) -> list[str]:
        return [text.strip() for text in await self.page.locator("#actions button").all_text_contents()]

    # -- tapping -----------------------------------------------------------------------------------------

    async def mark(self, code: str) -> None:
        """Taps the first unmarked card `code` of the hand and waits until the page draws it marked."""
        marked = self.page.locator(f'#hand button.card.marked[data-code="{code}"]')
        before = await marked.count()
        card = self.page.locator(f'#hand button.card[data-code="{code}"]:not(.marked)').first
        await card.click()
        await expect(marked).to_have_count(before + 1, timeout=SHOWN_MS)

    async def action(self, wanted: Callable[[HandCb], bool], what: str) -> str:
        """The text of the move button the API last drew for this page that `wanted` picks (by its data)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SHOWN_MS / 1000
        while True:
            actions = (self.board or {}).get("actions", [])
            for each in actions:
                if wanted(HandCb.unpack(str(each["data"]))):
                    return str(each["text"])
            if loop.time() > deadline:
                shown = [each["text"] for each in actions]
                raise AssertionError(f"no {what} among the actions drawn {shown}; {self.describe()}")
            await asyncio.sleep(0.02)

    async def press(self, text: str) -> None:
        """Clicks the `#actions` button whose text is `text` once the page shows it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SHOWN_MS / 1000
        while (texts := await self.action_texts()).count(text.strip()) == 0:
            if loop.time() > deadline:
                raise AssertionError(f"the page shows no action {text!r}: {texts}; {self.describe()}")
            await asyncio.sleep(0.02)
        await self.page.locator("#actions button").nth(texts.index(text.strip())).click()

    async def api(self, path: str, **query: str) -> Any:
        """The API's answer to this page's person, asked directly (as the page would)."""
        async with (
            aiohttp.ClientSession() as session,
            session.get(
                f"{self.origin}/webapp/api/{path}",
                params={"t": self.token, **query},
                headers={"Authorization": f"tma {self.init_data}"},
            ) as response,
        ):
            assert response.status == 200, (path, response.status, await response.text())
            return await response.json()

    async def seats(self, which: str) -> list[int]:
        """The seats drawn with class `which` (``you``, ``acting``)."""
        found: list[str] = await self.page.eval_on_selector_all(
            f".seat.{which}[data-seat]", "els => els.map(e => e.dataset.seat)"
        )
        return sorted(int(seat) for seat in found)

    async def has(self, wanted: Callable[[HandCb], bool]) -> bool:
        return any(wanted(HandCb.unpack(str(each["data"]))) for each in (self.board or {}).get("actions", []))


class MiniApp:
    """The bot with its Mini App server, the fake Bot API it talks to, and the pages people open."""

    def __init__(self, tg: FakeTelegram, tmp_path: Path, page_at: PageAt) -> None:
        self.tg = tg
        self.tmp_path = tmp_path
        self.page_at = page_at
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/webapp/"
        self.origin = f"http://127.0.0.1:{self.port}"
        self.bot: BotProcess | None = None
        self.pages: list[TablePage] = []

    async def start(self, env: dict[str, str] | None = None) -> BotProcess:
        """`python -m bot` with WEBAPP_URL at a free loopback port; returns once the page is served there."""
        self.bot = BotProcess(
            self.tg,
            self.tmp_path,
            env={
                "WEBAPP_URL": self.url,
                "WEBAPP_HOST": "127.0.0.1",
                "WEBAPP_PORT": str(self.port),
                "WEBAPP_NAME": APP_NAME,
                **(env or {}),
            },
        )
        await self.bot.start()
        await self.served()
        return self.bot

    async def served(self) -> None:
        """Until the bot's Mini App server serves the page."""
        assert self.bot is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        async with aiohttp.ClientSession() as session:
            while True:
                try:
                    async with session.get(self.url) as response:
                        if response.status == 200:
                            return
                except aiohttp.ClientError:
                    pass
                assert loop.time() < deadline, f"the Mini App is not served at {self.url}: {self.bot.output()}"
                await asyncio.sleep(0.1)

    async def restart(self, down: Callable[[], Awaitable[None]]) -> None:
        """The bot stops (SIGTERM, as a deploy does; it must exit cleanly), `down` is awaited while it is away,
        and it starts again on the same database and port."""
        assert self.bot is not None
        await self.bot.stop()
        await down()
        await self.bot.start()
        await self.served()

    async def stop(self) -> None:
        if self.bot is not None:
            await self.bot.stop()
            output = self.bot.output()
            assert "Traceback" not in output, output

    async def hand_link(self, game: Game, user: User) -> str:
        """The URL of the ``web_app`` button of the user's private hand: the Mini App at his table."""

        def link() -> str | None:
            hand = game.private_hand(user)
            for button in buttons(hand) if hand is not None else []:
                web_app = button.get("web_app")
                if isinstance(web_app, dict) and isinstance(web_app.get("url"), str):
                    return str(web_app["url"])
            return None

        url = await self.tg.wait_for(link, WAIT, f"the web_app button of {user.first_name}'s hand")
        assert url.startswith(self.url + "?"), url
        assert parse_qs(urlsplit(url).query)["t"] == [table_token(table_key(self.tg.token), game.table_id)], url
        return url

    async def group_start_param(self, game: Game) -> str:
        """The ``startapp`` token of the group table's URL button (``t.me/<bot>/<WEBAPP_NAME>?startapp=<token>``)."""
        username = self.tg.bot.username
        pattern = re.compile(rf"^https://t\.me/{re.escape(str(username))}/{APP_NAME}\?startapp=([A-Za-z0-9_-]+)$")

        def link() -> str | None:
            for message in reversed(self.tg.messages(game.group, from_bot=True)):
                for button in buttons(message):
                    found = pattern.match(str(button.get("url", "")))
                    if found is not None:
                        return found.group(1)
            return None

        token = await self.tg.wait_for(link, WAIT, "the group table's button that opens the Mini App")
        assert token == table_token(table_key(self.tg.token), game.table_id)
        return token

    async def open(
        self,
        user: User,
        width: int,
        *,
        link: str | None = None,
        start_param: str | None = None,
        theme: dict[str, str] = LIGHT_THEME,
    ) -> TablePage:
        """`user` opens the Mini App at `link` (a hand's button) or at the bare URL with `start_param` (the group's
        link), `width` CSS pixels wide; returns once it has drawn a table and its event stream is open."""
        page = await self.page_at(width)
        data = init_data(self.tg.token, user, start_param)
        token = parse_qs(urlsplit(link).query)["t"][0] if link is not None else start_param
        assert token is not None, "a page is opened at a table: a hand's link, or the group's start_param"
        shown = TablePage(page, user, self.origin, token, data)

        async def refuse(route: Route, request: Request) -> None:
            shown.outside.append(request.url)
            await route.abort()

        await page.route(lambda url: not url.startswith((self.origin, "data:", "blob:", "about:")), refuse)
        await page.goto(launch_url(link or self.url, data, theme))
        if not await shown.until(f"() => document.body.dataset.version !== undefined && {STREAM} === 'open'"):
            raise AssertionError(
                f"the page never drew a table with its stream open: {await shown.body()}; {shown.describe()}"
            )
        self.pages.append(shown)
        return shown

    def page_errors(self) -> list[str]:
        return [f"{shown.user.first_name}: {error}" for shown in self.pages for error in shown.errors]


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(flood_limits=False) as server:
        yield server
        assert not server.crashes, server.crashes[0]


@pytest.fixture
async def mini(tg: FakeTelegram, tmp_path: Path, page_at: PageAt) -> AsyncIterator[MiniApp]:
    """The Mini App's bot, started by the test (`mini.start`, with its env) and stopped here; the pages' uncaught
    script errors fail the test."""
    app = MiniApp(tg, tmp_path, page_at)
    try:
        yield app
    finally:
        await app.stop()
    assert app.page_errors() == []
    outside = [url for shown in app.pages for url in shown.outside]
    assert outside == [], f"the page asked for something not the bot's own (self-hosted: no third party): {outside}"


# -- what the group shows ------------------------------------------------------------------------------------


def group_texts(game: Game) -> list[str]:
    """Every text the bot showed the group, as sent or edited (the table's pictures coalesce: any may be the one
    that showed a move), as a Telegram client reads it."""
    return [
        plain(str(request.params.get("text", "")))
        for request in game.tg.history
        if request.ok
        and request.method in ("sendMessage", "editMessageText")
        and request.params.get("chat_id") == game.group.id
    ]


def group_table(game: Game) -> str:
    """The group's live table message as a Telegram client reads it now."""
    rows = game.query("SELECT message_id FROM message_refs WHERE chat_id = ? AND purpose = 'table'", (game.group.id,))
    if not rows:
        return ""
    ids = {row["message_id"] for row in rows}
    return next(
        (message.text or "" for message in game.tg.messages(game.group, from_bot=True) if message.message_id in ids),
        "",
    )


def found_in(pattern: re.Pattern[str], text: str) -> bool:
    return pattern.search(text) is not None


async def group_shows(game: Game, found: Callable[[str], bool], what: str) -> None:
    await game.tg.wait_for(lambda: any(found(text) for text in group_texts(game)), WAIT, f"the group to show {what}")


# -- Бура ----------------------------------------------------------------------------------------------------


def bura_now(game: Game) -> tuple[str, int, BuraMatch | None]:
    status, version, state = game.row()
    return status, version, bura_match(TableState.from_json(state).match) if state is not None else None


def seat_names(game: Game) -> dict[int, str]:
    return {
        int(row["seat"]): str(row["name"])
        for row in game.query("SELECT seat, name FROM seats WHERE table_id = ?", (game.table_id,))
    }


async def bura_move(shown: TablePage, match: BuraMatch, seat: int, move: int) -> None:
    """The seat's person makes the harness's move on his page: marks its cards one by one (a forced combo's
    button may come first), then clicks the move's button; «Вскрываюсь!» asks to confirm first. `move` is the
    move his buttons name (`Game.shown_move`): a board drawn for an earlier one is not looked at."""
    op, wanted = intent(match, seat)
    if op is HandOp.CLAIM:
        await shown.press(await shown.action(lambda cb: cb.move == move and cb.op == HandOp.CLAIM_ASK, "«Вскрываюсь!»"))
        await shown.press(await shown.action(lambda cb: cb.move == move and cb.op == HandOp.CLAIM, "the claim's yes"))
        return

    def final(cb: HandCb) -> bool:
        return cb.move == move and cb.op == op and (wanted is None or unpack(cb) == wanted)

    for card in sorted(wanted or (), key=lambda each: each.code):
        if await shown.has(final):
            break
        await shown.mark(card.code)
    await shown.press(await shown.action(final, f"{op.name} {sorted(c.code for c in wanted or ())}"))


async def bura_shows_the_move(game: Game, pages: Iterable[TablePage], events: list[Any], names: dict[int, str]) -> None:
    """The group shows what the move did (a lead on the table, a trick taken in the deal's tricks), and every
    page shows the same cards on the table's trick or among the deal's tricks (unless the deal is over)."""
    over = any(isinstance(event, bura_events.DealEnded | bura_events.MatchEnded) for event in events)
    for event in events:
        if isinstance(event, bura_events.Led):
            name, cards = names[event.seat], cards_text(event.cards, RU)
            line = re.compile(rf"^\s*{re.escape(name)}\s+{re.escape(cards)}(\s|$)", re.MULTILINE)
            await group_shows(game, partial(found_in, line), f"{name}'s lead {cards}")
            if not over:
                for shown in pages:
                    on_table = await shown.codes('.pile[data-pile="trick"]')
                    missing = {card.code for card in event.cards} - set(on_table)
                    assert not missing, f"{shown.user.first_name}'s page: the trick shows {on_table}, not {missing}"
        elif isinstance(event, bura_events.TrickTaken):
            number, name = event.trick_number, re.escape(names[event.seat])
            line = re.compile(rf"^({number}\. .* → {name}|Взятка {number}: .* → {name})$", re.MULTILINE)
            open_cards = [card_text(card, RU) for card in event.open_cards]

            def taken(text: str, line: re.Pattern[str] = line, open_cards: list[str] = open_cards) -> bool:
                found = line.search(text)
                return found is not None and all(card in found.group(0) for card in open_cards)

            await group_shows(game, taken, f"trick {number} taken by {names[event.seat]}")
            if not over:
                for shown in pages:
                    laid = await shown.codes(f'.pile[data-pile="trick-{number}"]')
                    laid += await shown.codes('.pile[data-pile="trick"]')
                    missing = {card.code for card in event.open_cards} - set(laid)
                    assert not missing, f"{shown.user.first_name}'s page: trick {number} shows {laid}, not {missing}"


async def test_a_bura_deal_played_on_the_page(mini: MiniApp, screenshot: Screenshot) -> None:
    """Two people in a group play their first deal of Бура entirely on the page, one on a phone, one on a desktop
    (in a dark theme): each move's cards are marked and its button clicked; both pages follow every move (the
    other one through the event stream), and the group's table shows each lead and trick as the pages do."""
    tg = mini.tg
    bot = await mini.start()
    game = await open_game(tg, bot.database, players=2, settings=NO_TIMER)
    names = seat_names(game)
    pages: dict[int, TablePage] = {}
    for (sitting, user), width, theme in zip(
        sorted(game.by_seat.items()), (PHONE, DESKTOP), (LIGHT_THEME, DARK_THEME), strict=True
    ):
        pages[sitting] = await mini.open(user, width, link=await mini.hand_link(game, user), theme=theme)
        assert await pages[sitting].page.evaluate("document.body.dataset.role") == "player"
    for shown in pages.values():
        for part in ("#title", "#score", "#status"):
            assert (await shown.page.inner_text(part)).strip(), f"{shown.user.first_name}'s page: {part} is empty"
    assert not await pages[0].page.evaluate("document.body.classList.contains('dark')")
    assert await pages[1].page.evaluate("document.body.classList.contains('dark')"), "a dark theme's page is dark"
    _, _, dealt = bura_now(game)
    assert dealt is not None
    trump = public_view(dealt).trump_card.code
    for shown in pages.values():
        assert await shown.codes('.pile[data-pile="trump"]') == [trump], "the turned-up trump card"
        assert await shown.page.locator('.pile[data-pile="stock"]').count() == 1, "the stock"

    moves, shot = 0, False
    while True:
        status, version, match = bura_now(game)
        assert match is not None
        if status != TableStatus.PLAYING.value or match.outcomes:
            break
        seat = match.to_act()
        assert seat is not None
        for shown in pages.values():
            await shown.wait_version(version)
        hand = sorted(card.code for card in match.deal.hands[seat])
        assert sorted(await pages[seat].hand()) == hand, "the page's hand is the seat's"
        for sitting, shown in pages.items():
            assert await shown.seats("you") == [sitting], f"{shown.user.first_name}'s page: his own seat"
            assert await shown.seats("acting") == [seat], f"{shown.user.first_name}'s page: whose turn"
        action: BuraAction = EasyPlayer(match.variant).choose(view(match, seat))
        _, _, after = bura_now(game)
        assert after is not None
        events = after.apply(action)  # what the move will do, on a copy read apart
        await bura_move(pages[seat], match, seat, game.shown_move(seat, version))
        await game.until(lambda version=version: game.version() > version, f"move {version} committed")  # type: ignore[misc]
        moves += 1
        for shown in pages.values():
            await shown.wait_version(version + 1)
        await bura_shows_the_move(game, pages.values(), events, names)
        if moves == 6 and not shot:
            shot = True
            for shown in pages.values():
                await screenshot(shown.page, "mid-deal")
        assert moves < 80, "the deal does not end"
    assert moves > 6, moves
    _, version, _ = bura_now(game)
    for shown in pages.values():
        await shown.wait_version(version)
        assert await shown.page.locator("#error").is_hidden() or not (await shown.page.text_content("#error"))
        await screenshot(shown.page, "deal-over")
    await group_shows(game, lambda text: "Сдачу" in text or "сдачу" in text or "Сдача сыграна" in text, "the result")
    # «Как это было»: the deal over is offered on each page, and shows the lines the API gives its player.
    for shown in pages.values():
        await shown.page.locator('#replays button[data-deal="1"]').click()
        replay = shown.page.locator("#replay")
        await expect(replay).to_be_visible(timeout=SHOWN_MS)
        lines = [spaced(line) for line in (await shown.api("replay", deal="1"))["lines"] if line.strip()]
        assert lines, "the API gives deal 1's replay"
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SHOWN_MS / 1000
        while missing := [line for line in lines if line not in (drawn := spaced(await replay.inner_text()))]:
            assert loop.time() < deadline, f"{shown.user.first_name}'s replay lacks {missing[:3]}: {drawn[:300]!r}"
            await asyncio.sleep(0.05)
    await screenshot(pages[0].page, "replay")


# -- Бурако --------------------------------------------------------------------------------------------------


def buraco_now(game: Game) -> tuple[int, BuracoMatch]:
    _, version, state = game.row()
    assert state is not None
    return version, buraco_match(TableState.from_json(state).match)


def buraco_op(op: Op, move: int) -> Callable[[HandCb], bool]:
    """A Buraco move button `op` of move `move`."""
    return lambda cb: cb.move == move and cb.op == op.value


async def buraco_press(game: Game, user: User, version: int, ops: tuple[str, ...]) -> None:
    """The user taps his private hand's first button of `ops` (the harness plays the other person's turns)."""
    _, message, data = await game.tg.wait_for(
        lambda: game.button_for(user, version, ops), WAIT, f"{user.first_name}'s {ops}"
    )
    answer = await game.tg.wait_answer(game.tg.tap_data(user, message, data), timeout=WAIT)
    assert not answer.show_alert, answer.text


async def test_a_buraco_turn_on_the_page(mini: MiniApp, screenshot: Screenshot) -> None:
    """Two people and two computers at Бурако; on his turn, the person whose next seat is the other person's (so
    the table waits after his discard) draws from the stock on the page, lays a new run when one is legal (and
    leaves a discard legal), marks a card and discards it: the group's table and both pages show it on the pile."""
    tg = mini.tg
    bot = await mini.start(SCALED)
    game = await open_game(tg, bot.database, players=2, settings={"profile": "buraco", **NO_TIMER}, computers=2)
    people = dict(sorted(game.by_seat.items()))
    mine = next(seat for seat in people if (seat + 1) % 4 in people)
    other = next(seat for seat in people if seat != mine)
    me, them = people[mine], people[other]
    page = await mini.open(me, PHONE, link=await mini.hand_link(game, me))
    watcher = await mini.open(them, DESKTOP, link=await mini.hand_link(game, them), theme=DARK_THEME)

    loop = asyncio.get_running_loop()
    deadline = loop.time() + 120
    while True:  # the others' turns until his draw; the other person plays from his Telegram hand
        assert loop.time() < deadline, "no turn of his came"
        version, match = buraco_now(game)
        seat = match.to_act()
        assert seat is not None
        phase = match.deal.phase
        if seat == mine:
            break
        if seat not in people:
            await game.until(lambda v=version: game.version() > v, "a computer's turn")  # type: ignore[misc]
            continue
        user = people[seat]
        if phase is Phase.MELD:
            await buraco_press(game, user, version, (Op.TOGGLE,))
            await buraco_press(game, user, version, (Op.DISCARD,))
        else:
            await buraco_press(game, user, version, (Op.KEEP,) if phase is Phase.FIRST_CHOICE else (Op.STOCK,))
        await game.until(lambda v=version: game.version() > v, "the other person's move")  # type: ignore[misc]

    await page.wait_version(version)
    for shown in (page, watcher):
        for key in ("stock", "pile", "morto-0", "morto-1"):
            assert await shown.page.locator(f'.pile[data-pile="{key}"]').count() == 1, f"the {key} pile"
    while match.deal.phase is not Phase.MELD:  # his draw on the page (a first card drawn is kept or not)
        await page.wait_version(version)
        first = match.deal.phase is Phase.FIRST_CHOICE
        if first:
            assert match.deal.drawn is not None
            drawn = await page.codes('.pile[data-pile="drawn"]')
            assert drawn == [match.deal.drawn.code], f"the card drawn to keep or not: {drawn}"
        op, what = (Op.KEEP, "«Оставить …»") if first else (Op.STOCK, "«Из колоды»")
        await page.press(await page.action(buraco_op(op, game.shown_move(mine, version)), what))
        await game.until(lambda v=version: game.version() > v, "the draw")  # type: ignore[misc]
        version, match = buraco_now(game)
    await page.wait_version(version)
    assert match.to_act() == mine and match.deal.phase is Phase.MELD
    assert sorted(await page.hand()) == sorted(card.code for card in match.deal.hands[mine])
    await screenshot(page.page, "drawn")

    meld = next(
        (
            action
            for action in match.legal_actions(mine)
            if isinstance(action, NewRun) and discards_after(game, action, mine)
        ),
        None,
    )
    melded = False
    if meld is not None:
        for card in meld.laid:
            await page.mark(card.code)
        await page.press(
            await page.action(buraco_op(Op.MELD, game.shown_move(mine, version)), "a meld of the marked cards")
        )
        await game.until(lambda v=version: game.version() > v, "the meld")  # type: ignore[misc]
        version, match = buraco_now(game)
        await page.wait_version(version)
        melded = True
    # One card marked, and its discard.
    code = (await page.hand())[-1]
    await page.mark(code)
    await page.press(await page.action(buraco_op(Op.DISCARD, game.shown_move(mine, version)), f"the discard of {code}"))
    await game.until(lambda v=version: game.version() > v, "the discard")  # type: ignore[misc]
    version, match = buraco_now(game)
    assert match.deal.pile and match.deal.pile[-1].code == code, (code, match.deal.pile)
    assert match.to_act() == other, "the other person's turn: the table waits for him"

    line = RU.t("buraco-pile", count=len(match.deal.pile), cards=buraco_cards.cards_text(match.deal.pile, RU))
    await tg.wait_for(lambda: line in group_table(game).split("\n"), WAIT, f"the group's table to show {line!r}")
    for shown in (page, watcher):
        await shown.wait_version(version)
        pile = await shown.codes('.pile[data-pile="pile"]')
        assert pile and pile[-1] == code, f"{shown.user.first_name}'s page: the pile shows {pile}, its top not {code}"
    side = match.side_of(mine)
    if melded and not match.deal.drafting(side):  # a draft is his pair's alone until the opening is made
        assert meld is not None
        for shown in (page, watcher):
            section = f'section[data-section="runs-{side}"]'
            runs = await shown.codes(section)
            assert {c.code for c in meld.laid} <= set(runs), f"{shown.user.first_name}'s page: runs {runs}"
            cards = sorted(c.code for c in meld.laid)
            laid = next(run for run in match.deal.runs[side] if sorted(c.code for c in run.cards) == cards)
            if laid.wild_at is not None:
                wild: list[str] = await shown.page.eval_on_selector_all(
                    f"{section} .card.wild[data-code]", "els => els.map(e => e.dataset.code)"
                )
                substitute = laid.cards[laid.wild_at - laid.low].code
                assert substitute in wild, f"{shown.user.first_name}'s page: wild cards {wild}, not {substitute}"
    for shown in (page, watcher):
        await screenshot(shown.page, "discarded")


def discards_after(game: Game, meld: NewRun, seat: int) -> bool:
    """The run may be laid and a card discarded after it (a vulnerable pair's opening short of its 75 may not)."""
    _, copy = buraco_now(game)
    copy.apply(meld)
    return any(isinstance(action, Discard) for action in copy.legal_actions(seat))


# -- a spectator ---------------------------------------------------------------------------------------------


async def test_a_group_member_who_does_not_play_watches_and_sees_no_hand(mini: MiniApp, screenshot: Screenshot) -> None:
    """Дима is in the group but not at the table: the group table's link opens the Mini App for him (its token in
    initData's start_param), as a spectator, with no hand; no card either player holds is anywhere in his page or
    in what its API sent it, before and after a move he watches arrive through the stream."""
    tg = mini.tg
    bot = await mini.start()
    game = await open_game(tg, bot.database, players=2, settings=NO_TIMER)
    for _ in range(3):
        assert await game.play_move()
    dima = tg.user("Дима", "dima")
    tg.join(dima, game.group)
    start_param = await mini.group_start_param(game)
    shown = await mini.open(dima, PHONE, start_param=start_param)

    async def nothing_hidden() -> None:
        _, version, match = bura_now(game)
        assert match is not None
        await shown.wait_version(version)
        assert await shown.page.evaluate("document.body.dataset.role") == "spectator"
        assert await shown.page.locator("#hand .card").count() == 0
        assert await shown.page.locator("#actions button").count() == 0
        hidden = {card.code for hand in match.deal.hands.values() for card in hand}
        public = public_view(match)
        if public.trump_card_holder is not None:
            hidden.discard(public.trump_card.code)  # who drew the turned-up card is public, and so is the card
        unnamed = await shown.page.locator(".card:not([data-code]):not(.down)").count()
        assert unnamed == 0, "a card is drawn face up without its code, or face down without class down"
        drawn = set(await shown.codes("body"))
        assert not hidden & drawn, f"the spectator's page shows cards in hands: {sorted(hidden & drawn)}"
        sent = codes_in(shown.answers)
        assert not hidden & sent, f"the API sent the spectator cards in hands: {sorted(hidden & sent)}"
        markup = await shown.page.evaluate("document.body.outerHTML")
        named = {token for token in re.findall(r'"([^"]*)"', markup) if token in hidden}
        assert not named, f"the spectator's page names cards in hands in its attributes: {sorted(named)}"
        text = await shown.page.evaluate("document.body.innerText")
        held = [card for hand in match.deal.hands.values() for card in hand if card.code in hidden]
        faces = {card.code for card in held if card_text(card, RU) in text or card_text(card, RU)[:-1] in text}
        assert not faces, f"the spectator's page writes cards in hands: {sorted(faces)}"

    await nothing_hidden()
    await screenshot(shown.page, "watching")
    before = await shown.version()
    assert before is not None
    assert await game.play_move()
    await shown.wait_version(before + 1, timeout_ms=STREAM_WITHIN * 1000)
    await nothing_hidden()


# -- the Telegram hand and the page, one after the other ----------------------------------------------------


async def test_a_move_on_telegram_shows_on_the_page_and_a_move_on_the_page_in_telegram(
    mini: MiniApp, screenshot: Screenshot
) -> None:
    """A move made with the private hand's buttons reaches the open pages within a couple of seconds (the stream),
    with the mover's hand drawn anew; then the other person moves on his page, and both private hands in
    Telegram are redrawn for it. While the bot restarts the pages say their stream is lost, and then follow it
    again."""
    tg = mini.tg
    bot = await mini.start()
    game = await open_game(tg, bot.database, players=2, settings=NO_TIMER)
    pages = {
        seat: await mini.open(user, width, link=await mini.hand_link(game, user))
        for (seat, user), width in zip(sorted(game.by_seat.items()), (PHONE, DESKTOP), strict=True)
    }

    _, version, match = bura_now(game)
    assert match is not None
    first = match.to_act()
    assert first is not None
    assert await game.play_move()  # on Telegram
    committed = time.monotonic()
    for shown in pages.values():
        await shown.wait_version(version + 1, timeout_ms=STREAM_WITHIN * 1000)
    took = time.monotonic() - committed
    _, version, match = bura_now(game)
    assert match is not None
    expected = sorted(card.code for card in match.deal.hands[first])
    await expect(pages[first].page.locator("#hand button.card[data-code]")).to_have_count(
        len(expected), timeout=SHOWN_MS
    )
    assert sorted(await pages[first].hand()) == expected, "the page's hand lost the cards played on Telegram"
    assert took < STREAM_WITHIN

    second = match.to_act()
    assert second is not None and second != first
    mover = game.by_seat[second]
    message = game.private_hand(mover)
    assert message is not None
    before_text = message.text
    await bura_move(pages[second], match, second, game.shown_move(second, version))
    await game.until(lambda: game.version() > version, "the page's move")
    _, moved, after = bura_now(game)
    assert after is not None
    left = {card.code for card in after.deal.hands[second]}

    def redrawn(user: User, seat: int) -> bool:
        hand = game.private_hand(user)
        if hand is None:
            return False
        shown_move = game.shown_move(seat, moved)
        data = [cb for b in buttons(hand) if (cb := hand_cb(b)) is not None]
        return bool(data) and all(cb.move == shown_move for cb in data)

    await tg.wait_for(lambda: redrawn(mover, second), WAIT, f"{mover.first_name}'s Telegram hand after his page move")
    hand = game.private_hand(mover)
    assert hand is not None and hand.text != before_text
    toggled = {
        card.code
        for b in buttons(hand)
        if (cb := hand_cb(b)) is not None and cb.op == HandOp.TOGGLE
        for card in unpack(cb)
    }
    assert toggled <= left, f"his Telegram hand still offers {sorted(toggled - left)}"
    other = game.by_seat[first]
    await tg.wait_for(lambda: redrawn(other, first), WAIT, f"{other.first_name}'s Telegram hand after the page move")
    for shown in pages.values():
        await shown.wait_version(moved)
        await screenshot(shown.page, "switched")

    # The bot restarts (a deploy): the open pages say their stream is lost, open it again once the bot is back,
    # and follow the next move made on Telegram.
    async def lost() -> None:
        for shown in pages.values():
            assert await shown.until(f"() => {STREAM} === 'lost'"), (
                f"the page says nothing of the lost stream: {shown.describe()}"
            )
        await screenshot(pages[first].page, "lost")

    await mini.restart(lost)
    for shown in pages.values():
        assert await shown.until(f"() => {STREAM} === 'open'"), f"the stream is not open again: {shown.describe()}"
    assert await game.play_move()
    for shown in pages.values():
        await shown.wait_version(moved + 1)
