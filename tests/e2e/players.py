"""People at a table of the real bot, for the e2e flows: seating them through the group, playing by tapping the
buttons of their hands, reading what the chats show, and finding a shuffle seed for a scenario.

The players decide from the table's state in the database (what a careful player would know: his hand, the
trick, the points he took) and act only by tapping the buttons the bot showed them. The bot shuffles every table
from `BURA_TESTING_ONLY_FIXED_DECK_SEED`, exactly as `Match(variant, players, seed)` does here, so a seed found
offline by `find_seed` gives the real bot the same deals; with a deterministic chooser the whole game is the same
too.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

from bot.games.bura.buttons import HandOp
from bot.games.bura.settings import variant
from bot.render.lobby import DONE_KEY, OPEN_CHOICES
from bot.services import TableState
from bot.storage import Table, TableStatus
from bot.table_settings import TableSettings
from bot.telegram.callbacks import HandCb, LobbyCb, LobbyOp, SettingCb
from engine.bura.actions import Action, Claim, DeclareCombo, Lead, Pass, RespondFaceDown, RespondOpen
from engine.bura.cards import Card, points, set_beats
from engine.bura.deal import Phase
from engine.bura.events import Event
from engine.bura.match import Match
from tests.botapi import CallbackAnswer, Chat, FakeTelegram, Message, User
from tests.e2e.reader import BotDatabase
from tests.matches import bura_match

Json = dict[str, object]
Chooser = Callable[[Match, int], Action]
MOVE_WAIT = 30.0  # only a ceiling: the bot paces itself fast (SEND_INTERVAL), but a loaded machine starts it slowly
ENGLISH_NAMES = ("Ann", "Bob", "Vera", "Glen")
TRUMP_LINE = re.compile(r"^(Козырь —|Trump:)", re.MULTILINE)
NAMES = ("Аня", "Борис", "Вера", "Глеб")


# -- choosing a move -----------------------------------------------------------------------------------------


def greedy(match: Match, seat: int) -> Action:
    """A plain greedy player: claims with enough in his pile, takes points when he can beat, leads one low card."""
    deal = match.deal
    legal = match.legal_actions(seat)
    threshold = match.variant.threshold(match.players)
    if Claim(seat) in legal and threshold is not None and deal.pile_points(match.side_of(seat)) >= threshold:
        return Claim(seat)
    if deal.phase is Phase.FINAL_CLAIM or not any(isinstance(a, Lead | RespondOpen | RespondFaceDown) for a in legal):
        return Pass(seat)
    if deal.phase is Phase.RESPOND:
        assert deal.trick is not None
        lead = deal.trick.lead
        beating = [a for a in legal if isinstance(a, RespondOpen) and set_beats(a.cards, lead, deal.trump)]
        if beating:
            return max(beating, key=lambda a: points(a.cards))  # take the trick with the points it can
        downs: list[RespondOpen | RespondFaceDown] = [a for a in legal if isinstance(a, RespondFaceDown)]
        opens: list[RespondOpen | RespondFaceDown] = [a for a in legal if isinstance(a, RespondOpen)]
        return min(downs or opens, key=lambda a: points(a.cards))
    leads = [a for a in legal if isinstance(a, Lead)]
    return min(leads, key=lambda a: (len(a.cards), points(a.cards), a.cards[0].strength))


def claiming_at_once(match: Match, seat: int) -> Action:
    """Says «Вскрываюсь!» whenever the hand offers it (the rules allow it and his side took a trick; a false claim
    with a thin pile); plays greedily otherwise."""
    if Claim(seat) in match.legal_actions(seat) and match.deal.piles[match.side_of(seat)]:
        return Claim(seat)
    return greedy(match, seat)


def play_offline(match: Match, chooser: Chooser = greedy, *, deals: int = 1) -> list[Event]:
    """Play `match` on from where it is until `deals` more deals ended (or the match did); the events, in order."""
    events: list[Event] = []
    last = match.deal_number + deals
    while not match.finished and match.deal_number < last:
        seat = match.to_act()
        assert seat is not None
        events.extend(match.apply(chooser(match, seat)))
    return events


def find_seed(
    settings: TableSettings, players: int, wanted: Callable[[Match], bool], *, prefix: str, tries: int = 5000
) -> str:
    """The first seed `prefix-N` whose new match (as the bot would shuffle it) satisfies `wanted`; `wanted` may
    play the match on (it gets a fresh one)."""
    for number in range(tries):
        seed = f"{prefix}-{number}"
        if wanted(Match(variant(settings), players, seed)):
            return seed
    raise AssertionError(f"no seed among {tries} for {prefix}")


# -- buttons -------------------------------------------------------------------------------------------------


def buttons(message: Message) -> list[Json]:
    return [button for row in message.keyboard for button in row]


def button(message: Message, wanted: Callable[[str], bool]) -> Json | None:
    return next((b for b in buttons(message) if wanted(str(b.get("callback_data", "")))), None)


def lobby_button(message: Message, op: LobbyOp) -> Json | None:
    return button(message, lambda d: d.startswith("l:") and LobbyCb.unpack(d).op is op)


def setting_button(message: Message, key: str, value: str | None = None) -> Json | None:
    """A settings button of ``key`` (and ``value``, if given: a code, OPEN_CHOICES for a menu row)."""

    def matches(data: str) -> bool:
        if not data.startswith("s:"):
            return False
        unpacked = SettingCb.unpack(data)
        return unpacked.key == key and (value is None or unpacked.value == value)

    return button(message, matches)


def hand_cb(button: Json) -> HandCb | None:
    data = str(button.get("callback_data", ""))
    return HandCb.unpack(data) if data.startswith("h:") else None


def cards_of(data: HandCb) -> tuple[Card, ...]:
    return tuple(Card.parse(data.cards[i : i + 2]) for i in range(0, len(data.cards), 2))


def hand_in_group(tg: FakeTelegram, group: Chat, user: User, table_id: int) -> Message | None:
    """The newest hand of the table that the group shows the user alone (an ephemeral message)."""
    for message in reversed(tg.ephemeral_messages(group, user)):
        if any((data := hand_cb(b)) is not None and data.table == table_id for b in buttons(message)):
            return message
    return None


async def ask_hand_in_group(tg: FakeTelegram, group: Chat, table: Message, user: User, table_id: int) -> Message:
    """The user taps «🃏 Мои карты» under the group's `table` message; the hand it then shows him alone."""
    [mine] = [b for b in buttons(table) if str(b.get("callback_data", "")).startswith("e:")]
    shown = hand_in_group(tg, group, user, table_id)
    answer = await tg.wait_answer(tg.tap(user, table, text=str(mine["text"])), timeout=MOVE_WAIT)
    assert not answer.show_alert, f"{user.first_name}: {answer.text}"
    return await tg.wait_ephemeral(
        group, user, lambda m: hand_in_group(tg, group, user, table_id) is m, after=shown, timeout=MOVE_WAIT
    )


def hand_move(message: Message) -> int | None:
    """The move a hand message is for (its buttons carry it), or None without hand buttons."""
    moves = {data.move for data in map(hand_cb, buttons(message)) if data is not None}
    return max(moves) if moves else None


def shown_move(table: Table, seat: int) -> int:
    """The move the seat's hand buttons name: the last one that changed his hand (a move he cannot see, another
    seat declining «Стоп!», say, leaves his hand and its buttons as they were)."""
    assert table.state is not None
    return TableState.from_json(table.state).shown_move(seat, table.version)


def moved_past(message: Message, move: int) -> bool:
    """The message shows a move after `move`."""
    return (hand_move(message) or 0) > move


def offers(move: int, op: HandOp, cards: set[Card] | None) -> Callable[[HandCb], bool]:
    """A button of this move and kind (with exactly these cards, unless None)."""

    def check(data: HandCb) -> bool:
        return data.move == move and data.op == op and (cards is None or set(cards_of(data)) == cards)

    return check


# -- the table -----------------------------------------------------------------------------------------------


@dataclass
class Players:
    """The people seated at one table, by seat, and what they see."""

    tg: FakeTelegram
    storage: BotDatabase
    by_seat: dict[int, User]
    table_id: int
    group_chat: Chat | None = None  # the table's group, for reading what it shows and writing commands there
    topic: int | None = None  # the forum topic the table lives in
    in_group: set[int] = field(default_factory=set)  # people who play from their hand shown in the group

    @property
    def group(self) -> Chat:
        assert self.group_chat is not None, "these players were seated without their group"
        return self.group_chat

    async def table(self) -> Table:
        table = await self.storage.get_table(self.table_id)
        assert table is not None
        return table

    async def match(self) -> Match:
        table = await self.table()
        assert table.state is not None
        return bura_match(TableState.from_json(table.state).match)

    def user(self, seat: int) -> User:
        return self.by_seat[seat]

    def seat(self, user: User) -> int:
        return next(seat for seat, person in self.by_seat.items() if person == user)

    # -- what the chats show

    def hand(self, user: User) -> Message | None:
        """The hand the user plays from: the bot's hand message in his private chat, or, once he asked for it
        (`show_in_group`), the one the group shows him alone."""
        if user.id in self.in_group:
            return self.hand_in_group(user)
        return self.private_hand(user)

    def private_hand(self, user: User) -> Message | None:
        """The bot's hand message in the user's private chat."""
        for message in reversed(self.tg.messages(self.tg.private_chat(user), from_bot=True)):
            if any(hand_cb(b) for b in buttons(message)):
                return message
        return None

    def hand_in_group(self, user: User) -> Message | None:
        """The hand the group shows the user alone (an ephemeral message), the newest."""
        return hand_in_group(self.tg, self.group, user, self.table_id)

    async def show_in_group(self, user: User) -> Message:
        """The user taps «🃏 Мои карты» under the group's table and plays from the hand it shows him from then on."""
        shown = await ask_hand_in_group(self.tg, self.group, await self.table_shows(), user, self.table_id)
        self.in_group.add(user.id)
        return shown

    def table_message(self) -> Message | None:
        """The group's live table message (the one that shows the trump line), once the bot has sent it."""
        shown = self.tg.messages(self.group, from_bot=True)
        return next((m for m in shown if TRUMP_LINE.search(m.text or "") and "🃏" in (m.text or "")[:2]), None)

    async def table_shows(self, *parts: str) -> Message:
        """Wait until the table message shows every one of `parts`."""

        def shown() -> Message | None:
            message = self.table_message()
            return message if message and all(part in (message.text or "") for part in parts) else None

        return await self.tg.wait_for(shown, MOVE_WAIT, f"the table message to show {parts}")

    def group_texts(self) -> list[str]:
        return [m.text or "" for m in self.tg.messages(self.group, from_bot=True)]

    async def group_says(self, *parts: str, what: str = "") -> Message:
        """Wait for a bot message in the group that contains every one of `parts`."""

        def said() -> Message | None:
            for message in self.tg.messages(self.group, from_bot=True):
                if all(part in (message.text or "") for part in parts):
                    return message
            return None

        return await self.tg.wait_for(said, MOVE_WAIT, what or f"the group to be told {parts}")

    async def command(self, user: User, text: str, reply_starts: str) -> str:
        """`user` writes a command in the group; the text of the bot's reply, known by how it starts (the bot
        may still be sending other messages of the game to the group)."""
        said = self.tg.send_message(user, self.group, text, topic=self.topic)

        def reply() -> str | None:
            for message in self.tg.messages(self.group, from_bot=True):
                if message.message_id > said.message_id and (message.text or "").startswith(reply_starts):
                    return message.text
            return None

        return await self.tg.wait_for(reply, MOVE_WAIT, f"the reply to {text}")

    # -- acting

    async def hand_showing(self, user: User, condition: Callable[[HandCb], bool], what: str) -> tuple[Message, Json]:
        """Wait until the user's hand shows a button whose callback satisfies `condition`."""

        def found() -> tuple[Message, Json] | None:
            message = self.hand(user)
            if message is None:
                return None
            for candidate in buttons(message):
                data = hand_cb(candidate)
                if data is not None and condition(data):
                    return message, candidate
            return None

        return await self.tg.wait_for(found, MOVE_WAIT, what)

    async def tap(self, user: User, message: Message, pressed: Json) -> CallbackAnswer:
        query = self.tg.tap(user, message, text=str(pressed["text"]))
        answer = await self.tg.wait_answer(query, timeout=MOVE_WAIT)
        assert not answer.show_alert, f"{user.first_name} tapped {pressed['text']!r}: {answer.text}"
        return answer

    async def play(self, action: Action) -> None:
        """The action's player makes it through his hand's buttons: marks the cards one by one, then taps the
        action button, as a person does."""
        table = await self.table()
        user = self.by_seat[action.seat]
        version = table.version
        move = shown_move(table, action.seat)
        forced = False
        if isinstance(action, Lead):
            lead = offers(move, HandOp.PLAY, set(action.cards))
            message, _ = await self.hand_showing(
                user, lambda d: d.move == move and (d.op == HandOp.TOGGLE or lead(d)), f"{user.first_name}'s hand"
            )
            forced = not any((d := hand_cb(b)) is not None and d.op == HandOp.TOGGLE for b in buttons(message))
        if forced and isinstance(action, Lead):  # a forced lead is one button with its cards (issue #12)
            message, pressed = await self.hand_showing(user, offers(move, HandOp.PLAY, set(action.cards)), "lead")
        elif isinstance(action, Lead | RespondOpen | RespondFaceDown):
            chosen: set[Card] = set()
            for card in action.cards:
                after = chosen | {card}
                message, pressed = await self.hand_showing(
                    user, offers(move, HandOp.TOGGLE, after), f"{user.first_name}'s card {card}"
                )
                await self.tap(user, message, pressed)
                chosen = after
            op = HandOp.FACE_DOWN if isinstance(action, RespondFaceDown) else HandOp.PLAY
            message, pressed = await self.hand_showing(
                user, offers(move, op, chosen), f"{user.first_name}'s {op.name} button"
            )
        else:
            ops = {Claim: HandOp.CLAIM, Pass: HandOp.PASS, DeclareCombo: HandOp.COMBO}
            op = ops[type(action)]
            if op == HandOp.CLAIM and not isinstance(await self._claim_button(user, move), HandCb):
                # «Вскрываюсь!» asks once to confirm (issue #12): the first tap only turns the keyboard.
                message, pressed = await self.hand_showing(
                    user, offers(move, HandOp.CLAIM_ASK, None), f"{user.first_name}'s claim button"
                )
                await self.tap(user, message, pressed)
            message, pressed = await self.hand_showing(
                user, offers(move, op, None), f"{user.first_name}'s {op.name} button"
            )
        await self.tap(user, message, pressed)
        # An accepted tap is answered at once, before its move is committed.
        deadline = asyncio.get_running_loop().time() + MOVE_WAIT
        while (now := (await self.table()).version) == version and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)
        assert now == version + 1

    async def _claim_button(self, user: User, move: int) -> HandCb | None:
        """The confirmed claim's button if his hand shows it already (a final claim window may offer it at
        once), else None."""
        message, _ = await self.hand_showing(
            user, lambda d: d.move == move and d.op in (HandOp.CLAIM, HandOp.CLAIM_ASK), f"{user.first_name}'s claim"
        )
        found = [hand_cb(candidate) for candidate in buttons(message)]
        return next((d for d in found if d is not None and d.move == move and d.op == HandOp.CLAIM), None)

    async def move(self, chooser: Chooser = greedy) -> bool:
        """The player to act makes the move `chooser` picks; False once the match is over."""
        table = await self.table()
        if table.status is not TableStatus.PLAYING:
            return False
        match = await self.match()
        seat = match.to_act()
        assert seat is not None
        await self.play(chooser(match, seat))
        return True

    async def play_deal(self, chooser: Chooser = greedy) -> int:
        """Play the current deal to its end (or the match's); how many moves it took."""
        number = (await self.match()).deal_number
        moves = 0
        while (await self.match()).deal_number == number and await self.move(chooser):
            moves += 1
        return moves


async def seat_players(
    tg: FakeTelegram,
    storage: BotDatabase,
    count: int,
    *,
    title: str = "Бура у Ани",
    settings: Sequence[tuple[str, str]] = (),
    language: str = "ru",
    topic: str | None = None,
    admin: bool = False,
    may_end: bool = False,
) -> Players:
    """`count` people who all started the bot: the first opens a table with /new, sets `settings` (settings
    key and value code, bot/render/lobby.py) through the settings buttons, the others tap «join», she starts.

    The people's Telegram app is in `language`; with `topic`, the group is a forum where the bot is an admin, and
    the table is opened in a topic of that name (`Players.topic` holds its thread id). `admin`: the bot is made an
    admin of the group (it may pin the table), as it always is of a forum. `may_end`: the match may be over as it
    is dealt (a random deck and a one-deal match)."""
    names = NAMES if language == "ru" else ENGLISH_NAMES
    people = [tg.user(name, f"user{index}", language_code=language) for index, name in enumerate(names[:count])]
    if topic is None:
        group = tg.group(title, owner=people[0], members=people[1:])
        tg.add_bot(group, admin=admin)
    else:
        group = tg.forum(title, owner=people[0], members=people[1:])
        tg.add_bot(group, admin=True)
    await tg.wait_bot_message(group, timeout=MOVE_WAIT)  # the bot says hello
    thread = tg.topic(group, topic) if topic is not None else None
    for person in people:
        said = tg.start_bot(person)
        await tg.wait_bot_message(tg.private_chat(person), after=said, timeout=MOVE_WAIT)

    creator = people[0]
    said = tg.send_message(creator, group, "/new", topic=thread)
    lobby = await tg.wait_bot_message(group, after=said, timeout=MOVE_WAIT)
    join = lobby_button(lobby, LobbyOp.JOIN)
    assert join is not None, lobby.button_texts
    table_id = LobbyCb.unpack(str(join["callback_data"])).table
    if settings:
        await choose_settings(tg, creator, lobby, dict(settings))
    for person in people[1:]:
        pressed = lobby_button(lobby, LobbyOp.JOIN)
        assert pressed is not None, lobby.button_texts
        answer = await tg.wait_answer(tg.tap(person, lobby, text=str(pressed["text"])), timeout=MOVE_WAIT)
        assert not answer.show_alert and answer.url is None, answer
        await tg.wait_for(partial(_shows, lobby, person.first_name), MOVE_WAIT, f"{person.first_name} seated")

    start = lobby_button(lobby, LobbyOp.START)
    assert start is not None, lobby.button_texts
    started = await tg.wait_answer(tg.tap(creator, lobby, text=str(start["text"])), timeout=MOVE_WAIT)
    assert not started.show_alert, started.text
    table = await storage.get_table(table_id)
    assert table is not None
    # A random deck (the verifiable shuffle) may end a one-deal match as it is dealt (a dealt «Бура», RULES §7):
    # `may_end` takes that too, and then there is no hand to play.
    assert table.status is TableStatus.PLAYING or (may_end and table.status is TableStatus.FINISHED), table.status
    by_seat = {seat.seat: next(p for p in people if p.id == seat.user_id) for seat in table.seats}
    players = Players(tg, storage, by_seat, table_id, group, thread)
    if table.status is TableStatus.PLAYING:
        for person in people:
            await tg.wait_for(partial(players.hand, person), MOVE_WAIT, f"{person.first_name}'s hand")
    return players


def _shows(message: Message, text: str) -> bool:
    return text in (message.text or "")


async def choose_settings(tg: FakeTelegram, creator: User, lobby: Message, wanted: Mapping[str, str]) -> None:
    """The creator opens the settings menu in the lobby message; for each setting he taps its row, which opens
    its list of choices, and taps the wanted one (which brings the menu back); then «done». A key or code the
    table's menu does not offer times out waiting for its button."""
    opened = lobby_button(lobby, LobbyOp.SETTINGS)
    assert opened is not None, lobby.button_texts
    await tg.wait_answer(tg.tap(creator, lobby, text=str(opened["text"])), timeout=MOVE_WAIT)
    for key, code in wanted.items():
        row = await tg.wait_for(partial(setting_button, lobby, key, OPEN_CHOICES), MOVE_WAIT, f"the {key} row")
        await tg.wait_answer(tg.tap(creator, lobby, text=str(row["text"])), timeout=MOVE_WAIT)
        choice = await tg.wait_for(partial(setting_button, lobby, key, code), MOVE_WAIT, f"the {key} choice {code}")
        answer = await tg.wait_answer(tg.tap(creator, lobby, text=str(choice["text"])), timeout=MOVE_WAIT)
        assert not answer.show_alert, answer.text
        await tg.wait_for(partial(setting_button, lobby, DONE_KEY), MOVE_WAIT, f"the menu back after {key}")
    done = setting_button(lobby, DONE_KEY)
    assert done is not None, lobby.button_texts
    await tg.wait_answer(tg.tap(creator, lobby, text=str(done["text"])), timeout=MOVE_WAIT)
    await tg.wait_for(lambda: lobby_button(lobby, LobbyOp.START), MOVE_WAIT, "the lobby back from the settings")
