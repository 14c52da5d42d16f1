"""The Mini App's table token: ``t<table>_<mac>``, the ``startapp`` parameter of a link that opens the Mini App
at a table (``t.me/<bot>/<app>?startapp=<token>``), and what every API request names its table by.

As with invitations (bot/services/invites.py), table ids are sequential, so the token carries a MAC of the id
under a key derived from the bot's token (HMAC-SHA256, 96 bits shown): every instance checks it without a lookup,
and nobody reaches a table whose token he was not shown. The key is the Mini App's own (another derivation), so an
invitation's MAC is no table token, nor the reverse. The token says which table, never who may see it: each
request's initData says who asks, and the API checks his seat or his membership of the table's group.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from typing import Final

from bot.telegram.callbacks import parse_id

PREFIX: Final = "t"
_MAC_CHARS: Final = 16  # base64url characters: 96 bits
_TOKEN = re.compile(rf"{PREFIX}([0-9]{{1,19}})_([A-Za-z0-9_-]{{{_MAC_CHARS}}})")
MAX_TOKEN: Final = 64  # Telegram's limit for startapp (A-Za-z0-9_-); ours are at most 37


def table_key(bot_token: str) -> bytes:
    """The key that signs table tokens, derived from the bot's token: the same for every instance of one bot."""
    return hmac.new(bot_token.encode(), b"bura-bot mini app tables", hashlib.sha256).digest()


def _mac(key: bytes, table_id: int) -> str:
    digest = hmac.new(key, f"webapp:{table_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:_MAC_CHARS]


def table_token(key: bytes, table_id: int) -> str:
    return f"{PREFIX}{table_id}_{_mac(key, table_id)}"


def table_link(bot_username: str, key: bytes, table_id: int) -> str:
    """The link that opens the bot's main Mini App at a table (the page reads the token from initData's
    ``start_param``). Nothing sends it yet: the buttons that will come with the drawn table."""
    return f"https://t.me/{bot_username}?startapp={table_token(key, table_id)}"


def token_table(key: bytes, token: str) -> int | None:
    """The table a token names, or None if it is not a token this bot made."""
    found = _TOKEN.fullmatch(token)
    if found is None:
        return None
    table_id = parse_id(found.group(1))
    if table_id is None or not hmac.compare_digest(found.group(2), _mac(key, table_id)):
        return None
    return table_id
