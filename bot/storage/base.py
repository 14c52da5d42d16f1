"""What the bot keeps between updates: the storage contract, its DTOs and its errors.

The contract is split by concern (`ChatStore`, `TableStore`, `InboxStore`, `OutboxStore`, `StatsStore`,
`TimerStore`, `RetentionStore`); `Storage` is all of them, and every backend implements it and passes the one
contract suite in tests/bot/storage/. Handlers and services depend on these protocols only.

A table's game state is an opaque JSON text here: the engine owns its shape, storage only versions it.
Times are seconds since the epoch (`time.time()`), as the clock injected into the storage gives them.

Every write is one transaction, and a write that returns has been made durable (synced to disk): the bot answers
a tap as accepted only after that (README, "Reliability"). A write the database could not make raises
`StorageUnavailable` and changes nothing.
"""

import hashlib
import json
from collections.abc import Collection, Sequence
from enum import StrEnum
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

JsonObject = dict[str, Any]

MAX_ID = 2**63 - 1
"""The largest integer a database column of the bot holds (SQLite's INTEGER and PostgreSQL's BIGINT)."""


class StorageError(Exception):
    """Base of the errors a repository raises on purpose."""


class StaleVersion(StorageError):
    """The table moved on since the caller read it (optimistic concurrency): re-read and decide again."""

    def __init__(self, table_id: int, expected: int, actual: int | None) -> None:
        super().__init__(f"table {table_id}: expected version {expected}, found {actual}")
        self.table_id = table_id
        self.expected = expected
        self.actual = actual


class UpdateAlreadyProcessedError(StorageError):
    """A redelivered Telegram update: its effects were committed before, so nothing was written now."""

    def __init__(self, update_id: int) -> None:
        super().__init__(f"update {update_id} was already processed")
        self.update_id = update_id


class TableNotFoundError(StorageError):
    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} does not exist")
        self.table_id = table_id


class OpenTableExistsError(StorageError):
    """A chat already has a table in the lobby or in play; a group plays at one table at a time."""

    def __init__(self, chat_id: int) -> None:
        super().__init__(f"chat {chat_id} already has an open table")
        self.chat_id = chat_id


class UserSeatedError(StorageError):
    """The user sits at an open table (lobby or playing): what the bot keeps about him is in use, so it is not
    forgotten (he leaves the table first)."""

    def __init__(self, user_id: int, table_ids: Sequence[int]) -> None:
        super().__init__(f"user {user_id} sits at open tables {list(table_ids)}")
        self.user_id = user_id
        self.table_ids = tuple(table_ids)


class StorageUnavailable(StorageError):
    """The database could not make a write durable (disk full, I/O error, locked): nothing of it was made.

    The bot keeps running: the next write tries again, and works once the disk has room."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(f"the database could not be written: {cause}")
        self.cause = cause


class StartupRefused(StorageError):
    """The storage cannot be used by this process at all (another process holds it, or its schema is newer
    than this code): the bot stops with one line and exit code 2."""


class SchemaTooNew(StartupRefused):
    """The database was written by a newer bot than this one (its schema version is past our migrations)."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(
            f"the database has schema version {found}, newer than this bot knows ({known}): it was written by a"
            " newer version of the bot; run that version (or a backup of the database from before it)"
        )
        self.found = found
        self.known = known


class _Dto(BaseModel):
    model_config = ConfigDict(frozen=True)


class TableStatus(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"


class OutboxKind(StrEnum):
    SEND = "send"
    EDIT = "edit"
    DELETE = "delete"
    PIN = "pin"  # pin the live message `ref` silently (where the bot may)
    UNPIN = "unpin"


class Chat(_Dto):
    chat_id: int
    language: str | None = None
    settings: JsonObject = Field(default_factory=dict)
    migrated_to: int | None = None
    bot_removed: bool = False


class User(_Dto):
    user_id: int
    name: str
    language: str | None = None
    started_bot: bool = False
    blocked: bool = False
    rating_public: bool = False
    """He lets his rating show in the overall /top (`/rating public`); private by default."""


class Seat(_Dto):
    """A place at the table; `user_id` None is a computer player."""

    seat: int
    user_id: int | None
    name: str


class Table(_Dto):
    table_id: int
    chat_id: int
    status: TableStatus
    creator_id: int
    settings: JsonObject
    state: str | None
    """The engine's state as JSON text, None before the first deal."""
    version: int
    """Bumped by every commit: the move number that stale buttons and timers are checked against."""
    created_at: float
    updated_at: float
    seats: tuple[Seat, ...] = ()
    thread_id: int | None = None
    """The forum topic the table was opened in: every message of the table goes there."""


class Event(_Dto):
    table_id: int
    seq: int
    payload: JsonObject
    created_at: float


class OutboxMessage(_Dto):
    """A Bot API call to make after the commit.

    `ref` names the message it is about in `message_refs` (e.g. "table", "hand:<table_id>"): a send records
    the new message id under it, an edit or delete acts on the message recorded there (an edit whose message
    is gone sends a new one). `key` coalesces: a new pending message supersedes an older pending edit or delete
    with the same key (e.g. "table-msg:<chat_id>"), so a burst of moves ends in one edit of the latest picture;
    a send is never superseded (a keyed one, a hand sent anew, clears the edits queued before it).
    `payload` holds the Bot API parameters (text, parse_mode, reply_markup...) other than chat and message id.
    """

    chat_id: int
    kind: OutboxKind
    payload: JsonObject = Field(default_factory=dict)
    ref: str | None = None
    key: str | None = None
    table_id: int | None = None
    replaces: bool = False
    """A send that takes the place of its live message: the old one is deleted once the new one is there (a
    hand sent anew at the bottom of the chat, so that the player's phone rings: edits are silent)."""


class OutboxItem(OutboxMessage):
    id: int
    created_at: float
    attempts: int
    next_attempt_at: float
    done: bool
    last_error: str | None = None
    digest: str = ""
    """`payload_digest` of the payload, worked out when it was queued (the sender compares pictures with it)."""


def payload_text(payload: JsonObject) -> str:
    """A payload as JSON text, the same for the same payload (our renderers build them in one key order)."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def payload_digest(payload: JsonObject) -> str:
    """What a message shows (its text and keyboard), as a short digest: an edit whose digest is the one the
    message shows already would change nothing (and Telegram would refuse it)."""
    return hashlib.blake2b(payload_text(payload).encode(), digest_size=12).hexdigest()


class MessageRef(_Dto):
    """A live message of a chat (the table, the lobby, a hand): its id and a digest of what it shows now."""

    chat_id: int
    purpose: str
    message_id: int
    content: str | None = None


class Delivery(_Dto):
    """What became of one outbox row, recorded in one transaction with what it changed.

    `message_id` records the live message `ref` now is (a send), `forget` drops it (deleted, or gone),
    `content` is the digest of what it shows now, and `then` queues what must follow. Any move timer waiting
    for this message to be shown starts counting (`Deadline.shown_in`), whatever became of the row: a message
    that cannot arrive must not hold a table up for ever."""

    outbox_id: int
    chat_id: int
    ref: str | None = None
    error: str | None = None
    message_id: int | None = None
    forget: bool = False
    content: str | None = None
    then: tuple[OutboxMessage, ...] = ()
    """Rows to queue in the same transaction: the deletion of the message a new one replaced, so that a crash
    between the two calls cannot leave the old one behind."""


class Counter(StrEnum):
    """What every game counts in the chat's tally; a game's own counters are a ``StrEnum`` of its own (Бура's
    ``buras`` and ``false_claims``, Бурако's ``canastras`` and ``outs``). The values are the stored names."""

    DEALS_PLAYED = "deals_played"
    DEALS_WON = "deals_won"
    MATCHES_PLAYED = "matches_played"
    MATCHES_WON = "matches_won"


class StatsDelta(_Dto):
    """Increments to one player's tally of one game in one chat, committed with the move that earned them."""

    chat_id: int
    user_id: int
    game: str  # the tally's game, by the key the lobby names it with ("bura", "bk", "kozel", "buraco")
    counts: dict[str, int]  # counter -> increment: every game's four below, and each game's own


class Stats(StatsDelta):
    """One player's tally of one game in one chat. Every game counts ``deals_played``, ``deals_won``,
    ``matches_played`` and ``matches_won``; each keeps counters of its own beside them (Бура its ``buras`` and
    ``false_claims``, Бурако its ``canastras`` and ``outs``)."""

    def count(self, name: str) -> int:
        """A counter by its stored name (``Counter`` or a game's own ``StrEnum`` member)."""
        return self.counts.get(name, 0)

    @property
    def matches_won(self) -> int:
        return self.count(Counter.MATCHES_WON)

    @property
    def matches_played(self) -> int:
        return self.count(Counter.MATCHES_PLAYED)

    @property
    def deals_won(self) -> int:
        return self.count(Counter.DEALS_WON)

    @property
    def deals_played(self) -> int:
        return self.count(Counter.DEALS_PLAYED)


class Rating(_Dto):
    """A person's rating on one board (a game, as its tally names it): OpenSkill's mean and deviation of his
    skill, and the rated matches it was made of (bot/services/ratings.py)."""

    user_id: int
    game: str
    mu: float
    sigma: float
    matches: int
    updated_at: float


class RatingUpdate(_Dto):
    """A person's new rating after a match, committed with the move that ended it: his new mean and deviation,
    and the number he was shown before and is shown after (kept as the table's `rating_changes`)."""

    user_id: int
    game: str
    mu: float
    sigma: float
    before: int
    after: int


class RatingChange(_Dto):
    """What a finished match did to a person's rating, as it was shown (its history)."""

    table_id: int
    chat_id: int
    user_id: int
    game: str
    before: int
    after: int
    at: float


class MatchRecord(_Dto):
    """A finished match as /history tells it: its table's seats as they are now (a player who asked the bot to
    forget him is a placeholder), when it ended, its `result` as the match-end commit wrote it (its game, rules and
    score: bot/services/history.py), and what it did to its people's ratings."""

    table_id: int
    seats: tuple[Seat, ...]
    finished_at: float
    result: JsonObject
    changes: tuple[RatingChange, ...] = ()


class Deadline(_Dto):
    """When a table's timer fires: `seconds` from now, or, with `shown_in` (a chat and a message ref), `seconds`
    from when that message of this commit is delivered: a move timer counts from when the player can see that
    it is his turn, not from when the bot decided so (a delivery held up by Telegram costs him nothing)."""

    seconds: float
    shown_in: tuple[int, str] | None = None
    keep: bool = False
    """Keep the table's timer as it runs (its due time, its length, whether it waits for its message), only
    moved on to the new version: a move that changed nothing for the player it times (another seat's invisible
    «Стоп!» declined) neither gives him more time nor a second reminder. Without a timer, none is set."""


class Timer(_Dto):
    """A table's deadline: fires only if the table's version is still `move_no` when it is due. `seconds` is
    its length; `armed` is False while it waits for its message to be shown (its `due_at` is then a fallback)."""

    table_id: int
    due_at: float
    move_no: int
    seconds: float = 0.0
    armed: bool = True


class ChatStore(Protocol):
    """Chats and users: languages, settings, and whether the bot may write to them."""

    async def upsert_chat(self, chat_id: int, *, language: str | None = None) -> Chat:
        """Create the chat if new; set its language when given. Returns the chat."""
        ...

    async def get_chat(self, chat_id: int) -> Chat | None: ...

    async def set_chat_settings(self, chat_id: int, settings: JsonObject) -> None: ...

    async def set_chat_removed(self, chat_id: int, removed: bool = True) -> None:
        """The bot was kicked from (or re-added to) a group."""
        ...

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: move its tables, message refs and pending messages to the new id."""
        ...

    async def upsert_user(self, user_id: int, name: str, *, language: str | None = None) -> User: ...

    async def get_user(self, user_id: int) -> User | None: ...

    async def get_users(self, user_ids: Collection[int]) -> dict[int, User]:
        """The users known among `user_ids`, by id, read at once (a list of names, /top's)."""
        ...

    async def set_user_started(self, user_id: int, started: bool = True) -> None:
        """The user opened a private chat with the bot (/start), so hands can be dealt there."""
        ...

    async def set_user_blocked(self, user_id: int, blocked: bool = True) -> None: ...

    async def set_user_rating_public(self, user_id: int, public: bool = True) -> None:
        """The user lets his ratings show in the overall /top (or no longer does)."""
        ...


class TableStore(Protocol):
    """Tables and their moves: the versioned state, the event log, and everything a move commits with it."""

    async def create_table(
        self,
        chat_id: int,
        creator_id: int,
        settings: JsonObject,
        seats: Sequence[Seat] = (),
        outbox: Sequence[OutboxMessage] = (),
        update_id: int | None = None,
        thread_id: int | None = None,
    ) -> Table:
        """Open a lobby in the chat (in a forum topic, with `thread_id`). Raises `OpenTableExistsError`,
        `UpdateAlreadyProcessedError`."""
        ...

    async def get_table(self, table_id: int) -> Table | None: ...

    async def get_open_table(self, chat_id: int) -> Table | None:
        """The chat's table in the lobby or in play, if any."""
        ...

    async def list_tables(self, status: TableStatus) -> list[Table]: ...

    async def last_finished_table(self, chat_id: int) -> Table | None:
        """The chat's latest finished table that was dealt (its match over, or stopped), while its state is kept
        (a lobby cancelled before the deal, or a table pruned, has none)."""
        ...

    async def commit_move(
        self,
        table_id: int,
        expected_version: int,
        new_state_json: str | None,
        events: Sequence[JsonObject] = (),
        outbox: Sequence[OutboxMessage] = (),
        update_id: int | None = None,
        *,
        status: TableStatus | None = None,
        seats: Sequence[Seat] | None = None,
        deadline: Deadline | None = None,
        stats: Sequence[StatsDelta] = (),
        ratings: Sequence[RatingUpdate] = (),
        result: JsonObject | None = None,
        chat_settings: JsonObject | None = None,
        chat_language: str | None = None,
    ) -> Table:
        """Commit one change of a table in ONE transaction, or nothing at all.

        Checks the version is still `expected_version` (else `StaleVersion`), stores `new_state_json` (None
        keeps the state), bumps the version, appends `events`, queues `outbox`, replaces the seats and the
        status when given, replaces the table's timer with `deadline` (None removes it: any older timer is
        stale after a move), adds `stats`, sets each of `ratings` (one more rated match for its person) and records
        it among the table's `rating_changes` (a match's end), keeps `result` as the finished match's record
        (`HistoryStore`), sets the settings and the language of the table's
        chat when given (a lobby's settings are its group's, changed with the lobby message that shows them), and
        records `update_id`
        as processed (else `UpdateAlreadyProcessedError`). Raises `TableNotFoundError`. Returns the table as
        committed.
        """
        ...

    async def get_events(self, table_id: int, after_seq: int = 0) -> list[Event]: ...


class InboxStore(Protocol):
    """Telegram updates, kept from the moment they are received until they are handled (exactly once).

    The poller stores a batch of updates before it confirms them to Telegram; a change made for an update
    records it as processed in its own transaction (`update_id` of the writes above); an update whose handling
    wrote nothing is marked done after it. After a crash, the stored updates not yet processed are handled again,
    and an update Telegram sends twice is stored once."""

    async def store_updates(self, updates: Sequence[tuple[int, str]]) -> list[int]:
        """Keep these updates (id, the update as JSON text, as Telegram sent it); returns the ids that were new."""
        ...

    async def pending_updates(self) -> list[tuple[int, str]]:
        """Stored updates not yet processed, in order (what a crash left behind)."""
        ...

    async def mark_updates_done(self, update_ids: Collection[int]) -> None:
        """These updates were handled (those marked already stay as they are)."""
        ...

    async def is_update_processed(self, update_id: int) -> bool: ...

    async def prune_updates(self, older_than: float, limit: int | None = None) -> int:
        """Forget processed updates received before `older_than` (Telegram resends nothing older than a day): of
        the `limit` oldest processed ones (by id: Telegram numbers them in order), or of all (None); never one
        not processed yet. Returns how many."""
        ...


class OutboxStore(Protocol):
    """The sender's side of the outbox, and the live messages it keeps in place."""

    ids_in_commit_order: bool
    """True where a row committed later always has a higher id (one process writes): the sender then looks only
    above the last id it took (`fetch_outbox(after=...)`). False where several processes commit side by side."""

    async def outbox_depth(self) -> int:
        """How many rows wait to be delivered (the metrics' gauge)."""
        ...

    async def enqueue(self, outbox: Sequence[OutboxMessage], update_id: int | None = None) -> list[int]:
        """Queue messages that belong to no table move (e.g. a reply to /start), with the update they answer
        marked processed (else `UpdateAlreadyProcessedError`); returns their ids."""
        ...

    async def fetch_outbox(
        self,
        now: float,
        limit: int = 100,
        skip: Collection[int] = (),
        after: int = 0,
        chats: Collection[int] | None = None,
    ) -> list[OutboxItem]:
        """Pending messages that are due, oldest first, never one queued behind a message of the same chat
        that is still waiting for its retry (so per-chat order survives retries and restarts); at most `limit`
        of them besides the ids in `skip` (the ones the sender is delivering already), which are left out;
        only ids above `after` (the sender's quick look at what was committed since it last read), and with
        `chats` only the rows of those chats (its look at the chats it heard of new rows for)."""
        ...

    async def get_outbox_item(self, outbox_id: int) -> OutboxItem | None: ...

    async def record_delivery(self, delivery: Delivery) -> None:
        """An outbox row is done (delivered, or given up with an error), with its live message and timers."""
        ...

    async def schedule_outbox_retry(self, outbox_id: int, next_attempt_at: float, error: str) -> int:
        """Count a failed attempt and set when to try again; returns the attempts made so far."""
        ...

    async def retry_chat_now(self, chat_id: int) -> int:
        """Every pending message of the chat is due now (a chat that could not be written may be again)."""
        ...

    async def cancel_outbox_for_chat(self, chat_id: int, reason: str) -> int:
        """Give up every pending message to a chat (the bot was blocked or removed); returns how many. Timers
        waiting for one of them to be shown start counting."""
        ...

    async def get_message_ref(self, chat_id: int, purpose: str) -> MessageRef | None: ...


class StatsStore(Protocol):
    async def get_stats(self, chat_id: int, user_id: int) -> list[Stats]:
        """The player's tallies in the chat, one a game he has played there, by game."""
        ...

    async def chat_stats(self, chat_id: int) -> list[Stats]:
        """Every tally kept in the chat (a chat's players and games are few), by game, then player."""
        ...

    async def user_stats(self, user_id: int) -> list[Stats]:
        """The player's tallies in every chat he has played in (his groups, and his private chat's games against
        the computer), by game; a tally a chat and game (/stats in private sums them)."""
        ...


class RatingStore(Protocol):
    """The people's ratings, a row a person and board, and the changes finished matches made to them. A rating
    is written only by the commit of the move that ended a match (`TableStore.commit_move`'s `ratings`). Ranks
    and charts go by the conservative estimate, ``mu - 3 * sigma``, best first, then by user id."""

    async def ratings_of(self, game: str, user_ids: Collection[int]) -> dict[int, Rating]:
        """The ratings on `game` of those of `user_ids` who have one, by user, read at once (a match's end)."""
        ...

    async def user_ratings(self, user_id: int) -> list[Rating]:
        """The user's ratings, one a board he has played on, by game."""
        ...

    async def chat_ratings(self, chat_id: int, game: str | None = None) -> list[Rating]:
        """The ratings (of `game`, or every game) of the people who played a rated match of that game in the chat,
        by game, then best first."""
        ...

    async def top_ratings(self, game: str | None, limit: int) -> list[Rating]:
        """The best `limit` ratings on `game` (on each game, with None) of the people who let theirs show
        (`User.rating_public`), by game, then best first."""
        ...

    async def rating_rank(self, game: str, user_id: int) -> tuple[int, int] | None:
        """The user's place among everyone rated on `game` (1 the best; equal estimates share one) and how many
        are rated there; None when he is not."""
        ...

    async def rating_changes(self, table_id: int) -> list[RatingChange]:
        """What the table's match did to its people's ratings (none before it ended, or when it was not rated)."""
        ...


class HistoryStore(Protocol):
    """The chat's finished matches, as their last commit recorded them (`TableStore.commit_move`'s `result`)."""

    async def match_history(self, chat_id: int, limit: int) -> list[MatchRecord]:
        """The chat's last `limit` matches with a result, the latest first, each with its rating changes."""
        ...


class TimerStore(Protocol):
    async def due_timers(self, now: float) -> list[Timer]:
        """The timers due at `now`, to fire: where several instances share the database, each one is handed
        to one of them for a while (the one asking), so that it fires once."""
        ...

    async def timers_due_by(self, moment: float) -> list[Timer]:
        """Every timer due by `moment`, handed to nobody (the reminders' look ahead, and tests'): only read."""
        ...


HAND_REF = "hand:{table_id}"
"""The ref of a player's hand message of a table, in his private chat (bot/services/messages.py `hand_ref`): what
`RetentionStore` forgets of a finished table's live messages."""


class Forgotten(_Dto):
    """What `forget_user` deleted or made anonymous."""

    user: bool
    """His user row was there (name, language, whether he started the bot)."""
    tallies: int
    """Counter rows of his tallies, in every chat."""
    seats: int
    """His seats at finished tables, now named with the placeholder."""
    tables: int
    """Finished tables he sat at whose private parts (state, event log, hand messages) were dropped with it."""
    messages: int
    """Delivered messages of his private chat, deleted from the outbox."""
    ratings: int = 0
    """His ratings, one a board (their history, `rating_changes`, goes with them)."""


class RetentionStore(Protocol):
    """What the bot forgets: the private parts of finished tables and the messages it delivered, once they are
    old (README, "What the bot keeps"), and everything it keeps about a user who asks for it (/forget).

    The prunes delete at most `limit` rows (or tables) a call, so that a long backlog goes in short writes that
    never hold the database for long; the caller calls again while a call returns `limit`."""

    async def prune_outbox(self, older_than: float, limit: int) -> int:
        """Of the `limit` oldest delivered (or given up, or superseded) outbox rows, by id (the order they were
        queued in), delete those queued before `older_than`; never a pending one. Returns how many. (Looking at
        the oldest only, a call costs the same however long the outbox is.)"""
        ...

    async def prune_tables(self, finished_before: float, limit: int) -> int:
        """Drop the private parts of tables finished before `finished_before`: the game state (every hand dealt),
        the event log and the refs of the players' hand messages. The table row (chat, creator, settings, times,
        status), its seats and the tallies stay. Returns how many tables lost them."""
        ...

    async def seated_at(self, user_id: int) -> list[int]:
        """The open tables (lobby or playing) the user sits at, by id."""
        ...

    async def forget_user(
        self,
        user_id: int,
        placeholder: str,
        outbox: Sequence[OutboxMessage] = (),
        update_id: int | None = None,
    ) -> Forgotten:
        """Delete what is kept about the user, in one transaction: his user row, his tallies in every chat, his
        ratings and their history, the
        delivered messages of his private chat and its live messages' refs, its language and settings; his seats
        at finished tables keep their place and are named `placeholder`, and those tables lose their private
        parts (as `prune_tables`). Queues `outbox` and records `update_id` as processed with it (else
        `UpdateAlreadyProcessedError`). Raises `UserSeatedError` (and changes nothing) while he sits at an open
        table. Nothing is recreated until he uses the bot again."""
        ...


class Storage(
    ChatStore,
    TableStore,
    InboxStore,
    OutboxStore,
    StatsStore,
    RatingStore,
    HistoryStore,
    TimerStore,
    RetentionStore,
    Protocol,
):
    """The whole repository the bot talks to."""

    async def close(self) -> None: ...

    async def ping(self) -> None:
        """Fail unless the database answers (the health check)."""
        ...
