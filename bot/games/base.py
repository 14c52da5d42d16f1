"""What the bot asks of a game: the adapter protocol every game under ``bot/games/`` implements.

The services hold a table's match as the engine's ``Game`` (``engine.core.game``) and hand it back to the
table's adapter for everything that depends on the rules: rendering the table, a hand and the events, turning a
hand button into an action, the move the timer makes, a computer's decision and the stats a move earned. So
lobby, services, storage, outbox, timers and sender never name a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from bot.i18n import Translator
from bot.render.keyboard import Keyboard
from bot.storage import StatsDelta, Table
from bot.table_settings import ComputerLevel, TableSettings
from engine.core.game import Game


@dataclass(frozen=True, slots=True)
class Setting:
    """One of a game's own table settings: its key in the menu (``SettingCb``, ``setting-<key>-<code>`` in the
    game's locales), its codes in the menu's order, and the code of a table that never chose."""

    key: str
    choices: tuple[str, ...]
    default: str


@dataclass(frozen=True, slots=True)
class HandStory:
    """What a hand tells beyond the cards: lines of what just happened (a move the timer made, the deal just
    ended and the match score), the table above them (a game in a private chat), a refusal for the marks."""

    notes: Sequence[str] = ()
    table_text: str | None = None
    refusal: Enum | None = None


class Moment(Protocol):
    """The match as it was before a move, as far as the move's messages need it."""

    @property
    def waiting(self) -> frozenset[tuple[int, str]]:
        """What the game waited for, seat by seat (see ``GameAdapter.waiting_for``)."""
        ...

    def new_deal(self, match: Game) -> bool:
        """Did the move start another deal?"""
        ...


@dataclass(frozen=True, slots=True)
class Redraw:
    """A tap that makes no move: the tapper's hand is drawn again with ``selection`` (packed as the button
    carries it), the engine's ``refusal`` for marks that make no move, ``confirm`` a move that asks first, and
    ``resend`` it anew at the bottom of the chat (🔄)."""

    selection: str = ""
    refusal: Enum | None = None
    confirm: bool = False
    resend: bool = False


@dataclass(frozen=True, slots=True)
class Decision:
    """A computer's decision as a plain function of plain data (so a worker process can make it); ``heavy``
    decisions (a search) are made away from the event loop."""

    decide: Callable[..., Any]
    args: tuple[Any, ...]
    heavy: bool


class GameAdapter(Protocol):
    """One game at the table."""

    key: str  # stored with the table's state ("bura", "buraco")
    profiles: tuple[str, ...]  # the rules the lobby offers that this game plays ("bura", "bk"; the first: its default)

    # -- the lobby -------------------------------------------------------------------------------------------

    def seats(self, settings: TableSettings) -> int | None:
        """A game played at a fixed number of seats, computers in those nobody takes; None where the table
        plays with whoever sits."""
        ...

    def player_range(self, settings: TableSettings) -> tuple[int, int]:
        """How many may sit: (at least, at most); computers count."""
        ...

    def own_settings(self, settings: TableSettings) -> tuple[Setting, ...]:
        """The game's own settings a table of these rules may change (the rest it leaves to its rules), in the
        menu's order; each one's code is ``settings.option(key, default)``."""
        ...

    def rules_parts(self, settings: TableSettings, tr: Translator) -> list[str]:
        """The lobby's line of rules, but for the move timer: "Бура (классика), 3 карты, до 31", "матч до 11"."""
        ...

    def help_text(self, settings: TableSettings, tr: Translator) -> str:
        """/help: how the table's game is played (the commands follow it)."""
        ...

    def new_match(self, settings: TableSettings, players: int, seed: str) -> Game: ...

    def load(self, data: dict[str, Any]) -> Game: ...

    def start_events(self, match: Game) -> Sequence[Any]: ...

    # -- what the messages of a move need -------------------------------------------------------------------

    def before(self, match: Game) -> Moment: ...

    def waiting_for(self, match: Game) -> frozenset[tuple[int, str]]:
        """``(seat, "move")`` for the one to act, ``(seat, "call")`` for one who may act out of turn: a seat is
        pinged (his hand sent anew, so it rings) for each new one."""
        ...

    def table_text(
        self,
        match: Game,
        names: Mapping[int, str],
        tr: Translator,
        *,
        title: str,
        settings: TableSettings,
        deadline_text: str | None,
        ended: str | None,
    ) -> str: ...

    def hand(
        self,
        match: Game,
        seat: int,
        names: Mapping[int, str],
        tr: Translator,
        *,
        table_id: int,
        move: int,
        title: str,
        selection: str,
        paused: bool,
        confirm: bool,
        story: HandStory,
    ) -> tuple[str, Keyboard]: ...

    def announcements(
        self,
        match: Game,
        events: Sequence[Any],
        names: Mapping[int, str],
        tr: Translator,
        *,
        settings: TableSettings,
        before: Moment | None,
    ) -> list[str]:
        """The group's new messages for a move's events (calls, deal and match results)."""
        ...

    def deal_story(
        self,
        match: Game,
        events: Sequence[Any],
        names: Mapping[int, str],
        tr: Translator,
        *,
        settings: TableSettings,
        before: Moment | None,
    ) -> list[str]:
        """The lines a hand tells of a move in a group game (the deal just ended and the match score)."""
        ...

    def score_lines(self, match: Game, names: Mapping[int, str], settings: TableSettings, tr: Translator) -> list[str]:
        """/score: the match as the table counts it."""
        ...

    # -- moves -----------------------------------------------------------------------------------------------

    def tap(self, match: Game, seat: int, op: str, cards: str) -> Any:
        """What a hand button means: an engine action to apply, a ``Redraw``, or the engine's refusal (an Enum);
        ``ValueError`` for data no button of ours carries."""
        ...

    def auto_action(self, match: Game, seat: int) -> Any | None:
        """The move the timer makes for a player who let it run out."""
        ...

    def continues(self, match: Game, seat: int, action: Any) -> bool:
        """After the timer's or a computer's ``action``, does the same turn go on in the same commit (Buraco's
        melds and discard after the draw)? One commit a turn is one edit of the group's table."""
        ...

    def forfeit(self, match: Game, seat: int) -> Sequence[Any] | None:
        """A player away three times in a row loses the deal, where the game has such a ruling (None: it
        has not, and the timer goes on playing for him)."""
        ...

    def played_text(self, action: Any, tr: Translator) -> str: ...

    def out_of_turn_caller(self, match: Game, computers: frozenset[int]) -> int | None:
        """A computer seat, not the one to act, that may act now out of turn."""
        ...

    def decision(self, match: Game, seat: int, level: ComputerLevel, seed: str) -> Decision: ...

    def stats(self, table: Table, match: Game, events: Sequence[Any]) -> list[StatsDelta]: ...
