"""The games the lobby offers, by the key a table's stored state names its game with."""

from __future__ import annotations

from typing import Final

from bot.games.base import GameAdapter
from bot.games.bura.game import BURA

GAMES: Final[dict[str, GameAdapter]] = {BURA.key: BURA}
DEFAULT_GAME: Final = BURA.key  # tables stored before a second game came were all Bura


def game_named(key: str) -> GameAdapter:
    """The adapter of a stored table's game; ``KeyError`` for a game this bot does not host."""
    return GAMES[key]
