"""A refused action: the machine-readable reason the bot translates (no engine writes prose for users)."""

from __future__ import annotations

from enum import Enum


class IllegalAction(Exception):
    """An action that the rules do not allow now. Raised before anything changes.

    ``reason`` is a member of the game's own ``Reason`` enum; its value is the key the bot translates.
    """

    def __init__(self, reason: Enum, detail: str = "") -> None:
        super().__init__(f"{reason.value}: {detail}" if detail else str(reason.value))
        self.reason = reason
        self.detail = detail
