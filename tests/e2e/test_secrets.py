"""Secrets as the real bot process keeps them: never in its log, however its requests fail."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.botapi import FakeTelegram
from tests.closing_api import ClosingBotApi
from tests.e2e.conftest import Launch
from tests.e2e.harness import WAIT

TOKEN = "123456:AAbbCCddEEffGGhh_ii-JJkk"
SECRET = "Wq3-x9_Lz0vB7nM2kR5tY8uP1oI4eA6s"


async def test_requests_cut_off_half_way_leave_no_token_in_the_log(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in {"BOT_TOKEN", "TELEGRAM_API_BASE"}}
    log = tmp_path / "bot.log"
    async with ClosingBotApi() as api:
        env.update(
            BOT_TOKEN=TOKEN,
            TELEGRAM_API_BASE=api.base_url,
            DATABASE_PATH=str(tmp_path / "data" / "bura.sqlite3"),
            WEBHOOK_SECRET=SECRET,  # unused without WEBHOOK_URL, but a secret all the same
            LOG_LEVEL="DEBUG",
        )
        with log.open("wb") as output:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=tmp_path, env=env, stdin=asyncio.subprocess.DEVNULL, stdout=output,
                stderr=output,
            )  # fmt: skip
        try:
            for _ in range(600):  # the start-up's setMyCommands, then the poller's retries fail half-way
                if log.read_text(errors="replace").count("getUpdates failed") >= 2:
                    break
                await asyncio.sleep(0.05)
        finally:
            process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(process.wait(), timeout=20)
    text = log.read_text(errors="replace")
    assert process.returncode == 0, text
    assert text.count("getUpdates failed") >= 2 and "Can not write request body" in text, text
    assert "setMyCommands failed" in text, text
    assert TOKEN.partition(":")[2] not in text and SECRET not in text, text
    assert "/bot<BOT_TOKEN>/" in text
    assert "Traceback" not in text


async def test_a_fixed_deck_is_announced_at_the_start(tg: FakeTelegram, launch: Launch) -> None:
    bot = await launch("announced")  # BURA_TESTING_ONLY_FIXED_DECK_SEED, as every e2e test's bot
    await tg.wait_for(lambda: tg.calls("setMyCommands"), WAIT, "the bot to start")
    [line] = [line for line in bot.output().splitlines() if "FIXED_DECK_SEED" in line]
    assert " WARNING bot.app: BURA_TESTING_ONLY_FIXED_DECK_SEED is set: every table is dealt the same cards" in line
