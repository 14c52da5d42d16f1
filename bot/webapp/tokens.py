"""The Mini App's table token: ``t<table>_<mac>``, the ``startapp`` parameter of a link that opens the Mini App
at a table (``t.me/<bot>/<app>?startapp=<token>``), and what every API request names its table by.

As with invitations (bot/services/invites.py), table ids are sequential, so the token carries a MAC of the id
under a key derived from the bot's token (HMAC-SHA256, 96 bits shown): every instance checks it without a lookup,
and nobody reaches a table whose token he was not shown. The key is the Mini App's own (another derivation), so an
invitation's MAC is no table token, nor the reverse. The token says which table, never who may see it: each
request's initData says who asks, and the API checks his seat or his membership of the table's group.
"""

from __future__ import annotations

from typing import Final

from bot.services.seals import derived_key, seal, unseal

PREFIX: Final = "t"
PURPOSE: Final = "webapp"
MAX_TOKEN: Final = 64  # Telegram's limit for startapp (A-Za-z0-9_-); ours are at most 37


def table_key(bot_token: str) -> bytes:
    """The key that signs table tokens, derived from the bot's token (bot/services/seals.py)."""
    return derived_key(bot_token, b"bura-bot mini app tables")


def table_token(key: bytes, table_id: int) -> str:
    return seal(key, PURPOSE, PREFIX, table_id)


def table_link(bot_username: str, app_name: str, key: bytes, table_id: int) -> str:
    """The link that opens the bot's Mini App `app_name` (WEBAPP_NAME, its short name at @BotFather) at a table:
    the page reads the token from initData's ``start_param``. In a group it opens the Mini App there, over the
    chat (a group takes no web_app button, so the table's «🎴 Стол» is this link: bot/webapp/links.py)."""
    return f"https://t.me/{bot_username}/{app_name}?startapp={table_token(key, table_id)}"


def token_table(key: bytes, token: str) -> int | None:
    """The table a token names, or None if it is not a token this bot made."""
    return unseal(key, PURPOSE, PREFIX, token)
