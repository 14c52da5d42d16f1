"""What the robustness e2e tests share: a table of simulated people who play the real bot by tapping its buttons,
and readers of what the bot committed (database) and sent (the fake's request history).

The people are deterministic: the player to act asks `engine.bura.ai.EasyPlayer` for his move from his own seat's
view, then marks the cards one by one and taps the action button, exactly as a person would. The same seed and
the same people give the same game, which is what lets the crash test compare two runs.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.games.bura.buttons import HandOp
from bot.services import TableState
from bot.storage import Table, TableStatus
from bot.telegram.callbacks import HandCb, LobbyCb, LobbyOp, SettingCb
from engine.bura.actions import Action, Claim, DeclareCombo, Lead, Pass, RespondFaceDown, RespondOpen
from engine.bura.ai import EasyPlayer
from engine.bura.cards import Card
from engine.bura.match import Match
from engine.bura.views import view
from tests.botapi import CallbackAnswer, Chat, FakeTelegram, Message, User
from tests.botapi.html import parse_html, strip_text
from tests.e2e.players import Players, ask_hand_in_group, hand_in_group
from tests.e2e.reader import BotDatabase, sql_for, table_from
from tests.matches import bura_match

Json = dict[str, Any]
WAIT = 30.0
SEND_INTERVAL = "0.05"  # seconds between two messages to one chat (bot/config.py); the fake has no limits on
NAMES = ("Аня", "Борис", "Вера", "Глеб")


def buttons(message: Message) -> list[Json]:
    return [button for row in message.keyboard for button in row]


def hand_cb(button: Json) -> HandCb | None:
    data = str(button.get("callback_data", ""))
    return HandCb.unpack(data) if data.startswith("h:") else None


def unpack(data: HandCb) -> frozenset[Card]:
    return frozenset(Card.parse(data.cards[i : i + 2]) for i in range(0, len(data.cards), 2))


def intent(match: Match, seat: int) -> tuple[HandOp, frozenset[Card] | None]:
    """The button the player means to end his move with, and the cards it must carry."""
    action: Action = EasyPlayer(match.variant).choose(view(match, seat))
    if isinstance(action, RespondFaceDown):
        return HandOp.FACE_DOWN, frozenset(action.cards)
    if isinstance(action, Lead | RespondOpen):
        return HandOp.PLAY, frozenset(action.cards)
    if isinstance(action, Claim):
        return HandOp.CLAIM, None
    if isinstance(action, DeclareCombo):
        return HandOp.COMBO, None
    assert isinstance(action, Pass), action
    return HandOp.PASS, None


@dataclass(frozen=True)
class Tap:
    """The next button a player taps: `final` when it is the move itself rather than marking a card."""

    user: User
    message: Message
    data: str
    final: bool


class Game:
    """One table in a group, its people, and the bot's database read beside the bot (WAL allows it)."""

    def __init__(self, tg: FakeTelegram, database: Path | str, group: Chat, people: list[User], table_id: int) -> None:
        """`database`: the bot's SQLite file, or its PostgreSQL URL."""
        self.tg = tg
        self.database = database
        self.sql = sql_for(database)
        self.group = group
        self.people = people
        self.table_id = table_id
        self.by_seat: dict[int, User] = {}
        self.in_group: set[int] = set()  # people who play from the hand the group shows them alone

    # -- reading the database --------------------------------------------------------------------------------

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        return self.sql.query(sql, params)

    def close(self) -> None:
        self.sql.close()

    async def table(self) -> Table:
        table = table_from(self.sql, self.table_id)
        assert table is not None
        return table

    def version(self) -> int:
        return int(self.query("SELECT version FROM tables WHERE table_id = ?", (self.table_id,))[0]["version"])

    def row(self) -> tuple[str, int, str | None]:
        """Status, version and state JSON of the table, read in one go."""
        found = self.query("SELECT status, version, state FROM tables WHERE table_id = ?", (self.table_id,))[0]
        return str(found["status"]), int(found["version"]), found["state"]

    def pending_outbox(self) -> int:
        """Messages still to deliver to this game's chats (another group's may wait behind its own limits)."""
        chats = [chat.id for chat in self.chats()]
        marks = ", ".join("?" for _ in chats)
        rows = self.query(f"SELECT COUNT(*) AS n FROM outbox WHERE NOT done AND chat_id IN ({marks})", tuple(chats))
        return int(rows[0]["n"])

    async def until(self, condition: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
        """Poll the database (the bot writes it from another process, so nothing wakes us)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not condition():
            if loop.time() > deadline:
                raise TimeoutError(f"waited {timeout}s for {what}")
            await asyncio.sleep(0.01)

    async def delivered(self, timeout: float = WAIT) -> None:
        """Wait until every message the bot committed for this game's chats has been delivered."""
        await self.until(lambda: self.pending_outbox() == 0, "the outbox to drain", timeout)
        await asyncio.sleep(0.2)  # the sender marks a row done after the call: let the last call land
        await self.until(lambda: self.pending_outbox() == 0, "the outbox to drain", timeout)

    # -- playing ---------------------------------------------------------------------------------------------

    def hand(self, user: User) -> Message | None:
        """The hand the user plays from: the bot's hand message in his private chat for this table, or, once he
        asked for it (`show_in_group`), the one the group shows him alone."""
        if user.id in self.in_group:
            return hand_in_group(self.tg, self.group, user, self.table_id)
        return self.private_hand(user)

    def private_hand(self, user: User) -> Message | None:
        """The bot's hand message in the user's private chat for this table."""
        for message in reversed(self.tg.messages(self.tg.private_chat(user), from_bot=True)):
            data = [hand_cb(button) for button in buttons(message)]
            if any(cb is not None and cb.table == self.table_id for cb in data):
                return message
        return None

    def button_for(self, user: User, move: int, ops: tuple[str, ...]) -> tuple[str, Message, str] | None:
        """The first button of the user's hand for `move` whose op is the first of `ops` it shows: (the op, the
        hand, its callback data); None while his hand shows none."""
        message = self.hand(user)
        if message is None:
            return None
        shown = [(data.op, b) for b in buttons(message) if (data := hand_cb(b)) is not None and data.move == move]
        for op in ops:
            for data_op, b in shown:
                if data_op == op:
                    return op, message, str(b["callback_data"])
        return None

    async def show_in_group(self, user: User) -> Message:
        """The user taps «🃏 Мои карты» under the group's table and plays from the hand it shows him from then on."""

        def table() -> Message | None:
            shown = self.tg.messages(self.group, from_bot=True)
            return next(
                (
                    m
                    for m in reversed(shown)
                    if any(str(b.get("callback_data", "")).startswith("e:") for b in buttons(m))
                ),
                None,
            )

        message = await self.tg.wait_for(table, WAIT, "the table with its «🃏 Мои карты»")
        hand = await ask_hand_in_group(self.tg, self.group, message, user, self.table_id)
        self.in_group.add(user.id)
        return hand

    def shown_move(self, seat: int, version: int) -> int:
        """The move the seat's hand buttons name at table version `version`: the last one that changed his hand
        (a commit that changed nothing of his, his «🃏 Мои карты» say, leaves them as they were)."""
        _, now, state = self.row()
        if now != version or state is None:
            return version
        shown = json.loads(state).get("table", {}).get("shown", {}).get(str(seat))
        return int(shown[0]) if shown else version

    def next_tap(self, match: Match, version: int, skip: str | None = None) -> Tap | None:
        """The button the player to act would tap now, as his hand shows it; None while it shows an older move.
        `version` is the move his buttons name (`shown_move`)."""
        seat = match.to_act()
        assert seat is not None
        user = self.by_seat[seat]
        message = self.hand(user)
        if message is None:
            return None
        op, wanted = intent(match, seat)
        toggles: list[tuple[frozenset[Card], str]] = []
        for button in buttons(message):
            data = hand_cb(button)
            if data is None or data.move != version:
                continue
            raw = str(button["callback_data"])
            cards = unpack(data)
            if data.op == op and (wanted is None or cards == wanted):
                return Tap(user, message, raw, final=True) if raw != skip else None
            if data.op == HandOp.TOGGLE and wanted is not None:
                toggles.append((cards, raw))
            if data.op == HandOp.CLAIM_ASK and op == HandOp.CLAIM:
                toggles.append((frozenset(), raw))  # «Вскрываюсь!» asks once to confirm: not the move yet
        if op == HandOp.CLAIM:
            asks = [raw for _, raw in toggles if raw != skip]
            return Tap(user, message, asks[0], final=False) if asks else None
        # Mark one more of the wanted cards (a card button carries the selection its tap makes).
        progress = [(len(cards), raw) for cards, raw in toggles if cards <= wanted] if wanted is not None else []
        if not progress:
            return None
        raw = max(progress)[1]
        return Tap(user, message, raw, final=False) if raw != skip else None

    async def match(self) -> tuple[int, Match] | None:
        status, version, state = self.row()
        if status != TableStatus.PLAYING.value or state is None:
            return None
        return version, bura_match(TableState.from_json(state).match)

    async def tap(self, tap: Tap) -> CallbackAnswer:
        answer = await self.tg.wait_answer(self.tg.tap_data(tap.user, tap.message, tap.data), timeout=WAIT)
        assert not answer.show_alert, f"{tap.user.first_name} tapped {tap.data!r}: {answer.text}"
        return answer

    async def wait_tap(self, match: Match, version: int, skip: str | None = None) -> Tap:
        """The next button of the player to act, for the match at table version `version`."""
        seat = match.to_act()
        assert seat is not None
        move = self.shown_move(seat, version)
        return await self.tg.wait_for(
            lambda: self.next_tap(match, move, skip),
            WAIT,
            f"a button of move {version}",
            # only his hand's chat can bring the button (the group, for the hand it shows him alone)
            on=self.group.id if self.by_seat[seat].id in self.in_group else self.tg.private_chat(self.by_seat[seat]).id,
        )

    async def play_move(self, think: Callable[[], Awaitable[None]] | None = None) -> bool:
        """The player to act makes his move through his buttons; False once the match is over. `think` is
        awaited before each tap (a person's pause; the load benchmark's paced mode)."""
        current = await self.match()
        if current is None:
            return False
        version, match = current
        skip = None
        while True:
            tap = await self.wait_tap(match, version, skip)
            if think is not None:
                await think()
            await self.tap(tap)
            if tap.final:
                break
            skip = tap.data
        # A tap is answered as accepted only once its move is durable: the database shows it already.
        assert self.version() > version, f"move {version} was answered as accepted before it was committed"
        return True

    async def play_to_end(self, max_moves: int = 400) -> int:
        moves = 0
        while await self.play_move():
            moves += 1
            assert moves <= max_moves, "the match does not end"
        return moves

    # -- what people see -------------------------------------------------------------------------------------

    def group_texts(self) -> list[str]:
        return [message.text or "" for message in self.tg.messages(self.group, from_bot=True)]

    def private_texts(self) -> dict[str, list[str]]:
        return {
            user.first_name: [message.text or "" for message in self.tg.messages(self.tg.private_chat(user), True)]
            for user in self.people
        }

    def chats(self) -> list[Chat]:
        return [self.group, *(self.tg.private_chat(user) for user in self.people)]

    def shown(self, chat: Chat) -> list[str]:
        """The bot's messages in a chat as they read now, oldest first; the group's live table last (its place is
        not the outbox's: where the bot may not pin it, the sender moves it to the bottom when it is buried)."""
        messages = self.tg.messages(chat, from_bot=True)
        rows = self.query("SELECT message_id FROM message_refs WHERE chat_id = ? AND purpose = 'table'", (chat.id,))
        table = rows[0]["message_id"] if rows else None
        return [message.text or "" for message in messages if message.message_id != table] + [
            message.text or "" for message in messages if message.message_id == table
        ]

    def committed(self, chat: Chat) -> list[str]:
        """What the chat must read once the outbox is delivered: every message the bot ever committed for it,
        in order, a live message (table, hand, lobby) in its last text, a deleted one gone; the live table last."""
        entries: list[list[Any]] = []  # [text, deleted]
        live: dict[str, list[Any]] = {}
        rows = self.query("SELECT kind, ref, payload, replaces FROM outbox WHERE chat_id = ? ORDER BY id", (chat.id,))
        for row in rows:
            payload = json.loads(row["payload"])
            if "ephemeral" in payload:
                continue  # shown in the group to its player alone: not a message of this chat
            text = plain(str(payload["text"])) if "text" in payload else None
            ref = row["ref"]
            entry = live.get(ref) if ref is not None else None
            if row["kind"] in ("pin", "unpin"):
                continue  # changes no text
            if row["kind"] == "delete" or (row["kind"] == "send" and row["replaces"] and entry is not None):
                if entry is not None:  # a hand sent anew (so that it rings) replaces the old one
                    entry[1] = True
                    del live[ref]
                if row["kind"] == "delete":
                    continue
                entry = None
            if row["kind"] == "send" or entry is None:
                entry = [text, False]
                entries.append(entry)
                if ref is not None:
                    live[ref] = entry
            elif text is not None:
                entry[0] = text
        if (table := live.get("table")) is not None:  # last, as `shown` puts it
            entries.remove(table)
            entries.append(table)
        return [str(text) for text, deleted in entries if not deleted]

    def final_state(self) -> Json:
        """The stored match as JSON (variant, seed, action log), without the bot's own extras."""
        status, _, state = self.row()
        assert status == TableStatus.FINISHED.value and state is not None
        data: Json = json.loads(state)
        return data


async def open_game(
    tg: FakeTelegram,
    database: Path | str,
    players: int = 2,
    settings: dict[str, str] | None = None,
    computers: int = 0,
) -> Game:
    """People in a group, each of whom has started the bot; the first opens a table, the rest join, the first
    adds `computers` computer players, sets the settings and starts the deal. Returns when every hand is shown."""
    people = [tg.user(name, f"user{index}") for index, name in enumerate(NAMES[:players])]
    creator = people[0]
    group = tg.group("Стол <b>", owner=creator, members=people[1:])
    tg.add_bot(group)
    await tg.wait_bot_message(group, timeout=WAIT)  # the hello
    for user in people:
        said = tg.start_bot(user)
        await tg.wait_bot_message(tg.private_chat(user), after=said, timeout=WAIT)
    said = tg.send_message(creator, group, "/new")
    lobby = await tg.wait_bot_message(group, after=said, timeout=WAIT)
    join = next(b for b in buttons(lobby) if str(b["callback_data"]).startswith("l:"))
    table_id = LobbyCb.unpack(str(join["callback_data"])).table
    game = Game(tg, database, group, people, table_id)

    async def tap(user: User, data: str) -> None:
        answer = await tg.wait_answer(tg.tap_data(user, lobby, data), timeout=WAIT)
        assert not answer.show_alert, answer.text

    for user in people[1:]:
        before = game.version()
        await tap(user, LobbyCb(op=LobbyOp.JOIN, table=table_id).pack())
        await game.until(lambda before=before: game.version() > before, f"{user.first_name} to join")  # type: ignore[misc]
    for _ in range(computers):
        before = game.version()
        await tap(creator, LobbyCb(op=LobbyOp.ADD_COMPUTER, table=table_id).pack())
        await game.until(lambda before=before: game.version() > before, "a computer to sit down")  # type: ignore[misc]
    for key, value in (settings or {}).items():
        await tap(creator, SettingCb(table=table_id, key=key, value=value).pack())
    await tap(creator, LobbyCb(op=LobbyOp.START, table=table_id).pack())
    table = await game.table()
    assert table.status is TableStatus.PLAYING
    people_by_id = {user.id: user for user in people}
    game.by_seat = {seat.seat: people_by_id[seat.user_id] for seat in table.seats if seat.user_id is not None}
    for user in people:
        await tg.wait_for(lambda user=user: game.hand(user), WAIT, f"{user.first_name}'s hand")  # type: ignore[misc]
    return game


def plain(markup: str) -> str:
    """The text a Telegram client shows for an HTML message."""
    text, entities = parse_html(markup)
    return strip_text(text, entities)[0]


# -- what the bot sent ---------------------------------------------------------------------------------------


def sent_messages(tg: FakeTelegram) -> Iterator[tuple[int, str, list[str], float]]:
    """Every text the bot showed, as (chat id, text, button labels, time), from the accepted requests."""
    for request in tg.history:
        if not request.ok or request.method not in {"sendMessage", "editMessageText", "editMessageReplyMarkup"}:
            continue
        markup = request.params.get("reply_markup") or {}
        if isinstance(markup, str):
            markup = json.loads(markup)
        labels = [str(b.get("text", "")) for row in markup.get("inline_keyboard", []) for b in row]
        text = str(request.params.get("text", ""))
        yield int(request.params["chat_id"]), text, labels, request.time


async def busy_group(tg: FakeTelegram, scale: float, stop: asyncio.Event) -> int:
    """Another group, where someone keeps asking the bot for /help (ten every 30 scaled seconds); the bot answers
    only a few (bot/handlers/throttle.py, the replies' share in bot/telegram/pacer.py). Returns how many times
    he asked, once `stop` is set."""
    owner, other = tg.user("Дима", "dima"), tg.user("Ева", "eva")
    group = tg.group("Другая", owner=owner, members=[other])
    tg.add_bot(group)
    asked = 0
    while not stop.is_set():
        for _ in range(10):
            tg.send_message(owner, group, "/help")
            asked += 1
        await asyncio.sleep(30 * scale)
    return asked


# -- openings several test files share -----------------------------------------------------------------------


async def play_alone(tg: FakeTelegram, storage: BotDatabase, command: str = "/play") -> tuple[Players, Table]:
    """Аня opens the bot's private chat and sends `command` (/play, /play hard): her table against the computer
    (Аня at seat 0), as it was dealt, once her hand is shown."""
    anna = tg.user("Аня", "anna")
    tg.start_bot(anna)
    chat = tg.private_chat(anna)
    await tg.wait_bot_message(chat, timeout=WAIT)
    said = tg.send_message(anna, chat, command)
    await tg.wait_bot_message(chat, after=said, timeout=WAIT)
    table = await storage.get_open_table(chat.id)
    assert table is not None and table.state is not None
    players = Players(tg, storage, {0: anna}, table.table_id)
    await tg.wait_for(lambda: players.hand(anna), WAIT, "Anna's hand")
    return players, table


async def open_lobby(tg: FakeTelegram, creator: User, group: Chat) -> Message:
    """The bot joins `group` (it says hello), `creator` opens his private chat with it and /new in the group: the
    lobby's message."""
    tg.add_bot(group)
    await tg.wait_bot_message(group, timeout=WAIT)
    tg.start_bot(creator)
    await tg.wait_bot_message(tg.private_chat(creator), timeout=WAIT)
    said = tg.send_message(creator, group, "/new")
    return await tg.wait_bot_message(group, after=said, timeout=WAIT)
