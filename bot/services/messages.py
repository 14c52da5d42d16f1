"""The outbox's messages: the live ones kept in place (the table, the lobby, each hand) and what a move tells.

A player's hand lives in his private chat, and, once he asks for it with «🃏 Мои карты» under the group's table,
in the group too, visible to him alone (Bot API 10.2 ephemeral messages; issue 37, "two chats"). The private hand
stays the one that rings and that is always right (Telegram does not promise an ephemeral message reaches someone
offline); the one in the group shows the same hand and buttons, and every commit that changes his hand edits both.

A live message is known by its ref (`LiveRef`): the first send records its message id, the edits after it find
it there. A commit edits only the hands it changes (issue 35, "no side channels"): a hand edited out of nowhere
would tell its player that another seat did something he cannot see (declined «Стоп!», laid a hidden draft). So
each seat's hand buttons name the move that last changed that seat's hand (`Shown`), not the table's version, and
stay valid across the moves he cannot see.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from enum import Enum, Flag, StrEnum, auto
from functools import partial
from typing import TYPE_CHECKING

from bot.games.base import ActionT, EventT, HandStory, MatchT, MomentT, Quiet, ended_deal
from bot.i18n import Translations, Translator
from bot.render.keyboard import (
    Button,
    Keyboard,
    LinkButton,
    LinkKeyboard,
    WebAppButton,
    button,
    keyboard,
    link,
    link_keyboard,
    web_app_button,
)
from bot.services.state import AnyState, Shown, TableState, is_private, seat_names
from bot.storage import JsonObject, OutboxKind, OutboxMessage, Storage, Table, payload_digest
from bot.storage.base import HAND_REF
from bot.telegram.callbacks import MyCardsCb, ReplayCb
from bot.telegram.calls import EPHEMERAL, UPLOAD, UPLOAD_MOST

if TYPE_CHECKING:
    from bot.webapp.links import MiniAppLinks


class LiveRef(StrEnum):
    """The live messages a chat has of a table: its picture and its lobby in the group (a hand's ref names its
    table, `hand_ref`); and the group's one note that the bot may not pin the table (its ref says it was told)."""

    TABLE = "table"
    LOBBY = "lobby"
    PIN_HINT = "pin-hint"


class Place(Flag):
    """Where a player's hand is drawn: his private chat, the group (to him alone), or both."""

    PRIVATE = auto()
    GROUP = auto()
    BOTH = PRIVATE | GROUP


def hand_ref(table_id: int) -> str:
    """The ref of a player's hand message of a table, in his private chat."""
    return HAND_REF.format(table_id=table_id)


def group_hand_ref(table_id: int) -> str:
    """The ref of a player's hand shown to him alone in the table's group; kept with his own chat's refs (his
    chat's queue carries it, so his two hands keep their order)."""
    return f"in-group:{table_id}"


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
        ref=str(ref),
        key=None if kind is OutboxKind.SEND else key,
    )


def hand_message(table_id: int, user_id: int, kind: OutboxKind, payload: JsonObject | None = None) -> OutboxMessage:
    """A player's hand message in his private chat."""
    return live_message(user_id, hand_ref(table_id), f"hand:{table_id}:{user_id}", kind, payload)


def group_hand_message(
    table: Table, user_id: int, kind: OutboxKind, payload: JsonObject, *, query_id: str | None = None
) -> OutboxMessage:
    """A player's hand shown to him alone in the table's group: sent in answer to his tap (`query_id`), in the
    place of the one he had there; edited after. Queued in his own chat (`EPHEMERAL` in bot/telegram/calls.py)."""
    where: JsonObject = {"chat_id": table.chat_id}
    if query_id is not None:
        where["callback_query_id"] = query_id
    payload = {**payload, EPHEMERAL: where}
    if kind is OutboxKind.SEND:
        if table.thread_id is not None:
            payload["message_thread_id"] = table.thread_id
        payload["disable_notification"] = True  # his own tap asked for it: he is looking, nothing to ring for
    message = live_message(
        user_id, group_hand_ref(table.table_id), f"in-group:{table.table_id}:{user_id}", kind, payload
    )
    if kind is OutboxKind.SEND:
        # It replaces the one shown before (deleted once this is there); edits queued for that one are moot.
        message = message.model_copy(
            update={"replaces": True, "key": message.key or f"in-group:{table.table_id}:{user_id}"}
        )
    return message


def lobby_message(chat_id: int, kind: OutboxKind, payload: JsonObject | None = None) -> OutboxMessage:
    """The group's lobby message (the settings menu is shown in it too)."""
    return live_message(chat_id, LiveRef.LOBBY, f"lobby:{chat_id}", kind, payload)


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


def with_row(payload: JsonObject, row: Sequence[Button | LinkButton | WebAppButton]) -> JsonObject:
    """The message with one more row of buttons under its keyboard: a new payload and keyboard (the drawn ones
    may be shared, as a hand's is between its two places)."""
    markup = payload.get("reply_markup") or {"inline_keyboard": []}
    return {**payload, "reply_markup": {**markup, "inline_keyboard": [*markup["inline_keyboard"], list(row)]}}


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


def document_message(
    chat_id: int,
    filename: str,
    content: str,
    caption: str,
    *,
    mime_type: str = "application/json",
    thread_id: int | None = None,
    reply_to: int | None = None,
) -> OutboxMessage:
    """A file sent as a document (sendDocument), `content` its text, `caption` HTML below it: a new message, in
    a forum topic with `thread_id`, a silent reply with `reply_to` (whoever asked is looking at the chat). The
    file travels in the row (`UPLOAD` in bot/telegram/calls.py); ValueError for a file over `UPLOAD_MOST` bytes,
    which the outbox does not carry."""
    size = len(content.encode())
    if size > UPLOAD_MOST:
        raise ValueError(f"{filename} is {size} bytes: the outbox carries files of {UPLOAD_MOST} at most")
    payload: JsonObject = {
        "caption": caption,
        "parse_mode": "HTML",
        UPLOAD: {"filename": filename, "mime_type": mime_type, "text": content},
    }
    if thread_id is not None:
        payload["message_thread_id"] = thread_id
    if reply_to is not None:
        payload["disable_notification"] = True
        payload["reply_parameters"] = {"message_id": reply_to, "allow_sending_without_reply": True}
    return OutboxMessage(chat_id=chat_id, kind=OutboxKind.SEND, payload=payload)


def move_limit(seconds: int, tr: Translator) -> str:
    """The move timer as the table shows it: how long a move may take («1 мин на ход»), not a clock.

    A clock («⏳ 1:00») stood still between the table's edits, which the group's budget cannot spend on ticks;
    a deadline as a time of day («до 18:42») needs the players' time zone, which Telegram does not tell a bot
    (a group may span eleven of them). A limit is true in every picture of the table, however late it arrives."""
    if seconds >= 60 and seconds % 60 == 0:
        return tr.t("move-limit-minutes", minutes=seconds // 60)
    return tr.t("move-limit-seconds", seconds=seconds)


def unpin_table(table: Table) -> list[OutboxMessage]:
    """The table is over: it is no longer pinned."""
    if is_private(table):
        return []
    return [OutboxMessage(chat_id=table.chat_id, kind=OutboxKind.UNPIN, ref=str(LiveRef.TABLE))]


class MoveMessages:
    """A move's messages, rendered from the table and its state: the table's picture, the hands, the news."""

    def __init__(self, repository: Storage, translations: Translations, mini_app: MiniAppLinks | None = None) -> None:
        self.repository = repository
        self.translations = translations
        self.mini_app = mini_app
        """The Mini App's links (WEBAPP_URL): «🎴 Стол» under the group's table, «🎴 Открыть стол» under each
        private hand; None: no Mini App, no such button."""

    @staticmethod
    def table_text(table: Table, state: AnyState, tr: Translator, *, ended: str | None = None) -> str:
        """The table as its live message shows it; `ended` says how a table that will not go on ended."""
        seconds = state.move_seconds()  # what this turn has: a computer's or an away player's turn is short
        return state.game.table_text(
            state.match,
            seat_names(table.seats),
            tr,
            title=state.title,
            settings=state.settings,
            deadline_text=move_limit(seconds, tr) if seconds is not None and ended is None else None,
            ended=ended,
        )

    def table_message(
        self, table: Table, state: AnyState, tr: Translator, *, new: bool = False, ended: str | None = None
    ) -> list[OutboxMessage]:
        """The group's live table message: edited in place; `new` sends it (the first picture of a table), and
        pins it silently. Edits of one deal coalesce (a burst of moves ends in one edit of the latest picture);
        the last picture of a deal is never superseded by the next deal's. None in a private chat, where the hand
        message carries the table (a game against the computer: one message, one edit a turn)."""
        if is_private(table):
            return []
        text = self.table_text(table, state, tr, ended=ended)
        playing = ended is None and not state.match.finished
        # «🃏 Мои карты»: a player's own hand right here, seen by him alone (`Place.GROUP`); «🎴 Стол»: the
        # Mini App at this table, opened over the group (WEBAPP_NAME: a group takes no web_app button).
        row: list[Button | LinkButton] = [button(tr.t("ingroup-my-cards"), MyCardsCb.data(table.table_id))]
        opens = self.mini_app.startapp(table.table_id) if self.mini_app is not None else None
        if opens is not None:
            row.append(link(tr.t("webapp-table"), opens))
        markup = link_keyboard([row])
        payload = html_text(text, markup if playing else None, thread_id=table.thread_id, silent=True)
        # Edits coalesce within a deal only: the last picture of a deal, with the tricks taken in it, goes out
        # even when the next deal's pictures follow before the group's budget has room (issue 37).
        key = f"table:{table.chat_id}:{state.game.deal_number(state.match)}"
        if not new:
            return [live_message(table.chat_id, LiveRef.TABLE, key, OutboxKind.EDIT, payload)]
        sent = live_message(table.chat_id, LiveRef.TABLE, key, OutboxKind.SEND, payload)
        return [sent, OutboxMessage(chat_id=table.chat_id, kind=OutboxKind.PIN, ref=str(LiveRef.TABLE))]

    async def hand_messages(
        self,
        table: Table,
        state: AnyState,
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
        places: Place = Place.BOTH,
    ) -> list[OutboxMessage]:
        """Each player's hand message in the private chat (or only one seat's, with a selection), and in the group
        for those who opened it there (`TableState.in_group`); `places` limits a redraw to where it was tapped.

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
                hand_payload,
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
            if Place.GROUP in places and seat.seat in state.in_group and not private:
                # First: the player looks at it where he plays (it has a pace of its own, apart from his chat's).
                messages.append(group_hand_message(table, seat.user_id, OutboxKind.EDIT, shown))
            if Place.PRIVATE not in places:
                continue
            resend = new or seat.seat in ping
            if ended is None and not state.match.finished:
                shown = self.opening_table(shown, table.table_id, tr)
            message = hand_message(table.table_id, seat.user_id, OutboxKind.SEND if resend else OutboxKind.EDIT, shown)
            if resend and not new:
                # It replaces the live hand, and a pending edit of it (its key) would only delay the ring.
                key = hand_message(table.table_id, seat.user_id, OutboxKind.EDIT).key
                message = message.model_copy(update={"replaces": True, "key": key})
            messages.append(message)
        return messages

    def opening_table(self, payload: JsonObject, table_id: int, tr: Translator) -> JsonObject:
        """A private hand with «🎴 Открыть стол» under it, the Mini App at its table (WEBAPP_URL): only in the
        player's own chat, as Telegram takes web_app buttons there alone, and only while the table is played.
        Always the same button, so a hand drawn again without news stays the same; the hand's digest (`Shown`)
        is of the hand without it, as the group's copy shows it."""
        if self.mini_app is None:
            return payload
        return with_row(payload, [web_app_button(tr.t("webapp-open-table"), self.mini_app.page(table_id))])

    async def group_hand(self, table: Table, state: AnyState, seat: int, user_id: int, query_id: str) -> OutboxMessage:
        """A player's hand shown to him alone in the group, in answer to his «🃏 Мои карты» (`query_id`): as his
        private hand shows it now, in his language."""
        user = await self.repository.get_user(user_id)
        tr = self.translations.get(user.language if user else None)
        payload = hand_payload(
            table,
            state,
            seat,
            tr,
            state.shown_move(seat, table.version),
            (),
            table_text=None,
            selection="",
            confirm=False,
            refusal=None,
            ended=None,
        )
        return group_hand_message(table, user_id, OutboxKind.SEND, payload, query_id=query_id)

    @staticmethod
    def announcements(
        table: Table,
        state: TableState[MatchT, ActionT, EventT, MomentT],
        events: Sequence[EventT],
        tr: Translator,
        before: MomentT | None = None,
    ) -> list[OutboxMessage]:
        """Calls, deal and match results as new group messages (they deserve a notification, UX.md); in a
        private game the hand message tells them instead (`story`).

        `before` is the match as it was before the move: its scores (so the deal's result shows what it changed)
        and its deal (what ended it is shown with the result, as the game tells it); None for the first deal.
        """
        if is_private(table):
            return []
        texts = [
            text
            for text in state.game.announcements(
                state.match, events, seat_names(table.seats), tr, settings=state.settings, before=before
            )
            if text
        ]
        ended = ended_deal(state.game, state.match, before)
        replay = None
        if ended is not None and texts:
            # «🔎 Как это было» under the deal's result (the last of its messages): the deal as each player saw it.
            replay = keyboard([[button(tr.t("replay-button"), ReplayCb(table=table.table_id, deal=ended).pack())]])
        last = len(texts) - 1
        return [
            text_message(
                table.chat_id,
                text,
                thread_id=table.thread_id,
                silent=isinstance(text, Quiet),
                markup=replay if index == last else None,
            )
            for index, text in enumerate(texts)
        ]

    @staticmethod
    def story(
        table: Table,
        state: TableState[MatchT, ActionT, EventT, MomentT],
        events: Sequence[EventT],
        before: MomentT | None,
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
                    # One announcement apart from the next, as the group would see them (a match's result, then
                    # the next deal's start).
                    told = [line for text in texts if text for line in ("", *text.split("\n"))]
                    rendered[tr.language] = told[1:]
                else:
                    rendered[tr.language] = game.deal_story(match, events, names, tr, settings=settings, before=before)
            return rendered[tr.language]

        return lines


def hand_payload(
    table: Table,
    state: AnyState,
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
    # A finished match leaves no button to tap (issue 37), but a game against the computer's «Ещё партию».
    over = ended is not None or (state.match.finished and not is_private(table))
    return html_text(text, None if over else markup, protect=True)
