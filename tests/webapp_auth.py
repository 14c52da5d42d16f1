"""Telegram's initData for the Mini App's tests: signed as Telegram signs it, with a bot's token (the unit tests
of bot/webapp/initdata.py and the browser tests that open the page as a person would)."""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import urlencode


def signed(token: str, user: dict[str, object] | None, auth_date: float, **extra: str) -> str:
    """An initData as Telegram makes it: the fields, and the hash of their sorted lines under the token's key."""
    fields = {"auth_date": str(int(auth_date)), **extra}
    if user is not None:
        fields["user"] = json.dumps(user, ensure_ascii=False, separators=(",", ":"))
    check = "\n".join(f"{key}={value}" for key, value in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)
