"""The real bot (`python -m bot`) in a subprocess against the fake Bot API, and helpers to play it by hand."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Protocol

import pytest

from tests.botapi import FakeTelegram
from tests.e2e import forkserver
from tests.e2e.reader import BotDatabase

SEED = "e2e-seed-1"
# Seconds between two messages to one chat (SEND_INTERVAL): the real pacing (1 s) is covered by the unit tests
# of bot/telegram/sender.py; here it would only make every game last minutes. Group and bot-wide limits scale with it.
SEND_INTERVAL = 0.05
# A second of the game's clock (TIME_SCALE) for the tests of timers and computers: move timers, their reminders, a
# computer's thinking and an idle lobby run twenty times faster, so no test waits real seconds for a game rule (the
# players still read the game's seconds). Not for every test: a default 60 s move timer would last 3 s, and a test
# that stops the bot for that long would see the bot move for a player.
TIME_SCALE = 0.05
SCALED = {"TIME_SCALE": str(TIME_SCALE)}
PROJECT = Path(__file__).resolve().parents[2]


class BotProcess:
    """`python -m bot` with the fake's URL and token, a database in tmp_path and a fixed shuffle seed."""

    def __init__(self, tg: FakeTelegram, tmp_path: Path, seed: str = SEED, env: dict[str, str] | None = None) -> None:
        self.tg = tg
        self.tmp_path = tmp_path
        self.seed = seed
        self.env = dict(env or {})
        self.database = tmp_path / "data" / "bura.sqlite3"
        self.process: asyncio.subprocess.Process | forkserver.Forked | None = None
        self.runs = 0

    @property
    def log(self) -> Path:
        return self.tmp_path / f"bot-{self.runs}.log"

    async def start(self) -> None:
        self.runs += 1
        env = {key: value for key, value in os.environ.items() if key not in {"BOT_TOKEN", "TELEGRAM_API_BASE"}}
        env.update(
            BOT_TOKEN=self.tg.token,
            TELEGRAM_API_BASE=self.tg.base_url,
            DATABASE_PATH=str(self.database),
            BURA_TESTING_ONLY_FIXED_DECK_SEED=self.seed,
            SEND_INTERVAL=str(SEND_INTERVAL),
            LOG_LEVEL="INFO",
        )
        env.update(self.env)
        if forkserver.enabled():
            self.process = await forkserver.start_bot(env, self.tmp_path, self.log)
            return
        with self.log.open("wb") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                *(["-m", "cProfile", "-o", os.environ["BURA_PROFILE"]] if os.environ.get("BURA_PROFILE") else []),
                "-m",
                "bot",
                cwd=self.tmp_path,  # away from any .env of the checkout
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )

    async def stop(self) -> None:
        """SIGTERM, as Docker stops it; the bot must exit cleanly."""
        process = self.process
        if process is None:
            return
        self.process = None
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), timeout=20)
            except TimeoutError:
                process.kill()
                await process.wait()
        assert process.returncode == 0, self.log.read_text(errors="replace")

    def output(self) -> str:
        return "\n".join(
            (self.tmp_path / f"bot-{run}.log").read_text(errors="replace") for run in range(1, self.runs + 1)
        )


@pytest.fixture(scope="session", autouse=True)
def _fork_server() -> None:
    """The server that forks the bot's processes (tests/e2e/forkserver.py) imports the bot while the first
    test sets up."""
    forkserver.warm_up()


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    # Flood limits off: the bot paces itself (bot/telegram/sender.py), and the fake's real-time 429s would only slow us.
    async with FakeTelegram(flood_limits=False) as server:
        yield server
        assert not server.crashes, server.crashes[0]


class Launch(Protocol):
    def __call__(self, seed: str, env: dict[str, str] | None = None) -> Awaitable[BotProcess]: ...


@pytest.fixture
async def launch(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[Launch]:
    """Starts the bot with a shuffle seed of the test's choosing (found with tests/e2e/players.py find_seed);
    stops it at the end and fails the test on a traceback in its log."""
    started: list[BotProcess] = []

    async def start(seed: str, env: dict[str, str] | None = None) -> BotProcess:
        process = BotProcess(tg, tmp_path, seed, env)
        started.append(process)
        await process.start()
        return process

    try:
        yield start
    finally:
        for process in started:
            with contextlib.suppress(AssertionError):
                await process.stop()
            output = process.output()
            assert "Traceback" not in output, output


@pytest.fixture
async def bot(launch: Launch) -> BotProcess:
    return await launch(SEED)


class Start(Protocol):
    def __call__(self, seed: str, env: dict[str, str] | None = None) -> Awaitable[BotDatabase]: ...


@pytest.fixture
async def start(launch: Launch) -> AsyncIterator[Start]:
    """Start the bot with a seed; a reader of its database (WAL lets it read while the bot writes)."""
    async with contextlib.AsyncExitStack() as stack:

        async def started(seed: str, env: dict[str, str] | None = None) -> BotDatabase:
            bot = await launch(seed, env)
            return await stack.enter_async_context(BotDatabase(bot.database))

        yield started
