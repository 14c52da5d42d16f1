"""What the bot asks of a game: the adapter protocol every game under ``bot/games/`` implements.

The services hold a table's match with the table's adapter (``TableState``) and hand the match back to the
adapter for everything that depends on the rules: rendering the table, a hand and the events, turning a hand
button into a ``Move``, the move the timer makes, a computer's decision and the stats a move earned. So lobby,
services, storage, outbox, timers and sender never name a game.

The protocol is generic over the game's match, action, event and moment types: an adapter is typed with its own
engine's classes (no downcasts), and a service that takes a table's state binds them once, so an action one game
made can only be applied to that game's match. The one place that cannot know them is a state read back from
storage (``bot.services.state.AnyState``): the stored ``"game"`` key picks the adapter at run time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any, Generic, Protocol, TypeAlias, TypeVar

from bot.games.board import Board
from bot.i18n import Translator
from bot.render.keyboard import Keyboard
from bot.storage import JsonObject, StatsDelta, Table
from bot.table_settings import DEFAULT_MOVE_SECONDS, TIMER_KEY, ComputerLevel, TableSettings
from engine.core.fair import FairShuffle
from engine.core.match import Match

ActionT = TypeVar("ActionT")
ActionT_co = TypeVar("ActionT_co", covariant=True)
EventT = TypeVar("EventT")
MatchT = TypeVar("MatchT", bound="Match[Any, Any]")  # any game's match: the services ask it who is to act
MomentT = TypeVar("MomentT", bound="Moment")


class Waiting(StrEnum):
    """What the game waits for from a seat (``GameAdapter.waiting_for``)."""

    MOVE = "move"  # his turn
    CALL = "call"  # he may act out of turn (Bura's «Стоп!»)


Waits = frozenset[tuple[int, Waiting]]


@dataclass(frozen=True, slots=True)
class Setting:
    """One of a game's own table settings: its key in the menu (``SettingCb``, ``setting-<key>-<code>`` in the
    game's locales), its codes in the menu's order, and the code of a table that never chose."""

    key: str
    choices: tuple[str, ...]
    default: str


class Quiet(str):
    """An announcement the group reads without a ring (a canastra made mid-deal): news, not a call to the table.
    A plain ``str`` from ``GameAdapter.announcements`` rings."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class HandStory:
    """What a hand tells beyond the cards: lines of what just happened (a move the timer made, the deal just
    ended and the match score), the table above them (a game in a private chat), a refusal for the marks."""

    notes: Sequence[str] = ()
    table_text: str | None = None
    refusal: Enum | None = None


class Moment(Protocol):
    """The match as it was before a move, as far as the move's messages need it (each game keeps its own)."""

    @property
    def waiting(self) -> Waits:
        """What the game waited for, seat by seat (see ``GameAdapter.waiting_for``)."""
        ...


@dataclass(frozen=True, slots=True)
class Move(Generic[ActionT_co]):
    """A tap (or the timer, or a computer) plays these actions, in order, in one commit: one action mostly, a
    whole plan where one button lays several cards (Buraco's meld). A plan was checked in full on a copy first,
    so it plays through."""

    actions: tuple[ActionT_co, ...]


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
class Refused:
    """A tap the rules refuse: the engine's machine-readable reason, which the bot translates."""

    reason: Enum


Tap = Move[ActionT] | Redraw | Refused


@dataclass(frozen=True, slots=True)
class Standing:
    """How a finished match ended for its sides: each side's seats (one for a player alone, two for a
    partnership) and its place, 1 the best; equal places tie (issue 38: ratings by placing)."""

    sides: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Decision(Generic[ActionT_co]):
    """A computer's decision as a plain function of plain data (so a worker process can make it); ``heavy``
    decisions (a search) are made away from the event loop."""

    decide: Callable[..., ActionT_co]
    args: tuple[object, ...]
    heavy: bool


def declared_default(game: AnyGame, settings: TableSettings, key: str) -> str | None:
    """The default a game declares for a setting every table has (an own setting of that key), None if it
    declares none: the shared setting's own default then holds."""
    return next((own.default for own in game.own_settings(settings) if own.key == key), None)


def move_seconds(game: AnyGame, settings: TableSettings) -> int:
    """A table's move timer: its choice, else its game's default, else the house's (0: none)."""
    declared = declared_default(game, settings, TIMER_KEY)
    return settings.seconds(DEFAULT_MOVE_SECONDS if declared is None else int(declared))


def apply_all(match: Match[ActionT, EventT], actions: Sequence[ActionT]) -> list[EventT]:
    """Apply actions one after another; the events of them all. ``IllegalAction`` leaves a half-played match
    that the caller must not keep."""
    events: list[EventT] = []
    for action in actions:
        events += match.apply(action)
    return events


class GameAdapter(Protocol[MatchT, ActionT, EventT, MomentT]):
    """One game at the table: its match, action, event and moment types."""

    key: str  # stored with the table's state ("bura", "buraco")
    reasons: tuple[type[Enum], ...]  # every refusal its taps and hands may show (``reason-<value>`` in the locales)
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

    def new_match(self, settings: TableSettings, players: int, seed: str, fair: FairShuffle | None = None) -> MatchT:
        """A match dealt by ``seed``, or by the verifiable shuffle ``fair`` (issue 38, docs/fairness.md)."""
        ...

    def load(self, data: JsonObject) -> MatchT: ...

    def start_events(self, match: MatchT) -> Sequence[EventT]: ...

    # -- what the messages of a move need -------------------------------------------------------------------

    def before(self, match: MatchT) -> MomentT: ...

    def new_deal(self, before: MomentT, match: MatchT) -> bool:
        """Did the move since ``before`` start another deal?"""
        ...

    def deal_number(self, match: MatchT) -> int:
        """The deal being played (or the last one played), counted from 1."""
        ...

    def waiting_for(self, match: MatchT) -> Waits:
        """``(seat, MOVE)`` for the one to act, ``(seat, CALL)`` for one who may act out of turn: a seat is
        pinged (his hand sent anew, so it rings) for each new one."""
        ...

    def play(self, match: MatchT, actions: Sequence[ActionT]) -> list[EventT]:
        """Apply a move's actions (``apply_all`` over the game's own match)."""
        ...

    def table_text(
        self,
        match: MatchT,
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
        match: MatchT,
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

    def board(
        self,
        match: MatchT,
        seat: int | None,
        names: Mapping[int, str],
        tr: Translator,
        *,
        table_id: int,
        move: int,
        selection: str,
        paused: bool,
        confirm: bool,
        refusal: Enum | None,
    ) -> Board:
        """The table as the Mini App draws it for ``seat`` (None: a spectator, the public view): its hand and
        moves exactly as ``hand`` would show them with these arguments (the same ``HandCb`` data), see
        ``bot/games/board.py``."""
        ...

    def announcements(
        self,
        match: MatchT,
        events: Sequence[EventT],
        names: Mapping[int, str],
        tr: Translator,
        *,
        settings: TableSettings,
        before: MomentT | None,
    ) -> list[str]:
        """The group's new messages for a move's events (calls, deal and match results); a ``Quiet`` one does not
        ring."""
        ...

    def deal_story(
        self,
        match: MatchT,
        events: Sequence[EventT],
        names: Mapping[int, str],
        tr: Translator,
        *,
        settings: TableSettings,
        before: MomentT | None,
    ) -> list[str]:
        """The lines a hand tells of a move in a group game (the deal just ended and the match score)."""
        ...

    def stale_reason(self, match: MatchT, seat: int, names: Mapping[int, str], tr: Translator) -> str | None:
        """Why a tap of ``seat`` on an old keyboard went stale, when an opponent's call made it so («Борис
        говорит «Стоп!» и забирает ход»), as plain text for an alert; None: the generic stale line."""
        ...

    def score_lines(
        self, match: MatchT, names: Mapping[int, str], settings: TableSettings, tr: Translator
    ) -> list[str]:
        """/score: the match as the table counts it."""
        ...

    def summary(self, match: MatchT) -> JsonObject:
        """What /history keeps of a match as it ended (or was stopped): the game's own plain data, for
        ``summary_text``, written once in the last commit of its table."""
        ...

    def summary_text(
        self, summary: JsonObject, names: Mapping[int, str], settings: TableSettings, tr: Translator
    ) -> str:
        """/history's line of a match's score, from what ``summary`` kept (the match itself is gone by then)."""
        ...

    # -- the verifiable shuffle (issue 38, docs/fairness.md) ---------------------------------------------------

    def fair(self, match: MatchT) -> FairShuffle | None:
        """The shuffle the match is dealt by (it holds the server's secret: never show it); None for a match
        dealt by its seed alone (every match before issue 38)."""
        ...

    def fair_deal(self, match: MatchT) -> int:
        """The fair number k of the deal on the table, or the last one dealt (a redeal counts as a deal)."""
        ...

    def fair_over(self, match: MatchT) -> int:
        """How many fair deals are over: those before the one on the table, and that one too once the match is."""
        ...

    def fair_export(self, match: MatchT, through: int) -> JsonObject:
        """The verifier's JSON of the match (``python -m engine.verify``), seeds revealed through deal ``through``."""
        ...

    # -- moves -----------------------------------------------------------------------------------------------

    def tap(self, match: MatchT, seat: int, op: str, payload: str) -> Tap[ActionT]:
        """What a hand button means (``op`` and ``payload`` as ``HandCb`` carries them, read by the game's own
        button codec): a ``Move``, a ``Redraw``, or the engine's refusal; ``ValueError`` for data no button of
        ours carries."""
        ...

    def auto_action(self, match: MatchT, seat: int) -> ActionT | None:
        """The move the timer makes for a player who let it run out."""
        ...

    def continues(self, match: MatchT, seat: int, action: ActionT) -> bool:
        """After the timer's or a computer's ``action``, does the same turn go on in the same commit (Buraco's
        melds and discard after the draw)? One commit a turn is one edit of the group's table."""
        ...

    def forfeit(self, match: MatchT, seat: int) -> Sequence[EventT] | None:
        """A player away three times in a row loses the deal, where the game has such a ruling (None: it
        has not, and the timer goes on playing for him)."""
        ...

    def played_text(self, actions: Sequence[ActionT], tr: Translator) -> str:
        """What a turn the timer played did, in a few words."""
        ...

    def out_of_turn_caller(self, match: MatchT, computers: frozenset[int]) -> int | None:
        """A computer seat, not the one to act, that may act now out of turn."""
        ...

    def decision(self, match: MatchT, seat: int, level: ComputerLevel, seed: str) -> Decision[ActionT]: ...

    def stats(self, table: Table, match: MatchT, events: Sequence[EventT]) -> list[StatsDelta]: ...

    def standing(self, match: MatchT) -> Standing | None:
        """The final standing of a finished match (None while it goes on): what ratings are computed from."""
        ...

    def replay(self, match: MatchT, deal: int, seat: int, names: Mapping[int, str], tr: Translator) -> list[str] | None:
        """«Как это было»: deal ``deal`` (counted from 1, as ``deal_number`` counts) replayed as ``seat`` saw it, as
        the texts of private messages (HTML, each at most 4096 characters); None when that deal is not over or
        ``seat`` did not play in it."""
        ...


class FairMatch(Protocol):
    """A match dealt, or not, by the verifiable shuffle, as every engine's match of ours is (docs/fairness.md)."""

    fair: FairShuffle | None
    finished: bool

    @property
    def fair_deal(self) -> int: ...

    def fair_export(self, through: int | None = None) -> dict[str, Any]: ...


class FairlyDealt:
    """The fairness part of ``GameAdapter`` for a game whose match is a ``FairMatch``: its adapter inherits it."""

    def fair(self, match: FairMatch) -> FairShuffle | None:
        return match.fair

    def fair_deal(self, match: FairMatch) -> int:
        return match.fair_deal

    def fair_over(self, match: FairMatch) -> int:
        return match.fair_deal if match.finished else match.fair_deal - 1

    def fair_export(self, match: FairMatch, through: int) -> JsonObject:
        return match.fair_export(through=through)


def ended_deal(
    game: GameAdapter[MatchT, ActionT, EventT, MomentT], match: MatchT, before: MomentT | None
) -> int | None:
    """The deal (counted as ``deal_number`` counts) that a move's announcements end: the match's last one when the
    match is over, the one before when the move dealt a new one (``before`` None: the start, where a deal may end
    as it is dealt); None when the move ended no deal."""
    number = game.deal_number(match)
    if match.finished:
        return number
    if before is None:
        return number - 1 if number > 1 else None
    return number - 1 if game.new_deal(before, match) and number > 1 else None


def revealed_by(
    game: GameAdapter[MatchT, ActionT, EventT, MomentT], match: MatchT, before: MomentT | None
) -> int | None:
    """The fair deal whose seed a move's announcements reveal: the last one over, when the move ended it (a new
    deal dealt, the match over, or a deal that ended as it was dealt at the start); None when it ended none, or
    the match is not dealt by the fair shuffle. Its seed reveals the seeds of every deal before it (by hashing)."""
    over = game.fair_over(match)
    if game.fair(match) is None or over < 1:
        return None
    if before is None or game.new_deal(before, match) or over == game.fair_deal(match):
        return over
    return None


def reveal_line(
    game: GameAdapter[MatchT, ActionT, EventT, MomentT], match: MatchT, before: MomentT | None, tr: Translator
) -> str | None:
    """«🔐 Сид сдачи 3: 1a2b…» under a deal's result: the seed of the deal just over, short, and how to see it
    in full (/verify 3). Never the next deal's: it is that deal's commitment, and the seed of the one after."""
    deal = revealed_by(game, match, before)
    fair = game.fair(match)
    if deal is None or fair is None:
        return None
    return tr.t("fair-reveal", deal=deal, seed=short_hex(fair.seed(deal)))


def with_reveal(texts: list[str], line: str | None) -> list[str]:
    """The announcements with the reveal line under the last one (the deal's or the match's result), in its
    message: a ``Quiet`` one stays quiet."""
    if line is None:
        return texts
    if not texts:
        return [line]
    last = texts[-1]
    joined = f"{last}\n{line}"
    return [*texts[:-1], Quiet(joined) if isinstance(last, Quiet) else joined]


SHORT_HEX = 16  # a seed or a commitment as the table shows it: its first 16 hex digits, /verify has the rest


def short_hex(value: str) -> str:
    return f"{value[:SHORT_HEX]}…"


AnyGame: TypeAlias = GameAdapter[Any, Any, Any, Any]
"""A game looked up by its key or a table's settings: its types are known at run time only (see ``AnyState``)."""
