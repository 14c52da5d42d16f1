"""A table's invitation: the deep link ``t.me/<bot>?start=j<table>_<mac>`` that seats a player from his private
chat, and nothing anyone can make up.

Table ids are sequential, so an id alone would let anybody walk every lobby (and every private group's title).
The link therefore carries a MAC of the table id under a key derived from the bot's token (HMAC-SHA256, 96 bits
shown): only someone who saw the lobby's button has it, every instance of the bot checks it without a lookup, and
a lobby never outlives its link (an idle one closes after 30 minutes). Whoever follows it must still be a member
of the table's group: the link says where to sit, not who may.
"""

from __future__ import annotations

from typing import Final

from bot.services.seals import derived_key, seal, unseal

PREFIX: Final = "j"
PURPOSE: Final = "join"


def invite_key(bot_token: str) -> bytes:
    """The key that signs invitations, derived from the token (bot/services/seals.py)."""
    return derived_key(bot_token, b"bura-bot table invitations")


def invite_payload(key: bytes, table_id: int) -> str:
    """The start payload of a table's invitation (within Telegram's 64 characters of ``A-Za-z0-9_-``)."""
    return seal(key, PURPOSE, PREFIX, table_id)


def invite_link(bot_username: str, key: bytes, table_id: int) -> str:
    return f"https://t.me/{bot_username}?start={invite_payload(key, table_id)}"


def is_invitation(payload: str) -> bool:
    """A start payload that claims to be an invitation (a good one or not): the bot answers it as one."""
    return payload.startswith(PREFIX) and len(payload) > 1


def invited_table(key: bytes, payload: str) -> int | None:
    """The table a start payload invites to, or None if it is not an invitation this bot made."""
    return unseal(key, PURPOSE, PREFIX, payload)
