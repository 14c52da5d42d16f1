"""Our Telegram HTML as plain text, for the Mini App: it sets texts as text, so a name is never markup there."""

from __future__ import annotations

import html
import re
from typing import Final

_TAG: Final = re.compile(r"<[^>]*>")


def plain(text: str) -> str:
    """``<b>Анна</b> &lt;3`` -> ``Анна <3``: the tags our renderers write dropped (names and every user's text in
    them are escaped, so no tag of theirs is one), then the escapes undone."""
    return html.unescape(_TAG.sub("", text))
