"""/play against the computer end to end (issue 37, 6): no move timer runs against the computer, and a deal's
result stays in the hand while the player marks his cards for the next deal's first move."""

from __future__ import annotations

import asyncio

import pytest

from bot.games.bura.buttons import HandOp
from bot.services import TableState
from tests.botapi import FakeTelegram, Message, User
from tests.e2e import test_game
from tests.e2e.conftest import SCALED, SEED, BotProcess, Launch
from tests.e2e.harness import buttons, hand_cb, play_alone
from tests.e2e.reader import BotDatabase
from tests.e2e.test_computer import _play_first_deal
from tests.e2e.test_game import MOVE_WAIT, Players

storage = test_game.storage  # a reader of the bot's database


def _shown(players: Players, user: User) -> str:
    hand = players.hand(user)
    return (hand.text or "") if hand is not None else ""


def _with(players: Players, user: User, label: str | None = None) -> Message | None:
    """The user's hand once it has a card to mark (``label``: once a card button's label holds it)."""
    hand = players.hand(user)
    if hand is None:
        return None
    cards = [b for b in buttons(hand) if (cb := hand_cb(b)) is not None and cb.op == HandOp.TOGGLE]
    if not cards or (label is not None and not any(label in str(b["text"]) for b in cards)):
        return None
    return hand


@pytest.fixture
async def bot(launch: Launch) -> BotProcess:
    return await launch(SEED, SCALED)


async def test_play_runs_no_timer_and_keeps_the_deals_result_while_marking(
    tg: FakeTelegram, bot: BotProcess, storage: BotDatabase
) -> None:
    players, table = await play_alone(tg, storage)
    anna = players.user(0)
    assert table.state is not None
    assert TableState.from_json(table.state).move_seconds() is None  # against the computer: no clock
    await _play_first_deal(players, {0})
    result = "Сдача 2. Сдаёт"  # the story of the deal's end and the next deal's start
    await tg.wait_for(lambda: result in _shown(players, anna), MOVE_WAIT, "the result")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + MOVE_WAIT
    while TableState.from_json((await players.table()).state or "").match.to_act() != 0:  # the computer leads
        assert loop.time() < deadline, "the computer did not lead"
        await asyncio.sleep(0.05)
    hand = await tg.wait_for(lambda: _with(players, anna), MOVE_WAIT, "Anna's cards to mark")
    assert result in (hand.text or "")
    card = next(b for b in buttons(hand) if (cb := hand_cb(b)) is not None and cb.op == HandOp.TOGGLE)
    assert not (await tg.wait_answer(tg.tap(anna, hand, text=str(card["text"])), timeout=MOVE_WAIT)).show_alert
    marked = await tg.wait_for(lambda: _with(players, anna, "✅"), MOVE_WAIT, "the mark")
    assert result in (marked.text or ""), marked.text  # a mark does not take the deal's result away
    assert not any("⏳" in (m.text or "") for m in tg.messages(tg.private_chat(anna), from_bot=True))
