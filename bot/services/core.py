"""What every change of a table shares: the per-table lock, the stored state, the outbox builders, the commit.

A change runs as: load the table -> check it (version, seat, stale or forged button) -> let the engine decide ->
build the outbox -> `Storage.commit_move` (state, events, outbox, timer and stats in ONE transaction, with the
update id so a redelivered update is applied once) -> `notify()` the sender. Services in this package (lobby,
game, timers) do the deciding; this module does the rest, so each of them is a short story.

The stored state of a playing table is its match's `to_json()` with two extra keys that the engine ignores:
``"game"``, the game it plays (its adapter in `bot.games`; none stored means Bura), and ``"table"``, the table's
settings, its title, the count of consecutive timeouts per seat and what each seat's hand shows (what the bot, not
the rules, keeps).

A commit edits only the hands it changes (issue 35, "no side channels"): a hand edited out of nowhere would tell
its player that another seat did something he cannot see (declined «Стоп!», laid a hidden draft). So each seat's
hand buttons name the move that last changed that seat's hand (`Shown`), not the table's version, and stay valid
across the moves he cannot see.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from typing import Any, Protocol

from bot.games.base import GameAdapter, HandStory, Moment
from bot.games.registry import DEFAULT_GAME, game_named
from bot.i18n import Translations, Translator, language_for_telegram
from bot.render.keyboard import Keyboard, LinkKeyboard
from bot.services.computer import COMPUTER_SECONDS
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
    payload_digest,
)
from bot.table_settings import TableSettings
from engine.core.game import Game

logger = logging.getLogger(__name__)

Clock = Callable[[], float]
IsAdmin = Callable[[], Awaitable[bool]]
"""Asks Telegram whether the acting user administers the group; called only when the creator rule is not enough.
Never awaited under a table's lock: the answer comes from Telegram (cached briefly, bot/telegram/members.py)."""
IsMember = Callable[[int], Awaitable[bool | None]]
"""Asks Telegram whether the acting user is a member of the group ``chat_id`` (None: it could not tell now)."""

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
    """The sender, as a service sees it: told to look at the outbox after each commit (the chats it queued
    messages for; None: every chat)."""

    def notify(self, chats: Collection[int] | None = None) -> None: ...


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


@dataclass(frozen=True, slots=True)
class Shown:
    """A seat's hand as the last commit that changed it drew it: the move its buttons name (the seat's view
    version) and a digest of it without the story lines (what just happened is told once, and stays until the
    hand changes)."""

    move: int
    digest: str


@dataclass(slots=True)
class TableState:
    """The engine's match plus what the bot keeps beside it; stored as one JSON text."""

    match: Game
    settings: TableSettings
    title: str
    timeouts: dict[int, int] = field(default_factory=dict)
    computers: frozenset[int] = frozenset()  # seats played by the computer
    paused: bool = False  # the bot may not write in the group: no moves, no timer, until it may again
    game: GameAdapter = field(default_factory=lambda: game_named(DEFAULT_GAME))  # which game the match is
    shown: dict[int, Shown] = field(default_factory=dict)  # seat -> what its hand shows (`TableCore.hand_messages`)

    def shown_move(self, seat: int, version: int) -> int:
        """The move a seat's hand buttons name: the last commit that changed his hand; the table's `version` for a
        state stored before seats kept their own (its buttons named the table's version)."""
        shown = self.shown.get(seat)
        return shown.move if shown is not None else version

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
        game = game_named(str(data.get("game", DEFAULT_GAME)))
        return cls(
            game=game,
            match=game.load(data),
            settings=TableSettings.model_validate(extra.get("settings", {})),
            title=str(extra.get("title", "")),
            timeouts={int(seat): int(count) for seat, count in extra.get("timeouts", {}).items()},
            computers=frozenset(int(seat) for seat in extra.get("computers", ())),
            paused=bool(extra.get("paused", False)),
            shown={int(seat): Shown(int(move), str(digest)) for seat, (move, digest) in extra.get("shown", {}).items()},
        )


def seat_names(seats: Sequence[Seat]) -> dict[int, str]:
    """Seat -> the player's name as he chose it (raw: the renderers escape it, and so must any other caller)."""
    return {seat.seat: seat.name for seat in seats}


def seat_of(table: Table, user_id: int) -> int | None:
    return next((seat.seat for seat in table.seats if seat.user_id == user_id), None)


def event_to_json(event: Any) -> JsonObject:
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


def html_text(
    text: str,
    markup: Keyboard | LinkKeyboard | None = None,
    *,
    thread_id: int | None = None,
    silent: bool = False,
    protect: bool = False,
) -> JsonObject:
    """A message's Bot API parameters. `thread_id`: its forum topic; `silent`: it does not ring (a new message
    does, an edit never does); `protect`: it cannot be forwarded (a hand is for its holder only). The sender
    leaves out of an edit what only a send takes."""
    payload: JsonObject = {"text": text, "parse_mode": "HTML"}
    if markup is not None:
        payload["reply_markup"] = dict(markup)
    if thread_id is not None:
        payload["message_thread_id"] = thread_id
    if silent:
        payload["disable_notification"] = True
    if protect:
        payload["protect_content"] = True
    return payload


def is_private(table: Table) -> bool:
    """A table in a private chat: a game against the computer, the chat being table and hand (/play)."""
    return table.chat_id > 0


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
        invite_key: bytes | None = None,
        time_scale: float = 1.0,
    ) -> None:
        self.repository = repository
        self.translations = translations
        self.sender = sender
        self.clock = clock
        self.test_seed = test_seed
        self.invite_key = invite_key if invite_key is not None else secrets.token_bytes(32)
        """Signs the tables' invitations (`bot.services.invites`); every instance of one bot needs the same."""
        self.time_scale = time_scale
        """Real seconds a second of the game's clock lasts (TIME_SCALE): a deadline's seconds are the game's,
        its timer runs this much faster; whatever a player reads stays in the game's seconds."""
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

    def table_text(self, table: Table, state: TableState, tr: Translator, *, ended: str | None = None) -> str:
        """The table as its live message shows it; `ended` says how a table that will not go on ended."""
        seconds = self.move_seconds(state)  # what this turn has: a computer's or an away player's turn is short
        return state.game.table_text(
            state.match,
            seat_names(table.seats),
            tr,
            title=state.title,
            settings=state.settings,
            deadline_text=format_clock(seconds) if seconds is not None and ended is None else None,
            ended=ended,
        )

    def table_message(
        self, table: Table, state: TableState, tr: Translator, *, new: bool = False, ended: str | None = None
    ) -> list[OutboxMessage]:
        """The group's live table message: edited in place; `new` sends it (the first picture of a table), and
        pins it silently. None in a private chat, where the hand message carries the table (a game against the
        computer: one message, one edit a turn)."""
        if is_private(table):
            return []
        text = self.table_text(table, state, tr, ended=ended)
        payload = html_text(text, thread_id=table.thread_id, silent=True)
        if not new:
            return [live_message(table.chat_id, TABLE_REF, f"table:{table.chat_id}", OutboxKind.EDIT, payload)]
        sent = live_message(table.chat_id, TABLE_REF, f"table:{table.chat_id}", OutboxKind.SEND, payload)
        return [sent, OutboxMessage(chat_id=table.chat_id, kind=OutboxKind.PIN, ref=TABLE_REF)]

    def unpin_table(self, table: Table) -> list[OutboxMessage]:
        """The table is over: it is no longer pinned."""
        if is_private(table):
            return []
        return [OutboxMessage(chat_id=table.chat_id, kind=OutboxKind.UNPIN, ref=TABLE_REF)]

    async def hand_messages(
        self,
        table: Table,
        state: TableState,
        version: int | None,
        *,
        new: bool = False,
        only: int | None = None,
        selection: str = "",
        ping: Collection[int] = (),
        stories: Callable[[int, Translator], Sequence[str]] | None = None,
        confirm: bool = False,
        refusal: Enum | None = None,
        ended: str | None = None,
    ) -> list[OutboxMessage]:
        """Each player's hand message in the private chat (or only one seat's, with a selection).

        `version` is the move being committed. A seat whose hand it changes gets the hand with buttons naming it,
        and the state records that (`TableState.shown`). A seat whose hand would look as the last commit drew
        it (the same text and keyboard, buttons naming the same move) gets nothing: no edit out of nowhere tells
        him that someone did what he cannot see, and the cards he marked stay marked (issue 35). None: a hand
        drawn again between commits (a tap's marks, 🔄, a reminder), its buttons naming the seat's own move.

        The seats in `ping` get their hand sent anew at the bottom of the chat, so that the phone rings (an edit
        is silent); the old one is deleted. `stories` gives each seat the lines of what just happened (a callable
        renders them in the player's language); they are news, so the hand is sent. In a game against the
        computer the hand carries the table.
        """
        messages = []
        private = is_private(table)
        for seat in table.seats:
            if seat.user_id is None or (only is not None and seat.seat != only):
                continue
            user = await self.repository.get_user(seat.user_id)
            if user is not None and user.blocked:
                if version is not None:
                    state.shown[seat.seat] = Shown(version, "")  # what his chat shows is unknown: drawn anew later
                continue  # a 403 would only report him again; he gets his hand back when he restarts the bot
            tr = self.translations.get(user.language if user else None)
            table_text = self.table_text(table, state, tr, ended=ended) if private else None
            draw = partial(
                self._hand_payload,
                table,
                state,
                seat.seat,
                tr,
                table_text=table_text,
                selection=selection,
                confirm=confirm,
                refusal=refusal,
                ended=ended,
            )
            notes = stories(seat.seat, tr) if stories is not None else ()
            if version is None:
                shown = draw(state.shown_move(seat.seat, table.version), notes)
            else:
                before = state.shown.get(seat.seat)
                drawn = new or seat.seat in ping or ended is not None or bool(notes) or before is None
                if not drawn and before is not None and payload_digest(draw(before.move, ())) == before.digest:
                    continue  # his hand is as it was: nothing to tell him
                shown = draw(version, notes)
                digest = payload_digest(draw(version, ()) if notes else shown)
                state.shown[seat.seat] = Shown(version, digest)
            resend = new or seat.seat in ping
            message = hand_message(table.table_id, seat.user_id, OutboxKind.SEND if resend else OutboxKind.EDIT, shown)
            if resend and not new:
                # It replaces the live hand, and a pending edit of it (its key) would only delay the ring.
                key = hand_message(table.table_id, seat.user_id, OutboxKind.EDIT).key
                message = message.model_copy(update={"replaces": True, "key": key})
            messages.append(message)
        return messages

    @staticmethod
    def _hand_payload(
        table: Table,
        state: TableState,
        seat: int,
        tr: Translator,
        move: int,
        notes: Sequence[str],
        *,
        table_text: str | None,
        selection: str,
        confirm: bool,
        refusal: Enum | None,
        ended: str | None,
    ) -> JsonObject:
        """One seat's hand message, its buttons naming `move`."""
        text, markup = state.game.hand(
            state.match,
            seat,
            seat_names(table.seats),
            tr,
            table_id=table.table_id,
            move=move,
            title=state.title,
            selection=selection,
            paused=state.paused,
            confirm=confirm,
            story=HandStory(notes=notes, table_text=table_text, refusal=refusal),
        )
        if ended is not None and not is_private(table):
            text = f"{text}\n\n{ended}"
        return html_text(text, None if ended is not None else markup, protect=True)  # over: nothing to tap

    def announcements(
        self,
        table: Table,
        state: TableState,
        events: Sequence[Any],
        tr: Translator,
        before: Moment | None = None,
    ) -> list[OutboxMessage]:
        """Calls, deal and match results as new group messages (they deserve a notification, UX.md); in a
        private game the hand message tells them instead (`story`).

        `before` is the match as it was before the move: its scores (so the deal's result shows what it changed)
        and its deal (what ended it is shown with the result, as the game tells it); None for the first deal.
        """
        if is_private(table):
            return []
        texts = state.game.announcements(
            state.match, events, seat_names(table.seats), tr, settings=state.settings, before=before
        )
        return [self.text_message(table.chat_id, text, thread_id=table.thread_id) for text in texts if text]

    def story(
        self, table: Table, state: TableState, events: Sequence[Any], before: Moment | None
    ) -> Callable[[int, Translator], list[str]]:
        """What each player's hand tells of a move (in his language): the deal just ended and the match score, as
        the game tells them; in a private game also what the group would have been told."""
        names = seat_names(table.seats)
        private = is_private(table)
        rendered: dict[str, list[str]] = {}

        game, match, settings = state.game, state.match, state.settings

        def lines(seat: int, tr: Translator) -> list[str]:
            if tr.language not in rendered:
                if private:
                    texts = game.announcements(match, events, names, tr, settings=settings, before=before)
                    rendered[tr.language] = [line for text in texts for line in text.split("\n")]
                else:
                    rendered[tr.language] = game.deal_story(match, events, names, tr, settings=settings, before=before)
            return rendered[tr.language]

        return lines

    @staticmethod
    def text_message(
        chat_id: int,
        text: str,
        *,
        thread_id: int | None = None,
        silent: bool = False,
        reply_to: int | None = None,
        markup: Keyboard | LinkKeyboard | None = None,
    ) -> OutboxMessage:
        """A new message: it rings (unless `silent`); in a forum topic with `thread_id`, a reply with `reply_to`."""
        payload = html_text(text, markup, thread_id=thread_id, silent=silent)
        if reply_to is not None:
            payload["reply_parameters"] = {"message_id": reply_to, "allow_sending_without_reply": True}
        return OutboxMessage(chat_id=chat_id, kind=OutboxKind.SEND, payload=payload)

    # -- committing ----------------------------------------------------------------------------------------

    async def commit(
        self,
        table: Table,
        *,
        state: TableState | None = None,
        events: Sequence[Any] = (),
        outbox: Sequence[OutboxMessage] = (),
        update_id: int | None = None,
        status: TableStatus | None = None,
        seats: Sequence[Seat] | None = None,
        deadline: Deadline | None = None,
        stats: Sequence[StatsDelta] = (),
    ) -> Table | None:
        """Commit one change; None when it was not applied (a redelivered update, or the table moved on)."""
        if deadline is not None and self.time_scale != 1.0:
            deadline = deadline.model_copy(update={"seconds": deadline.seconds * self.time_scale})
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
        self.sender.notify({message.chat_id for message in outbox})
        return committed

    async def enqueue(self, outbox: Sequence[OutboxMessage], update_id: int | None = None) -> bool:
        """Queue messages that change no table (a reply, a re-rendered hand); False for a redelivered update."""
        try:
            await self.repository.enqueue(outbox, self.first_use(update_id))
        except UpdateAlreadyProcessedError:
            return False
        self.sender.notify({message.chat_id for message in outbox})
        return True

    def deadline(self, table: Table, state: TableState) -> Deadline | None:
        """When the player to act times out: the move timer, shorter for a player who is away (RULES: none;
        ours: three timeouts in a row and the bot plays for him at once until he taps again). It counts from when
        his hand, showing that it is his turn, reaches his chat (a delivery held up costs him nothing)."""
        seat = state.match.to_act()
        if seat is not None and seat in state.computers:
            return Deadline(seconds=COMPUTER_SECONDS)  # the timer service lets the computer move
        if state.game.out_of_turn_caller(state.match, state.computers) is not None:
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
    def stats(table: Table, state: TableState, events: Sequence[Any]) -> list[StatsDelta]:
        return state.game.stats(table, state.match, events)

    def new_seed(self) -> str:
        return self.test_seed if self.test_seed is not None else secrets.token_hex(16)
