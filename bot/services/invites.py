"""A table's invitation: the deep link ``t.me/<bot>?start=j<table>_<mac>`` that seats a player from his private
chat, and nothing anyone can make up.

Table ids are sequential, so an id alone would let anybody walk every lobby (and every private group's title).
The link therefore carries a MAC of the table id under a key derived from the bot's token (HMAC-SHA256, 96 bits
shown): only someone who saw the lobby's button has it, every instance of the bot checks it without a lookup, and
a lobby never outlives its link (an idle one closes after 30 minutes). Whoever follows it must still be a member
of the table's group: the link says where to sit, not who may.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from typing import Final

from bot.telegram.callbacks import parse_id

PREFIX: Final = "j"
_MAC_CHARS: Final = 16  # base64url characters: 96 bits
_PAYLOAD = re.compile(rf"{PREFIX}([0-9]{{1,19}})_([A-Za-z0-9_-]{{{_MAC_CHARS}}})")


def invite_key(bot_token: str) -> bytes:
    """The key that signs invitations, derived from the token: the same for every instance of one bot, and
    nothing of the token itself can be read back from a link."""
    return hmac.new(bot_token.encode(), b"bura-bot table invitations", hashlib.sha256).digest()


def _mac(key: bytes, table_id: int) -> str:
    digest = hmac.new(key, f"join:{table_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:_MAC_CHARS]


def invite_payload(key: bytes, table_id: int) -> str:
    """The start payload of a table's invitation (within Telegram's 64 characters of ``A-Za-z0-9_-``)."""
    return f"{PREFIX}{table_id}_{_mac(key, table_id)}"


def invite_link(bot_username: str, key: bytes, table_id: int) -> str:
    return f"https://t.me/{bot_username}?start={invite_payload(key, table_id)}"


def is_invitation(payload: str) -> bool:
    """A start payload that claims to be an invitation (a good one or not): the bot answers it as one."""
    return payload.startswith(PREFIX) and len(payload) > 1


def invited_table(key: bytes, payload: str) -> int | None:
    """The table a start payload invites to, or None if it is not an invitation this bot made."""
    found = _PAYLOAD.fullmatch(payload)
    if found is None:
        return None
    table_id = parse_id(found.group(1))
    if table_id is None or not hmac.compare_digest(found.group(2), _mac(key, table_id)):
        return None
    return table_id
