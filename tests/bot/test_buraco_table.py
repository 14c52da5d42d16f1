"""A Buraco table in the services (bot/games/buraco through bot/services): a turn the timer or a computer plays
is one commit (draw, melds and discard: one edit of the group's table), and it ends with a discard."""

from __future__ import annotations

from bot.games.buraco.game import BURACO
from bot.services.state import TableState
from bot.storage import Seat, TableStatus
from bot.table_settings import TableSettings
from bot.telegram.callbacks import LobbyOp
from engine.buraco.actions import Discard
from engine.buraco.events import DealScored, MortoTaken, RunExtended, SideScore
from engine.buraco.match import Match
from engine.core.cards import Suit
from tests.bot.test_services import ANNA, BORIS, GROUP, World, admin, playing_table, started, state_of, tap, world
from tests.engine.buraco.stack import run
from tests.matches import buraco_match

__all__ = ["world"]


SEATS = [
    Seat(seat=0, user_id=ANNA.user_id, name=ANNA.name),
    Seat(seat=1, user_id=BORIS.user_id, name=BORIS.name),
    Seat(seat=2, user_id=None, name="🤖 Робот 1"),
    Seat(seat=3, user_id=None, name="🤖 Робот 2"),
]
"""Anna and Boris, each with a computer partner (Anna's pair: seats 0 and 2)."""


async def buraco_table(world: World) -> None:
    """Anna and Boris with two computers at a Buraco table; Anna (left of the dealer) plays first."""
    table = await playing_table(world)
    seats = SEATS
    state = TableState(
        match=Match(seed="services", first_dealer=3),
        settings=TableSettings(),
        title="Друзья",
        computers=frozenset({2, 3}),
        game=BURACO,
    )
    committed = await world.storage.commit_move(
        table.table_id,
        table.version,
        state.to_json(),
        seats=seats,
        deadline=world.tables.core.deadline(table.model_copy(update={"seats": seats}), state),
    )
    assert committed.version == table.version + 1


async def test_the_timer_plays_a_whole_buraco_turn_in_one_commit(world: World) -> None:
    await buraco_table(world)
    before = await world.table()
    assert TableState.from_json(before.state or "").game is BURACO
    world.time.now += 61
    assert await world.tables.timers.fire_due() == 0  # a Buraco turn has two minutes (issue 37)
    world.time.now += 60
    assert await world.tables.timers.fire_due() == 1
    after = await world.table()
    match = buraco_match(state_of(after).match)
    assert after.version == before.version + 1, "one commit for the turn"
    assert match.actions and all(action.seat == 0 for action in match.actions)
    assert isinstance(match.actions[-1], Discard) and match.to_act() == 1
    await world.deliver()
    assert any("Бурако" in text for text in world.api.texts(ANNA.user_id))
    # the group is told the whole turn the timer played, not only its last move
    told = [text for text in world.api.texts(GROUP) if "время вышло" in text]
    assert told and "бот взял карту из колоды, " in told[-1] and ", сбросил " in told[-1], told


async def test_a_computers_buraco_turn_is_one_commit(world: World) -> None:
    await buraco_table(world)
    for _ in range(2):  # Anna and Boris let the timer play (it counts from when the hand reaches them)
        await world.deliver()
        world.time.now += 121  # a Buraco turn's two minutes
        assert await world.tables.timers.fire_due() == 1
    before = await world.table()
    assert buraco_match(state_of(before).match).to_act() == 2
    world.time.now += 2  # a computer's thinking time
    assert await world.tables.timers.fire_due() == 1
    after = await world.table()
    match = buraco_match(state_of(after).match)
    assert after.version == before.version + 1
    assert isinstance(match.actions[-1], Discard) and match.actions[-1].seat == 2 and match.to_act() == 3


async def test_the_lobby_offers_buraco_and_computers_fill_the_seats(world: World) -> None:
    # Issue #14: the lobby's list of games holds Бурако; two people sit as partners (RULES §17.1), computers in
    # the other two seats.
    await started(world, ANNA, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    table = await world.table()
    await world.tables.settings_menu.open(table.table_id, GROUP, ANNA, is_admin=admin(False), update_id=2)
    await world.tables.settings_menu.choose(
        table.table_id, "profile", "buraco", GROUP, ANNA, update_id=3, is_admin=admin(False)
    )
    await tap(world, LobbyOp.JOIN, BORIS, update_id=4)
    reply = await tap(world, LobbyOp.START, ANNA, update_id=5)
    assert not reply.alert, reply
    table = await world.table()
    assert table.status is TableStatus.PLAYING
    state = state_of(table)
    assert state.game is BURACO and state.game.key == "buraco"
    people = {seat.seat for seat in table.seats if seat.user_id is not None}
    assert people == {0, 2} and state.computers == frozenset({1, 3}) and len(table.seats) == 4
    await world.deliver()
    assert any("Бурако" in text for text in world.api.texts(GROUP))


async def test_a_turns_canastra_and_morto_are_one_quiet_group_message(world: World) -> None:
    """Issue 37, 5: a canastra and a morto rang the group each (48 of 49 messages rang for one player); a commit
    now tells them in one message, without a ring, and a deal's end in the same commit rings once for all."""
    await buraco_table(world)
    table = await world.table()
    state = state_of(table)
    tr = world.tables.core.translations.get("ru")
    canastra = run("3H 4H 5H 6H 7H 8H 9H", Suit.HEARTS, 3)
    made = [RunExtended(0, 0, 0, canastra.cards[-1], canastra), MortoTaken(0, 0, True)]
    sent = world.tables.core.messages.announcements(table, state, made, tr)
    assert len(sent) == 1 and sent[0].payload.get("disable_notification") is True
    text = str(sent[0].payload["text"])
    assert "чистая канастра" in text and "берёт морто" in text
    scored = DealScored(1, 0, (SideScore(180, 200, 100, 15, 0), SideScore(120, 0, 0, 40, 100)), (465, -20))
    sent = world.tables.core.messages.announcements(table, state, [*made, scored], tr)
    assert len(sent) == 1 and not sent[0].payload.get("disable_notification")
    assert "чистая канастра" in str(sent[0].payload["text"]) and "= +465" in str(sent[0].payload["text"])
