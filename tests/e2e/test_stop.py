"""Stopping: SIGTERM ends the bot within Docker's grace however stuck it is, and what it cut short is done after
the restart (a move whose commit never finished was never answered; its tap waits in the inbox)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from bot.storage import OutboxKind, OutboxMessage, SqliteStorage
from tests.botapi import FakeTelegram
from tests.closing_api import ClosingBotApi
from tests.e2e.conftest import BotProcess
from tests.e2e.harness import WAIT, open_game
from tests.postgres import fresh_database

DOCKER_GRACE = 10.0  # `docker stop` kills after this
TOKEN = "123456:AAbbCCddEEffGGhh_ii-JJkk"


@pytest.mark.parametrize("engine", ["sqlite", "postgres"])
async def test_a_bot_stuck_in_a_move_s_commit_stops_in_time_and_the_move_is_made_after_the_restart(
    tmp_path: Path, engine: str
) -> None:
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    env = {"BURA_TEST_HOOKS": str(hooks)}
    if engine == "postgres":
        env["DATABASE_URL"] = await fresh_database()
    async with FakeTelegram(flood_limits=False) as tg:
        bot = BotProcess(tg, tmp_path, env=env)
        await bot.start()
        try:
            # SQLite's writer thread is held inside its COMMIT (a disk that hangs); PostgreSQL's server never
            # answers it (the writer waits on the event loop).
            game = await open_game(tg, env.get("DATABASE_URL", bot.database), players=2, settings={"timer": "0"})
            current = await game.match()
            assert current is not None
            version, match = current
            tap = await game.wait_tap(match, version)
            while not tap.final:  # mark the cards of the move: no commit yet
                await tg.wait_answer(tg.tap_data(tap.user, tap.message, tap.data), WAIT)
                tap = await game.wait_tap(match, version, tap.data)
            (hooks / "hold-commit").touch()  # the server never answers the move's COMMIT
            query = tg.tap_data(tap.user, tap.message, tap.data)
            await game.until(lambda: (hooks / "commit-held").exists(), "the commit to be held")
            started = time.monotonic()
            await bot.stop()  # SIGTERM; exits 0 (killed after 20 s: the process must be gone by then)
            took = time.monotonic() - started
            assert took < DOCKER_GRACE, f"stopped in {took:.1f} s"
            assert game.version() == version and query.answer is None, "neither committed nor answered"
            for name in ("hold-commit", "commit-held"):
                (hooks / name).unlink()
            await bot.start()
            await game.until(lambda: game.version() == version + 1, "the move, made after the restart")
            game.close()
        finally:
            if bot.process is not None:
                await bot.stop()
        assert "Traceback" not in bot.output(), bot.output()


async def test_a_bot_whose_network_stopped_moving_ends_in_time_on_sigterm(tmp_path: Path) -> None:
    """Telegram reached, then silent: the long poll and a delivery wait for answers that never come."""
    database = tmp_path / "data" / "bura.sqlite3"
    async with await SqliteStorage.open(database) as storage:
        await storage.enqueue([OutboxMessage(chat_id=5, kind=OutboxKind.SEND, payload={"text": "привет"})])
    env = {key: value for key, value in os.environ.items() if key not in {"BOT_TOKEN", "TELEGRAM_API_BASE"}}
    async with ClosingBotApi(hanging=frozenset({"getUpdates", "sendMessage"})) as api:
        env.update(BOT_TOKEN=TOKEN, TELEGRAM_API_BASE=api.base_url, DATABASE_PATH=str(database), LOG_LEVEL="INFO")
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env=env, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        try:
            for _ in range(600):
                if {"getUpdates", "sendMessage"} <= set(api.calls):
                    break
                await asyncio.sleep(0.05)
            assert {"getUpdates", "sendMessage"} <= set(api.calls), api.calls
        finally:
            started = time.monotonic()
            process.send_signal(signal.SIGTERM)
            output, _ = await asyncio.wait_for(process.communicate(), timeout=30)
            took = time.monotonic() - started
    assert took < DOCKER_GRACE, f"ended {took:.1f} s after SIGTERM"
    assert process.returncode == 0, output.decode()
    assert "Traceback" not in output.decode()
