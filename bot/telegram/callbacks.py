"""Callback data of every inline button: typed aiogram factories, short prefixes, within 64 bytes.

Every button names its table and the table's move number (version), so the service rejects stale, forged and
foreign taps instead of trusting them (STYLE: bot/ rule 4). The hand keyboard is stateless: a card button
carries the selection that tapping it would make, and an action button carries the selection it plays, so a
restart loses no selection and the server keeps no UI state.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Any, Final

from aiogram.filters.callback_data import CallbackData
from pydantic import BeforeValidator, Field

from bot.storage import MAX_ID

MAX_CALLBACK_BYTES = 64
_ASCII_NUMBER = re.compile(r"0|[1-9][0-9]{0,18}")


def parse_id(text: str) -> int | None:
    """A table id or a move number from a button or a start payload: ASCII digits only (``"²".isdigit()`` and
    ``int("٣")`` both accept what no button of ours carries), written as we write them (no leading zero, sign or
    space: ``h:02:…`` is not table 2), within what the database holds; else None."""
    if not _ASCII_NUMBER.fullmatch(text):
        return None
    number = int(text)
    return number if number <= MAX_ID else None


def _strict_id(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value  # built by our own code; the range check below still applies
    number = parse_id(value) if isinstance(value, str) else None
    if number is None:
        raise ValueError("not a number of ours")
    return number


Id = Annotated[int, BeforeValidator(_strict_id), Field(ge=0, le=MAX_ID)]
"""An integer of callback data: forged data (10^40, -1, non-ASCII digits) fails to unpack, so the button matches
no handler and is answered as stale, before it reaches the storage."""


class LobbyOp(StrEnum):
    JOIN = "j"
    LEAVE = "l"
    START = "s"
    SETTINGS = "o"
    CANCEL = "c"
    ADD_COMPUTER = "a"
    REMOVE_COMPUTER = "r"
    REMOVE_PLAYER = "k"  # the creator's (or an admin's) list of the seated people, to remove one


class LobbyCb(CallbackData, prefix="l"):
    """A lobby button: ``l:<op>:<table>``."""

    op: LobbyOp
    table: Id


class RemoveCb(CallbackData, prefix="k"):
    """The creator (or an admin) removes a seated person from the lobby: ``k:<table>:<user>``."""

    table: Id
    user: Id


class SettingCb(CallbackData, prefix="s"):
    """A settings button: ``s:<table>:<key>:<value>`` (keys and values are short codes)."""

    table: Id
    key: str
    value: str


class PlayCb(CallbackData, prefix="p"):
    """«🤖 Сыграть с компьютером» under the /start greeting: ``p:``, as /play."""


class ForgetOp(StrEnum):
    CONFIRM = "y"
    CANCEL = "n"


class ForgetCb(CallbackData, prefix="f"):
    """/forget's ✅ and Отмена: ``f:<op>:<user>``, bound to the user who asked; the service refuses anyone
    else's tap (bot/services/privacy.py)."""

    op: ForgetOp
    user: Id


class RematchCb(CallbackData, prefix="m"):
    """«Ещё матч» under a match's end: ``m:<table>``, the finished table whose players it seats again; the service
    refuses it once another table was played in the chat since."""

    table: Id


class ReplayCb(CallbackData, prefix="r"):
    """«🔎 Как это было» under a deal's result: ``r:<table>:<deal>``; the service sends that deal, as the tapper saw
    it, to his private chat, and refuses anyone who did not play it."""

    table: Id
    deal: Id


class GameOp(StrEnum):
    NEW = "n"  # in a group: open that game's lobby, as /new <game>
    RULES = "r"  # in the private chat: that game's rules, as /rules


class GameCb(CallbackData, prefix="g"):
    """A game chosen by its button (the group greeting, /rules in private): ``g:<op>:<profile>``; the service
    refuses a profile the bot does not host."""

    op: GameOp
    profile: str


class MyCardsCb(CallbackData, prefix="e"):
    """«🃏 Мои карты» under a group's table: ``e:<table>``; the service shows the tapper his own hand there, to him
    alone, and refuses anyone not seated at that table of that group."""

    table: Id

    @staticmethod
    def data(table: int) -> str:
        """``MyCardsCb(table=...).pack()`` without building the model: the table's picture carries it and is drawn
        at every commit of a group's table (tests/bot/test_callbacks.py holds the two to the same text)."""
        return f"e:{table}"


REFRESH: Final = "r"  # every game's hand has 🔄: re-send the hand (after a restart or a lost message)


class HandCb(CallbackData, prefix="h"):
    """A hand button: ``h:<table>:<move>:<op>:<cards>``. ``move`` is the last move that changed its holder's hand
    (his view version, `TableState.shown_move`), not the table's: a move he cannot see leaves his buttons valid
    (issue 35). ``op`` is one of the table's game's (a letter); ``cards`` is what the game packs, e.g. card codes
    joined (``QS7S``). The game reads both."""

    table: Id
    move: Id
    op: Annotated[str, Field(pattern=r"^[a-z]$")]
    cards: str = ""

    @staticmethod
    def data(table: int, move: int, op: str, cards: str = "") -> str:
        """``HandCb(...).pack()`` without building the model: a hand has a dozen buttons and is redrawn after
        every tap (tests/bot/test_callbacks.py holds the two to the same text and to the 64-byte limit)."""
        return f"h:{table}:{move}:{op}:{cards}"
