"""Scale-out: two bot processes on one PostgreSQL, Telegram's webhook spread over them round robin by a proxy
(tests/e2e/balancer.py, as Caddy in compose.yaml). A whole deal is played with its taps landing on both; one
instance is SIGKILLed in the middle of a deal and the other finishes the game with nothing lost and nothing
twice: every chat reads exactly what the bot committed for it."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.botapi import FakeTelegram
from tests.e2e.balancer import Balancer, free_port
from tests.e2e.conftest import SEED, BotProcess
from tests.e2e.harness import WAIT, Game, open_game
from tests.e2e.test_observability import until
from tests.postgres import fresh_database

SECRET = "scale-out_Qm4Tz8Kw2Xr6Jn0Bv5Hd9Lc3Pf7Gs1"  # 32 random characters at least
SETTINGS = {"match": "one", "timer": "0"}  # one deal, no move timer


class Instances:
    """The bot processes behind the balancer, each with its own folder and webhook port."""

    def __init__(self, tg: FakeTelegram, tmp_path: Path, url: str, count: int) -> None:
        self.ports = [free_port() for _ in range(count)]
        self.balancer = Balancer([f"http://127.0.0.1:{port}/hook" for port in self.ports])
        self.bots = []
        for index, port in enumerate(self.ports):
            folder = tmp_path / f"instance-{index}"
            folder.mkdir()
            env = {
                "DATABASE_URL": url,
                "WEBHOOK_URL": self.balancer.url,
                "WEBHOOK_SECRET": SECRET,
                "WEBHOOK_HOST": "127.0.0.1",
                "WEBHOOK_PORT": str(port),
            }
            self.bots.append(BotProcess(tg, folder, SEED, env))

    async def start(self) -> None:
        await self.balancer.__aenter__()
        for bot, port in zip(self.bots, self.ports, strict=True):
            await bot.start()
            assert await until(f"http://127.0.0.1:{port}/healthz", 200, timeout=WAIT) == "ok\n", bot.output()

    async def close(self) -> None:
        for bot in self.bots:
            with contextlib.suppress(AssertionError):
                await bot.stop()
        await self.balancer.__aexit__(None, None, None)
        for bot in self.bots:
            output = bot.output()
            assert "Traceback" not in output, output

    def kill(self, index: int) -> None:
        process = self.bots[index].process
        assert process is not None
        process.send_signal(signal.SIGKILL)
        self.bots[index].process = None


@pytest.fixture
async def instances(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[tuple[Instances, str]]:
    url = await fresh_database()
    running = Instances(tg, tmp_path, url, 2)
    try:
        await running.start()
        yield running, url
    finally:
        await running.close()


def reads_as_committed(game: Game, repeats: int = 0) -> None:
    """Every chat of the game shows the messages the bot committed for it, in order: none lost, and none twice
    but for `repeats` a chat (README, "Reliability": a send Telegram took whose answer a kill cut off is sent
    again, as the bot cannot know it arrived)."""
    for chat in game.chats():
        shown, committed = game.shown(chat), game.committed(chat)
        rest = iter(shown)
        assert all(any(text == seen for seen in rest) for text in committed), (chat.id, shown, committed)
        assert len(shown) - len(committed) <= repeats, (chat.id, shown, committed)


async def test_a_deal_whose_taps_land_on_both_instances(tg: FakeTelegram, instances: tuple[Instances, str]) -> None:
    running, url = instances
    game = await open_game(tg, url, players=2, settings=SETTINGS)
    try:
        moves = await game.play_to_end()
        await game.delivered()
        assert moves >= 6
        served = running.balancer.served
        assert served[0] >= 10 and served[1] >= 10, served
        reads_as_committed(game)
        texts = game.group_texts()
        assert sum("Бура" in text or "взял" in text or "Сдача" in text for text in texts) >= 1
    finally:
        game.close()
    for bot in running.bots:
        assert "Traceback" not in bot.output()


async def test_an_instance_killed_mid_deal_loses_nothing_and_repeats_nothing(
    tg: FakeTelegram, instances: tuple[Instances, str]
) -> None:
    running, url = instances
    game = await open_game(tg, url, players=2, settings={"match": "p12", "timer": "0"})
    try:
        for _ in range(5):
            assert await game.play_move()
        running.kill(0)  # mid-deal, moves committed and being delivered, updates in its hands
        played = 0
        while await game.play_move():
            played += 1
        assert played > 5
        await game.delivered()
        status, _, _ = game.row()
        assert status == "finished"
        reads_as_committed(game, repeats=1)
        assert running.balancer.served[1] > running.balancer.served[0]
    finally:
        game.close()
