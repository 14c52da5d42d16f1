"""Hostile input: thousands of forged and random taps and junk commands change nothing and break nothing.

Taps carry random data (up to 64 bytes), wrong prefixes, other tables' ids, stale and future move numbers, hand
buttons with cards the player does not hold, lobby and settings buttons of tables that do not exist; they come
from the seated players (in their private chats and in the group), from a group member who is not seated and from
a stranger (in his own private chat, the only place he can tap). Junk commands go to the group and to private
chats. Afterwards the table's version and state are what they were, every tap was answered (no spinner left on a
phone), and nothing failed: no error logged, no Traceback, the process alive.

Most of it runs in this process through the real dispatcher (quick); a smaller run goes against `python -m bot`.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
import string
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass

import pytest

from bot.games.bura.buttons import HandOp
from bot.services import TableState
from bot.storage import SqliteStorage, TableStatus
from bot.telegram.callbacks import HandCb, LobbyCb, LobbyOp
from engine.bura.cards import Card, deck
from tests.botapi import CallbackQuery, Chat, FakeTelegram, Message, User
from tests.botapi.state import ChatType
from tests.e2e.conftest import BotProcess
from tests.e2e.harness import SEND_INTERVAL, WAIT, Game, open_game
from tests.e2e.test_robustness import Running, lobby_with_two, running  # noqa: F401 (a fixture)
from tests.matches import bura_match

ALPHABET = string.printable + "ЁЖЯжяё♠♥️★🂠\x00\u200b"
# Numbers no button of ours carries: past SQLite's 64-bit INTEGER, negative, signed, non-ASCII digits (Python's
# int() reads "٣" as 3, and "²".isdigit() is true), spaces, an empty one.
FORGED_NUMBERS = (
    "9" * 40,
    str(2**63),
    "-1",
    "-9223372036854775809",
    "+5",
    "٣",
    "²",
    "１２",
    " 7",
    "7 ",
    "",
    "0x1f",
    "1e3",
)


@pytest.fixture(autouse=True)
def _fast_sender(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEND_INTERVAL", SEND_INTERVAL)


@dataclass
class Target:
    """Where the hostile people tap: who, on which message."""

    user: User
    message: Message


def random_data(rng: random.Random) -> str:
    """Random text of at most 64 bytes in UTF-8, as callback data is."""
    text = "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 65)))
    while len(text.encode()) > 64:
        text = text[:-1]
    return text


def hostile_data(rng: random.Random, table_id: int, version: int, held: set[Card]) -> Iterator[str]:
    """An endless mix of forged callback data aimed at the table (at move `version`) and beside it."""
    others = [card for card in deck(36) if card not in held]
    ops = list(HandOp)
    while True:
        kind = rng.randrange(10)
        if kind == 0:
            yield random_data(rng)
        elif kind == 1:
            prefix = rng.choice(["x", "H", "hh", "", "l", "s", "h", "🂠", "h:", "l:", "s:"])
            yield (prefix + ":" + ":".join(str(rng.randrange(-5, 10**6)) for _ in range(rng.randrange(5))))[:64]
        elif kind == 2:  # another table, or a number no table id can be (too big, negative, not ASCII digits)
            table = rng.choice([str(table_id + 1), str(table_id + 1000), "0", *FORGED_NUMBERS])
            yield f"h:{table}:{version}:{rng.choice(ops).value}:"[:64]
        elif kind == 3:  # a stale, future or impossible move
            move = rng.choice([str(version - 1), str(version + 1), "0", str(2**40), *FORGED_NUMBERS])
            yield f"h:{table_id}:{move}:{rng.choice([HandOp.PLAY, HandOp.CLAIM, HandOp.PASS]).value}:"[:64]
        elif kind == 4:  # cards the player does not hold
            cards = "".join(card.code for card in rng.sample(others, rng.randrange(1, 4)))
            op = rng.choice([HandOp.TOGGLE, HandOp.PLAY, HandOp.FACE_DOWN])
            yield HandCb(table=table_id, move=version, op=op, cards=cards).pack()
        elif kind == 5:  # not cards at all (a claim or a pass ignores the cards: with them it is a real move)
            junk = rng.choice(["ZZ", "Q", "QSQS", "1S", "AS7", "as", "10H", "::", "QS" * 20])
            op = rng.choice([HandOp.TOGGLE, HandOp.PLAY, HandOp.FACE_DOWN])
            yield f"h:{table_id}:{version}:{op.value}:{junk}"[:64]
        elif kind == 6:  # a lobby that does not exist, or one no id can name
            table = rng.choice([str(table_id + 1), "999999", "0", *FORGED_NUMBERS])
            yield f"l:{rng.choice(list(LobbyOp)).value}:{table}"[:64]
        elif kind == 7:  # the lobby of the table in play: no joining, starting or leaving now
            yield LobbyCb(op=rng.choice(list(LobbyOp)), table=table_id).pack()
        elif kind == 8:  # settings of a table in play, or of none, or with values that are no choice
            table = rng.choice([str(table_id), str(table_id + 1), *FORGED_NUMBERS])
            key = rng.choice(["match", "timer", "zz", "profile"])
            yield f"s:{table}:{key}:{rng.choice(['9', '²', '10' * 30])}"[:64]
        else:  # a well-formed hand button with a wrong operation code
            yield f"h:{table_id}:{version}:{rng.choice('xyzq')}:"


JUNK_COMMANDS = (
    "/new",
    "/bura",
    "/stop",  # not from the creator: from him it is no junk
    "/start j999999",
    "/start jjj",
    "/start j²",
    "/start j" + "9" * 40,
    "/start j-5",
    "/start j٣",
    "/start j9223372036854775808",
    "/start " + "x" * 60,
    "/score@bura_test_bot extra words",
    "/settings",
    "/addbot",  # the game is on: refused, nothing changes
    "/addbot hard " + "x" * 40,
    "/help",
    "/top",
    "/stats",
    "/nonsense",
    "/new@another_bot",
    "/" + "a" * 32,
)


def answered(queries: list[CallbackQuery]) -> Callable[[], bool]:
    return lambda: all(query.answer for query in queries)


async def hammer(tg: FakeTelegram, targets: list[Target], data: Iterator[str], taps: int, batch: int) -> int:
    """Send `taps` forged taps in batches; every one must be answered. Returns how many were alerts."""
    alerts = 0
    for start in range(0, taps, batch):
        queries: list[CallbackQuery] = []
        for n in range(start, min(taps, start + batch)):
            target = targets[n % len(targets)]
            queries.append(tg.tap_data(target.user, target.message, next(data)))
        try:
            await tg.wait_for(answered(queries), WAIT, "every forged tap to be answered")
        except TimeoutError:
            unanswered = [(q.user.first_name, q.message.chat.type.value, q.data) for q in queries if not q.answer]
            raise AssertionError(f"{len(unanswered)} taps left spinning, such as {unanswered[:12]}") from None
        alerts += sum(bool(query.answer and query.answer.show_alert) for query in queries)
    return alerts


STAND_INS = ("channel", "anonymous", "forward")  # tests/botapi/people.py `post_as`


def forged_invitations(rng: random.Random, table_ids: list[int], count: int) -> Iterator[str]:
    """Start payloads that look like a table's invitation (bot/services/invites.py) and are not one: bare ids
    (the old links), made-up signatures, signatures of the wrong table, numbers no id can be."""
    alphabet = string.ascii_letters + string.digits + "_-"
    for _ in range(count):
        table = rng.choice([*(str(t) for t in table_ids), "0", "01", *(n for n in FORGED_NUMBERS if n.strip())])
        mac = "".join(rng.choice(alphabet) for _ in range(rng.choice([0, 15, 16, 17, 40])))
        yield (f"j{table}_{mac}" if mac or rng.random() < 0.5 else f"j{table}").replace(" ", "")[:64] or "j"


def junk(
    tg: FakeTelegram,
    rng: random.Random,
    people: list[tuple[User, list[Chat]]],
    groups: Sequence[Chat] = (),
    table_ids: Sequence[int] = (),
) -> int:
    """Junk commands from people, and from Telegram's stand-ins for chats (a channel's post, an anonymous admin,
    a linked channel's forward) in `groups`; forged numbers and invitations in start payloads. Returns the
    count of messages sent."""
    sent = 0
    for user, chats in people:
        for text in rng.sample(JUNK_COMMANDS, 6):
            tg.send_message(user, rng.choice(chats), text)
            sent += 1
        for chat in chats:
            if chat.type is ChatType.PRIVATE:  # every forged number in a start payload, in every private chat
                for number in FORGED_NUMBERS:
                    if number.strip():
                        tg.send_message(user, chat, f"/start j{number}")
                        sent += 1
                for payload in forged_invitations(rng, list(table_ids) or [1], 100):
                    tg.send_message(user, chat, f"/start {payload}")
                    sent += 1
    for group in groups:
        for kind in STAND_INS:
            for text in rng.sample(JUNK_COMMANDS, 8):
                tg.post_as(kind, group, text)
                sent += 1
    return sent


def rows_of(storage: SqliteStorage, sql: str) -> list[tuple[object, ...]]:
    """Rows read straight from the bot's database file, past its own caches."""
    with closing(sqlite3.connect(f"file:{storage.database.path}?mode=ro", uri=True)) as db:
        return db.execute(sql).fetchall()


STAND_IN_IDS = "(136817688, 1087968824, 777000)"


async def test_thousands_of_forged_taps_in_process(running: Running, caplog: pytest.LogCaptureFixture) -> None:  # noqa: F811
    tg, storage = running.tg, running.storage
    anna, boris, lobby, table_id = await lobby_with_two(running)
    group = lobby.chat
    carl, stranger = tg.user("Карл"), tg.user("Чужой")
    group.members[carl.id] = group.members[boris.id]  # in the group, not at the table
    for user in (carl, stranger):
        said = tg.start_bot(user)
        await tg.wait_bot_message(tg.private_chat(user), after=said, timeout=WAIT)
    start = LobbyCb(op=LobbyOp.START, table=table_id).pack()
    assert not (await tg.wait_answer(tg.tap_data(anna, lobby, start), timeout=WAIT)).show_alert
    table = await storage.get_table(table_id)
    assert table is not None and table.status is TableStatus.PLAYING and table.state is not None

    def hand(user: User) -> Message | None:
        return next((m for m in tg.messages(tg.private_chat(user), from_bot=True) if m.keyboard), None)

    hands = {user.id: await tg.wait_for(lambda user=user: hand(user), WAIT, "a hand") for user in (anna, boris)}  # type: ignore[misc]
    table_message = await tg.wait_for(lambda: tg.last_message(group, from_bot=True), WAIT, "the table")
    own = tg.messages(tg.private_chat(stranger), from_bot=True)[-1]
    targets = [
        Target(anna, hands[anna.id]),
        Target(boris, hands[boris.id]),
        Target(anna, table_message),
        Target(boris, lobby),  # deleted by now: the tap arrives with an inaccessible message
        Target(carl, table_message),
        Target(carl, tg.messages(tg.private_chat(carl), from_bot=True)[-1]),
        Target(stranger, own),
    ]
    rng = random.Random(7)
    match = bura_match(TableState.from_json(table.state).match)
    held = {card for cards in match.deal.hands.values() for card in cards}
    with caplog.at_level(logging.WARNING):
        tables_before = rows_of(storage, "SELECT table_id, version, status FROM tables ORDER BY table_id")
        alerts = await hammer(tg, targets, hostile_data(rng, table_id, table.version, held), taps=3000, batch=250)
        people = [(anna, [tg.private_chat(anna)]), (boris, [group]), (carl, [group]), (stranger, [own.chat])]
        sent = junk(tg, rng, people, groups=[group], table_ids=[table_id, table_id + 1])
        assert sent > 250
        said = tg.send_message(carl, group, "/score")
        await tg.wait_bot_message(group, after=said, timeout=WAIT)
        await asyncio.sleep(0.5)

    after = await storage.get_table(table_id)
    assert after is not None
    assert (after.version, after.state, after.status) == (table.version, table.state, table.status)
    assert alerts > 2000  # a refusal says so, rather than a silent toast
    # Nothing the strangers and stand-ins sent created a table, a seat or a user row.
    assert rows_of(storage, "SELECT table_id, version, status FROM tables ORDER BY table_id") == tables_before
    assert rows_of(storage, f"SELECT user_id FROM users WHERE user_id IN {STAND_IN_IDS}") == []
    assert rows_of(storage, f"SELECT table_id FROM seats WHERE user_id IN ({stranger.id}, {carl.id})") == []
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not failures, [r.getMessage() for r in failures[:5]]
    assert not [r for r in tg.history if not r.ok and r.method != "answerCallbackQuery"]


async def test_forged_taps_against_the_process(tg: FakeTelegram, bot: BotProcess) -> None:
    game = await open_game(tg, bot.database, players=2, settings={"match": "one", "timer": "0"})
    stranger = tg.user("Чужой")
    said = tg.start_bot(stranger)
    own = await tg.wait_bot_message(tg.private_chat(stranger), after=said, timeout=WAIT)
    status, version, state = game.row()
    assert state is not None
    hands = [hand for user in game.people if (hand := game.hand(user)) is not None]
    table_message = tg.last_message(game.group, from_bot=True)
    assert table_message is not None and len(hands) == 2
    targets = [Target(game.people[0], hands[0]), Target(game.people[1], table_message), Target(stranger, own)]
    match = bura_match(TableState.from_json(state).match)
    held = {card for cards in match.deal.hands.values() for card in cards}
    rng = random.Random(11)
    await hammer(tg, targets, hostile_data(rng, game.table_id, version, held), taps=300, batch=100)
    junk(tg, rng, [(game.people[1], [game.group]), (stranger, [own.chat])])
    await game.delivered()

    assert game.row() == (status, version, state)
    assert bot.process is not None and bot.process.returncode is None
    assert "Traceback" not in bot.output() and " ERROR " not in bot.output(), bot.output()[-3000:]
    await finish_normally(game)


async def finish_normally(game: Game) -> None:
    """And the game goes on as if nothing happened."""
    assert await game.play_to_end() > 0
