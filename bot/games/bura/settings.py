"""The Bura family's table settings: the rule sets a table can play (RULES §13), the choices they let the table
make (the match, discards, casual points), and the engine variant they make."""

from __future__ import annotations

import functools
from enum import StrEnum
from typing import Final, TypeVar

from bot.games.base import Setting
from bot.table_settings import TableSettings
from engine.bura.variant import (
    BURA_5,
    BURA_PAGAT,
    BURA_RU_WIKI,
    BURA_STANDARD,
    BURKOZEL,
    KOZEL_MONEY,
    KOZEL_TVALADZE,
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
    """The rule sets of RULES §13 a table can play (``TableSettings.profile``)."""

    BURA = "bura"  # BURA_STANDARD, the family's default
    BURA_PAGAT = "pagat"
    BURA_RU_WIKI = "ruwiki"
    BURKOZEL = "bk"
    KOZEL = "kozel"  # Kozel for money (a pot of points, settled after 20 deals)
    KOZEL_POINTS = "kp"  # Kozel for points (after A. Tvaladze): the shokha, no instant wins, Буркозёл's penalties
    BURA_5 = "b5"


class MatchChoice(StrEnum):
    """How deals add up to a match (RULES §12); only Бура profiles let the table choose."""

    SMALL_ROBBER = "r11"  # ★ product default: first to 11 won deals with a lead of 2
    ROBBER = "r21"
    PENALTY_12 = "p12"
    SINGLE_DEAL = "one"


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
    Profile.KOZEL_POINTS: KOZEL_TVALADZE,
    Profile.BURA_5: BURA_5,
}

MATCH_MODELS: Final[dict[MatchChoice, MatchModel]] = {
    MatchChoice.SMALL_ROBBER: SMALL_ROBBER,
    MatchChoice.ROBBER: ROBBER,
    MatchChoice.PENALTY_12: PENALTY_12,
    MatchChoice.SINGLE_DEAL: SINGLE_DEAL,
}

KOZEL_DEALS: Final = 20  # S3: settle up after 20 deals
PENALTY_TABLES: Final = frozenset({Profile.BURKOZEL, Profile.KOZEL_POINTS})
# Буркозёл and Козёл на очки keep their penalty table (RULES §12.4), Козёл its pot of 20 deals: only Бура
# chooses the match.
FIXED_MATCH: Final = PENALTY_TABLES | {Profile.KOZEL}

MATCH: Final = Setting("match", tuple(choice.value for choice in MatchChoice), MatchChoice.SMALL_ROBBER.value)
DISCARDS: Final = Setting("discards", tuple(choice.value for choice in DiscardChoice), DiscardChoice.PROFILE.value)
CASUAL: Final = Setting("casual", ("0", "1"), "0")  # show captured points (strict rules hide them, RULES §6.7)

_Choice = TypeVar("_Choice", MatchChoice, DiscardChoice)


def profile_of(settings: TableSettings) -> Profile:
    """The rule set the settings choose (the family's default where they name none); ``ValueError`` for a game
    outside the family."""
    return Profile(settings.profile or Profile.BURA)


_PROFILE_NAMES: Final = {rules.name: profile for profile, rules in PROFILE_VARIANTS.items()}


def profile_of_variant(rules: Variant) -> Profile:
    """The rule set a match's variant was made from (its name survives the table's options)."""
    return _PROFILE_NAMES.get(rules.name, Profile.BURA)


def own_settings(settings: TableSettings) -> tuple[Setting, ...]:
    """What a table of the family may change: the match (where the rules leave it open), discards, casual."""
    if profile_of(settings) in FIXED_MATCH:
        return DISCARDS, CASUAL
    return MATCH, DISCARDS, CASUAL


def _choice(settings: TableSettings, setting: Setting, kind: type[_Choice]) -> _Choice:
    code = settings.option(setting.key, setting.default)
    return kind(code) if code in setting.choices else kind(setting.default)


def match_choice(settings: TableSettings) -> MatchChoice:
    return _choice(settings, MATCH, MatchChoice)


def discard_choice(settings: TableSettings) -> DiscardChoice:
    return _choice(settings, DISCARDS, DiscardChoice)


def casual(settings: TableSettings) -> bool:
    return settings.option(CASUAL.key, CASUAL.default) == "1"


def variant(settings: TableSettings) -> Variant:
    """The engine variant of these settings (built once per combination: every move renders with it);
    ``ValueError`` for a game outside the family."""
    return _variant(profile_of(settings), casual(settings), match_choice(settings), discard_choice(settings))


@functools.lru_cache(maxsize=256)
def _variant(profile: Profile, casual: bool, match: MatchChoice, discards: DiscardChoice) -> Variant:
    base = PROFILE_VARIANTS[profile]
    changes: dict[str, object] = {"hide_captured_points": not casual}
    if profile is Profile.KOZEL:
        changes["match"] = MatchModel(kind=MatchKind.POT, max_deals=KOZEL_DEALS)
    elif profile not in PENALTY_TABLES:  # Буркозёл and Козёл на очки keep their penalty table (RULES §12.4)
        changes["match"] = MATCH_MODELS[match]
    if discards is DiscardChoice.OPEN:
        changes["discards"] = Discards.OPEN
    elif discards is DiscardChoice.CLOSED and base.discards is Discards.OPEN:
        changes["discards"] = Discards.FACE_DOWN_OPTIONAL
    return base.with_options(**changes)
