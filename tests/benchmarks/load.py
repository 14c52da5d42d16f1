"""Benchmark: the bot under load, N tables played at once by simulated people over the fake Bot API.

Run: ``.venv/bin/python -m tests.benchmarks.load --tables 100 --seconds 30`` (and ``--tables 1000``, and
``--think 3`` for people who pause before each tap; ``--engine postgres`` for PostgreSQL, started from the
pgserver wheel as the tests do, and ``--instances 2`` for two bot processes on it behind a webhook proxy).

The real bot (``python -m bot``) runs as a subprocess against `tests.botapi.FakeTelegram` on loopback with
Telegram's flood limits off and the bot's own pacing set by ``--send-interval`` (SEND_INTERVAL, 0 by default:
we measure the bot, not Telegram's limits). Each table is two people in a group who play a long match by
tapping their buttons (tests/e2e/harness.py: `engine.bura.ai.EasyPlayer` decides, the hand keyboard is tapped; a
card then the play button). Two ways to play:

- saturation (``--think 0``, the default): each person taps as soon as his buttons show, so the bot always has
  a tap waiting from every table: the figure is throughput, and latency is only the queue (Little's law);
- paced (``--think S``): each person pauses S seconds on average (uniformly 0.5 S to 1.5 S) before each tap, as
  people do; the offered load is then about N / S taps per second and the latencies are the bot's answer time.

The tables all open before play begins, so their first moves come in one wave that real chats never make:
the measurement starts after ``--warmup`` seconds of play (10 by default), when the pauses have spread the
tables out. After ``--seconds`` more, everything stops and the script prints:

- moves per second (all tables together) and taps per second; the bot's CPU per move, the simulator's CPU;
- p50/p99 of tap -> answerCallbackQuery (split into tap -> fetched by the bot's getUpdates, and fetched ->
  answered), tap -> the next edit of the tapper's hand, and move -> the next edit of the group's table message;
- the bot process's peak RSS (VmHWM), the database size per table, Bot API calls per trick.

The floor: a minimal aiogram bot (``--echo-bot`` mode of this script, also a subprocess) that answers each tap
and edits the message, played by as many people as there are players, each tapping as soon as the last tap is
answered and the message edited. Our taps per second (saturation) are printed as a ratio of its taps per second.

The people and the fake server share one process: with a thousand tables in saturation they, not the bot, set
the pace (the echo floor drops too). ``BURA_PROFILE=<file>`` runs the bot under cProfile (tests/e2e/conftest.py).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import gc
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

from bot.games.bura.buttons import HandOp
from bot.telegram.callbacks import HandCb
from tests.botapi import CallbackQuery, FakeTelegram, Message, User
from tests.e2e.balancer import Balancer, free_port
from tests.e2e.conftest import BotProcess
from tests.e2e.harness import Game, open_game
from tests.e2e.reader import Sql, sql_for
from tests.postgres import fresh_database

SETTINGS = {"match": "r11", "timer": "0"}  # a long match: no table ends within the run
MOVE_OPS = {HandOp.PLAY.value, HandOp.FACE_DOWN.value, HandOp.CLAIM.value, HandOp.PASS.value, HandOp.COMBO.value}


def percentiles(values: list[float]) -> str:
    if len(values) < 2:
        return "n/a"
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return f"p50 {cuts[49] * 1000:7.1f} ms   p99 {cuts[98] * 1000:7.1f} ms   (n={len(values)})"


def first_after(times: dict[int, list[float]], chat_id: int, moment: float) -> float | None:
    series = times.get(chat_id, [])
    index = bisect.bisect_left(series, moment)
    return series[index] - moment if index < len(series) else None


def edit_times(tg: FakeTelegram) -> dict[int, list[float]]:
    """Chat id -> times of the bot's accepted edits and sends there, in order."""
    times: dict[int, list[float]] = defaultdict(list)
    for request in tg.history:
        if request.ok and request.method in ("editMessageText", "sendMessage"):
            times[int(request.params["chat_id"])].append(request.time)
    return times


def delivery_times(tg: FakeTelegram) -> dict[str, float]:
    """Callback query id -> when a getUpdates reply handed it to the bot."""
    delivered: dict[str, float] = {}
    for request in tg.calls("getUpdates"):
        for update in request.result or []:
            query = update.get("callback_query")
            if query is not None:
                delivered.setdefault(str(query["id"]), request.time)
    return delivered


def answer_times(tg: FakeTelegram) -> dict[str, float]:
    return {
        str(request.params["callback_query_id"]): request.time
        for request in tg.calls("answerCallbackQuery")
        if request.ok
    }


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system CPU time of a process so far (/proc/<pid>/stat, in clock ticks)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def versions(sql: Sql) -> dict[int, int]:
    """Table id -> its version (one per committed move), read in one query."""
    return {int(row["table_id"]): int(row["version"]) for row in sql.query("SELECT table_id, version FROM tables")}


def database_size(sql: Sql, database: Path | str) -> int:
    if isinstance(database, str):
        return int(sql.query("SELECT pg_database_size(current_database()) AS size")[0]["size"])
    return sum(f.stat().st_size for f in database.parent.glob(database.name + "*"))


class Bots:
    """The bot under test: one process polling (SQLite or PostgreSQL), or `instances` processes on PostgreSQL
    receiving the webhook through a round-robin proxy (tests/e2e/balancer.py), as compose.yaml runs them."""

    def __init__(
        self,
        tg: FakeTelegram,
        folder: Path,
        engine: str,
        instances: int,
        *,
        fair: bool = False,
        env: dict[str, str] | None = None,
    ) -> None:
        """`env`: more of the bot's environment, for every instance (the Mini App benchmark's WEBAPP_URL)."""
        self.tg, self.folder, self.engine, self.instances = tg, folder, engine, instances
        # A fixed deck seed (the e2e tests') turns the verifiable shuffle off; an empty one leaves it on.
        self.common = {"BURA_TESTING_ONLY_FIXED_DECK_SEED": ""} if fair else {}
        self.common.update(env or {})
        self.processes: list[BotProcess] = []
        self.balancer: Balancer | None = None
        self.database: Path | str = folder / "data" / "bura.sqlite3"

    async def start(self) -> None:
        if self.engine == "postgres":
            self.database = await fresh_database()
        if self.instances == 1:
            env = {"DATABASE_URL": self.database} if isinstance(self.database, str) else {}
            self.processes = [BotProcess(self.tg, self.folder, env={**env, **self.common})]
        else:
            assert isinstance(self.database, str), "several instances share a PostgreSQL database"
            ports = [free_port() for _ in range(self.instances)]
            self.balancer = Balancer([f"http://127.0.0.1:{port}/hook" for port in ports])
            await self.balancer.__aenter__()
            for index, port in enumerate(ports):
                folder = self.folder / f"instance-{index}"
                folder.mkdir()
                env = {
                    "DATABASE_URL": self.database,
                    "WEBHOOK_URL": self.balancer.url,
                    "WEBHOOK_SECRET": "load-bench_Rz5Wq1Np8Tx3Mk7Cv0Hb4Yd9Lf2Gj6",
                    "WEBHOOK_HOST": "127.0.0.1",
                    "WEBHOOK_PORT": str(port),
                    **self.common,
                }
                self.processes.append(BotProcess(self.tg, folder, env=env))
        for process in self.processes:
            await process.start()
        if self.balancer is not None:
            await self.tg.wait_for(lambda: self.tg.world.webhook is not None or None, 60, "the webhook to be set")

    @property
    def pids(self) -> list[int]:
        return [process.process.pid for process in self.processes if process.process is not None]

    async def stop(self) -> None:
        for process in self.processes:
            running = process.process
            try:
                await process.stop()
            except AssertionError:  # the figures are still worth printing; say how it ended
                code = running.returncode if running is not None else None
                print(f"the bot did not stop cleanly (exit code {code}); its log: {process.log}")
        if self.balancer is not None:
            await self.balancer.__aexit__(None, None, None)


def cpu_of(pids: list[int]) -> tuple[float, float]:
    times = [cpu_seconds(pid) for pid in pids]
    return sum(user for user, _ in times), sum(system for _, system in times)


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# -- our bot -------------------------------------------------------------------------------------------------


async def open_tables(tg: FakeTelegram, database: Path | str, tables: int, deadline: float) -> list[Game]:
    """Open the tables a few dozen at a time (each is a dozen requests); those not open by `deadline` are left."""
    games: list[Game] = []
    gate = asyncio.Semaphore(25)

    async def one() -> None:
        async with gate:
            if time.monotonic() > deadline:
                return
            with contextlib.suppress(TimeoutError, AssertionError):
                games.append(await open_game(tg, database, players=2, settings=SETTINGS))

    await asyncio.gather(*(one() for _ in range(tables)))
    return games


async def keep_playing(game: Game, deadline: float, think: float, rng: random.Random) -> None:
    async def pause() -> None:
        if think > 0:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))

    while time.monotonic() < deadline:
        try:
            if not await game.play_move(pause):
                return
        except (TimeoutError, AssertionError):
            continue  # a slow answer under load: look at the table again


async def run_bura(args: argparse.Namespace) -> dict[str, float]:
    # The bot's own environment: BotProcess sets the e2e tests' SEND_INTERVAL and LOG_LEVEL, and `env` goes over
    # them (before 2026-12-05 these were set in os.environ, which BotProcess overrode: the runs were at 0.05).
    env = {"SEND_INTERVAL": str(args.send_interval), "GROUP_PACING": "false", "LOG_LEVEL": "WARNING"}
    with tempfile.TemporaryDirectory(prefix="bura-load-") as folder:
        async with FakeTelegram(flood_limits=False) as tg:
            bots = Bots(tg, Path(folder), args.engine, args.instances, fair=args.fair, env=env)
            await bots.start()
            pids = bots.pids
            sql = sql_for(bots.database)
            try:
                setup_started = time.monotonic()
                games = await open_tables(tg, bots.database, args.tables, setup_started + args.setup_seconds)
                setup = time.monotonic() - setup_started
                # The simulator keeps every request the bot made: its full collections would stall the fake
                # server for up to half a second each and be measured as the bot's latency.
                gc.collect()
                gc.freeze()
                gc.disable()  # and none at all while we measure (a minute of garbage is nothing here)
                rng = random.Random(2026)
                end = time.monotonic() + args.warmup + args.seconds
                playing = asyncio.gather(*(keep_playing(game, end, args.think, rng) for game in games))
                # Every table opened at once: their first moves come in a wave that real chats never make.
                # Measure once the pauses have spread them out.
                await asyncio.sleep(args.warmup)
                before = versions(sql)
                calls_before = len(tg.history)
                first_query = tg.world.last_query_id
                started, wall_started = time.monotonic(), time.time()
                bot_start, our_cpu = cpu_of(pids), time.process_time()
                # The rates count what happened within the run; the moves under way then finish afterwards.
                await asyncio.sleep(args.seconds)
                elapsed, wall_ended = time.monotonic() - started, time.time()
                bot_end, our_cpu = cpu_of(pids), time.process_time() - our_cpu
                bot_user, bot_system = bot_end[0] - bot_start[0], bot_end[1] - bot_start[1]
                bot_cpu = bot_user + bot_system
                # One query: a thousand (one per table) kept the simulator's loop from the fake server for
                # ~300 ms, while the taps in flight waited for their answers to be recorded.
                moves = sum(version - before.get(table, 0) for table, version in versions(sql).items())
                calls = len(tg.history) - calls_before
                by_method = Counter(request.method for request in tg.history[calls_before:])
                taps = tg.world.last_query_id - first_query
                await playing
                gc.enable()
                tricks = (
                    sum(
                        json.loads(row["payload"])["type"] == "TrickTaken"
                        for row in games[0].query(
                            "SELECT payload FROM events WHERE created_at BETWEEN ? AND ?", (wall_started, wall_ended)
                        )
                    )
                    if games
                    else 0
                )
                rss = max(peak_rss_mb(pid) for pid in pids)
                size = database_size(sql, bots.database)
                for game in games:
                    game.close()
                sql.close()
            finally:
                await bots.stop()
            queries = [q for q in tg.world.queries.values() if int(q.id) > first_query]
            report_latencies(tg, queries, {game.group.id for game in games}, games)
    print(f"tables open             {len(games)} of {args.tables} (setup {setup:.1f} s)")
    print(f"moves per second        {moves / elapsed:8.1f}   ({moves} moves in {elapsed:.1f} s)")
    print(f"taps per second         {taps / elapsed:8.1f}")
    print(
        f"bot CPU per move        {bot_cpu * 1000 / max(1, moves):8.1f} ms   (bot {bot_cpu / elapsed:.0%} of a core"
        f"{f' in {len(pids)} instances' if len(pids) > 1 else ''};"
        f" user {bot_user * 1000 / max(1, moves):.1f} ms, system {bot_system * 1000 / max(1, moves):.1f} ms)"
    )
    print(f"simulator CPU           {our_cpu / elapsed:8.0%} of a core (people and the fake Bot API)")
    print(f"peak RSS of the bot     {rss:8.1f} MB" + (" (the largest instance)" if len(pids) > 1 else ""))
    print(f"database per table      {size / max(1, len(games)) / 1024:8.1f} KiB")
    print(f"Bot API calls per trick {calls / max(1, tricks):8.1f}   ({calls} calls, {tricks} tricks)")
    print(
        "  by method per trick   "
        + ", ".join(f"{name} {n / max(1, tricks):.1f}" for name, n in by_method.most_common())
    )
    return {"taps_per_second": taps / elapsed}


def report_latencies(tg: FakeTelegram, queries: list[CallbackQuery], groups: set[int], games: list[Game]) -> None:
    answered = answer_times(tg)
    delivered = delivery_times(tg)
    edits = edit_times(tg)
    group_of = {game.table_id: game.group.id for game in games}
    to_answer, to_bot, in_bot, to_hand, to_table = [], [], [], [], []
    start = min((query.created for query in queries), default=0.0)
    worst: dict[int, float] = defaultdict(float)  # the slowest answer to a tap made in each 2-second window
    for query in queries:
        if query.id in answered:
            to_answer.append(answered[query.id] - query.created)
            window = int((query.created - start) // 2)
            worst[window] = max(worst[window], to_answer[-1])
        if query.id in delivered:
            to_bot.append(delivered[query.id] - query.created)
            if query.id in answered:
                in_bot.append(answered[query.id] - delivered[query.id])
        hand = first_after(edits, query.user.id, query.created)
        if hand is not None:
            to_hand.append(hand)
        parts = query.data.split(":")
        if len(parts) >= 4 and parts[0] == "h" and parts[3] in MOVE_OPS:
            table = first_after(edits, group_of.get(HandCb.unpack(query.data).table, 0), query.created)
            if table is not None:
                to_table.append(table)
    print(f"tap -> answer           {percentiles(to_answer)}")
    print(f"  tap -> fetched by bot {percentiles(to_bot)}")
    print(f"  fetched -> answered   {percentiles(in_bot)}")
    print(f"tap -> own hand edit    {percentiles(to_hand)}")
    print(f"move -> table edit      {percentiles(to_table)}")
    # Spikes (a stall of the bot) or a steady queue: the slowest answer in each 2 s of the run.
    print("slowest answer per 2 s  " + " ".join(f"{worst[w] * 1000:.0f}" for w in sorted(worst)) + " ms")


# -- the floor: a minimal echo bot ---------------------------------------------------------------------------


async def echo_bot() -> None:
    """Answers every tap and edits its message; sends a message with one button to whoever starts it."""
    from aiogram import Bot, Dispatcher
    from aiogram.client.session.aiohttp import AiohttpSession
    from aiogram.client.telegram import TelegramAPIServer
    from aiogram.exceptions import TelegramBadRequest
    from aiogram.filters import CommandStart
    from aiogram.types import CallbackQuery as Tap
    from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
    from aiogram.types import Message as Said

    session = AiohttpSession(api=TelegramAPIServer.from_base(os.environ["TELEGRAM_API_BASE"]))
    bot = Bot(os.environ["BOT_TOKEN"], session=session)
    dispatcher = Dispatcher()

    def keyboard(count: int) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="tap", callback_data=str(count))]])

    @dispatcher.message(CommandStart())
    async def start(message: Said) -> None:
        await message.answer("0", reply_markup=keyboard(0))

    @dispatcher.callback_query()
    async def tap(query: Tap) -> None:
        with contextlib.suppress(TelegramBadRequest):  # "query is too old" once the fake is saturated, as ours
            await query.answer()
        count = int(query.data or 0) + 1
        if query.message is not None:
            await bot.edit_message_text(
                text=str(count),
                chat_id=query.message.chat.id,
                message_id=query.message.message_id,
                reply_markup=keyboard(count),
            )

    await dispatcher.start_polling(bot, handle_signals=True)


def edited(message: Message, text: str | None) -> Callable[[], bool]:
    return lambda: message.text != text


async def run_echo(args: argparse.Namespace, people: int) -> float:
    async with FakeTelegram(flood_limits=False) as tg:
        env = {**os.environ, "BOT_TOKEN": tg.token, "TELEGRAM_API_BASE": tg.base_url}
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.benchmarks.load", "--echo-bot", env=env, stdin=asyncio.subprocess.DEVNULL
        )
        try:
            users = [tg.user(f"P{n}") for n in range(people)]
            messages: dict[int, Message] = {}

            async def start(user: User) -> None:
                said = tg.start_bot(user)
                messages[user.id] = await tg.wait_bot_message(tg.private_chat(user), after=said, timeout=120)

            await asyncio.gather(*(start(user) for user in users))
            first_query = tg.world.last_query_id
            started = time.monotonic()
            deadline = started + args.seconds

            async def tapping(user: User) -> None:
                message = messages[user.id]
                while time.monotonic() < deadline:
                    text = message.text
                    with contextlib.suppress(TimeoutError):
                        await tg.wait_answer(tg.tap(user, message, text="tap"), timeout=30)
                        await tg.wait_for(edited(message, text), 30, "the edit")

            await asyncio.gather(*(tapping(user) for user in users))
            elapsed = time.monotonic() - started
            taps = tg.world.last_query_id - first_query
            print(f"echo bot taps/second    {taps / elapsed:8.1f}   ({people} people)")
            # The floor's own latency in saturation: the queue alone, with a bot that does nothing.
            answered = answer_times(tg)
            waits = [
                answered[query.id] - query.created
                for query in tg.world.queries.values()
                if int(query.id) > first_query and query.id in answered
            ]
            print(f"echo tap -> answer      {percentiles(waits)}")
            return taps / elapsed
        finally:
            process.send_signal(signal.SIGINT)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 10)
            if process.returncode is None:
                process.kill()


async def main(args: argparse.Namespace) -> None:
    pace = f"people pause {args.think:g} s on average before a tap" if args.think else "people tap at once"
    where = args.engine + (f", {args.instances} instances on webhooks" if args.instances > 1 else "")
    print(f"== {args.tables} tables, {args.seconds:.0f} s of play, {pace}, SEND_INTERVAL={args.send_interval}, {where}")
    ours = await run_bura(args)
    if not args.no_echo:
        floor = await run_echo(args, people=2 * args.tables)
        print(f"our taps / echo taps    {ours['taps_per_second'] / floor:8.2f}")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of play (after the tables open)")
    parser.add_argument("--setup-seconds", type=float, default=300.0, help="at most this long to open the tables")
    parser.add_argument("--send-interval", type=float, default=0.0, help="the bot's SEND_INTERVAL")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds of play before the measured seconds begin")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="people pause this long on average before each tap (uniformly 0.5x-1.5x); 0: tap at once",
    )
    parser.add_argument("--engine", choices=("sqlite", "postgres"), default="sqlite", help="the bot's database")
    parser.add_argument(
        "--instances", type=int, default=1, help="bot processes on one PostgreSQL behind a webhook proxy"
    )
    parser.add_argument("--no-echo", action="store_true", help="skip the echo-bot floor")
    parser.add_argument(
        "--fair", action="store_true", help="deal by the verifiable shuffle (issue 38), as a real bot does"
    )
    parser.add_argument("--echo-bot", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse()
    if arguments.echo_bot:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(echo_bot())
    else:
        asyncio.run(main(arguments))
