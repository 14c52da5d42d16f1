"""Бура end to end: people in a group and in their private chats play the real bot over the fake Bot API.

The players decide from the table's state in the database (what a careful player would know: his hand, the
trick, the points he took) and act only by tapping the buttons the bot showed them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import pytest

from bot.callbacks import HandCb, HandOp, LobbyCb, LobbyOp
from bot.services import TableState
from bot.storage import SqliteStorage, Table, TableStatus
from engine.actions import Action, Claim, Lead, Pass, RespondFaceDown, RespondOpen
from engine.cards import Card, points, set_beats
from engine.deal import Phase
from engine.match import Match
from tests.botapi import FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess

Json = dict[str, object]
MOVE_WAIT = 15.0  # the bot paces itself (SEND_INTERVAL in conftest.py), but a busy machine may be slow


@pytest.fixture
async def storage(bot: BotProcess) -> AsyncIterator[SqliteStorage]:
    """A reader of the bot's database (WAL lets it read while the bot writes)."""
    async with await SqliteStorage.open(bot.database) as reader:
        yield reader


def _buttons(message: Message) -> list[Json]:
    return [button for row in message.keyboard for button in row]


def _hand_cb(button: Json) -> HandCb | None:
    data = str(button.get("callback_data", ""))
    return HandCb.unpack(data) if data.startswith("h:") else None


def _button(message: Message, wanted: Callable[[str], bool]) -> Json | None:
    return next((b for b in _buttons(message) if wanted(str(b.get("callback_data", "")))), None)


@dataclass
class Players:
    tg: FakeTelegram
    storage: SqliteStorage
    by_seat: dict[int, User]
    table_id: int

    async def table(self) -> Table:
        table = await self.storage.get_table(self.table_id)
        assert table is not None
        return table

    def hand(self, user: User) -> Message | None:
        """The bot's hand message in the user's private chat."""
        for message in reversed(self.tg.messages(self.tg.private_chat(user), from_bot=True)):
            if any(_hand_cb(button) for button in _buttons(message)):
                return message
        return None

    async def hand_showing(self, user: User, condition: Callable[[HandCb], bool], what: str) -> tuple[Message, Json]:
        """Wait until the user's hand shows a button whose callback satisfies `condition`."""

        def found() -> tuple[Message, Json] | None:
            message = self.hand(user)
            if message is None:
                return None
            for button in _buttons(message):
                data = _hand_cb(button)
                if data is not None and condition(data):
                    return message, button
            return None

        return await self.tg.wait_for(found, MOVE_WAIT, what)

    async def tap(self, user: User, message: Message, button: Json) -> None:
        query = self.tg.tap(user, message, text=str(button["text"]))
        answer = await self.tg.wait_answer(query, timeout=MOVE_WAIT)
        assert not answer.show_alert, f"{user.first_name} tapped {button['text']!r}: {answer.text}"

    async def move(self) -> bool:
        """The player to act makes one move through his buttons; False once the match is over."""
        table = await self.table()
        if table.status is not TableStatus.PLAYING:
            return False
        assert table.state is not None
        match = TableState.from_json(table.state).match
        seat = match.to_act()
        assert seat is not None
        user = self.by_seat[seat]
        action = choose(match, seat)
        move = table.version
        if isinstance(action, Lead | RespondOpen | RespondFaceDown):
            chosen: set[Card] = set()
            for card in action.cards:  # mark the cards one by one, as a person does
                after = chosen | {card}
                message, button = await self.hand_showing(
                    user, _offers(move, HandOp.TOGGLE, after), f"{user.first_name}'s card {card}"
                )
                await self.tap(user, message, button)
                chosen = after
            op = HandOp.FACE_DOWN if isinstance(action, RespondFaceDown) else HandOp.PLAY
            message, button = await self.hand_showing(
                user, _offers(move, op, chosen), f"{user.first_name}'s {op.name} button"
            )
        else:
            op = HandOp.CLAIM if isinstance(action, Claim) else HandOp.PASS
            message, button = await self.hand_showing(
                user, _offers(move, op, None), f"{user.first_name}'s {op.name} button"
            )
        await self.tap(user, message, button)  # answered after the commit: the next read sees the move
        assert (await self.table()).version == move + 1
        return True


def _offers(move: int, op: HandOp, cards: set[Card] | None) -> Callable[[HandCb], bool]:
    """A button of this move and kind (with exactly these cards, unless None)."""

    def check(data: HandCb) -> bool:
        return data.move == move and data.op is op and (cards is None or set(_cards(data)) == cards)

    return check


def _cards(data: HandCb) -> tuple[Card, ...]:
    return tuple(Card.parse(data.cards[i : i + 2]) for i in range(0, len(data.cards), 2))


def choose(match: Match, seat: int) -> Action:
    """A plain greedy player: claims with 31 in his pile, takes points when he can beat, leads one low card."""
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


async def open_table(tg: FakeTelegram, storage: SqliteStorage) -> Players:
    """Anna opens a table in the group; Boris, who never talked to the bot, joins through the deep link."""
    anna, boris = tg.user("Аня", "anna"), tg.user("Борис", "boris")
    group = tg.group("Друзья <3", owner=anna, members=[boris])
    tg.add_bot(group)
    await tg.wait_bot_message(group, timeout=MOVE_WAIT)  # the bot says hello
    tg.start_bot(anna)
    await tg.wait_bot_message(tg.private_chat(anna), timeout=MOVE_WAIT)

    said = tg.send_message(anna, group, "/new")
    lobby = await tg.wait_bot_message(group, after=said, timeout=MOVE_WAIT)
    join = _button(lobby, lambda d: d.startswith("l:") and LobbyCb.unpack(d).op is LobbyOp.JOIN)
    assert join is not None, lobby.button_texts
    table_id = LobbyCb.unpack(str(join["callback_data"])).table
    answer = await tg.wait_answer(tg.tap(boris, lobby, text=str(join["text"])))
    assert answer.url == f"https://t.me/{tg.bot.username}?start=j{table_id}"

    tg.start_bot(boris, payload=f"j{table_id}")
    await tg.wait_bot_message(tg.private_chat(boris), timeout=MOVE_WAIT)
    await tg.wait_for(lambda: "Борис" in (lobby.text or ""), MOVE_WAIT, "Boris in the lobby")

    start = _button(lobby, lambda d: d.startswith("l:") and LobbyCb.unpack(d).op is LobbyOp.START)
    assert start is not None
    refused = await tg.wait_answer(tg.tap(boris, lobby, text=str(start["text"])))
    assert refused.show_alert  # neither the creator nor an admin
    started = await tg.wait_answer(tg.tap(anna, lobby, text=str(start["text"])))
    assert not started.show_alert
    table = await storage.get_table(table_id)
    assert table is not None and table.status is TableStatus.PLAYING
    by_seat = {seat.seat: anna if seat.user_id == anna.id else boris for seat in table.seats}
    players = Players(tg, storage, by_seat, table_id)
    for user in (anna, boris):
        await tg.wait_for(_hand_of(players, user), MOVE_WAIT, f"{user.first_name}'s hand")
    await tg.wait_for(lambda: lobby.deleted, MOVE_WAIT, "the lobby message to go")
    return players


def _hand_of(players: Players, user: User) -> Callable[[], Message | None]:
    return lambda: players.hand(user)


async def deal_number(players: Players) -> int:
    table = await players.table()
    assert table.state is not None
    return TableState.from_json(table.state).match.deal_number


async def test_two_players_play_a_deal_from_new_to_its_end(
    tg: FakeTelegram, bot: BotProcess, storage: SqliteStorage
) -> None:
    players = await open_table(tg, storage)
    group = next(chat for chat in tg.world.chats.values() if chat.title == "Друзья <3")
    table_message = await tg.wait_for(
        lambda: next((m for m in tg.messages(group, from_bot=True) if "Друзья" in (m.text or "")), None),
        MOVE_WAIT,
        "the table message",
    )
    assert "Друзья <3" in (table_message.text or "")  # the title is escaped, not mangled

    moves = 0
    while await deal_number(players) == 1 and await players.move():
        moves += 1
    assert moves > 0
    events = await storage.get_events(players.table_id)
    assert any(event.payload["type"] == "DealEnded" for event in events)
    # The group heard the result and the next deal; the table message was edited in place all along.
    await tg.wait_for(lambda: table_message.edit_date, MOVE_WAIT, "the table message to be edited")
    assert len(tg.messages(group, from_bot=True)) < moves  # one live message, not one per move
    top = await storage.top_stats(group.id)
    assert sum(stats.deals_played for stats in top) == 2


async def test_a_restart_in_the_middle_of_a_deal_resumes_it(
    tg: FakeTelegram, bot: BotProcess, storage: SqliteStorage
) -> None:
    players = await open_table(tg, storage)
    for _ in range(3):
        assert await players.move()
    before = await players.table()
    hands = {seat: players.hand(user) for seat, user in players.by_seat.items()}
    await bot.stop()
    await bot.start()
    while await deal_number(players) == 1 and await players.move():
        pass
    after = await players.table()
    assert after.version > before.version
    assert after.state is not None and before.state is not None
    replayed = TableState.from_json(after.state).match
    assert replayed.actions[: len(TableState.from_json(before.state).match.actions)] == (
        TableState.from_json(before.state).match.actions
    )
    # The same hand messages went on being edited: nothing was dealt again after the restart.
    for seat, user in players.by_seat.items():
        assert players.hand(user) is hands[seat]
