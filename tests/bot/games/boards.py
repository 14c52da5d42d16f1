"""A game's board and its hand keyboard drawn for one seat at one fixed table and move: what every board test
compares (bot/games/board.py: the board's taps are the keyboard's buttons)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

from bot.games.base import AnyGame, HandStory
from bot.games.board import Board
from bot.i18n import Translator
from bot.render.keyboard import Keyboard

TABLE_ID, MOVE = 2_000_000_000, 9_999_999  # the largest a button carries: the data stays within 64 bytes


def board_of(
    game: AnyGame,
    match: Any,
    seat: int | None,
    names: Mapping[int, str],
    tr: Translator,
    *,
    selection: str = "",
    paused: bool = False,
    confirm: bool = False,
    refusal: Enum | None = None,
) -> Board:
    return game.board(
        match,
        seat,
        names,
        tr,
        table_id=TABLE_ID,
        move=MOVE,
        selection=selection,
        paused=paused,
        confirm=confirm,
        refusal=refusal,
    )


def keyboard_of(
    game: AnyGame,
    match: Any,
    seat: int,
    names: Mapping[int, str],
    tr: Translator,
    *,
    selection: str = "",
    paused: bool = False,
    confirm: bool = False,
    refusal: Enum | None = None,
) -> Keyboard:
    """The hand's keyboard, as the private chat gets it with the same arguments."""
    _, markup = game.hand(
        match,
        seat,
        names,
        tr,
        table_id=TABLE_ID,
        move=MOVE,
        title="Друзья",
        selection=selection,
        paused=paused,
        confirm=confirm,
        story=HandStory(refusal=refusal),
    )
    return markup
