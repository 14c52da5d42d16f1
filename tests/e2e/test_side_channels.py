"""No side channels (issue 35), end to end: the real `python -m bot` against the fake Bot API.

The player who does not lead holds a molodka and declines «Стоп!». That is a move (committed, the table's
version moves on), but nobody else can see it: the leader's hand message gets no call at all (an edit out of
nowhere would tell him "someone could have called"), the card he had marked stays marked, and the lead button
he had on screen before the decline plays his lead. The group's table message is not touched either.
"""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing

from bot.games.bura.buttons import HandOp
from bot.table_settings import TableSettings
from engine.bura.actions import Lead, Pass
from tests.botapi import FakeTelegram
from tests.e2e.conftest import Start
from tests.e2e.players import MOVE_WAIT, Players, find_seed, offers, seat_players
from tests.e2e.reader import BotDatabase
from tests.e2e.test_flows import molodka_for_the_other

MESSAGE_METHODS = {"sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage"}


async def delivered(storage: BotDatabase) -> None:
    """Wait until the bot has delivered everything it committed (its outbox, read from its database)."""

    def pending() -> int:
        with closing(sqlite3.connect(f"file:{storage.path}?mode=ro", uri=True, timeout=10)) as db:
            return int(db.execute("SELECT COUNT(*) FROM outbox WHERE NOT done").fetchone()[0])

    loop = asyncio.get_running_loop()
    deadline = loop.time() + MOVE_WAIT
    while pending():
        assert loop.time() < deadline, "the outbox did not drain"
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.3)  # a row is marked done after its call: let the last call land
    assert pending() == 0


async def test_declining_stop_edits_nothing_of_the_leaders(tg: FakeTelegram, start: Start) -> None:
    storage = await start(find_seed(TableSettings(), 2, molodka_for_the_other, prefix="stop"))
    players: Players = await seat_players(tg, storage, 2)
    match = await players.match()
    leader, other = players.user(match.deal.leader), players.user(1 - match.deal.leader)
    version = (await players.table()).version
    card = min(match.deal.hands[match.deal.leader])
    lead = Lead(match.deal.leader, (card,))
    assert lead in match.legal_actions(match.deal.leader)

    # The leader marks a card; his hand shows the lead button for it.
    message, mark = await players.hand_showing(leader, offers(version, HandOp.TOGGLE, {card}), "the leader's card")
    await players.tap(leader, message, mark)
    marked, play = await players.hand_showing(leader, offers(version, HandOp.PLAY, {card}), "the marked lead")
    await delivered(storage)
    before = len(tg.history)
    shown = (marked.text, marked.keyboard)

    # The other declines «Стоп!».
    hand, decline = await players.hand_showing(other, offers(version, HandOp.PASS, None), "the decline button")
    await players.tap(other, hand, decline)
    await players.hand_showing(other, lambda data: data.move == version + 1, "the decliner's hand without «Стоп!»")
    declined = await players.table()
    assert declined.version == version + 1
    assert (await players.match()).actions == [Pass(players.seat(other))]
    await delivered(storage)

    after = [request for request in tg.history[before:] if request.method in MESSAGE_METHODS]
    leaders = [request.method for request in after if request.params.get("chat_id") == leader.id]
    assert leaders == [], "the leader's chat was written to for a move he cannot see"
    group = [request.method for request in after if request.params.get("chat_id") == players.group.id]
    assert group == [], "the table message changed for a move nobody can see"
    assert (marked.text, marked.keyboard) == shown and not marked.deleted  # his mark is still there

    # The lead button he had before the decline plays his lead.
    await players.tap(leader, marked, play)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + MOVE_WAIT
    while (await players.table()).version == declined.version:
        assert loop.time() < deadline, "the lead was not committed"
        await asyncio.sleep(0.02)
    assert (await players.match()).actions == [Pass(players.seat(other)), lead]
