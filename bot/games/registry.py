"""The games the lobby offers, by the key a table's stored state names its game with."""

from __future__ import annotations

from typing import Any, Final, TypeAlias

from bot.games.base import GameAdapter
from bot.games.bura.game import BURA
from bot.games.buraco.game import BURACO
from bot.table_settings import Profile, TableSettings

AnyGame: TypeAlias = GameAdapter[Any, Any, Any, Any]
"""A game looked up by its key or a table's settings: its types are known at run time only (see ``AnyState``)."""

# The lobby's list of games: each adapter names the entries of ``Profile`` it plays.
GAMES: Final[dict[str, AnyGame]] = {BURA.key: BURA, BURACO.key: BURACO}
DEFAULT_GAME: Final = BURA.key  # tables stored before a second game came were all Bura
_BY_PROFILE: Final[dict[Profile, AnyGame]] = {profile: game for game in GAMES.values() for profile in game.profiles}


def game_named(key: str) -> AnyGame:
    """The adapter of a stored table's game; ``KeyError`` for a game this bot does not host."""
    return GAMES[key]


def game_for(settings: TableSettings) -> AnyGame:
    """The adapter of the game a table's settings choose."""
    return _BY_PROFILE[settings.profile]
