"""Benchmark: the Mini App (issue 40) on the bot's own server: a tap's way to the players, and the page's first load.

Run: ``.venv/bin/python -m tests.benchmarks.webapp`` (100 tables, people pausing 3 s; ``--tables``, ``--seconds``,
``--warmup``, ``--think``, ``--engine postgres``, ``--skip-browser``).

The real bot (``python -m bot``, tests/benchmarks/load.py's `Bots`) runs with WEBAPP_URL on loopback, its Mini
App on a server of its own, against `tests.botapi.FakeTelegram` (no flood limits, SEND_INTERVAL 0 by default, as
the load benchmark means it). The tables open as the load benchmark's do (two people in a group, a long match);
then each person holds the table's event stream open (``GET /webapp/api/events``, with initData signed by the
bot's token as Telegram signs it) and plays from the Mini App alone: once his stream shows the table's last version
and it is his turn, he pauses ``--think`` seconds on average (uniformly 0.5x-1.5x) and taps the play button of a
legal move (``POST /webapp/api/tap`` with the data that button carries: his first legal lead or answer, computed
from the committed match as tests/e2e/harness.py does). After ``--warmup`` seconds of play the taps of the next
``--seconds`` are measured, each from the moment the tap is sent:

- answered: the POST returns (the move committed and durable: the API answers only then);
- visible in the Mini App: the ``version`` event with the tap's new version reaches the OTHER player's stream
  (the stream reads the table's row every 0.5 s, so about a quarter of a second is the design's own);
- visible in the group: the bot's next edit (or send) of the group's chat reaches the fake Bot API (load.py's
  "move -> table edit").

The floor, on the same server in the same run: the round trip of a POST that touches no database (a tap whose
table token is not the bot's: initData checked, body read, 404), one at a time, before the streams open (idle)
and throughout the measured seconds (under the load); the taps' figures are printed as ratios to it too. The
bot's CPU is printed with the streams open and nobody tapping (what the streams' polling costs), and while play.

Then, unless ``--skip-browser``: a Бурако table opens beside them; the first ``/webapp/api/table`` of a Бура
player and of a Бурако player (bytes, and gzipped if the server sends them plain), and Debian's Chromium
(Playwright, headless, 360 px wide, a fresh context each time: nothing cached) opens the page for a Бура player
``--loads`` times: the bytes of the page (index.html and everything it loads from the bot's server, summed from
Chromium's finished requests; a request elsewhere is refused and named), opened as Telegram opens a link to the
table (initData with the table's token as its start_param, in the page's fragment), and the medians of
first-paint, first-contentful-paint and the moment the hand's cards are drawn (``#hand .card`` in the document,
and the frame after it; performance.now() from the navigation's start). ``--paint-game buraco`` opens the Бурако
player's page instead.

The people, the streams and the fake Bot API share this process, on a machine the bot shares too: read the
figures against the floor, and with the load average printed at the start and the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import gzip
import json
import os
import random
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from aiohttp import ClientError, ClientSession, ClientTimeout, TCPConnector
from playwright.async_api import Browser, Request, Route, ViewportSize, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeout

from bot.games.bura.buttons import HandOp, pack_cards
from bot.services import TableState
from bot.services.state import AnyState
from bot.storage import TableStatus
from bot.telegram.callbacks import HandCb
from bot.webapp.tokens import table_key, table_token
from engine.bura.actions import Claim, Lead, Pass, RespondFaceDown, RespondOpen
from engine.bura.match import Match
from tests.benchmarks.load import Bots, cpu_of, edit_times, first_after, open_tables
from tests.botapi import FakeTelegram, User
from tests.e2e.balancer import free_port
from tests.e2e.harness import Game, open_game
from tests.matches import bura_match
from tests.webapp_auth import signed

API = "/webapp/api"
WAIT = 30.0
# A table token whose MAC is not the bot's: the floor's request is refused before any database read.
NOT_A_TABLE = "t1_AAAAAAAAAAAAAAAA"
PLAYING = TableStatus.PLAYING.value
# Debian's Chromium, as tests/browser/conftest.py starts it (no sandbox: root in CI).
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
PHONE: ViewportSize = {"width": 360, "height": 740}


# -- figures -------------------------------------------------------------------------------------------------


def cuts(values: list[float]) -> tuple[float, float, float] | None:
    """p50, p95, p99 of `values` (None for fewer than two)."""
    if len(values) < 2:
        return None
    quantiles = statistics.quantiles(values, n=100, method="inclusive")
    return quantiles[49], quantiles[94], quantiles[98]


def spread(values: list[float], floor: list[float] | None = None) -> str:
    """p50/p95/p99 in ms and the count; with `floor`, each as a ratio to the floor's own p50/p95/p99."""
    mine = cuts(values)
    if mine is None:
        return f"n/a (n={len(values)})"
    text = " ".join(f"p{p} {value * 1000:7.1f}" for p, value in zip((50, 95, 99), mine, strict=True))
    text += f" ms  (n={len(values)})"
    base = cuts(floor) if floor is not None else None
    if base is not None:
        text += "  x floor's " + " / ".join(f"{value / below:.0f}" for value, below in zip(mine, base, strict=True))
    return text


def load_average() -> str:
    """The load average, and the share of the last minute some task waited for a CPU (Linux's pressure stall
    information): what the other processes of a shared machine took from this run."""
    text = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    with contextlib.suppress(OSError, ValueError, IndexError):
        some = Path("/proc/pressure/cpu").read_text().split("\n")[0].split()
        text += f", CPU pressure {float(dict(part.split('=') for part in some[1:])['avg60']):.0f}% (avg60)"
    return text


@dataclass
class TapFigures:
    """What part 1 measured; times in seconds."""

    tables: int = 0
    setup: float = 0.0
    elapsed: float = 0.0
    answered: list[float] = field(default_factory=list)  # tap -> the POST's answer
    visible: list[float] = field(default_factory=list)  # tap -> the new version on the other player's stream
    in_group: list[float] = field(default_factory=list)  # tap -> the next edit of the group's chat
    floor_idle: list[float] = field(default_factory=list)
    floor_loaded: list[float] = field(default_factory=list)
    unseen: int = 0  # measured taps whose version never reached the other stream
    not_in_group: int = 0  # ... or after which the group's chat was never edited
    refused: Counter[str] = field(default_factory=Counter)  # taps that moved nothing, by why
    streams: int = 0
    streams_cpu: float = 0.0  # the bot's share of a core, streams open and nobody tapping
    play_cpu: float = 0.0  # ... while the measured taps
    simulator_cpu: float = 0.0  # this process's share of a core then (people, streams, the fake Bot API)
    loop_lag: list[float] = field(default_factory=list)  # how late this process's 10 ms timer woke, meanwhile

    def report(self) -> None:
        print(f"tables open               {self.tables} (setup {self.setup:.1f} s), {self.streams} event streams")
        print(
            f"moves measured            {len(self.answered)} in {self.elapsed:.1f} s "
            f"({len(self.answered) / max(self.elapsed, 1e-9):.1f} moves/s)"
        )
        if self.refused:
            print("taps that moved nothing   " + ", ".join(f"{why} {n}" for why, n in self.refused.most_common()))
        print(f"floor, idle               {spread(self.floor_idle)}")
        print(f"floor, under the load     {spread(self.floor_loaded)}")
        print(f"tap -> answered           {spread(self.answered, self.floor_loaded)}")
        print(
            f"tap -> other's stream     {spread(self.visible, self.floor_loaded)}"
            + (f"  ({self.unseen} never seen)" if self.unseen else "")
        )
        print(
            f"tap -> group edit         {spread(self.in_group, self.floor_loaded)}"
            + (f"  ({self.not_in_group} never edited)" if self.not_in_group else "")
        )
        print(
            f"bot CPU                   {self.streams_cpu:.0%} of a core with the streams open, nobody tapping;"
            f" {self.play_cpu:.0%} while playing"
        )
        print(f"simulator                 {self.simulator_cpu:.0%} of a core; its loop late by {spread(self.loop_lag)}")


@dataclass
class PageFigures:
    """What parts 2 and 3 measured: bytes, and the medians of the loads in ms."""

    files: dict[str, tuple[int, int, str]] = field(default_factory=dict)  # path -> (body, gzipped, encoding)
    external: list[str] = field(default_factory=list)  # what the page asked of other servers
    tables: dict[str, tuple[int, int, str]] = field(default_factory=dict)  # game -> its first /table JSON
    game: str = ""  # whose page Chromium opened
    loads: int = 0
    drawn: int = 0  # loads where the hand's cards appeared
    paints: dict[str, list[float]] = field(default_factory=dict)  # what -> ms of each load

    def report(self) -> None:
        page = sum(body for body, _, _ in self.files.values())
        page_gz = sum(gz for _, gz, _ in self.files.values())
        for path, (body, gz, encoding) in sorted(self.files.items()):
            sent = f"sent {encoding}" if encoding else f"sent plain, {gz:,} B gzipped"
            print(f"  {path:40} {body:8,} B  ({sent})")
        for url in self.external:
            print(f"  {url:40} (not the bot's server: refused, not counted)")
        print(f"the page                  {page:,} B, {page_gz:,} B gzipped ({len(self.files)} files)")
        for game, (body, gz, encoding) in self.tables.items():
            how = f"sent {encoding}" if encoding else "sent plain"
            print(
                f"first /table, {game:11} {body:,} B, {gz:,} B gzipped ({how});"
                f" with the page {page + body:,} B, {page_gz + gz:,} B gzipped"
            )
        if not self.loads:
            return
        print(
            f"first paint, {self.game}, {self.loads} loads at {PHONE['width']} px,"
            f" {self.drawn} drew the hand (median ms)"
        )
        for what, values in self.paints.items():
            shown = f"{statistics.median(values):7.1f}" if values else "    n/a"
            extent = f"  (min {min(values):.1f}, max {max(values):.1f})" if len(values) > 1 else ""
            print(f"  {what:24}{shown}{extent}")


# -- the people in the Mini App ------------------------------------------------------------------------------


def init_data(bot_token: str, user: User, **extra: str) -> str:
    """What Telegram hands the Mini App of this user, signed with the bot's token, fresh."""
    user_field = {"id": user.id, "first_name": user.first_name, "language_code": "ru"}
    return signed(bot_token, user_field, time.time(), **extra)


class Person:
    """A player with the Mini App open: his initData, and the versions his event stream brought, when."""

    def __init__(self, bot_token: str, user: User) -> None:
        self.user = user
        self.headers = {"Authorization": f"tma {init_data(bot_token, user)}"}
        self.seen: list[tuple[int, float]] = []
        self.version = -1
        self._changed = asyncio.Event()

    def saw(self, version: int, at: float) -> None:
        self.seen.append((version, at))
        self.version = max(self.version, version)
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def reached(self, version: int, timeout: float) -> None:
        """Until his stream has shown `version` (or a later one)."""
        deadline = time.monotonic() + timeout
        while self.version < version:
            await asyncio.wait_for(self._changed.wait(), max(0.0, deadline - time.monotonic()))

    def first_seen(self, version: int) -> float | None:
        return next((at for seen, at in self.seen if seen >= version), None)


@dataclass
class Table:
    game: Game
    token: str
    people: dict[int, Person]  # by seat


@dataclass(frozen=True)
class Tap:
    table: Table
    seat: int
    sent: float
    answered: float
    version: int  # the table's version the answer names


async def follow(session: ClientSession, base: str, table: Table, person: Person) -> None:
    """The person's event stream, read until it ends or this task is cancelled."""
    url = f"{base}{API}/events"
    timeout = ClientTimeout(total=None, sock_read=None)
    async with session.get(url, params={"t": table.token}, headers=person.headers, timeout=timeout) as response:
        assert response.status == 200, f"the event stream: {response.status} {await response.text()}"
        event = ""
        async for raw in response.content:
            line = raw.decode().rstrip("\r\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "version":
                person.saw(int(json.loads(line[6:])["version"]), time.time())
            elif not line:
                event = ""


def a_move(state: AnyState, match: Match, seat: int, table_id: int, version: int) -> str:
    """The data of the button that plays the seat's first legal lead or answer (a face-down answer, a pass or a
    claim when it has none), naming the move his hand's buttons name (tests/bot/test_services.py a_legal_play)."""
    legal = match.legal_actions(seat)
    move = state.shown_move(seat, version)
    for kinds, op in (((Lead, RespondOpen), HandOp.PLAY), ((RespondFaceDown,), HandOp.FACE_DOWN)):
        for action in legal:
            if isinstance(action, kinds):
                return HandCb.data(table_id, move, op.value, pack_cards(action.cards))
    for kind, op in ((Pass, HandOp.PASS), (Claim, HandOp.CLAIM)):
        if any(isinstance(action, kind) for action in legal):
            return HandCb.data(table_id, move, op.value)
    raise AssertionError(f"seat {seat} has no move to tap: {legal}")


async def play(
    session: ClientSession,
    base: str,
    table: Table,
    end: float,
    think: float,
    rng: random.Random,
    taps: list[Tap],
    refused: Counter[str],
) -> None:
    """The table's people play from the Mini App until `end`: the one to act, once his stream shows the table's
    version, pauses and taps his move."""
    game = table.game
    while time.time() < end:
        status, version, stored = game.row()
        if status != PLAYING or stored is None:
            await asyncio.sleep(0.1)
            continue
        state = TableState.from_json(stored)
        match = bura_match(state.match)
        seat = match.to_act()
        person = table.people.get(seat) if seat is not None else None
        if seat is None or person is None:
            await asyncio.sleep(0.1)
            continue
        try:
            await person.reached(version, WAIT)
        except TimeoutError:
            refused["his stream never showed the table"] += 1
            continue
        if think > 0:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        if time.time() >= end:
            return
        data = a_move(state, match, seat, game.table_id, version)
        sent = time.time()
        try:
            async with session.post(
                f"{base}{API}/tap", json={"t": table.token, "data": data}, headers=person.headers
            ) as response:
                answer = await response.json()
                code = response.status
        except (ClientError, TimeoutError) as error:
            refused[type(error).__name__] += 1
            continue
        answered = time.time()
        new = answer.get("version") if code == 200 else None
        if not isinstance(new, int) or new <= version:
            refused[f"{code} {answer.get('error') or answer.get('text')}"] += 1
            await asyncio.sleep(0.1)
            continue
        taps.append(Tap(table, seat, sent, answered, new))


async def floor_once(session: ClientSession, base: str, headers: dict[str, str]) -> float:
    """One POST that touches no database: a tap on a table token that is not the bot's (404)."""
    sent = time.time()
    async with session.post(
        f"{base}{API}/tap", json={"t": NOT_A_TABLE, "data": "h:1:1:p:"}, headers=headers
    ) as response:
        await response.read()
        assert response.status == 404, response.status
    return time.time() - sent


async def floor_until(session: ClientSession, base: str, headers: dict[str, str], stop: asyncio.Event) -> list[float]:
    """The floor, a request every 50 ms or so, until `stop`."""
    times: list[float] = []
    while not stop.is_set():
        times.append(await floor_once(session, base, headers))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.05)
    return times


async def lateness(stop: asyncio.Event) -> list[float]:
    """How late a 10 ms timer of this process wakes, until `stop`: the share of the figures that is the
    simulator's own queue (its people, streams and fake Bot API on one loop), not the bot's."""
    late: list[float] = []
    while not stop.is_set():
        asked = time.perf_counter()
        await asyncio.sleep(0.01)
        late.append(max(1e-6, time.perf_counter() - asked - 0.01))
    return late


async def measure_taps(
    args: argparse.Namespace, tg: FakeTelegram, bots: Bots, session: ClientSession, base: str
) -> tuple[TapFigures, list[Table]]:
    """Part 1: the tables open, their people follow their streams and play from the Mini App."""
    figures = TapFigures()
    started = time.monotonic()
    games = await open_tables(tg, bots.database, args.tables, started + args.setup_seconds)
    figures.setup, figures.tables = time.monotonic() - started, len(games)
    key = table_key(tg.token)
    tables = [
        Table(game, table_token(key, game.table_id), {s: Person(tg.token, u) for s, u in game.by_seat.items()})
        for game in games
    ]
    anybody = tables[0].people[0].headers
    figures.floor_idle = [await floor_once(session, base, anybody) for _ in range(args.floor_samples)]
    streams = [
        asyncio.create_task(follow(session, base, table, person))
        for table in tables
        for person in table.people.values()
    ]
    figures.streams = len(streams)
    try:
        for table in tables:
            for person in table.people.values():
                await person.reached(0, WAIT)
        # The streams alone: each table's row read twice a second, nobody tapping.
        before, clock = sum(cpu_of(bots.pids)), time.monotonic()
        await asyncio.sleep(args.idle)
        figures.streams_cpu = (sum(cpu_of(bots.pids)) - before) / (time.monotonic() - clock)
        # As load.py: the simulator's full collections would stall the fake server and be measured as the bot's.
        gc.collect()
        gc.freeze()
        gc.disable()
        try:
            rng = random.Random(2026)
            taps: list[Tap] = []
            now = time.time()
            begin, end = now + args.warmup, now + args.warmup + args.seconds
            playing = asyncio.gather(
                *(play(session, base, table, end, args.think, rng, taps, figures.refused) for table in tables)
            )
            await asyncio.sleep(args.warmup)
            stop = asyncio.Event()
            floor = asyncio.create_task(floor_until(session, base, anybody, stop))
            lag = asyncio.create_task(lateness(stop))
            before, ours, clock = sum(cpu_of(bots.pids)), time.process_time(), time.monotonic()
            await asyncio.sleep(max(0.0, end - time.time()))
            elapsed = time.monotonic() - clock
            figures.play_cpu = (sum(cpu_of(bots.pids)) - before) / elapsed
            figures.simulator_cpu = (time.process_time() - ours) / elapsed
            figures.elapsed = args.seconds
            stop.set()
            figures.floor_loaded, figures.loop_lag = await floor, await lag
            await playing
            await asyncio.sleep(2.0)  # the last taps' streams and edits
        finally:
            gc.enable()
    finally:
        for stream in streams:
            stream.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
    edits = edit_times(tg)
    measured = [tap for tap in taps if begin <= tap.sent < end]
    for tap in measured:
        figures.answered.append(tap.answered - tap.sent)
        other = next(person for seat, person in tap.table.people.items() if seat != tap.seat)
        seen = other.first_seen(tap.version)
        if seen is None:
            figures.unseen += 1
        else:
            figures.visible.append(seen - tap.sent)
        edited = first_after(edits, tap.table.game.group.id, tap.sent)
        if edited is None:
            figures.not_in_group += 1
        else:
            figures.in_group.append(edited)
    return figures, tables


# -- the page: its bytes and its first paint -----------------------------------------------------------------


# Records when the hand's first card enters the document, and the frame after it, from the navigation's start.
WATCH_HAND = """(() => {
  const seen = () => {
    if (window.__hand !== undefined || !document.querySelector("#hand .card")) return false;
    window.__hand = performance.now();
    requestAnimationFrame(() => setTimeout(() => { window.__handFrame = performance.now(); }, 0));
    return true;
  };
  new MutationObserver((records, observer) => { if (seen()) observer.disconnect(); })
    .observe(document, {childList: true, subtree: true});
})();
"""


def gzipped(body: bytes) -> int:
    return len(gzip.compress(body, compresslevel=6))


async def first_table(
    session: ClientSession, base: str, table_token_: str, headers: dict[str, str]
) -> tuple[int, int, str]:
    """A player's first /webapp/api/table: its bytes as sent (aiohttp's client undoes an encoding: the bytes
    counted are the body's, the encoding said), gzipped, and its Content-Encoding."""
    async with session.get(
        f"{base}{API}/table", params={"t": table_token_}, headers={**headers, "Accept-Encoding": "gzip, br"}
    ) as response:
        body = await response.read()
        assert response.status == 200, f"/table: {response.status} {body[:200]!r}"
        return len(body), gzipped(body), response.headers.get("Content-Encoding", "")


MARKS = """() => {
  const paint = Object.fromEntries(performance.getEntriesByType("paint").map((e) => [e.name, e.startTime]));
  const nav = performance.getEntriesByType("navigation")[0];
  return {"first-paint": paint["first-paint"], "first-contentful-paint": paint["first-contentful-paint"],
          "DOMContentLoaded": nav ? nav.domContentLoadedEventEnd : undefined,
          "hand cards in the DOM": window.__hand, "the frame after them": window.__handFrame};
}"""


@dataclass
class Load:
    """One load of the page: its marks (ms from the navigation's start), whether the hand was drawn, what
    Chromium fetched from the bot's server (path -> body, gzipped, encoding) and elsewhere."""

    marks: dict[str, float]
    drawn: bool
    files: dict[str, tuple[int, int, str]]
    external: list[str]


async def one_load(browser: Browser, base: str, url: str, timeout: float) -> Load:
    """The page opened in a fresh context (nothing cached) at a phone's width, until the hand's cards show."""
    context = await browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    finished: list[Request] = []
    external: list[str] = []

    async def route(route: Route) -> None:
        asked = route.request.url
        if asked.startswith(base):
            await route.continue_()
            return
        external.append(asked)  # the page is self-hosted: nothing should be asked elsewhere
        await route.abort()

    try:
        await context.route("**/*", route)
        await context.add_init_script(WATCH_HAND)
        page = await context.new_page()

        def keep(request: Request) -> None:
            finished.append(request)

        page.on("requestfinished", keep)
        await page.goto(url, wait_until="load")
        drawn = True
        try:
            await page.wait_for_selector("#hand .card", timeout=timeout * 1000)
        except PlaywrightTimeout:
            drawn = False
        waited = float(await page.evaluate("performance.now()"))
        if drawn:
            with contextlib.suppress(PlaywrightTimeout):
                await page.wait_for_function("window.__handFrame !== undefined", timeout=2000)
        found: dict[str, Any] = await page.evaluate(MARKS)
        marks = {what: float(value) for what, value in found.items() if isinstance(value, int | float)}
        if drawn:
            marks["cards waited for, now()"] = waited
        files: dict[str, tuple[int, int, str]] = {}
        for request in finished:
            if not request.url.startswith(base) or f"{API}/" in request.url:
                continue  # the API's answers are counted apart; the event stream never finishes
            response = await request.response()
            if response is None:
                continue
            body = await response.body()
            path = request.url[len(base) :].split("#")[0].split("?")[0]
            files[path] = (len(body), gzipped(body), (await response.all_headers()).get("content-encoding", ""))
        return Load(marks, drawn, files, sorted(set(external)))
    finally:
        await context.close()


async def measure_page(
    args: argparse.Namespace, tg: FakeTelegram, bots: Bots, session: ClientSession, base: str, bura: Table
) -> PageFigures:
    """Parts 2 and 3: the first /table of each game's player, then Chromium's loads of the page."""
    figures = PageFigures()
    buraco_game = await open_game(tg, bots.database, players=2, settings={"profile": "buraco"})
    buraco_user = buraco_game.by_seat[min(buraco_game.by_seat)]
    buraco_token = table_token(table_key(tg.token), buraco_game.table_id)
    player = next(iter(bura.people.values()))
    for game, token, user in (("Бура", bura.token, player.user), ("Бурако", buraco_token, buraco_user)):
        try:
            figures.tables[game] = await first_table(session, base, token, Person(tg.token, user).headers)
        except AssertionError as error:
            print(f"first /table of a {game} player failed: {error}")
    buraco_game.close()
    if args.loads <= 0 or not os.access(CHROMIUM, os.X_OK):
        if args.loads > 0:
            print(f"no Chromium at {CHROMIUM}: no first paint")
        return figures
    # As Telegram opens the Mini App from a link to the table (startapp): initData, signed with the table's token
    # as its start_param, in the page's fragment (bot/webapp/static/telegram.js reads it there).
    user, token = (player.user, bura.token) if args.paint_game == "bura" else (buraco_user, buraco_token)
    init = init_data(tg.token, user, start_param=token)
    url = f"{base}/webapp/#tgWebAppData={quote(init, safe='')}&tgWebAppVersion=8.0&tgWebAppPlatform=android"
    figures.game = {"bura": "a Бура player's page", "buraco": "a Бурако player's page"}[args.paint_game]
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, chromium_sandbox=False, args=CHROMIUM_ARGS
        )
        try:
            for number in range(args.loads):
                load = await one_load(browser, base, url, args.paint_timeout)
                figures.loads += 1
                figures.drawn += load.drawn
                for what, value in load.marks.items():
                    figures.paints.setdefault(what, []).append(value)
                if number == 0:
                    figures.files, figures.external = load.files, load.external
                    if not load.drawn:
                        print(f"the page drew no '#hand .card' within {args.paint_timeout:g} s: one load only")
                        break
        finally:
            await browser.close()
    return figures


# -- the run ---------------------------------------------------------------------------------------------------


@dataclass
class Figures:
    taps: TapFigures
    page: PageFigures | None


async def served(session: ClientSession, base: str, timeout: float = 60.0) -> None:
    """Until the bot's Mini App server answers (the bot starts it after its database and Telegram's getMe)."""
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(ClientError, OSError):
            async with session.get(f"{base}/webapp/") as response:
                if response.status == 200:
                    return
        if time.monotonic() > deadline:
            raise TimeoutError(f"the Mini App was not served at {base}/webapp/ within {timeout:g} s")
        await asyncio.sleep(0.2)


async def run(args: argparse.Namespace, *, report: bool = False) -> Figures:
    """Everything, on one bot; with `report`, each part's figures printed as soon as it is done."""
    port = free_port()
    env = {
        "WEBAPP_URL": f"http://127.0.0.1:{port}/webapp/",
        "WEBAPP_HOST": "127.0.0.1",
        "WEBAPP_PORT": str(port),
        "SEND_INTERVAL": str(args.send_interval),
        "GROUP_PACING": "false",
        "LOG_LEVEL": "WARNING",
    }
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="bura-webapp-") as folder:
        async with FakeTelegram(flood_limits=False) as tg:
            bots = Bots(tg, Path(folder), args.engine, 1, env=env)
            await bots.start()
            try:
                connector = TCPConnector(limit=0)  # every stream its own connection, as every phone
                async with ClientSession(connector=connector, timeout=ClientTimeout(total=WAIT)) as session:
                    await served(session, base)
                    taps, tables = await measure_taps(args, tg, bots, session, base)
                    if report:
                        taps.report()
                    page = None if args.skip_browser else await measure_page(args, tg, bots, session, base, tables[0])
                    if report and page is not None:
                        page.report()
                for table in tables:
                    table.game.close()
            finally:
                await bots.stop()
    return Figures(taps, page)


async def main_async(args: argparse.Namespace) -> Figures:
    pace = f"people pause {args.think:g} s on average" if args.think else "people tap at once"
    print(
        f"== the Mini App: {args.tables} tables, {args.seconds:g} s measured after {args.warmup:g} s, {pace}, "
        f"SEND_INTERVAL={args.send_interval:g}, {args.engine}; load average {load_average()}, {os.cpu_count()} cores"
    )
    figures = await run(args, report=True)
    print(f"load average at the end   {load_average()}")
    return figures


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds of play measured (after the warmup)")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds of play before the measured seconds")
    parser.add_argument(
        "--think", type=float, default=3.0, help="people pause this long on average before a tap (0.5x-1.5x)"
    )
    parser.add_argument("--engine", choices=("sqlite", "postgres"), default="sqlite", help="the bot's database")
    parser.add_argument("--skip-browser", action="store_true", help="part 1 only: no Бурако table, no Chromium")
    parser.add_argument("--loads", type=int, default=10, help="Chromium's loads of the page (the median is printed)")
    parser.add_argument(
        "--paint-game", choices=("bura", "buraco"), default="bura", help="whose page Chromium opens: a player's of"
    )
    parser.add_argument("--send-interval", type=float, default=0.0, help="the bot's SEND_INTERVAL")
    parser.add_argument("--idle", type=float, default=3.0, help="seconds with the streams open before play begins")
    parser.add_argument("--floor-samples", type=int, default=50, help="floor requests before the streams open")
    parser.add_argument("--setup-seconds", type=float, default=300.0, help="at most this long to open the tables")
    parser.add_argument("--paint-timeout", type=float, default=10.0, help="seconds to wait for the hand's cards")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> Figures:
    return asyncio.run(main_async(parse(argv)))


if __name__ == "__main__":
    main()
