"""Computer players at a table: seated from the lobby, moving on their own, /play against the computer."""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

from bot.games.bura.buttons import HandOp, pack_cards
from bot.games.bura.computer import computer_action
from bot.games.bura.game import BURA
from bot.services import Actor
from bot.services.computer import COMPUTER_SECONDS, Thinker
from bot.services.state import AWAY_AFTER_TIMEOUTS, AWAY_MOVE_SECONDS
from bot.storage import Deadline, Table, TableStatus
from bot.table_settings import ComputerLevel
from bot.telegram.callbacks import HandCb, LobbyOp
from engine.bura.actions import Action, Claim, DeclareCombo, Lead, Pass, RespondFaceDown, RespondOpen
from engine.bura.ai import Budget, HardPlayer
from engine.bura.events import DealEnded
from engine.bura.match import Match
from engine.bura.players import random_step
from engine.bura.variant import BURA_STANDARD
from engine.bura.views import SeatView
from tests.bot import test_services
from tests.bot.test_services import ANNA, BORIS, GROUP, World, started, state_of, tap
from tests.matches import bura_match

world = test_services.world  # the same fixture: a real SQLite storage, a recording Bot API, a fake clock


async def _anna_moves(world: World, table_id: int, chat_id: int, seat: int = 0, user: Actor = ANNA) -> None:
    """Anna (or ``user`` at ``seat``) taps the button of her first legal move that is not a claim."""
    table = await world.storage.get_table(table_id)
    assert table is not None
    match = bura_match(state_of(table).match)
    legal = [a for a in match.legal_actions(seat) if not isinstance(a, Claim)]
    action = legal[0]
    if isinstance(action, Lead | RespondOpen):
        data = HandCb(table=table_id, move=table.version, op=HandOp.PLAY, cards=pack_cards(action.cards))
    elif isinstance(action, RespondFaceDown):
        data = HandCb(table=table_id, move=table.version, op=HandOp.FACE_DOWN, cards=pack_cards(action.cards))
    else:
        assert isinstance(action, Pass)
        data = HandCb(table=table_id, move=table.version, op=HandOp.PASS)
    reply = await world.tables.game.tap(data, user)
    assert not reply.alert, reply


async def _play_first_deal(world: World, table_id: int, chat_id: int) -> int:
    """Play until the first deal ends: Anna taps, the computer moves when its timer fires. Computer moves."""
    computer_moves = 0
    for _ in range(200):
        table = await world.storage.get_table(table_id)
        assert table is not None and table.state is not None
        state = state_of(table)
        if bura_match(state.match).deal_number > 1 or bura_match(state.match).finished:
            return computer_moves
        if bura_match(state.match).to_act() == 0:
            await _anna_moves(world, table_id, chat_id)
        else:
            world.time.now += COMPUTER_SECONDS
            assert await world.tables.timers.fire_due() == 1
            computer_moves += 1
        await world.deliver()
    raise AssertionError("the deal did not end")


async def test_creator_seats_a_computer_that_then_plays_its_own_moves(world: World) -> None:
    await started(world, ANNA)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    reply = await tap(world, LobbyOp.ADD_COMPUTER, ANNA, update_id=2)
    assert not reply.alert
    table = await world.table()
    assert [(seat.seat, seat.user_id) for seat in table.seats] == [(0, ANNA.user_id), (1, None)]
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=3)).alert
    await world.deliver()
    table = await world.table()
    assert table.status is TableStatus.PLAYING
    assert state_of(table).computers == frozenset({1})
    state = state_of(table)
    while (
        bura_match(state.match).to_act() != 1
    ):  # no clock on the table while the computer thinks: it moves in a second
        await _anna_moves(world, table.table_id, GROUP)
        state = state_of(await world.table())
    tr = world.tables.core.translations.get("ru")
    assert "⏳" not in str(world.tables.core.messages.table_text(await world.table(), state, tr))
    moves = await _play_first_deal(world, table.table_id, GROUP)
    assert moves >= 1
    events = await world.storage.get_events(table.table_id)
    assert any(event.payload["type"] == "DealEnded" for event in events)
    # Only people get a hand message; the computer's seat has no chat.
    private_chats = {call.chat_id for call in world.api.calls if call.chat_id > 0}
    assert private_chats == {ANNA.user_id}


async def test_only_the_creator_or_an_admin_adds_a_computer(world: World) -> None:
    await started(world, ANNA, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    await tap(world, LobbyOp.JOIN, BORIS, update_id=2)
    reply = await tap(world, LobbyOp.ADD_COMPUTER, BORIS, update_id=3)
    assert reply.alert
    assert len((await world.table()).seats) == 2
    assert not (await tap(world, LobbyOp.ADD_COMPUTER, BORIS, update_id=4, is_admin=True)).alert
    assert len((await world.table()).seats) == 3


async def test_play_starts_a_game_against_the_computer_in_the_private_chat(world: World) -> None:
    reply = await world.tables.lobby.play_alone(ANNA, ComputerLevel.HARD, update_id=1)
    assert reply.text is None or not reply.alert
    table = await world.storage.get_open_table(ANNA.user_id)
    assert table is not None and table.status is TableStatus.PLAYING
    state = state_of(table)
    assert state.computers == frozenset({1})
    assert state.settings.computer_level is ComputerLevel.HARD
    await world.deliver()
    (message,) = world.api.texts(ANNA.user_id)  # the table and the hand in one message (issue #12, /play)
    assert "Против компьютера" in message and "Ваш ход" in message and "Сдаю" not in message
    again = await world.tables.lobby.play_alone(ANNA, None, update_id=2)
    assert again.text  # one game at a time: a clear answer, nothing new
    assert (await world.storage.get_open_table(ANNA.user_id)) == table
    moves = await _play_first_deal(world, table.table_id, ANNA.user_id)
    assert moves >= 1


def test_computer_action_is_legal_and_repeatable_for_both_levels() -> None:
    rng = random.Random(4)
    match = Match(BURA_STANDARD, 3, "computer")
    for _ in range(30):
        seat = match.to_act()
        assert seat is not None
        for level in ComputerLevel:
            first = computer_action(match, seat, level, seed="t/1")
            assert first in match.legal_actions(seat)
            assert computer_action(match, seat, level, seed="t/1") == first
        events = match.apply(random_step(match, rng))
        if any(isinstance(event, DealEnded) for event in events) or match.finished:
            break


@pytest.mark.parametrize(("players", "times", "horizon"), [(2, 3, 1), (3, 1, 0)])
def test_a_hard_computer_thinks_with_the_budget_for_its_table_size(
    players: int, times: int, horizon: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two-player Бура gets three times the base work and the learned value after a trick (engine Budget.default);
    a larger table the base with full playouts."""
    used: list[Budget] = []
    chooser = HardPlayer.choose

    def spy(self: HardPlayer, seat_view: SeatView) -> Action:
        used.append(self.budget)
        return chooser(self, seat_view)

    monkeypatch.setattr(HardPlayer, "choose", spy)
    match = Match(BURA_STANDARD, players, "budget")
    seat = match.to_act()
    assert seat is not None
    computer_action(match, seat, ComputerLevel.HARD, seed="t/2")
    assert used == [Budget(seed="t/2", horizon=horizon).scaled(times)]


async def test_a_computer_takes_over_the_seat_of_a_player_away_for_three_moves(world: World) -> None:
    """The bot issue's rule (three timeouts in a row: away) meets the takeover setting: the computer plays."""
    await started(world, ANNA, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    await tap(world, LobbyOp.JOIN, BORIS, update_id=2)
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=3)).alert
    await world.deliver()
    decided_by_computer = 0
    for _ in range(40):
        table = await world.table()
        state = state_of(table)
        seat = bura_match(state.match).to_act()
        assert seat is not None
        away = state.timeouts.get(seat, 0) + 1 >= 3
        expected = computer_action(
            bura_match(state.match), seat, state.settings.computer_level, f"{table.table_id}/{table.version}"
        )
        await world.deliver()  # a move timer counts from when the hand is shown
        world.time.now += state.settings.seconds() + 1
        assert await world.tables.timers.fire_due() == 1
        after = await world.storage.get_table(table.table_id)
        assert after is not None
        if after.status is not TableStatus.PLAYING:
            break  # everybody away: the table ends (the bot would otherwise play itself for ever)
        played = bura_match(state_of(after).match).actions[len(bura_match(state.match).actions)]
        if away:
            assert played == expected
            decided_by_computer += 1
    assert decided_by_computer >= 1


async def test_a_player_back_from_away_gets_his_seat_back_at_his_first_tap(world: World) -> None:
    """Anna times out three times in a row: the computer plays for her after a short wait. When she taps her hand
    again her move is hers, the count of timeouts starts again, and her next turn has the full move timer."""
    await started(world, ANNA, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    await tap(world, LobbyOp.JOIN, BORIS, update_id=2)
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=3)).alert
    await world.deliver()
    table_id = (await world.table()).table_id
    core = world.tables.core
    played_for_her = 0
    for _ in range(60):
        table = await world.table()
        state = state_of(table)
        assert table.status is TableStatus.PLAYING
        seat = bura_match(state.match).to_act()
        if seat == 1:
            await _anna_moves(world, table_id, GROUP, seat=1, user=BORIS)  # Boris is here all along
            continue
        assert seat == 0
        away = state.timeouts.get(0, 0) >= AWAY_AFTER_TIMEOUTS
        if away and played_for_her:
            assert core.deadline(table, state) == Deadline(
                seconds=AWAY_MOVE_SECONDS, shown_in=(ANNA.user_id, f"hand:{table_id}")
            )
            # The table tells the group how long this turn is: an away player's turn is short.
            assert "⏳ 5 с на ход" in str(core.messages.table_text(table, state, core.translations.get("ru")))
            break
        await world.deliver()  # a move timer counts from when the hand is shown
        world.time.now += (AWAY_MOVE_SECONDS if away else state.settings.seconds()) + 1
        assert await world.tables.timers.fire_due() == 1
        played_for_her += away
    else:
        raise AssertionError("Anna was never away at her turn")
    await _anna_moves(world, table_id, GROUP)  # she is back: her own tap, not the computer's move
    state = state_of(await world.table())
    assert 0 not in state.timeouts
    for _ in range(10):  # Boris plays until it is Anna's turn again: the full timer, not the short one
        if bura_match(state.match).to_act() == 0:
            break
        await _anna_moves(world, table_id, GROUP, seat=1, user=BORIS)
        state = state_of(await world.table())
    assert bura_match(state.match).to_act() == 0
    deadline = core.deadline(await world.table(), state)
    assert deadline is not None and deadline.seconds == state.settings.seconds() > AWAY_MOVE_SECONDS
    assert "⏳ 1 мин на ход" in str(core.messages.table_text(await world.table(), state, core.translations.get("ru")))


async def _anna_leads_against_a_stop_holder(world: World) -> Table:
    """Seed stop/118: Anna leads the first deal; the computer (seat 1) was dealt a combo that may seize the lead."""
    world.tables.core.test_seed = "stop/118"
    await started(world, ANNA)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    assert not (await tap(world, LobbyOp.ADD_COMPUTER, ANNA, update_id=2)).alert
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=3)).alert
    return await world.table()


async def test_a_computer_calls_stop_out_of_turn_after_its_thinking_time(world: World) -> None:
    """RULES §9.3, §10: a seizing combo may be shown in the pre-lead window by a seat that does not lead; the
    computer holding one decides (the easy player calls «Стоп!») once its thinking time is up, not only when
    the lead is its own."""
    table = await _anna_leads_against_a_stop_holder(world)
    match = bura_match(state_of(table).match)
    assert match.to_act() == 0
    assert any(isinstance(action, DeclareCombo) for action in match.legal_actions(1))
    [timer] = await world.storage.timers_due_by(world.time.now + COMPUTER_SECONDS)
    assert timer.table_id == table.table_id, "the computer's thinking time runs although Anna leads"
    world.time.now += COMPUTER_SECONDS
    assert await world.tables.timers.fire_due() == 1
    after = bura_match(state_of(await world.table()).match)
    assert isinstance(after.actions[-1], DeclareCombo) and after.actions[-1].seat == 1
    assert not any(isinstance(action, DeclareCombo) for action in after.legal_actions(1))
    assert state_of(await world.table()).timeouts == {}, "Anna was not charged a timeout"


async def test_a_person_who_leads_first_wins_the_race_against_the_computer(world: World) -> None:
    table = await _anna_leads_against_a_stop_holder(world)
    lead = next(a for a in bura_match(state_of(table).match).legal_actions(0) if isinstance(a, Lead))
    data = HandCb(table=table.table_id, move=table.version, op=HandOp.PLAY, cards=pack_cards(lead.cards))
    assert not (await world.tables.game.tap(data, ANNA)).alert
    after = bura_match(state_of(await world.table()).match)
    assert after.actions[-1] == lead
    assert after.to_act() == 1 and not any(isinstance(a, DeclareCombo) for a in after.legal_actions(1))


async def test_a_hard_computer_thinks_in_a_worker_process_and_decides_the_same() -> None:
    """The worker decides exactly as the bot's own process would (the same view, level and seed)."""
    match = Match(BURA_STANDARD, 2, "thinker")
    seat = match.to_act()
    assert seat is not None
    thinker = Thinker(processes=1)
    try:
        for level in ComputerLevel:
            assert await thinker.action(BURA.decision(match, seat, level, "t/1")) == computer_action(
                match, seat, level, "t/1"
            )
        assert thinker._pool is not None  # the hard decision went to a worker
    finally:
        thinker.close()


class _DeadPool(ThreadPoolExecutor):
    """A pool whose worker has died: every job fails as a broken process pool does."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_exception(BrokenProcessPool("a worker died"))
        return future


async def test_a_dead_worker_is_replaced_and_the_decision_still_made(caplog: pytest.LogCaptureFixture) -> None:
    made: list[int] = []

    def pool(processes: int) -> Executor:
        made.append(processes)
        return _DeadPool(processes)

    match = Match(BURA_STANDARD, 2, "thinker")
    seat = match.to_act()
    assert seat is not None
    thinker = Thinker(processes=2, pool=pool)
    expected = computer_action(match, seat, ComputerLevel.HARD, "t/2")
    assert await thinker.action(BURA.decision(match, seat, ComputerLevel.HARD, "t/2")) == expected
    assert await thinker.action(BURA.decision(match, seat, ComputerLevel.HARD, "t/2")) == expected
    assert made == [2, 2]  # a fresh pool after each death
    assert "worker process died" in caplog.text
    thinker.close()
