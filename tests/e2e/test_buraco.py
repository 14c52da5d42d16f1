"""Buraco Aberto end to end (issue #14): a group's table with computers in the empty seats, played through the
strict fake Bot API to the deal's score. People play with their hand buttons: from the stock, then one card
marked and discarded; the computers meld, take piles and go out by themselves (one commit a turn)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from bot.games.buraco.buttons import Op
from bot.services import TableState
from bot.storage import TableStatus
from engine.buraco.deal import Phase
from tests.botapi import FakeTelegram, FloodPolicy, Message, User
from tests.e2e.conftest import SCALED, SEND_INTERVAL, BotProcess
from tests.e2e.harness import WAIT, Game, buttons, hand_cb, open_game
from tests.matches import buraco_match

DEAL_SECONDS = 300.0  # a deal is some sixty turns, each computer's a (scaled: TIME_SCALE) second of thinking


async def press(game: Game, user: User, version: int, ops: tuple[str, ...]) -> str:
    """Tap the first button of the user's hand for move ``version`` whose op is the first of ``ops`` shown."""
    tg = game.tg

    def found() -> tuple[str, Message, str] | None:
        message = game.hand(user)
        if message is None:
            return None
        shown = [(data.op, b) for b in buttons(message) if (data := hand_cb(b)) is not None and data.move == version]
        for op in ops:
            for data_op, b in shown:
                if data_op == op:
                    return op, message, str(b["callback_data"])
        return None

    op, message, data = await tg.wait_for(found, WAIT, f"{user.first_name}'s {ops}")
    answer = await tg.wait_answer(tg.tap_data(user, message, data), timeout=WAIT)
    assert not answer.show_alert, answer.text
    return op


async def play_first_deal(game: Game) -> tuple[int, int]:
    """The first deal to its score; returns (the people's turns, the computers')."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEAL_SECONDS
    people = computers = 0
    while True:
        assert loop.time() < deadline, "the deal did not end"
        status, version, state = game.row()
        assert state is not None
        match = buraco_match(TableState.from_json(state).match)
        if status != TableStatus.PLAYING.value or match.deal_number >= 1:
            return people, computers
        seat = match.to_act()
        assert seat is not None
        user = game.by_seat.get(seat)
        if user is None:
            await game.until(lambda v=version: game.version() > v, "a computer's turn")  # type: ignore[misc]
            computers += 1
            continue
        phase = match.deal.phase
        if phase is not Phase.MELD:
            await press(game, user, version, (Op.KEEP,) if phase is Phase.FIRST_CHOICE else (Op.STOCK,))
            await game.until(lambda v=version: game.version() > v, "the draw")  # type: ignore[misc]
            continue
        await press(game, user, version, (Op.TOGGLE,))  # mark the first card ...
        await press(game, user, version, (Op.DISCARD,))  # ... and discard it (its button comes with the mark)
        await game.until(lambda v=version: game.version() > v, "the discard")  # type: ignore[misc]
        people += 1


async def a_deal(tg: FakeTelegram, tmp_path: Path, people: int) -> None:
    async with tg:
        bot = BotProcess(tg, tmp_path, env=SCALED)
        await bot.start()
        try:
            game = await open_game(tg, bot.database, players=people, settings={"profile": "buraco"})
            table = await game.table()
            assert len(table.seats) == 4 and sum(seat.user_id is None for seat in table.seats) == 4 - people
            human, computer = await play_first_deal(game)
            assert human > 0 and computer > 0
            await tg.wait_for(
                lambda: any("Сдача 1 окончена" in text for text in game.group_texts()), WAIT, "the deal's score"
            )
            # The deal counts in each person's Buraco tally, apart from any Bura he plays in the chat.
            played = game.query("SELECT user_id, game, value FROM tallies WHERE name = 'deals_played'")
            people_ids = sorted(user.id for user in game.by_seat.values())
            assert sorted((row["user_id"], row["game"], row["value"]) for row in played) == [
                (user_id, "buraco", 1) for user_id in people_ids
            ]
        finally:
            await bot.stop()
        assert "Traceback" not in bot.output()
    scored = next(text for text in game.group_texts() if "Сдача 1 окончена" in text)
    assert scored.count(" = ") == 2, scored  # each pair's score, term by term (RULES §17.7)


def strict() -> FakeTelegram:
    """Telegram's flood limits at the bot's own pacing (SEND_INTERVAL stands for a second): at real time, the
    bot's sends (paced at SEND_INTERVAL) were refused and waited a real second again and again, two minutes of
    a deal's two and a half."""
    return FakeTelegram(flood_policy=FloodPolicy.scaled(SEND_INTERVAL))


async def test_one_person_and_three_computers_play_a_deal_to_its_score(tmp_path: Path) -> None:
    await a_deal(strict(), tmp_path, people=1)


async def test_two_people_and_two_computers_play_a_deal_to_its_score(tmp_path: Path) -> None:
    await a_deal(strict(), tmp_path, people=2)


async def test_the_hand_shows_the_pile_both_pairs_runs_and_the_card_drawn(tmp_path: Path) -> None:
    """Issue 37, 5: the group's table is among many messages, so the hand carries what a turn needs of it."""
    tg = FakeTelegram()
    async with tg:
        bot = BotProcess(tg, tmp_path, env=SCALED)
        await bot.start()
        try:
            game = await open_game(tg, bot.database, players=1, settings={"profile": "buraco"})
            (seat, user), *_ = game.by_seat.items()
            loop = asyncio.get_running_loop()
            deadline = loop.time() + DEAL_SECONDS
            while True:
                assert loop.time() < deadline, "no turn of the person's came"
                _, version, state = game.row()
                assert state is not None
                match = buraco_match(TableState.from_json(state).match)
                if match.to_act() != seat:
                    await game.until(lambda v=version: game.version() > v, "a computer's turn")  # type: ignore[misc]
                    continue
                phase = match.deal.phase
                if phase is Phase.MELD:
                    break
                await press(game, user, version, (Op.KEEP,) if phase is Phase.FIRST_CHOICE else (Op.STOCK,))
                await game.until(lambda v=version: game.version() > v, "the draw")  # type: ignore[misc]

            def drawn() -> str | None:
                hand = game.hand(user)
                text = hand.text or "" if hand is not None else ""
                return text if "Новая карта из колоды: " in text else None

            text = await tg.wait_for(drawn, WAIT, "the hand after the draw")
            assert "Сброс" in text and "Ваши ряды" in text and "Ряды соперников" in text, text
            assert text.index("Сброс") < text.index("Ваши ряды") < text.index("Ваши карты"), text
        finally:
            await bot.stop()
        assert "Traceback" not in bot.output()


RINGING = frozenset({"DealStarted", "DealScored", "MatchEnded"})


def is_news(event: dict[str, Any]) -> bool:
    """A morto taken, a run grown to a canastra (seven cards, RULES §17.4), a stock renewed from a morto: what a
    commit tells the group quietly, in one message however many of them it holds."""
    kind = event["type"]
    return kind in ("MortoTaken", "StockRenewed") or (kind == "RunExtended" and len(event["meld"]["cards"]) == 7)


async def test_a_canastra_or_a_morto_is_one_quiet_message_for_its_commit(tmp_path: Path) -> None:
    """Issue 37: a canastra, a morto, a renewed stock each rang the group. Now a commit with any of them sends the
    group one quiet message, whatever number of them it holds; a deal's start and end ring."""
    tg = strict()
    async with tg:
        bot = BotProcess(tg, tmp_path, env=SCALED)
        await bot.start()
        try:
            game = await open_game(tg, bot.database, players=1, settings={"profile": "buraco"})
            await play_first_deal(game)
            await game.delivered()
            commits: dict[float, list[dict[str, Any]]] = {}  # a commit's events share its time
            rows = game.query(
                "SELECT payload, created_at FROM events WHERE table_id = ? ORDER BY seq", (game.table_id,)
            )
            for row in rows:
                commits.setdefault(float(row["created_at"]), []).append(json.loads(row["payload"]))
            quiet = {
                at: events
                for at, events in commits.items()
                if any(is_news(event) for event in events) and not any(event["type"] in RINGING for event in events)
            }
            assert quiet, "no canastra, morto or renewed stock in the deal"
            for at, events in quiet.items():
                sent = game.query(
                    "SELECT payload FROM outbox WHERE chat_id = ? AND created_at = ? AND kind = 'send' AND ref IS NULL",
                    (game.group.id, at),
                )
                news = sum(is_news(event) for event in events)
                assert len(sent) == 1, (events, sent)  # one message for the commit, not one per event
                payload = json.loads(sent[0]["payload"])
                assert payload.get("disable_notification") is True, payload
                assert len(str(payload["text"]).split("\n")) == news, (payload, events)  # a line each
            refs = game.query(
                "SELECT message_id FROM message_refs WHERE chat_id = ? AND purpose = 'table'", (game.group.id,)
            )
            table = {row["message_id"] for row in refs}
            told = [
                message
                for message in tg.messages(game.group, from_bot=True)
                if message.message_id not in table
                and any(word in (message.text or "") for word in ("берёт морто", "канастра", "стало колодой"))
                and "Сдача" not in (message.text or "")
            ]
            assert len(told) == len(quiet), [message.text for message in told]
            assert not any(message.notified for message in told), [message.text for message in told]
        finally:
            await bot.stop()
        assert "Traceback" not in bot.output()
