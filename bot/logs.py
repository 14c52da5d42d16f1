"""The bot's log: one format, and no secret in any line.

aiohttp names the URL of a request that failed half-way (``Can not write request body for
https://api.telegram.org/bot<TOKEN>/getUpdates``), and the Bot API's URLs hold the token; an exception's text
or traceback may hold anything it was given. So every record that reaches a handler of the root logger passes
one filter, `Redactor`, which takes the secrets out of its message, its arguments and its exception text,
whichever module logged it and however it was formatted.
"""

from __future__ import annotations

import logging
import threading
import traceback
from collections.abc import Iterable
from urllib.parse import quote

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
MIN_SECRET = 6  # shorter strings are left alone: they would blank out ordinary words and numbers


class Redactor(logging.Filter):
    """Replaces each secret in a record by its name (``<BOT_TOKEN>``). Records are changed in place, before any
    handler formats them: the message is rendered once with its arguments and redacted, the exception's
    traceback rendered into ``exc_text`` and redacted (a formatter uses ``exc_text`` when it is set)."""

    def __init__(self, secrets: Iterable[tuple[str, str]]) -> None:
        super().__init__()
        pairs: dict[str, str] = {}
        for name, secret in secrets:
            for form in (secret, quote(secret, safe="")):
                if len(form) >= MIN_SECRET:
                    pairs[form] = f"<{name}>"
        # The longest first: a secret that holds another one is replaced whole.
        self._pairs = sorted(pairs.items(), key=lambda pair: len(pair[0]), reverse=True)

    def redact(self, text: str) -> str:
        for secret, name in self._pairs:
            if secret in text:
                text = text.replace(secret, name)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._pairs:
            return True
        if record.args or not isinstance(record.msg, str):
            try:
                message = record.getMessage()
            except Exception:  # a bad format string: what logging would print, without the secrets
                message = f"{record.msg!r} % {record.args!r}"
            record.msg, record.args = message, None
        record.msg = self.redact(record.msg)
        if record.exc_info and not record.exc_text:
            record.exc_text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


def token_secrets(token: str) -> list[tuple[str, str]]:
    """A bot token as secrets: whole, and its part after the colon (the part that is secret: the bot's id is
    public, and a URL may show the token with its colon encoded)."""
    return [("BOT_TOKEN", token), ("BOT_TOKEN", token.partition(":")[2])]


def configure_logging(level: str, secrets: Iterable[tuple[str, str]] = ()) -> Redactor:
    """Log to stderr at `level`, every handler of the root logger redacting `secrets` (name, value)."""
    logging.basicConfig(level=level, format=FORMAT)
    redactor = Redactor(secrets)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redactor)
    # aiogram logs every update it handles at INFO (hundreds a second under load): only its warnings go out.
    logging.getLogger("aiogram.event").setLevel(max(logging.WARNING, logging.getLevelName(level)))
    threading.excepthook = _log_thread_failure  # Python would print it to stderr itself, past the filter
    return redactor


def _log_thread_failure(failure: threading.ExceptHookArgs) -> None:
    if failure.exc_type is SystemExit:
        return
    name = failure.thread.name if failure.thread is not None else "?"
    exc_info = (failure.exc_type, failure.exc_value or failure.exc_type(), failure.exc_traceback)
    logging.getLogger("bot").error("thread %s failed", name, exc_info=exc_info)
