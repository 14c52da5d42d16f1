"""No side channels (issue 35): a move a player cannot see sends him nothing, and his buttons stay valid.

Declining «Стоп!» (a person's «Пас» or a computer's silent decision) and a step of Бурако's hidden opening
draft are moves: they are committed, the table's version moves on. Were every hand redrawn with the new move
number, the other players' hand messages would be edited with the same text and their marks cleared, and an
edit out of nowhere tells them "someone could have called". Each seat's buttons name the last move that changed
that seat's hand instead (`TableState.shown`); these tests hold the outbox to it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, cast

import pytest

from bot.games.base import ActionT, AnyGame, Decision, HandStory, Move, Redraw, Refused
from bot.games.bura.buttons import HandOp, pack_cards
from bot.games.bura.game import BURA
from bot.games.bura.settings import variant
from bot.games.buraco.game import BURACO
from bot.i18n import Translations
from bot.services import Reply
from bot.services.computer import COMPUTER_SECONDS, Thinker
from bot.services.messages import hand_ref, html_text
from bot.services.state import AnyState, TableState
from bot.storage import OutboxItem, Table, payload_digest
from bot.table_settings import TableSettings
from bot.telegram.callbacks import HandCb, LobbyOp
from engine.bura.actions import DeclareCombo, Lead, Pass
from engine.bura.combos import Combo
from engine.bura.match import Match
from engine.bura.players import random_step
from engine.bura.variant import BURA_STANDARD
from engine.buraco.actions import Discard, DrawStock, KeepDrawn, NewRun
from engine.buraco.match import Match as BuracoMatch
from engine.core.match import Match as AnyMatch
from tests.bot import test_services
from tests.bot.test_buraco_table import SEATS
from tests.bot.test_services import (
    ANNA,
    BORIS,
    GROUP,
    World,
    a_legal_play,
    playing_table,
    started,
    state_of,
    tap,
    user_of,
)
from tests.matches import bura_match, buraco_match

world = test_services.world  # a real SQLite storage, a recording Bot API behind the real sender, a fake clock


def molodka_against_the_leader(leader: int | None = None) -> Callable[[Match], bool]:
    """A first deal where the player who does not lead holds a molodka (and the leader no combo), so he may
    say «Стоп!» or decline it (RULES §9.2, §10 step 3); the leader is `leader` when given."""

    def wanted(match: Match) -> bool:
        deal = match.deal
        other = 1 - deal.leader
        return (
            (leader is None or deal.leader == leader)
            and DeclareCombo(other, Combo.MOLODKA) in match.legal_actions(other)
            and not any(isinstance(action, DeclareCombo) for action in match.legal_actions(deal.leader))
        )

    return wanted


def seed_for(wanted: Callable[[Match], bool], prefix: str) -> str:
    """The first seed the bot would deal a two-player Бура table from with `wanted` (as tests/e2e/players.py)."""
    for number in range(5000):
        seed = f"{prefix}-{number}"
        if wanted(Match(variant(TableSettings()), 2, seed)):
            return seed
    raise AssertionError(f"no seed for {prefix}")


async def queued(world: World) -> list[OutboxItem]:
    return await world.storage.fetch_outbox(now=1e12)


def to_chat(items: list[OutboxItem], user_id: int) -> list[OutboxItem]:
    """What is queued for the user's private chat (where his hand lives)."""
    return [item for item in items if item.chat_id == user_id]


def button(table: Table, seat: int, op: HandOp, cards: str = "") -> HandCb:
    """A button of the seat's hand as it shows now: it names the last move that changed the hand."""
    return HandCb(table=table.table_id, move=state_of(table).shown_move(seat, table.version), op=op, cards=cards)


async def test_declining_stop_sends_the_leader_nothing_and_his_marked_lead_still_plays(world: World) -> None:
    world.tables.core.test_seed = seed_for(molodka_against_the_leader(), "quiet-stop")
    table = await playing_table(world)
    match = bura_match(state_of(table).match)
    leader = match.deal.leader
    other = 1 - leader
    lead = next(a for a in match.legal_actions(leader) if isinstance(a, Lead) and len(a.cards) == 1)

    # The leader marks a card: only his hand is drawn again, with the lead button carrying the mark.
    mark = button(table, leader, HandOp.TOGGLE, pack_cards(lead.cards))
    assert await world.tables.game.tap(mark, user_of(table, leader), update_id=10) == Reply()
    await world.deliver()
    marked = world.api.to(user_of(table, leader).user_id)[-1]
    data = [HandCb.unpack(b["callback_data"]) for row in marked.payload["reply_markup"]["inline_keyboard"] for b in row]
    play = next(d for d in data if d.op == HandOp.PLAY)
    calls = len(world.api.calls)

    # The other player declines «Стоп!»: a move, committed, that the leader cannot see.
    timers = await world.storage.timers_due_by(1e12)
    assert len(timers) == 1 and timers[0].seconds == 60  # the leader's move timer
    world.time.now += 10
    decline = button(table, other, HandOp.PASS)
    assert await world.tables.game.tap(decline, user_of(table, other), update_id=11) == Reply()
    declined = await world.table()
    assert declined.version == table.version + 1
    assert Pass(other) in bura_match(state_of(declined).match).actions
    items = await queued(world)
    assert [item.chat_id for item in to_chat(items, user_of(table, leader).user_id)] == []
    assert [item.chat_id for item in items if item.ref == hand_ref(table.table_id)] == [user_of(table, other).user_id]
    await world.deliver()
    quiet = (user_of(table, leader).user_id, GROUP)  # his hand, nor the group's table (the same text: not sent)
    assert all(call.chat_id not in quiet for call in world.api.calls[calls:])
    assert state_of(declined).shown_move(leader, declined.version) == table.version  # his hand as it was
    # Nor does his move timer start again: a fresh one (and a second half-time reminder) would tell him as much.
    assert [(t.due_at, t.seconds, t.armed) for t in timers] == [
        (t.due_at, t.seconds, t.armed) for t in await world.storage.timers_due_by(1e12)
    ]

    # The button drawn before the decline (with his mark) does what it says.
    assert await world.tables.game.tap(play, user_of(table, leader), update_id=12) == Reply()
    after = await world.table()
    assert after.version == declined.version + 1
    assert bura_match(state_of(after).match).actions[-1] == lead


async def test_declining_stop_after_the_reminder_brings_the_leader_no_second_one(world: World) -> None:
    """The leader was reminded at half time; then the other player declines «Стоп!». His timer runs on as it ran
    (`Deadline.keep`), so no second reminder comes to tell him that something happened."""
    world.tables.core.test_seed = seed_for(molodka_against_the_leader(), "quiet-remind")
    table = await playing_table(world)
    match = bura_match(state_of(table).match)
    leader = match.deal.leader
    other = 1 - leader
    [timer] = await world.storage.timers_due_by(1e12)
    assert timer.armed
    world.time.now += 35  # past half of the minute
    assert await world.tables.timers.remind_due() == 1
    await world.deliver()
    decline = button(table, other, HandOp.PASS)
    assert await world.tables.game.tap(decline, user_of(table, other), update_id=11) == Reply()
    [kept] = await world.storage.timers_due_by(1e12)
    assert (kept.due_at, kept.seconds, kept.armed) == (timer.due_at, timer.seconds, True)
    world.time.now += 5
    assert await world.tables.timers.remind_due() == 0
    world.time.now = timer.due_at + 1  # and it runs out when it would have: the bot moves for him
    assert await world.tables.timers.fire_due() == 1
    await world.deliver()
    told = [c for c in world.api.to(user_of(table, leader).user_id) if "Осталось" in str(c.payload.get("text"))]
    assert len(told) == 1  # the one at half time


async def test_a_button_of_a_changed_hand_is_still_stale(world: World) -> None:
    """The decliner's own hand changed (no «Стоп!» any more): his old «Стоп!» button is refused as stale."""
    world.tables.core.test_seed = seed_for(molodka_against_the_leader(), "quiet-stop")
    table = await playing_table(world)
    other = 1 - bura_match(state_of(table).match).deal.leader
    stop = button(table, other, HandOp.COMBO)
    assert (
        await world.tables.game.tap(button(table, other, HandOp.PASS), user_of(table, other), update_id=10) == Reply()
    )
    reply = await world.tables.game.tap(stop, user_of(table, other), update_id=11)
    assert reply.alert and reply.text == "Эта кнопка устарела: стол уже изменился."
    assert (await world.table()).version == table.version + 1


async def test_a_state_stored_before_seats_kept_their_moves_still_plays(world: World) -> None:
    """A table stored by an older bot has no `shown`: it loads, its buttons (they named the table's version) still
    play, an older one is stale, and the move's commit records what each hand shows from then on."""
    table = await playing_table(world)
    data = json.loads(table.state or "")
    del data["table"]["shown"]
    old = await world.storage.commit_move(table.table_id, table.version, json.dumps(data, ensure_ascii=False))
    assert state_of(old).shown == {}
    actor, button = a_legal_play(old)
    assert button.move == old.version
    stale = await world.tables.game.tap(button.model_copy(update={"move": table.version}), actor, update_id=10)
    assert stale.alert and stale.text == "Эта кнопка устарела: стол уже изменился."
    assert await world.tables.game.tap(button, actor, update_id=11) == Reply()
    after = await world.table()
    assert after.version == old.version + 1
    assert {seat: shown.move for seat, shown in state_of(after).shown.items()} == {0: after.version, 1: after.version}


class Declining(Thinker):
    """A computer that declines every «Стоп!» it could say (as a hard one may: RULES §9.7, it is optional)."""

    async def action(self, decision: Decision[ActionT]) -> ActionT:
        chosen = await super().action(decision)
        return cast(ActionT, Pass(chosen.seat)) if isinstance(chosen, DeclareCombo) else chosen


async def test_a_computers_silent_pass_sends_the_player_nothing(world: World) -> None:
    world.tables.core.test_seed = seed_for(molodka_against_the_leader(leader=0), "quiet-computer")
    world.tables.game.thinker = Declining()
    await started(world, ANNA)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    assert not (await tap(world, LobbyOp.ADD_COMPUTER, ANNA, update_id=2)).alert
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=3)).alert
    await world.deliver()
    table = await world.table()
    assert bura_match(state_of(table).match).deal.leader == 0  # Anna leads; the computer (seat 1) may call
    calls = len(world.api.calls)
    world.time.now += COMPUTER_SECONDS
    assert await world.tables.timers.fire_due() == 1  # the computer's thinking time: it declines
    passed = await world.table()
    assert bura_match(state_of(passed).match).actions == [Pass(1)]
    assert to_chat(await queued(world), ANNA.user_id) == []
    await world.deliver()
    assert all(call.chat_id not in (ANNA.user_id, GROUP) for call in world.api.calls[calls:])  # nor the table
    # Her hand as it was: its buttons still play.
    match = bura_match(state_of(passed).match)
    lead = next(a for a in match.legal_actions(0) if isinstance(a, Lead))
    assert await world.tables.game.tap(button(passed, 0, HandOp.PLAY, pack_cards(lead.cards)), ANNA) == Reply()
    assert bura_match(state_of(await world.table()).match).actions[-1] == lead


async def drafting_table(world: World) -> tuple[Table, AnyState]:
    """Anna (seat 0, with a computer partner) and Boris (seat 1) at a Бурако table where Anna's pair is vulnerable
    (RULES §17.5), so her melds go into a hidden draft; she has drawn and may lay a run. The vulnerability is
    the state's in memory (a match reaches it at 1,500 points; its log would replay it only after whole deals)."""
    table = await playing_table(world)
    seats = SEATS
    for number in range(200):
        match = BuracoMatch(seed=f"draft-{number}", first_dealer=3)
        match.deal.vulnerable = (True, True)
        rng = random.Random(number)
        while match.to_act() == 0 and not any(isinstance(a, NewRun) for a in match.legal_actions(0)):
            draws = [a for a in match.legal_actions(0) if isinstance(a, DrawStock | KeepDrawn)]
            if not draws:
                break
            match.apply(rng.choice(draws))
        if any(isinstance(a, NewRun) for a in match.legal_actions(0)):
            break
    else:
        raise AssertionError("no deal with a run to lay")
    state = TableState(match=match, settings=TableSettings(), title="Друзья", computers=frozenset({2, 3}), game=BURACO)
    seated = table.model_copy(update={"seats": seats})
    core = world.tables.core
    shown = [
        *core.messages.table_message(seated, state, await core.chat_translator(GROUP)),
        *await core.messages.hand_messages(seated, state, table.version + 1, new=True),
    ]
    committed = await world.storage.commit_move(
        table.table_id, table.version, state.to_json(), outbox=shown, seats=seats
    )
    core.live.keep(committed, state)
    await world.deliver()
    return committed, state


async def test_a_step_of_the_hidden_opening_draft_sends_the_others_nothing(world: World) -> None:
    table, state = await drafting_table(world)
    game = world.tables.game
    match = buraco_match(state.match)
    run = next(a for a in match.legal_actions(0) if isinstance(a, NewRun))
    before = BURACO.before(match)
    events = match.apply(run)
    assert match.deal.drafting(0) and match.deal.runs[0], "the run went into the draft"
    calls = len(world.api.calls)
    committed = await game.commit_move(table, state, events, before)
    assert committed is not None
    items = await queued(world)
    assert [item.chat_id for item in items if item.ref == hand_ref(table.table_id)] == [ANNA.user_id]
    await world.deliver()
    assert all(call.chat_id not in (BORIS.user_id, GROUP) for call in world.api.calls[calls:])  # nor the table
    assert state.shown_move(1, committed.version) == table.version  # Boris's hand and buttons as they were


# -- why a button of an unchanged hand is safe ----------------------------------------------------------------

RU = Translations().get("ru")
NAMES = {0: "Аня", 1: "Борис", 2: "Вера", 3: "Глеб"}
TOGGLE = "t"  # marking a card, in both games' hands (bot/games/bura/buttons.py, bot/games/buraco/hand.py)


def _hand(game: AnyGame, match: AnyMatch[Any, Any], seat: int, selection: str = "") -> tuple[str, list[HandCb]]:
    """What the seat's hand shows (drawn at one move number, with no story) and its buttons."""
    text, markup = game.hand(
        match,
        seat,
        NAMES,
        RU,
        table_id=1,
        move=1,
        title="",
        selection=selection,
        paused=False,
        confirm=False,
        story=HandStory(),
    )
    rows = markup["inline_keyboard"]
    return payload_digest(html_text(text, markup)), [HandCb.unpack(str(b["callback_data"])) for r in rows for b in r]


def _meanings(game: AnyGame, match: AnyMatch[Any, Any], seat: int) -> tuple[str, dict[str, object]]:
    """What the seat's hand shows, and what each of its buttons means now: the buttons of the hand as drawn
    with each card marked too (a card's button carries the marks its tap makes, and the marked hand has its own)."""
    picture, buttons = _hand(game, match, seat)
    for selection in [b.cards for b in buttons if b.op == TOGGLE]:
        buttons += _hand(game, match, seat, selection)[1]
    meanings: dict[str, object] = {}
    for data in buttons:
        try:
            meanings[data.pack()] = game.tap(match, seat, data.op, data.cards)
        except ValueError:
            meanings[data.pack()] = ValueError
    return picture, meanings


def _bura_step(match: AnyMatch[Any, Any], rng: random.Random) -> Any:
    return random_step(bura_match(match), rng)  # any seat's move: «Стоп!» and its decline race the leader


def _buraco_step(match: AnyMatch[Any, Any], rng: random.Random) -> Any:
    seat = match.to_act()
    assert seat is not None
    legal = match.legal_actions(seat)
    discards = [a for a in legal if isinstance(a, Discard)]
    return rng.choice(discards if discards and rng.random() < 0.3 else legal)


def _vulnerable_buraco(seed: str) -> AnyMatch[Any, Any]:
    match = BuracoMatch(seed=seed)
    match.deal.vulnerable = (True, True)  # both pairs open through a hidden draft (RULES §17.5)
    return match


Step = Callable[[AnyMatch[Any, Any], random.Random], Any]
# game, a new match, a random move, and how many games of how many moves (a Бурако hand is long to draw marked)
GAMES: dict[str, tuple[AnyGame, Callable[[str], AnyMatch[Any, Any]], Step, int, int]] = {
    "bura-2": (BURA, lambda seed: Match(BURA_STANDARD, 2, seed), _bura_step, 20, 60),
    "bura-3": (BURA, lambda seed: Match(BURA_STANDARD, 3, seed), _bura_step, 12, 60),
    "buraco": (BURACO, _vulnerable_buraco, _buraco_step, 2, 30),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_button_of_an_unchanged_hand_means_after_a_move_what_it_meant(name: str) -> None:
    """Why a button may outlive the moves its player cannot see. A tap is still looked up among the engine's
    legal actions when it comes, so a button whose move became illegal would be refused with the engine's
    reason; but a hand is drawn from its seat's view alone (its legal moves included), so when a move leaves a
    hand looking the same, every button of it (of the hand as marked, too) means the same after the move as
    before, and a move it makes is legal. Random games, every seat after every move."""
    game, new_match, step, games, moves = GAMES[name]
    unchanged = 0
    for number in range(games):
        match = new_match(f"unchanged-{number}")
        rng = random.Random(number)
        seats = range(len(NAMES) if game is BURACO else bura_match(match).players)
        for _ in range(moves):
            if match.finished:
                break
            before = {seat: _meanings(game, match, seat) for seat in seats}
            match.apply(step(match, rng))
            for seat in seats:
                picture, meanings = _meanings(game, match, seat)
                if picture != before[seat][0]:
                    continue
                unchanged += 1
                assert meanings == before[seat][1], (name, number, seat)
                for meaning in meanings.values():
                    if meaning is ValueError or isinstance(meaning, Redraw | Refused):
                        continue
                    assert isinstance(meaning, Move), meaning
                    assert meaning.actions[0] in match.legal_actions(seat), (name, number, seat, meaning)
    assert unchanged > 0, "no move left a hand as it was"
