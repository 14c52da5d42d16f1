"""Webhooks in the fake Bot API, as strict as Telegram: setWebhook, the secret header, retries on a refusal,
per-chat order, getWebhookInfo, and getUpdates refused (409) while a webhook is set."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramConflictError
from aiohttp import web

from tests.botapi.server import FakeTelegram
from tests.botapi.webhook import SECRET_HEADER


class Receiver:
    """The bot's side: a web server that records what Telegram POSTs, refusing as told."""

    def __init__(self) -> None:
        self.received: list[tuple[str | None, dict[str, object]]] = []
        self.refuse = 0  # answer this many next requests with a 500
        self.hold: asyncio.Event | None = None  # while set-and-cleared, requests wait
        self.url = ""
        self._runner: web.AppRunner | None = None

    async def handle(self, request: web.Request) -> web.Response:
        if self.hold is not None:
            await self.hold.wait()
        if self.refuse:
            self.refuse -= 1
            return web.Response(status=500)
        self.received.append((request.headers.get(SECRET_HEADER), await request.json()))
        return web.Response(text="")

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/hook", self.handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{self._runner.addresses[0][1]}/hook"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    server = Receiver()
    await server.start()
    yield server
    await server.stop()


async def until(condition: object, what: str) -> None:
    for _ in range(400):
        if callable(condition) and condition():
            return
        await asyncio.sleep(0.01)
    raise TimeoutError(what)


async def test_updates_are_posted_with_the_secret_and_polling_is_refused(
    bot: Bot, tg: FakeTelegram, receiver: Receiver
) -> None:
    assert await bot.set_webhook(receiver.url, secret_token="s3cret-token_1")
    with pytest.raises(TelegramConflictError, match="can't use getUpdates method while webhook is active"):
        await bot.get_updates(timeout=0)
    alice = tg.user("Alice", "alice")
    tg.start_bot(alice)
    await until(lambda: receiver.received, "the update posted")
    secret, update = receiver.received[0]
    assert secret == "s3cret-token_1"
    assert update["message"]["text"] == "/start"  # type: ignore[index]
    info = await bot.get_webhook_info()
    assert (info.url, info.pending_update_count, info.last_error_message) == (receiver.url, 0, None)
    assert await bot.delete_webhook()
    assert await bot.get_updates(timeout=0) == []


async def test_a_refused_update_is_tried_again_and_a_chat_keeps_its_order(
    bot: Bot, tg: FakeTelegram, receiver: Receiver
) -> None:
    tg.webhook.retry_after = 0.05
    await bot.set_webhook(receiver.url)
    alice, bob = tg.user("Alice", "alice"), tg.user("Bob", "bob")
    tg.start_bot(alice)
    tg.start_bot(bob)
    await until(lambda: len(receiver.received) == 2, "both first updates")
    receiver.refuse = 1
    chat = tg.private_chat(alice)
    tg.send_message(alice, chat, "first")
    tg.send_message(alice, chat, "second")
    await until(lambda: len(receiver.received) == 4, "both messages after the refusal")
    texts = [update["message"]["text"] for _, update in receiver.received[2:]]  # type: ignore[index]
    assert texts == ["first", "second"], "the refused one first: a chat's updates keep their order"
    info = await bot.get_webhook_info()
    assert info.last_error_message == "Wrong response from the webhook: 500 Internal Server Error"
    assert info.last_error_date is not None and info.pending_update_count == 0


async def test_set_webhook_is_as_strict_as_telegram(bot: Bot) -> None:
    with pytest.raises(TelegramBadRequest, match="An HTTPS URL must be provided"):
        await bot.set_webhook("http://bot.example.com/hook")
    with pytest.raises(TelegramBadRequest, match="secret token contains unallowed characters"):
        await bot.set_webhook("https://bot.example.com/hook", secret_token="not allowed!")
    with pytest.raises(TelegramBadRequest, match="only on ports 80, 88, 443 or 8443"):
        await bot.set_webhook("https://bot.example.com:8080/hook")
    assert await bot.set_webhook("https://bot.example.com:8443/hook")
    with pytest.raises(TelegramBadRequest, match="max_connections"):
        await bot.set_webhook("https://bot.example.com/hook", max_connections=101)


async def test_a_paused_delivery_holds_the_updates_until_it_resumes(
    bot: Bot, tg: FakeTelegram, receiver: Receiver
) -> None:
    await bot.set_webhook(receiver.url, secret_token="s")
    tg.webhook.pause()
    tg.start_bot(tg.user("Alice", "alice"))
    await asyncio.sleep(0.1)
    assert receiver.received == []
    assert (await bot.get_webhook_info()).pending_update_count == 1, "Telegram holds it"
    tg.webhook.pause(False)
    await until(lambda: receiver.received, "the held update posted")
    assert (await bot.get_webhook_info()).pending_update_count == 0
