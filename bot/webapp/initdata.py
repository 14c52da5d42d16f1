"""Who opened the Mini App: Telegram's ``initData``, checked on the server.

Telegram hands the Mini App a query string (``Telegram.WebApp.initData``) signed with a key derived from the bot's
token (HMAC-SHA256 of the token under ``"WebAppData"``, then of the sorted ``key=value`` lines; Bot API,
"Validating data received via the Mini App"). aiogram's `check_webapp_signature` does exactly that check; this
module adds what it leaves to the caller: ``auth_date`` fresh within a window (a leaked initData is good for that
long only), each key once (two ``user`` keys could be read one way when checked and another when parsed), and a
user to act as. The initData itself is a bearer credential for its window: it is never logged, and a refusal says
only which check failed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import parse_qsl

from aiogram.utils.web_app import check_webapp_signature

from bot.render.names import safe_name
from bot.services.context import Actor

MAX_INIT_DATA = 4096  # characters; Telegram's are a few hundred
CLOCK_SKEW = 300.0  # seconds an auth_date may lie ahead of this host's clock


class Refusal(StrEnum):
    """Why an initData was refused (the API answers 401 with this code, nothing more)."""

    MISSING = "missing"  # no initData at all
    MALFORMED = "malformed"  # not a query string, a key twice, too long, no auth_date
    FORGED = "forged"  # the hash does not match: not signed with this bot's token
    EXPIRED = "expired"  # auth_date older than the window (or ahead of the clock beyond the skew)
    NO_USER = "no_user"  # signed, but names no user (or a bot) to act as


class InitDataRefused(Exception):
    def __init__(self, reason: Refusal) -> None:
        super().__init__(reason.value)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Viewer:
    """The Telegram user behind a checked initData, and when Telegram vouched for him."""

    user_id: int
    first_name: str
    last_name: str | None
    language_code: str | None
    auth_date: int

    @property
    def actor(self) -> Actor:
        """As the services know a user, his name made safe to show as a tap's is (`actor_of`)."""
        name = f"{self.first_name} {self.last_name}" if self.last_name else self.first_name
        return Actor(self.user_id, safe_name(name, self.user_id), self.language_code)


def verify_init_data(token: str, init_data: str, *, now: float, max_age: float) -> Viewer:
    """The viewer an initData vouches for, or `InitDataRefused`: forged (not this bot's token), stale (older than
    `max_age` seconds at `now`), malformed, or without a user."""
    if not init_data:
        raise InitDataRefused(Refusal.MISSING)
    if len(init_data) > MAX_INIT_DATA:
        raise InitDataRefused(Refusal.MALFORMED)
    try:
        pairs = parse_qsl(init_data, strict_parsing=True)
    except ValueError:
        raise InitDataRefused(Refusal.MALFORMED) from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise InitDataRefused(Refusal.MALFORMED)  # a key twice: signed one way, read another
    if not check_webapp_signature(token, init_data):
        raise InitDataRefused(Refusal.FORGED)
    try:
        auth_date = int(fields["auth_date"])
    except (KeyError, ValueError):
        raise InitDataRefused(Refusal.MALFORMED) from None
    if not now - max_age <= auth_date <= now + CLOCK_SKEW:
        raise InitDataRefused(Refusal.EXPIRED)
    user_id, first, last, language = _user(fields.get("user"))
    return Viewer(user_id, first, last, language, auth_date)


def _user(text: str | None) -> tuple[int, str, str | None, str | None]:
    """The ``user`` field's id, names and language; `NO_USER` for none, a bot, or one not shaped as Telegram's."""
    try:
        user = json.loads(text) if text is not None else None
    except ValueError:
        raise InitDataRefused(Refusal.NO_USER) from None
    if not isinstance(user, dict):
        raise InitDataRefused(Refusal.NO_USER)
    user_id, first, last, language = (user.get(key) for key in ("id", "first_name", "last_name", "language_code"))
    if (
        not isinstance(user_id, int)
        or isinstance(user_id, bool)
        or not 0 < user_id < 2**63
        or user.get("is_bot") is True
        or not isinstance(first, str)
        or not isinstance(last, str | None)
        or not isinstance(language, str | None)
    ):
        raise InitDataRefused(Refusal.NO_USER)
    return user_id, first, last or None, language
