"""What every change of a table shares: the per-table lock, the stored state, the outbox builders, the commit.

A change runs as: load the table -> check it (version, seat, stale or forged button) -> let the engine decide ->
build the outbox -> `Storage.commit_move` (state, events, outbox, timer and stats in ONE transaction, with the
update id so a redelivered update is applied once) -> `notify()` the sender. Services in this package (lobby,
game, timers) do the deciding; this module does the rest, so each of them is a short story.

The stored state of a playing table is `Match.to_json()` with one extra key, ``"table"``, that the engine ignores:
the table's settings, its title and the count of consecutive timeouts per seat (what the bot, not the rules, keeps).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.i18n import Translations, Translator, language_for_telegram
from bot.render.events import render_announcements
from bot.render.hand import render_hand
from bot.render.keyboard import Keyboard
from bot.render.table import render_table
from bot.services.computer import COMPUTER_SECONDS, out_of_turn_caller
from bot.storage import (
    Deadline,
    JsonObject,
    OutboxKind,
    OutboxMessage,
    Seat,
    StaleVersion,
    StatsDelta,
    Storage,
    Table,
    TableStatus,
    UpdateAlreadyProcessedError,
)
from bot.table_settings import TableSettings
from engine.cards import Card, Suit
from engine.combos import Combo
from engine.events import DealEnded, Event, MatchEnded, OutcomeKind
from engine.match import Match
from engine.views import public_view, view

logger = logging.getLogger(__name__)

Clock = Callable[[], float]
IsAdmin = Callable[[], Awaitable[bool]]
"""Asks Telegram whether the acting user administers the group; called only when the creator rule is not enough."""

TABLE_REF = "table"
AWAY_AFTER_TIMEOUTS = 3
AWAY_MOVE_SECONDS = 5
LOBBY_REF = "lobby"
LIVE_STATES = 5000  # tables whose last committed state is kept in memory (a few dozen KiB each)
_HANDLED: ContextVar[set[int] | None] = ContextVar("handled_update", default=None)


@contextmanager
def handling() -> Iterator[None]:
    """The handling of one update (a dispatcher middleware wraps each): see `TableCore.first_use`."""
    token = _HANDLED.set(set())
    try:
        yield
    finally:
        _HANDLED.reset(token)


def hand_ref(table_id: int) -> str:
    return f"hand:{table_id}"


def hand_message(table_id: int, user_id: int, kind: OutboxKind, payload: JsonObject | None = None) -> OutboxMessage:
    """A player's hand message in his private chat."""
    return live_message(user_id, hand_ref(table_id), f"hand:{table_id}:{user_id}", kind, payload)


def lobby_message(chat_id: int, kind: OutboxKind, payload: JsonObject | None = None) -> OutboxMessage:
    """The group's lobby message (the settings menu is shown in it too)."""
    return live_message(chat_id, LOBBY_REF, f"lobby:{chat_id}", kind, payload)


class Notifier(Protocol):
    """The sender, as a service sees it: told to look at the outbox after each commit."""

    def notify(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Reply:
    """How a handler answers the user: a toast or an alert on a tap, a text for a command, or a t.me link."""

    text: str | None = None
    alert: bool = False
    url: str | None = None


@dataclass(frozen=True, slots=True)
class Actor:
    """The Telegram user behind an update: id, display name (raw, escape it on output) and app language."""

    user_id: int
    name: str
    language_code: str | None = None


@dataclass(slots=True)
class TableState:
    """The engine's match plus what the bot keeps beside it; stored as one JSON text."""

    match: Match
    settings: TableSettings
    title: str
    timeouts: dict[int, int] = field(default_factory=dict)
    computers: frozenset[int] = frozenset()  # seats played by the computer (engine/ai.py)
    paused: bool = False  # the bot may not write in the group: no moves, no timer, until it may again

    def to_json(self) -> str:
        data = self.match.to_json()
        data["table"] = {
            "settings": self.settings.model_dump(mode="json"),
            "title": self.title,
            "timeouts": {str(seat): count for seat, count in self.timeouts.items() if count},
            "computers": sorted(self.computers),
            **({"paused": True} if self.paused else {}),
        }
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @staticmethod
    def settings_from_json(text: str) -> TableSettings:
        """Only the table's settings, without replaying the match."""
        return TableSettings.model_validate(json.loads(text).get("table", {}).get("settings", {}))

    @classmethod
    def from_json(cls, text: str) -> TableState:
        data = json.loads(text)
        extra: dict[str, Any] = data.get("table", {})
        return cls(
            match=Match.from_json(data),
            settings=TableSettings.model_validate(extra.get("settings", {})),
            title=str(extra.get("title", "")),
            timeouts={int(seat): int(count) for seat, count in extra.get("timeouts", {}).items()},
            computers=frozenset(int(seat) for seat in extra.get("computers", ())),
            paused=bool(extra.get("paused", False)),
        )


@dataclass(frozen=True, slots=True)
class Before:
    """What announcements need of the match as it was before a move."""

    trump: Suit
    scores: tuple[int, ...]

    @classmethod
    def of(cls, match: Match) -> Before:
        return cls(match.deal.trump, tuple(match.scores))


def seat_names(seats: Sequence[Seat]) -> dict[int, str]:
    """Seat -> the player's name as he chose it (raw: the renderers escape it, and so must any other caller)."""
    return {seat.seat: seat.name for seat in seats}


def seat_of(table: Table, user_id: int) -> int | None:
    return next((seat.seat for seat in table.seats if seat.user_id == user_id), None)


def stats_for(table: Table, match: Match, events: Sequence[Event]) -> list[StatsDelta]:
    """The tally a move earned: deals played and won, buras, false claims, matches played and won."""
    totals: dict[int, dict[str, int]] = {}

    def add(seat: int, column: str) -> None:
        user = next((s.user_id for s in table.seats if s.seat == seat), None)
        if user is not None:
            row = totals.setdefault(user, {})
            row[column] = row.get(column, 0) + 1

    for event in events:
        if isinstance(event, DealEnded):
            outcome = event.outcome
            winners = set(outcome.winners)
            if outcome.kind is OutcomeKind.FALSE_CLAIM and outcome.seat is not None:
                add(outcome.seat, "false_claims")
                claimant = match.side_of(outcome.seat)
                winners = {match.side_of(seat) for seat in outcome.seats} - {claimant}
            elif outcome.kind is OutcomeKind.FORFEIT and outcome.seat is not None:
                winners = {match.side_of(seat) for seat in outcome.seats} - {match.side_of(outcome.seat)}
            elif outcome.kind is OutcomeKind.VOID:
                winners = set()
            elif outcome.kind is OutcomeKind.PLAYED_OUT and len(winners) == len(
                {match.side_of(s) for s in outcome.seats}
            ):
                winners = set()  # a full tie wins nobody a deal
            for seat in outcome.seats:
                add(seat, "deals_played")
                if match.side_of(seat) in winners:
                    add(seat, "deals_won")
            if outcome.kind is OutcomeKind.WIN and outcome.combo is Combo.BURA and outcome.seat is not None:
                add(outcome.seat, "buras")
        elif isinstance(event, MatchEnded):
            for seat in range(match.players):
                add(seat, "matches_played")
                if match.side_of(seat) in event.winners:
                    add(seat, "matches_won")
    return [StatsDelta(chat_id=table.chat_id, user_id=user, **row) for user, row in totals.items()]


def event_to_json(event: Event) -> JsonObject:
    """An engine event as plain JSON for the table's event log: cards as codes, enums as values."""
    return {"type": type(event).__name__, **_plain(event)}


def _plain(value: object) -> Any:
    if isinstance(value, Card):
        return value.code
    if hasattr(value, "__dataclass_fields__"):
        return {name: _plain(getattr(value, name)) for name in value.__dataclass_fields__}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if hasattr(value, "value") and hasattr(value, "name"):  # an Enum
        return _plain(value.value)
    return value


def live_message(
    chat_id: int, ref: str, key: str, kind: OutboxKind = OutboxKind.EDIT, payload: JsonObject | None = None
) -> OutboxMessage:
    """A message kept in place under `ref` (the table, the lobby, a hand). Edits and deletes carry `key`, so a
    burst of them ends in the latest one; a send does not: it is never superseded, since the edits after it
    must find the message id it records."""
    return OutboxMessage(
        chat_id=chat_id,
        kind=kind,
        payload=payload or {},
        ref=ref,
        key=None if kind is OutboxKind.SEND else key,
    )


def format_clock(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def html_text(text: str, markup: Keyboard | None = None) -> JsonObject:
    payload: JsonObject = {"text": text, "parse_mode": "HTML"}
    if markup is not None:
        payload["reply_markup"] = dict(markup)
    return payload


@dataclass(slots=True)
class _Lock:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class TableCore:
    """The machinery under the lobby, game and timer services; one instance per bot process."""

    def __init__(
        self,
        repository: Storage,
        translations: Translations,
        sender: Notifier,
        *,
        clock: Clock = time.time,
        test_seed: str | None = None,
    ) -> None:
        self.repository = repository
        self.translations = translations
        self.sender = sender
        self.clock = clock
        self.test_seed = test_seed
        self._locks: dict[int, _Lock] = {}
        self._live: dict[int, tuple[int, TableState]] = {}  # table id -> (version, its state), oldest first

    @staticmethod
    def first_use(update_id: int | None) -> int | None:
        """The update id to record with a write: while an update is handled (`handling`), its first write
        records it as processed, in that write's own transaction, and the later writes of the same handling
        carry none (they would be refused as a redelivery). Outside a handling every write carries it."""
        used = _HANDLED.get()
        if update_id is None or used is None:
            return update_id
        if update_id in used:
            return None
        used.add(update_id)
        return update_id

    # -- locking and loading -------------------------------------------------------------------------------

    @asynccontextmanager
    async def locked(self, table_id: int) -> AsyncIterator[None]:
        """Serialize the changes of one table (moves, taps, timers) in this process. A lock lives while someone
        holds it or waits for it: taps on a thousand tables (or forged ids) leave none behind."""
        entry = self._locks.get(table_id)
        if entry is None:
            entry = self._locks[table_id] = _Lock()
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if not entry.users:
                del self._locks[table_id]

    def load_state(self, table: Table) -> TableState:
        """The state of a table at its version, for a change made under the table's lock.

        Replaying a match from its log costs a millisecond or more, so the state committed last is kept in
        memory. It is taken out while a change is being made: a change that fails half-way leaves nothing behind,
        and the next one reads the database. A state is only ever used at the version it was committed with.
        """
        if table.state is None:
            raise ValueError(f"table {table.table_id} has no game state")
        live = self._live.pop(table.table_id, None)
        if live is not None and live[0] == table.version:
            return live[1]
        return TableState.from_json(table.state)

    def keep_state(self, table: Table, state: TableState) -> None:
        """Put back the state of a playing table: unchanged by a read, or just committed at `table.version`."""
        self._live.pop(table.table_id, None)
        if table.status is not TableStatus.PLAYING:
            return
        self._live[table.table_id] = (table.version, state)
        if len(self._live) > LIVE_STATES:
            del self._live[next(iter(self._live))]  # the table idle longest

    async def chat_translator(self, chat_id: int) -> Translator:
        chat = await self.repository.get_chat(chat_id)
        return self.translations.get(chat.language if chat else None)

    def actor_translator(self, actor: Actor) -> Translator:
        return self.translations.for_telegram_language(actor.language_code)

    async def remember(self, actor: Actor) -> None:
        """Keep the user's name and language fresh (they are shown at the table and used in private chats)."""
        language = language_for_telegram(actor.language_code, self.translations.default_language)
        await self.repository.upsert_user(actor.user_id, actor.name, language=language)

    async def chat_settings(self, chat_id: int) -> TableSettings:
        chat = await self.repository.get_chat(chat_id)
        if chat is None:
            return TableSettings(language=self.translations.default_language)
        language = chat.language or self.translations.default_language
        return TableSettings.model_validate({"language": language, **chat.settings})

    # -- outbox builders -----------------------------------------------------------------------------------

    def table_message(self, table: Table, state: TableState, tr: Translator, *, new: bool = False) -> OutboxMessage:
        """The group's live table message: edited in place; `new` sends it (the first picture of a table)."""
        seconds = self.move_seconds(state)  # what this turn has: a computer's or an away player's turn is short
        text = render_table(
            public_view(state.match),
            seat_names(table.seats),
            tr,
            title=state.title,
            settings=state.settings,
            deadline_text=format_clock(seconds) if seconds is not None else None,
        )
        kind = OutboxKind.SEND if new else OutboxKind.EDIT
        return live_message(table.chat_id, TABLE_REF, f"table:{table.chat_id}", kind, html_text(text))

    async def hand_messages(
        self,
        table: Table,
        state: TableState,
        version: int,
        *,
        new: bool = False,
        only: int | None = None,
        selection: tuple[Card, ...] = (),
    ) -> list[OutboxMessage]:
        """Each player's hand message in the private chat (or only one seat's, with a selection)."""
        messages = []
        names = seat_names(table.seats)
        for seat in table.seats:
            if seat.user_id is None or (only is not None and seat.seat != only):
                continue
            user = await self.repository.get_user(seat.user_id)
            if user is not None and user.blocked:
                continue  # a 403 would only report him again; he gets his hand back when he restarts the bot
            tr = self.translations.get(user.language if user else None)
            text, markup = render_hand(
                view(state.match, seat.seat),
                names,
                tr,
                table_id=table.table_id,
                move=version,
                title=state.title,
                selection=selection,
                paused=state.paused,
            )
            payload = html_text(text, markup)
            kind = OutboxKind.SEND if new else OutboxKind.EDIT
            messages.append(hand_message(table.table_id, seat.user_id, kind, payload))
        return messages

    def announcements(
        self,
        table: Table,
        state: TableState,
        events: Sequence[Event],
        tr: Translator,
        before: Before | None = None,
    ) -> list[OutboxMessage]:
        """Calls, deal and match results as new group messages (they deserve a notification, UX.md).

        `before` is the match as it was before the move: its deal's trump (a move may end the deal and deal the
        next) and its scores (so the deal's result shows what it changed); None for the first deal.
        """
        texts = render_announcements(
            events,
            seat_names(table.seats),
            tr,
            trump=before.trump if before else state.match.deal.trump,
            teams=state.match.teams,
            settings=state.settings,
            scores_before=before.scores if before else None,
        )
        return [self.text_message(table.chat_id, text) for text in texts if text]

    @staticmethod
    def text_message(chat_id: int, text: str) -> OutboxMessage:
        return OutboxMessage(chat_id=chat_id, kind=OutboxKind.SEND, payload=html_text(text))

    # -- committing ----------------------------------------------------------------------------------------

    async def commit(
        self,
        table: Table,
        *,
        state: TableState | None = None,
        events: Sequence[Event] = (),
        outbox: Sequence[OutboxMessage] = (),
        update_id: int | None = None,
        status: TableStatus | None = None,
        seats: Sequence[Seat] | None = None,
        deadline: Deadline | None = None,
        stats: Sequence[StatsDelta] = (),
    ) -> Table | None:
        """Commit one change; None when it was not applied (a redelivered update, or the table moved on)."""
        try:
            committed = await self.repository.commit_move(
                table.table_id,
                table.version,
                state.to_json() if state is not None else None,
                [event_to_json(event) for event in events],
                outbox,
                self.first_use(update_id),
                status=status,
                seats=seats,
                deadline=deadline,
                stats=stats,
            )
        except UpdateAlreadyProcessedError:
            logger.info("table %s: update %s was applied before", table.table_id, update_id)
            return None
        except StaleVersion as error:
            logger.info("table %s: %s", table.table_id, error)
            return None
        if state is not None:
            self.keep_state(committed, state)
        self.sender.notify()
        return committed

    async def enqueue(self, outbox: Sequence[OutboxMessage], update_id: int | None = None) -> bool:
        """Queue messages that change no table (a reply, a re-rendered hand); False for a redelivered update."""
        try:
            await self.repository.enqueue(outbox, self.first_use(update_id))
        except UpdateAlreadyProcessedError:
            return False
        self.sender.notify()
        return True

    def deadline(self, table: Table, state: TableState) -> Deadline | None:
        """When the player to act times out: the move timer, shorter for a player who is away (RULES: none;
        ours: three timeouts in a row and the bot plays for him at once until he taps again). It counts from when
        his hand, showing that it is his turn, reaches his chat (a delivery held up costs him nothing)."""
        seat = state.match.to_act()
        if seat is not None and seat in state.computers:
            return Deadline(seconds=COMPUTER_SECONDS)  # the timer service lets the computer move
        if out_of_turn_caller(state.match, state.computers) is not None:
            return Deadline(seconds=COMPUTER_SECONDS)  # a computer decides on «Стоп!» (GameService.timeout)
        seconds = self.move_seconds(state)
        if seconds is None or seat is None:
            return None
        user_id = next((s.user_id for s in table.seats if s.seat == seat), None)
        shown_in = (user_id, hand_ref(table.table_id)) if user_id is not None else None
        return Deadline(seconds=seconds, shown_in=shown_in)

    @staticmethod
    def move_seconds(state: TableState) -> int | None:
        """The time the person to act has for his move: the table's move timer, a few seconds when he is away;
        None when nobody is timed (no timer, a computer to act, the match over)."""
        seconds = state.settings.move_seconds
        seat = state.match.to_act()
        if not seconds or seat is None or seat in state.computers:
            return None
        if state.timeouts.get(seat, 0) >= AWAY_AFTER_TIMEOUTS:
            return min(seconds, AWAY_MOVE_SECONDS)
        return seconds

    @staticmethod
    def stats(table: Table, match: Match, events: Sequence[Event]) -> list[StatsDelta]:
        return stats_for(table, match, events)

    def new_seed(self) -> str:
        return self.test_seed if self.test_seed is not None else secrets.token_hex(16)
