"""The games the lobby offers, by the key a table's stored state names its game with."""

from __future__ import annotations

from typing import Final

from bot.games.base import GameAdapter
from bot.games.bura.game import BURA
from bot.games.buraco.game import BURACO
from bot.table_settings import TableSettings

GAMES: Final[dict[str, GameAdapter]] = {BURA.key: BURA, BURACO.key: BURACO}
DEFAULT_GAME: Final = BURA.key  # tables stored before a second game came were all Bura


def game_named(key: str) -> GameAdapter:
    """The adapter of a stored table's game; ``KeyError`` for a game this bot does not host."""
    return GAMES[key]


def game_for(settings: TableSettings) -> GameAdapter:
    """The adapter of the game a table's settings choose (the lobby's list of games is ``Profile``)."""
    return GAMES[settings.game]
