"""Why a move was refused, as a short alert (a callback answer shows at most 200 characters)."""

from __future__ import annotations

from typing import Final

from bot.i18n import Translator
from engine.bura.errors import Reason

MAX_ALERT: Final = 200


def reason_text(reason: Reason, tr: Translator) -> str:
    """The localized alert for an engine ``Reason``, within Telegram's 200 characters."""
    text = tr.t(f"reason-{reason.value}")
    return text if len(text) <= MAX_ALERT else text[: MAX_ALERT - 1] + "…"
