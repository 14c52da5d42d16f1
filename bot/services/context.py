"""Who acts in an update and how he is answered: the actor, the reply, and what Telegram is asked about him."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

IsAdmin = Callable[[], Awaitable[bool]]
"""Asks Telegram whether the acting user administers the group; called only when the creator rule is not enough.
Never awaited under a table's lock: the answer comes from Telegram (cached briefly, bot/telegram/members.py)."""
IsMember = Callable[[int], Awaitable[bool | None]]
"""Asks Telegram whether the acting user is a member of the group ``chat_id`` (None: it could not tell now)."""


@dataclass(frozen=True, slots=True)
class Reply:
    """How a handler answers the user: a toast or an alert on a tap, a text for a command, or a t.me link."""

    text: str | None = None
    alert: bool = False
    url: str | None = None


@dataclass(frozen=True, slots=True)
class Actor:
    """The Telegram user behind an update: id, display name (raw, escape it on output) and app language."""

    user_id: int
    name: str
    language_code: str | None = None
