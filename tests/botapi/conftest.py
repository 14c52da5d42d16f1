"""Fixtures for driving the fake Bot API with a real aiogram `Bot`: a fake clock, the server, the bot."""

from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer

from tests.botapi.clock import FakeClock
from tests.botapi.server import FakeTelegram


class QuickSession(AiohttpSession):
    """aiogram's session without the quarter-second sleep it spends on close for TLS connections we lack."""

    async def close(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()


def make_bot(tg: FakeTelegram, token: str | None = None) -> Bot:
    session = QuickSession(api=TelegramAPIServer.from_base(tg.base_url))
    return Bot(token or tg.token, session=session)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def tg(clock: FakeClock) -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(clock=clock) as server:
        yield server
        assert not server.crashes, server.crashes[0]


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    async with make_bot(tg) as client:
        yield client
