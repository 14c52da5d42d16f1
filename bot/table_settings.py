"""A table's settings as players choose them in /settings, and the engine variant they make.

Every choice has a short code (it travels in callback data, ``SettingCb``) and a locale key ``setting-<key>-<code>``.
"""

from __future__ import annotations

import functools
from enum import StrEnum
from typing import Final

from pydantic import BaseModel, ConfigDict, Field

from engine.bura.variant import (
    BURA_5,
    BURA_PAGAT,
    BURA_RU_WIKI,
    BURA_STANDARD,
    BURKOZEL,
    KOZEL_MONEY,
    PENALTY_12,
    ROBBER,
    SINGLE_DEAL,
    SMALL_ROBBER,
    Discards,
    MatchKind,
    MatchModel,
    Variant,
)


class Profile(StrEnum):
    """The rule sets of RULES §13 a table can play."""

    BURA = "bura"  # BURA_STANDARD
    BURA_PAGAT = "pagat"
    BURA_RU_WIKI = "ruwiki"
    BURKOZEL = "bk"
    KOZEL = "kozel"  # Kozel for money (a pot of points, settled after 20 deals)
    BURA_5 = "b5"
    BURACO = "buraco"  # Buraco Aberto (RULES §17): its own game, bot/games/buraco


class MatchChoice(StrEnum):
    """How deals add up to a match (RULES §12); only Бура profiles let the table choose."""

    SMALL_ROBBER = "r11"  # ★ product default: first to 11 won deals with a lead of 2
    ROBBER = "r21"
    PENALTY_12 = "p12"
    SINGLE_DEAL = "one"


class ComputerLevel(StrEnum):
    """How well the computer players of a table play (engine/bura/ai)."""

    EASY = "easy"
    HARD = "hard"


class DiscardChoice(StrEnum):
    """[V10] as a table setting: the profile's own rule, all open, or closed (face-down) discards."""

    PROFILE = "rule"
    OPEN = "open"
    CLOSED = "closed"


PROFILE_VARIANTS: Final[dict[Profile, Variant]] = {
    Profile.BURA: BURA_STANDARD,
    Profile.BURA_PAGAT: BURA_PAGAT,
    Profile.BURA_RU_WIKI: BURA_RU_WIKI,
    Profile.BURKOZEL: BURKOZEL,
    Profile.KOZEL: KOZEL_MONEY,
    Profile.BURA_5: BURA_5,
}

MATCH_MODELS: Final[dict[MatchChoice, MatchModel]] = {
    MatchChoice.SMALL_ROBBER: SMALL_ROBBER,
    MatchChoice.ROBBER: ROBBER,
    MatchChoice.PENALTY_12: PENALTY_12,
    MatchChoice.SINGLE_DEAL: SINGLE_DEAL,
}

MOVE_SECONDS_CHOICES: Final = (30, 60, 120, 300, 0)  # 0: no move timer
KOZEL_DEALS: Final = 20  # S3: settle up after 20 deals
BURACO_SEATS: Final = 4


@functools.lru_cache(maxsize=256)
def _variant(profile: Profile, casual: bool, match: MatchChoice, discards: DiscardChoice) -> Variant:
    base = PROFILE_VARIANTS[profile]
    changes: dict[str, object] = {"hide_captured_points": not casual}
    if profile is Profile.KOZEL:
        changes["match"] = MatchModel(kind=MatchKind.POT, max_deals=KOZEL_DEALS)
    elif profile is not Profile.BURKOZEL:  # Буркозёл keeps its penalty table (RULES §12.4)
        changes["match"] = MATCH_MODELS[match]
    if discards is DiscardChoice.OPEN:
        changes["discards"] = Discards.OPEN
    elif discards is DiscardChoice.CLOSED and base.discards is Discards.OPEN:
        changes["discards"] = Discards.FACE_DOWN_OPTIONAL
    return base.with_options(**changes)


class TableSettings(BaseModel):
    """What the creator or an admin sets before the deal (issue: /settings)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    profile: Profile = Profile.BURA
    match: MatchChoice = MatchChoice.SMALL_ROBBER
    move_seconds: int = Field(60, ge=0, le=3600)
    discards: DiscardChoice = DiscardChoice.PROFILE
    language: str = "ru"
    casual: bool = False  # show captured points (strict rules hide them, RULES §6.7)
    computer_takeover: bool = True  # a computer plays for a player who timed out three times
    computer_level: ComputerLevel = ComputerLevel.EASY

    def variant(self) -> Variant:
        """The Bura family's engine variant of these settings (built once per combination: every move renders
        with it); ``ValueError`` for a game outside the family."""
        if self.profile not in PROFILE_VARIANTS:
            raise ValueError(f"{self.profile.value} is not a game of the Bura family")
        return _variant(self.profile, self.casual, self.match, self.discards)

    @property
    def game(self) -> str:
        """The key of the game these settings play (``bot.games.registry``)."""
        return "buraco" if self.profile is Profile.BURACO else "bura"

    @property
    def seats(self) -> int | None:
        """A game played at a fixed number of seats, computers in those nobody takes (Buraco: four, RULES
        §17.1); None where the table plays with whoever sits."""
        return BURACO_SEATS if self.profile is Profile.BURACO else None

    @property
    def min_players(self) -> int:
        if self.profile is Profile.BURACO:
            return 1  # one to four people; computers fill the other seats
        return PROFILE_VARIANTS[self.profile].min_players

    @property
    def max_players(self) -> int:
        if self.profile is Profile.BURACO:
            return BURACO_SEATS
        return PROFILE_VARIANTS[self.profile].max_players
