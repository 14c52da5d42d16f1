"""/healthz and /metrics of the real bot process (HTTP_PORT), as a load balancer and Prometheus read them."""

from __future__ import annotations

import asyncio
import re

import aiohttp
import pytest

from bot.table_settings import TableSettings
from tests.botapi import FakeTelegram
from tests.e2e.balancer import free_port, outside_address
from tests.e2e.conftest import Launch
from tests.e2e.players import MOVE_WAIT, find_seed, greedy, seat_players
from tests.e2e.reader import BotDatabase


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def until(url: str, status: int, timeout: float = MOVE_WAIT) -> str:
    """The body once `url` answers with `status` (the bot starts, or a poll fails, in its own time)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        try:
            got, body = await get(url)
            if got == status:
                return body
        except aiohttp.ClientConnectionError:
            got, body = 0, "not listening"
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"{url} answered {got} {body!r}, not {status}")
        await asyncio.sleep(0.05)


def sample(metrics: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} ([0-9.e+-]+)$", metrics, re.MULTILINE)
    assert found is not None, f"{name} not in /metrics"
    return float(found.group(1))


async def test_health_and_metrics_tell_what_the_bot_does(tg: FakeTelegram, launch: Launch) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    bot = await launch(
        find_seed(TableSettings(), 2, lambda match: not match.deal.over, prefix="metrics"),
        env={"HTTP_PORT": str(port)},  # HTTP_HOST left at its default: this host only
    )
    assert await until(f"{base}/healthz", 200) == "ok\n"
    outside = outside_address()
    if outside is not None:
        with pytest.raises(aiohttp.ClientConnectionError):
            await get(f"http://{outside}:{port}/metrics")
    async with BotDatabase(bot.database) as storage:
        players = await seat_players(tg, storage, 2)
        for _ in range(3):
            assert await players.move(greedy)
    status, metrics = await get(f"{base}/metrics")
    assert status == 200
    assert sample(metrics, "bura_moves_total") >= 3
    taps = sample(metrics, "bura_taps_total")
    assert taps >= 3 + 1  # the three moves (and their marks), the joins and the start
    assert sample(metrics, "bura_tap_answer_seconds_count") == taps
    assert sample(metrics, 'bura_tap_answer_seconds_bucket{le="+Inf"}') == taps
    assert sample(metrics, "bura_outbox_pending") >= 0
    assert sample(metrics, "bura_telegram_429_total") == 0
    assert sample(metrics, "bura_update_errors_total") == 0

    tg.down = frozenset({"getUpdates"})  # Telegram unreachable for the update loop: taken out of rotation
    # Someone presses Start: the long poll already under way returns with it rather than at its timeout (30 real
    # seconds), and the next one fails.
    tg.start_bot(tg.user("Зоя", "zoya"))
    body = await until(f"{base}/healthz", 503)
    assert body == "unhealthy: getUpdates is failing\n"
    tg.down = False
    assert await until(f"{base}/healthz", 200) == "ok\n"
