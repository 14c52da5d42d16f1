"""Why a move was refused, as a short alert (a callback answer shows at most 200 characters)."""

from __future__ import annotations

from enum import Enum
from typing import Final

from bot.i18n import Translator

MAX_ALERT: Final = 200


def reason_text(reason: Enum, tr: Translator) -> str:
    """The localized alert for an engine's refusal reason (any game's ``Reason``), within Telegram's 200
    characters."""
    text = tr.t(f"reason-{reason.value}")
    return text if len(text) <= MAX_ALERT else text[: MAX_ALERT - 1] + "…"
