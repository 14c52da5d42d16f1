"""The games the lobby offers, by the key a table's stored state names its game with."""

from __future__ import annotations

from typing import Final

from bot.games.base import AnyGame
from bot.games.bura.game import BURA
from bot.games.buraco.game import BURACO
from bot.games.ochko.game import OCHKO
from bot.table_settings import TableSettings

# The lobby's list of games: each adapter names the rules (profiles) it plays.
GAMES: Final[dict[str, AnyGame]] = {BURA.key: BURA, BURACO.key: BURACO, OCHKO.key: OCHKO}
DEFAULT_GAME: Final = BURA.key  # tables stored before a second game came were all Bura
# Every profile the lobby offers, in the menu's order: game by game, each in its own order.
PROFILES: Final[tuple[str, ...]] = tuple(profile for game in GAMES.values() for profile in game.profiles)
_BY_PROFILE: Final[dict[str, AnyGame]] = {profile: game for game in GAMES.values() for profile in game.profiles}


def game_named(key: str) -> AnyGame:
    """The adapter of a stored table's game; ``KeyError`` for a game this bot does not host."""
    return GAMES[key]


def profile_of(settings: TableSettings) -> str:
    """The profile a table's settings play: theirs, or the default game's first where they name none."""
    return settings.profile or GAMES[DEFAULT_GAME].profiles[0]


def game_for(settings: TableSettings) -> AnyGame:
    """The adapter of the game a table's settings choose; ``KeyError`` for rules this bot does not host."""
    return _BY_PROFILE[profile_of(settings)]
