"""A playing table's state: the engine's match and what the bot keeps beside it, as one JSON text; the events log.

The stored state of a playing table is its match's `to_json()` with two extra keys that the engine ignores:
``"game"``, the game it plays (its adapter in `bot.games`; none stored means Bura), and ``"table"``, the table's
settings, its title, the count of consecutive timeouts per seat and what each seat's hand shows (what the bot, not
the rules, keeps).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeAlias

from bot.games.base import ActionT, EventT, GameAdapter, MatchT, MomentT, move_seconds
from bot.games.registry import DEFAULT_GAME, game_named
from bot.storage import JsonObject, Seat, Table
from bot.table_settings import TableSettings

AWAY_AFTER_TIMEOUTS = 3
AWAY_MOVE_SECONDS = 5


@dataclass(frozen=True, slots=True)
class Shown:
    """A seat's hand as the last commit that changed it drew it: the move its buttons name (the seat's view
    version) and a digest of it without the story lines (what just happened is told once, and stays until the
    hand changes)."""

    move: int
    digest: str


@dataclass(slots=True)
class TableState(Generic[MatchT, ActionT, EventT, MomentT]):
    """The engine's match plus what the bot keeps beside it; stored as one JSON text. Typed by its game: the
    adapter and the match travel together, so a service that takes a state binds the game's types once."""

    game: GameAdapter[MatchT, ActionT, EventT, MomentT]  # which game the match is
    match: MatchT
    settings: TableSettings
    title: str
    timeouts: dict[int, int] = field(default_factory=dict)
    computers: frozenset[int] = frozenset()  # seats played by the computer
    paused: bool = False  # the bot may not write in the group: no moves, no timer, until it may again
    shown: dict[int, Shown] = field(default_factory=dict)  # seat -> what its hand shows (`MoveMessages.hands`)
    in_group: frozenset[int] = frozenset()  # seats whose player asked for his hand in the group too (to him alone)

    def shown_move(self, seat: int, version: int) -> int:
        """The move a seat's hand buttons name: the last commit that changed his hand; the table's `version` for a
        state stored before seats kept their own (its buttons named the table's version)."""
        shown = self.shown.get(seat)
        return shown.move if shown is not None else version

    def move_seconds(self) -> int | None:
        """The time the person to act has for his move: the table's move timer, a few seconds when he is away;
        None when nobody is timed (no timer, a computer to act, the match over)."""
        seconds = move_seconds(self.game, self.settings)
        seat = self.match.to_act()
        if not seconds or seat is None or seat in self.computers:
            return None
        if self.timeouts.get(seat, 0) >= AWAY_AFTER_TIMEOUTS:
            return min(seconds, AWAY_MOVE_SECONDS)
        return seconds

    def to_json(self) -> str:
        data = self.match.to_json()
        data["game"] = self.game.key
        data["table"] = {
            "settings": self.settings.model_dump(mode="json"),
            "title": self.title,
            "timeouts": {str(seat): count for seat, count in self.timeouts.items() if count},
            "computers": sorted(self.computers),
            **({"paused": True} if self.paused else {}),
            "shown": {str(seat): [shown.move, shown.digest] for seat, shown in sorted(self.shown.items())},
            **({"in_group": sorted(self.in_group)} if self.in_group else {}),
        }
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @staticmethod
    def settings_from_json(text: str) -> TableSettings:
        """Only the table's settings, without replaying the match."""
        return TableSettings.model_validate(json.loads(text).get("table", {}).get("settings", {}))

    @staticmethod
    def from_json(text: str) -> AnyState:
        """A stored state, whichever game it plays: the stored ``"game"`` picks the adapter (none: Bura)."""
        data = json.loads(text)
        extra: JsonObject = data.get("table", {})
        game = game_named(str(data.get("game", DEFAULT_GAME)))
        return TableState(
            game=game,
            match=game.load(data),
            settings=TableSettings.model_validate(extra.get("settings", {})),
            title=str(extra.get("title", "")),
            timeouts={int(seat): int(count) for seat, count in extra.get("timeouts", {}).items()},
            computers=frozenset(int(seat) for seat in extra.get("computers", ())),
            paused=bool(extra.get("paused", False)),
            shown={int(seat): Shown(int(move), str(digest)) for seat, (move, digest) in extra.get("shown", {}).items()},
            in_group=frozenset(int(seat) for seat in extra.get("in_group", ())),
        )


AnyState: TypeAlias = TableState[Any, Any, Any, Any]
"""A table's state as storage gives it back: which game it plays is known at run time only (the one place the
game's types cannot be named; a service binds them by taking the state as ``TableState[M, A, E, W]``)."""


def seat_names(seats: Sequence[Seat]) -> dict[int, str]:
    """Seat -> the player's name as he chose it (raw: the renderers escape it, and so must any other caller)."""
    return {seat.seat: seat.name for seat in seats}


def seat_of(table: Table, user_id: int) -> int | None:
    return next((seat.seat for seat in table.seats if seat.user_id == user_id), None)


def is_private(table: Table) -> bool:
    """A table in a private chat: a game against the computer, the chat being table and hand (/play)."""
    return table.chat_id > 0


def event_to_json(event: object) -> JsonObject:
    """An engine event as plain JSON for the table's event log: cards as codes, enums as values."""
    return {"type": type(event).__name__, **_plain(event)}


def _plain(value: object) -> Any:
    code = getattr(value, "code", None)
    if isinstance(code, str):  # a card of any game
        return code
    if hasattr(value, "__dataclass_fields__"):
        return {name: _plain(getattr(value, name)) for name in value.__dataclass_fields__}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if hasattr(value, "value") and hasattr(value, "name"):  # an Enum
        return _plain(value.value)
    return value
