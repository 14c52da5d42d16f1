"""Очко's table settings: the three profiles of RULES §20.17 and the choices a table may make besides (the
starting stack, the banker's draw rule [O07], two aces [O03], the dark card [O06], «стук» [O08] and the length of
the session), each with its ★ default first; and the engine ``Options`` they make."""

from __future__ import annotations

import functools
from enum import StrEnum
from typing import Final

from bot.games.base import Setting
from bot.table_settings import TableSettings
from engine.ochko.variant import (
    OCHKO_ONE_SHOWDOWN,
    OCHKO_POLISH,
    OCHKO_STANDARD,
    BankerDraw,
    KnockRule,
    Options,
    TwoAces,
)


class Profile(StrEnum):
    """The profiles of RULES §20.17 (``TableSettings.profile``); the first is the game's default."""

    STANDARD = "ochko"  # OCHKO_STANDARD: every ★ default
    POLISH = "oczko"  # OCHKO_POLISH: five pictures, the banker's 15/17, the breaker banks next
    SHOWDOWN = "ochko1"  # OCHKO_ONE_SHOWDOWN: the banker plays once after everyone, any 21 paid at once


PROFILE_OPTIONS: Final[dict[Profile, Options]] = {
    Profile.STANDARD: OCHKO_STANDARD,
    Profile.POLISH: OCHKO_POLISH,
    Profile.SHOWDOWN: OCHKO_ONE_SHOWDOWN,
}

STACKS: Final = ("100", "50", "200", "500")  # §20.3: ★ 100 chips each
BANKS: Final = ("1", "2", "0")  # the session: ★ one orbit of banks (Ruling 17), two, unlimited
DARK: Final = ("1", "0")  # [O06] ★ on
DRAW_CHOICES: Final = tuple(rule.value for rule in BankerDraw)
ACES_CHOICES: Final = tuple(rule.value for rule in TwoAces)
KNOCK_CHOICES: Final = tuple(rule.value for rule in KnockRule)

STACK_KEY, DRAW_KEY, ACES_KEY, DARK_KEY, KNOCK_KEY, BANKS_KEY = "stack", "draw", "aces", "dark", "knock", "banks"


def profile_of(settings: TableSettings) -> Profile:
    """The profile the settings choose (the standard one where they name none); ``ValueError`` for another
    game's."""
    return Profile(settings.profile or Profile.STANDARD)


def _first(default: str, choices: tuple[str, ...]) -> tuple[str, ...]:
    """The menu's order: the profile's own default first (★), the rest as declared."""
    return (default, *(choice for choice in choices if choice != default))


def own_settings(settings: TableSettings) -> tuple[Setting, ...]:
    """What a table may change, with the profile's own rules as the defaults."""
    base = PROFILE_OPTIONS[profile_of(settings)]
    return (
        Setting(STACK_KEY, STACKS, STACKS[0]),
        Setting(DRAW_KEY, _first(base.banker_draw.value, DRAW_CHOICES), base.banker_draw.value),
        Setting(ACES_KEY, _first(base.two_aces.value, ACES_CHOICES), base.two_aces.value),
        Setting(DARK_KEY, DARK, "1" if base.dark else "0"),
        Setting(KNOCK_KEY, _first(base.knock.value, KNOCK_CHOICES), base.knock.value),
        Setting(BANKS_KEY, BANKS, BANKS[0]),
    )


def chosen(settings: TableSettings) -> dict[str, str]:
    """Each own setting's code: the table's choice where it is one of the setting's, else the default."""
    codes = {}
    for setting in own_settings(settings):
        code = settings.option(setting.key, setting.default)
        codes[setting.key] = code if code in setting.choices else setting.default
    return codes


def options_for(settings: TableSettings, players: int) -> Options:
    """The engine's options of these settings at a table of ``players``."""
    codes = chosen(settings)
    return _options(profile_of(settings), players, *(codes[key] for key in _KEYS))


_KEYS: Final = (STACK_KEY, DRAW_KEY, ACES_KEY, DARK_KEY, KNOCK_KEY, BANKS_KEY)


@functools.lru_cache(maxsize=256)
def _options(
    profile: Profile, players: int, stack: str, draw: str, aces: str, dark: str, knock: str, banks: str
) -> Options:
    base = PROFILE_OPTIONS[profile]
    orbits = int(banks)
    return base.with_options(
        stack=int(stack),
        banker_draw=BankerDraw(draw),
        two_aces=TwoAces(aces),
        dark=dark == "1",
        knock=KnockRule(knock),
        max_banks=None if orbits == 1 else orbits * players,  # None: one orbit (Ruling 17); 0: unlimited
    )
