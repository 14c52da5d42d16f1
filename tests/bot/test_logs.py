"""No secret in any log line: the redacting filter on every handler, tried with real network failures."""

from __future__ import annotations

import io
import logging
import subprocess
import sys
from collections.abc import Iterator

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramNetworkError

from bot.logs import FORMAT, Redactor, token_secrets
from bot.telegram.api import brief
from tests.closing_api import ClosingBotApi

TOKEN = "123456:AAbbCCddEEffGGhh_ii-JJkk"
SECRET = "Wq3-x9_Lz0vB7nM2kR5tY8uP1oI4eA6s"


def stream_handler(redactor: Redactor | None) -> tuple[logging.Handler, io.StringIO]:
    text = io.StringIO()
    handler = logging.StreamHandler(text)
    handler.setFormatter(logging.Formatter(FORMAT))
    if redactor is not None:
        handler.addFilter(redactor)
    return handler, text


@pytest.fixture
def logs() -> Iterator[tuple[logging.Logger, io.StringIO, io.StringIO]]:
    """A logger with two handlers: the first as it was (what the log would have said), the second redacting."""
    logger = logging.getLogger("tests.logs")
    logger.propagate = False
    raw, raw_text = stream_handler(None)
    redacted, redacted_text = stream_handler(Redactor([*token_secrets(TOKEN), ("WEBHOOK_SECRET", SECRET)]))
    logger.addHandler(raw)  # first: the redactor changes the record for the handlers after it
    logger.addHandler(redacted)
    yield logger, raw_text, redacted_text
    logger.removeHandler(raw)
    logger.removeHandler(redacted)
    logger.propagate = True


async def test_a_request_cut_off_half_way_names_no_token_in_the_log(
    logs: tuple[logging.Logger, io.StringIO, io.StringIO],
) -> None:
    logger, raw, redacted = logs
    async with ClosingBotApi() as api:
        session = AiohttpSession(api=TelegramAPIServer.from_base(api.base_url))
        bot = Bot(TOKEN, session=session)
        try:
            await bot.get_updates(timeout=0)  # answered, then its connection closed
            with pytest.raises(TelegramNetworkError) as failed:
                await bot.get_updates(timeout=0)  # sent on the closed connection
            error = failed.value
            logger.warning("getUpdates failed (%s); retrying", brief(error))  # as the poller and start-up retries
            logger.warning("sender: chat %s: %s", 5, error)
            logger.warning(error)  # an exception as the message itself
            try:
                raise RuntimeError("delivery failed") from error
            except RuntimeError:
                logger.exception("sender: delivering outbox row %s failed", 7)
        finally:
            await session.close()
    assert "Can not write request body" in raw.getvalue() and TOKEN in raw.getvalue(), "the failure names the URL"
    text = redacted.getvalue()
    assert "Can not write request body" in text and "/bot<BOT_TOKEN>/getUpdates" in text
    assert "Traceback" in text and "delivering outbox row 7 failed" in text
    assert TOKEN.partition(":")[2] not in text, text
    assert len(text.splitlines()) == len(raw.getvalue().splitlines())


def test_every_part_of_a_record_is_redacted(logs: tuple[logging.Logger, io.StringIO, io.StringIO]) -> None:
    logger, _, redacted = logs
    logger.warning("url %(url)s", {"url": f"https://x/bot{TOKEN}/getMe"})
    logger.warning("encoded %s", f"bot{TOKEN.replace(':', '%3A')}")
    logger.warning("the secret part alone: %s", TOKEN.partition(":")[2])
    logger.warning("header %s", {"X-Telegram-Bot-Api-Secret-Token": SECRET})
    logger.warning("a bad format %s %s", TOKEN)
    logger.warning("stack", stack_info=True, extra={"token": TOKEN})
    try:
        raise ValueError(f"refused {SECRET}")
    except ValueError:
        logger.error("failed", exc_info=True)
    text = redacted.getvalue()
    assert TOKEN.partition(":")[2] not in text and SECRET not in text, text
    assert text.count("<BOT_TOKEN>") == 4 and text.count("<WEBHOOK_SECRET>") == 2, text
    assert "ValueError: refused <WEBHOOK_SECRET>" in text


def test_short_values_are_not_secrets() -> None:
    redactor = Redactor([("BOT_TOKEN", "1:ab"), ("WEBHOOK_SECRET", "")])
    assert redactor.redact("table 1: ab") == "table 1: ab"


THREAD_FAILS = f"""
import threading
from bot.logs import configure_logging, token_secrets
configure_logging("INFO", token_secrets({TOKEN!r}))

def fail():
    raise ValueError("refused for https://x/bot{TOKEN}/getMe")

thread = threading.Thread(target=fail, name="worker")
thread.start()
thread.join()
"""


def test_a_failed_thread_is_logged_through_the_filter() -> None:
    # Python prints a thread's failure to stderr itself, past every logging handler, unless told otherwise.
    done = subprocess.run([sys.executable, "-c", THREAD_FAILS], capture_output=True, text=True, timeout=60, check=True)
    assert "ERROR bot: thread worker failed" in done.stderr and "Traceback" in done.stderr, done.stderr
    assert "ValueError: refused for https://x/bot<BOT_TOKEN>/getMe" in done.stderr
    assert TOKEN.partition(":")[2] not in done.stderr
