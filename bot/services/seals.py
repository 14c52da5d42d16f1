"""A table id sealed with a MAC, ``<prefix><id>_<mac>``: what an invitation's start payload (bot/services/invites.py)
and the Mini App's table token (bot/webapp/tokens.py) are made of.

Table ids are sequential, so a link that named a table by its id alone would let anyone reach every table: the seal
adds a MAC of the id (HMAC-SHA256, 96 bits shown, base64url) under a key derived from the bot's token, checked by
every instance without a lookup. Each use has its own key and purpose, so one kind of seal is never another's.
Within Telegram's 64 characters of ``A-Za-z0-9_-`` for start parameters.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from typing import Final

from bot.telegram.callbacks import parse_id

MAC_CHARS: Final = 16  # base64url characters: 96 bits


def derived_key(bot_token: str, label: bytes) -> bytes:
    """A key derived from the bot's token for one use: the same for every instance of one bot, and nothing of the
    token can be read back from a seal."""
    return hmac.new(bot_token.encode(), label, hashlib.sha256).digest()


def _mac(key: bytes, purpose: str, table_id: int) -> str:
    digest = hmac.new(key, f"{purpose}:{table_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:MAC_CHARS]


def seal(key: bytes, purpose: str, prefix: str, table_id: int) -> str:
    return f"{prefix}{table_id}_{_mac(key, purpose, table_id)}"


def unseal(key: bytes, purpose: str, prefix: str, text: str) -> int | None:
    """The table a seal names, or None if it is not a seal of this kind that this bot made."""
    found = re.fullmatch(rf"{re.escape(prefix)}([0-9]{{1,19}})_([A-Za-z0-9_-]{{{MAC_CHARS}}})", text)
    if found is None:
        return None
    table_id = parse_id(found.group(1))
    if table_id is None or not hmac.compare_digest(found.group(2), _mac(key, purpose, table_id)):
        return None
    return table_id
