"""A table's settings as players choose them in /settings: what every game shares, and the game's own choices.

Every choice has a short code (it travels in callback data, ``SettingCb``) and a locale key ``setting-<key>-<code>``.
The settings every game shares are fields of `TableSettings` (:data:`SHARED_CHOICES`); the rules a table plays
(``profile``) and the choices its game declares (``GameAdapter.own_settings``) are codes the registry and the
game make sense of, so nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot.config import SUPPORTED_LANGUAGES


class ComputerLevel(StrEnum):
    """How well the computer players of a table play (each game's ``ai``: engine/bura/ai, engine/buraco/ai)."""

    EASY = "easy"
    HARD = "hard"


MOVE_SECONDS_CHOICES: Final = (30, 60, 120, 300, 0)  # 0: no move timer
DEFAULT_MOVE_SECONDS: Final = 60  # a table that never chose, of a game that declares no default of its own
TIMER_KEY: Final = "timer"

# The settings every table has, by their key in the menu (and in ``SettingCb``), with their codes in the menu's
# order; the rules (``profile``) come first and each game's own settings after them.
SHARED_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    TIMER_KEY: tuple(str(seconds) for seconds in MOVE_SECONDS_CHOICES),
    "language": tuple(SUPPORTED_LANGUAGES),
    "takeover": ("1", "0"),
    "level": tuple(level.value for level in ComputerLevel),
}
PROFILE_KEY: Final = "profile"  # the menu's key of the rules a table plays (its choices: the registry's profiles)
# The field each of these menu keys sets.
_FIELDS: Final = {
    PROFILE_KEY: "profile",
    TIMER_KEY: "move_seconds",
    "language": "language",
    "takeover": "computer_takeover",
    "level": "computer_level",
}


def _code(value: object) -> str:
    """A stored value as a choice's code: booleans as "1"/"0" (how the menu's buttons carry them)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value.value if isinstance(value, StrEnum) else value)


class TableSettings(BaseModel):
    """What the creator or an admin sets before the deal (issue: /settings)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    profile: str = ""  # the rules the table plays ("bk", "buraco"); "" for the house's default game
    # None: never chosen, so the game's default (a game declares one as an own setting of the shared key "timer":
    # a Buraco turn is a draw, melds and a discard), else DEFAULT_MOVE_SECONDS; see :meth:`seconds`
    move_seconds: int | None = Field(None, ge=0, le=3600)
    language: str = "ru"
    computer_takeover: bool = True  # a computer plays for a player who timed out three times
    computer_level: ComputerLevel = ComputerLevel.EASY
    # The game's own choices, key -> code ("match": "r11"). A choice the table's game does not declare is kept
    # (switching the rules back finds it again) but means nothing.
    options: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _fold_options(cls, data: Any) -> Any:
        """Settings stored before games declared their own had them at the top level (``"match": "r21"``,
        ``"casual": true``): any key that is not a shared field goes into ``options``, as its code."""
        if not isinstance(data, Mapping):
            return data
        shared = {key: value for key, value in data.items() if key in cls.model_fields}
        folded = {key: _code(value) for key, value in data.items() if key not in cls.model_fields and value is not None}
        if not folded:
            return data
        return {**shared, "options": {**folded, **dict(shared.get("options") or {})}}

    def option(self, key: str, default: str) -> str:
        """The code of one of the game's own settings, ``default`` where the table never chose it."""
        return self.options.get(key, default)

    def seconds(self, default: int = DEFAULT_MOVE_SECONDS) -> int:
        """The move timer: the table's choice, else ``default`` (its game's; 0: no timer)."""
        return default if self.move_seconds is None else self.move_seconds

    def code(self, key: str, default: str | None = None) -> str:
        """The code of a shared setting's (or the profile's) current value; where it was never chosen (the move
        timer), ``default`` (its game's) or the house's."""
        value = getattr(self, _FIELDS[key])
        if value is None:
            return default if default is not None else str(DEFAULT_MOVE_SECONDS)
        return _code(value)

    def with_code(self, key: str, code: str) -> TableSettings:
        """These settings with ``key`` set to ``code``: a shared setting, the profile, or else one of the game's
        own (the caller checked the code against the choices)."""
        data = self.model_dump(mode="json")
        if key in _FIELDS:
            data[_FIELDS[key]] = code
        else:
            data["options"] = {**self.options, key: code}
        return TableSettings.model_validate(data)
