"""What every change of a table shares: the commit, with the idempotency of updates, and the move's deadline.

A change runs as: take the table under its lock (`LiveTables.table`: the table and its state) -> check it (version,
seat, stale or forged button) -> let the engine decide -> build the outbox (`bot.services.messages`) ->
`TableCore.commit` (state, events, outbox, timer and stats in ONE transaction, with the update id so a redelivered
update is applied once) -> `notify()` the sender. Services in this package (lobby, game, timers) do the deciding;
`TableCore` holds what they share, so each of them is a short story.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Protocol

from bot.games.base import ActionT, EventT, MatchT, MomentT
from bot.i18n import Translations, Translator, language_for_telegram
from bot.services.computer import COMPUTER_SECONDS
from bot.services.context import Actor
from bot.services.live import LiveTables
from bot.services.messages import MoveMessages, hand_ref
from bot.services.state import AnyState, TableState, event_to_json
from bot.storage import (
    Deadline,
    JsonObject,
    OutboxMessage,
    RatingUpdate,
    Seat,
    StaleVersion,
    StatsDelta,
    Storage,
    Table,
    TableStatus,
    UpdateAlreadyProcessedError,
)
from bot.table_settings import TableSettings

if TYPE_CHECKING:
    from bot.webapp.links import MiniAppLinks

logger = logging.getLogger(__name__)

Clock = Callable[[], float]
_HANDLED: ContextVar[set[int] | None] = ContextVar("handled_update", default=None)


@contextmanager
def handling() -> Iterator[None]:
    """The handling of one update (a dispatcher middleware wraps each): see `first_use`."""
    token = _HANDLED.set(set())
    try:
        yield
    finally:
        _HANDLED.reset(token)


def first_use(update_id: int | None) -> int | None:
    """The update id to record with a write: while an update is handled (`handling`), its first write records it
    as processed, in that write's own transaction, and the later writes of the same handling carry none (they
    would be refused as a redelivery). Outside a handling every write carries it."""
    used = _HANDLED.get()
    if update_id is None or used is None:
        return update_id
    if update_id in used:
        return None
    used.add(update_id)
    return update_id


class Notifier(Protocol):
    """The sender, as a service sees it: told to look at the outbox after each commit (the chats it queued
    messages for; None: every chat)."""

    def notify(self, chats: Collection[int] | None = None) -> None: ...


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
        mini_app: MiniAppLinks | None = None,
    ) -> None:
        self.repository = repository
        self.translations = translations
        self.sender = sender
        self.clock = clock
        self.test_seed = test_seed
        self.invite_key = invite_key if invite_key is not None else secrets.token_bytes(32)
        """Signs the tables' invitations (`bot.services.invites`); every instance of one bot needs the same."""
        self.live = LiveTables(repository)
        """The tables' locks and their states: `async with core.live.table(table_id) as held` begins a change."""
        self.messages = MoveMessages(repository, translations, mini_app)
        self.time_scale = time_scale
        """Real seconds a second of the game's clock lasts (TIME_SCALE): a deadline's seconds are the game's,
        its timer runs this much faster; whatever a player reads stays in the game's seconds."""

    # -- who reads -----------------------------------------------------------------------------------------

    async def chat_translator(self, chat_id: int) -> Translator:
        chat = await self.repository.get_chat(chat_id)
        return self.translations.get(chat.language if chat else None)

    def actor_translator(self, actor: Actor) -> Translator:
        return self.translations.for_telegram_language(actor.language_code)

    async def remember(self, actor: Actor, *, started: bool = False) -> None:
        """Keep the user's name and language fresh (they are shown at the table and used in private chats);
        `started`: he opened the private chat with the bot (/start, /play), so hands can be dealt there."""
        language = language_for_telegram(actor.language_code, self.translations.default_language)
        await self.repository.upsert_user(actor.user_id, actor.name, language=language)
        if started:
            await self.repository.set_user_started(actor.user_id)
            await self.repository.set_user_blocked(actor.user_id, False)

    async def chat_settings(self, chat_id: int) -> TableSettings:
        chat = await self.repository.get_chat(chat_id)
        if chat is None:
            return TableSettings(language=self.translations.default_language)
        language = chat.language or self.translations.default_language
        return TableSettings.model_validate({"language": language, **chat.settings})

    # -- committing ----------------------------------------------------------------------------------------

    async def commit(
        self,
        table: Table,
        *,
        state: AnyState | None = None,
        events: Sequence[object] = (),
        outbox: Sequence[OutboxMessage] = (),
        update_id: int | None = None,
        status: TableStatus | None = None,
        seats: Sequence[Seat] | None = None,
        deadline: Deadline | None = None,
        stats: Sequence[StatsDelta] = (),
        ratings: Sequence[RatingUpdate] = (),
        result: JsonObject | None = None,
        chat_settings: JsonObject | None = None,
        chat_language: str | None = None,
    ) -> Table | None:
        """Commit one change; None when it was not applied (a redelivered update, or the table moved on). The
        chat's settings and language, when given, are set with it (a lobby's settings are its group's)."""
        self.live.committing(table.table_id)
        if deadline is not None and self.time_scale != 1.0:
            deadline = deadline.model_copy(update={"seconds": deadline.seconds * self.time_scale})
        try:
            committed = await self.repository.commit_move(
                table.table_id,
                table.version,
                state.to_json() if state is not None else None,
                [event_to_json(event) for event in events],
                outbox,
                first_use(update_id),
                status=status,
                seats=seats,
                deadline=deadline,
                stats=stats,
                ratings=ratings,
                result=result,
                chat_settings=chat_settings,
                chat_language=chat_language,
            )
        except UpdateAlreadyProcessedError:
            logger.info("table %s: update %s was applied before", table.table_id, update_id)
            return None
        except StaleVersion as error:
            logger.info("table %s: %s", table.table_id, error)
            return None
        if state is not None:
            self.live.keep(committed, state)
        self.sender.notify({message.chat_id for message in outbox})
        return committed

    async def enqueue(self, outbox: Sequence[OutboxMessage], update_id: int | None = None) -> bool:
        """Queue messages that change no table (a reply, a re-rendered hand); False for a redelivered update."""
        try:
            await self.repository.enqueue(outbox, first_use(update_id))
        except UpdateAlreadyProcessedError:
            return False
        self.sender.notify({message.chat_id for message in outbox})
        return True

    @staticmethod
    def deadline(table: Table, state: AnyState) -> Deadline | None:
        """When the player to act times out: the move timer, shorter for a player who is away (RULES: none;
        ours: three timeouts in a row and the bot plays for him at once until he taps again). It counts from when
        his hand, showing that it is his turn, reaches his chat (a delivery held up costs him nothing)."""
        seat = state.match.to_act()
        if seat is not None and seat in state.computers:
            return Deadline(seconds=COMPUTER_SECONDS)  # the timer service lets the computer move
        if state.game.out_of_turn_caller(state.match, state.computers) is not None:
            return Deadline(seconds=COMPUTER_SECONDS)  # a computer decides on «Стоп!» (GameService.timeout)
        seconds = state.move_seconds()
        if seconds is None or seat is None:
            return None
        user_id = next((s.user_id for s in table.seats if s.seat == seat), None)
        shown_in = (user_id, hand_ref(table.table_id)) if user_id is not None else None
        return Deadline(seconds=seconds, shown_in=shown_in)

    @staticmethod
    def stats(
        table: Table, state: TableState[MatchT, ActionT, EventT, MomentT], events: Sequence[EventT]
    ) -> list[StatsDelta]:
        return state.game.stats(table, state.match, events)

    def new_seed(self) -> str:
        return self.test_seed if self.test_seed is not None else secrets.token_hex(16)
