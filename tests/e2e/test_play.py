"""/play against the computer end to end (issue 37, 6): no move timer runs against the computer, and a deal's
result stays in the hand while the player marks his cards for the next deal's first move."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.games.bura.buttons import HandOp
from bot.services import TableState
from bot.storage import SqliteStorage, Table, TableStatus
from bot.telegram.callbacks import PlayCb
from tests.botapi import FakeTelegram, Message, User
from tests.e2e import test_game
from tests.e2e.conftest import SCALED, SEED, BotProcess, Launch
from tests.e2e.harness import buttons, hand_cb, play_alone
from tests.e2e.reader import BotDatabase
from tests.e2e.test_computer import _play_first_deal
from tests.e2e.test_game import MOVE_WAIT, Players
from tests.matches import bura_match

storage = test_game.storage  # a reader of the bot's database
PLAY = PlayCb().pack()  # «🔁 Сыграть ещё»: /play's button


async def one_deal_played_alone(
    tg: FakeTelegram, launch: Launch, tmp_path: Path, user: User, seed: str
) -> tuple[BotProcess, Table]:
    """The bot started with ``seed``; ``user`` plays /play, a match of one deal (set for his chat before the bot
    starts, as /settings would set a group's), to its end: the bot and the finished table."""
    async with await SqliteStorage.open(tmp_path / "data" / "bura.sqlite3") as prepared:
        await prepared.upsert_chat(user.id)
        await prepared.set_chat_settings(user.id, {"options": {"match": "one"}})
    bot = await launch(seed, SCALED)
    chat = tg.private_chat(user)
    await tg.wait_bot_message(chat, after=tg.start_bot(user), timeout=MOVE_WAIT)
    said = tg.send_message(user, chat, "/play")
    await tg.wait_bot_message(chat, after=said, timeout=MOVE_WAIT)
    async with BotDatabase(bot.database) as storage:
        # A random deck (no fixed seed) may end the one deal as it is dealt (a dealt «Бура», RULES §7).
        table = await storage.get_open_table(chat.id) or await storage.last_finished_table(chat.id)
        assert table is not None
        players = Players(tg, storage, {0: user}, table.table_id)
        if table.status is TableStatus.PLAYING:
            await tg.wait_for(lambda: players.hand(user), MOVE_WAIT, f"{user.first_name}'s hand")
            await _play_first_deal(players, {0})
        finished = await players.table()
        assert finished.status is TableStatus.FINISHED
    return bot, finished


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


async def test_another_game_after_a_play_match_ends_starts_a_new_match(
    tg: FakeTelegram, launch: Launch, tmp_path: Path
) -> None:
    """Issue 37, 6: a /play match over, «🔁 Сыграть ещё» under its last word starts a new match in the same chat,
    with the chat's settings: the hand shows the new match's first deal, with cards to play."""
    anna = tg.user("Аня", "anna")
    bot, first = await one_deal_played_alone(tg, launch, tmp_path, anna, SEED)
    chat = tg.private_chat(anna)
    async with BotDatabase(bot.database) as storage:

        def again() -> Message | None:
            found = [
                m for m in tg.messages(chat, from_bot=True) if any(b.get("callback_data") == PLAY for b in buttons(m))
            ]
            return found[-1] if found and "матч" in (found[-1].text or "") else None

        last = await tg.wait_for(again, MOVE_WAIT, "the match's last word with «Сыграть ещё»")
        answer = await tg.wait_answer(tg.tap(anna, last, text="🔁 Сыграть ещё"), timeout=MOVE_WAIT)
        assert not answer.show_alert, answer.text

        async def opened() -> Table | None:
            table = await storage.get_open_table(chat.id)
            return table if table is not None and table.table_id != first.table_id else None

        loop = asyncio.get_running_loop()
        deadline = loop.time() + MOVE_WAIT
        while (second := await opened()) is None:
            assert loop.time() < deadline, "no new match"
            await asyncio.sleep(0.05)
        assert second.status is TableStatus.PLAYING and second.state is not None
        match = bura_match(TableState.from_json(second.state).match)
        assert match.deal_number == 1 and not match.finished  # a fresh match at its first deal
        renewed = Players(tg, storage, {0: anna}, second.table_id)
        hand = await tg.wait_for(lambda: _with(renewed, anna), MOVE_WAIT, "the new match's hand with cards")
        assert "Сдача 1" in (hand.text or ""), hand.text
    assert "Traceback" not in bot.output()
