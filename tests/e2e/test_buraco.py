"""Buraco Aberto end to end (issue #14): a group's table with computers in the empty seats, played through the
strict fake Bot API to the deal's score. People play with their hand buttons: from the stock, then one card
marked and discarded; the computers meld, take piles and go out by themselves (one commit a turn)."""

from __future__ import annotations

import asyncio
import json
from functools import partial
from pathlib import Path
from typing import Any

from bot.games.buraco.buttons import HandButton, Op
from bot.games.buraco.game import BURACO
from bot.games.buraco.moves import BY_SUIT, Selection, display
from bot.i18n import Translations
from bot.services import TableState
from bot.services.messages import MoveMessages
from bot.storage import Seat, SqliteStorage, TableStatus
from bot.table_settings import TableSettings
from bot.telegram.callbacks import HandCb
from engine.buraco.actions import Action, DrawStock, KeepDrawn, NewRun
from engine.buraco.ai import EasyPlayer
from engine.buraco.deal import Phase
from engine.buraco.match import Match
from engine.buraco.melds import CANASTRA
from engine.buraco.views import seat_view
from tests.botapi import Chat, FakeTelegram, FloodPolicy, Message, User
from tests.e2e.conftest import SCALED, SEND_INTERVAL, BotProcess
from tests.e2e.harness import WAIT, Game, Json, buttons, hand_cb, open_game
from tests.matches import buraco_match

DEAL_SECONDS = 300.0  # a deal is some sixty turns, each computer's a (scaled: TIME_SCALE) second of thinking


async def press(game: Game, user: User, version: int, ops: tuple[str, ...]) -> str:
    """Tap the first button of the user's hand for move ``version`` whose op is the first of ``ops`` shown."""
    tg = game.tg
    op, message, data = await tg.wait_for(
        lambda: game.button_for(user, version, ops), WAIT, f"{user.first_name}'s {ops}"
    )
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
                return text if "Вы взяли из колоды " in text else None

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
    return kind in ("MortoTaken", "StockRenewed") or (kind == "RunExtended" and len(event["meld"]["cards"]) == CANASTRA)


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


def vulnerable_turn() -> tuple[Match, NewRun]:
    """A match whose pair of seat 0 is vulnerable (1,500 or more, RULES §17.5) and has not opened this deal, at
    seat 0's turn after the draw, with a run worth less than 75 to lay: the deals before played by the easy
    computer at every seat (a person's pair gets there only after several real deals)."""
    for number in range(30):
        match = Match(seed=f"vulnerable-{number}")
        while not match.finished and not match.deal.vulnerable[0]:
            match.apply(easy_choice(match))
        if match.finished:
            continue
        while match.to_act() != 0:
            match.apply(easy_choice(match))
        if not match.deal.drafting(0):
            continue
        match.apply(DrawStock(0))
        if match.deal.phase is Phase.FIRST_CHOICE:
            match.apply(KeepDrawn(0))
        short = [a for a in match.legal_actions(0) if isinstance(a, NewRun) and sum(c.value for c in a.laid) < 75]
        if short:
            return match, short[0]
    raise AssertionError("no vulnerable pair at its turn")


def easy_choice(match: Match) -> Action:
    seat = match.to_act()
    assert seat is not None
    return EasyPlayer().choose(seat_view(match, seat))


async def seat_at(database: Path, group: Chat, person: User, match: Match) -> int:
    """Put the person at seat 0 of a Buraco table in the group, three computers with him, the match as it is, and
    its table and hand in the outbox: the bot, started next, delivers them. Returns the table's id."""
    async with await SqliteStorage.open(database) as storage:
        await storage.upsert_chat(group.id)
        settings = TableSettings(profile="buraco", move_seconds=0)  # no timer plays the turn away
        lobby = await storage.create_table(group.id, person.id, settings.model_dump(mode="json"))
        seats = [Seat(seat=0, user_id=person.id, name=person.first_name)]
        seats += [Seat(seat=seat, user_id=None, name="🤖 Компьютер") for seat in (1, 2, 3)]
        table = lobby.model_copy(update={"seats": seats, "status": TableStatus.PLAYING})
        state = TableState(match=match, settings=settings, title="", computers=frozenset({1, 2, 3}), game=BURACO)
        messages = MoveMessages(storage, Translations())
        tr = Translations().get("ru")
        outbox = [
            *messages.table_message(table, state, tr, new=True),
            *await messages.hand_messages(table, state, lobby.version + 1, new=True),
        ]
        await storage.commit_move(
            lobby.table_id, lobby.version, state.to_json(), outbox=outbox, status=TableStatus.PLAYING, seats=seats
        )
        return lobby.table_id


async def test_a_short_opening_draft_refuses_a_discard_once_and_says_what_to_do(tmp_path: Path) -> None:
    """RULES §17.5: a vulnerable pair's first melds must make 75 at once. With a draft short of it the hand says
    the discard waits for 75 (or the draft is taken back) and offers no discard; a discard tapped all the same (a
    button of a moment before, a forged one) is refused with one alert that says why, and nothing else."""
    match, run = vulnerable_turn()
    points = sum(card.value for card in run.laid)
    tg = FakeTelegram()
    async with tg:
        anna = tg.user("Аня", "anna")
        group = tg.group("Стол", owner=anna)
        tg.add_bot(group)
        tg.start_bot(anna)
        bot = BotProcess(tg, tmp_path, env=SCALED)
        table_id = await seat_at(bot.database, group, anna, match)
        await bot.start()
        try:
            game = Game(tg, bot.database, group, [anna], table_id)
            game.by_seat = {0: anna}
            hand = await tg.wait_for(lambda: game.hand(anna), WAIT, "Anna's hand")
            shown = display(match.deal.hands[0], BY_SUIT)
            places: list[int] = []
            for card in run.laid:  # mark the run's cards one by one, as a person taps them
                places.append(next(p for p, c in enumerate(shown) if c is card and p not in places))
            marked = Selection(BY_SUIT, frozenset())
            for place in places:
                marked = marked.toggled(place)
                tap = await tg.wait_for(partial(found, game, anna, Op.TOGGLE, marked), WAIT, "a card to mark")
                assert not (await tg.wait_answer(tg.tap_data(anna, tap[0], tap[1]), timeout=WAIT)).show_alert
            version = game.version()
            tap = await tg.wait_for(lambda: found(game, anna, Op.MELD, marked), WAIT, "the run's button")
            assert not (await tg.wait_answer(tg.tap_data(anna, tap[0], tap[1]), timeout=WAIT)).show_alert
            await game.until(lambda: game.version() > version, "the draft")

            def drafted() -> Message | None:
                hand = game.hand(anna)
                return hand if hand is not None and "Первая выкладка: " in (hand.text or "") else None

            hand = await tg.wait_for(drafted, WAIT, "the hand with the draft")
            text = hand.text or ""
            assert f"Первая выкладка: {points} из 75 очков" in text, text
            assert "сбросить карту и закончить ход можно, когда первая выкладка наберёт 75 очков" in text, text
            ops = [data.op for b in buttons(hand) if (data := hand_cb(b)) is not None]
            assert Op.CANCEL in ops and Op.DISCARD not in ops, ops
            assert "Так нельзя" not in text, text
            # The group's table tells Anna's turn so far, and nothing of a draft (not on the table until made).
            await game.delivered()
            (line,) = [line for line in game.shown(group)[-1].split("\n") if line.startswith("Аня: ")]
            assert line == "Аня: берёт из колоды …", line
            # A discard tapped all the same: one card of the hand, at the move the hand shows.
            move = next(data.move for b in buttons(hand) if (data := hand_cb(b)) is not None)
            discard = HandButton(Op.DISCARD, Selection(BY_SUIT, frozenset({0}))).payload()
            version = game.version()
            answer = await tg.wait_answer(
                tg.tap_data(anna, hand, HandCb.data(table_id, move, Op.DISCARD, discard)), timeout=WAIT
            )
            assert answer.show_alert and answer.text == "Первая выкладка уязвимой пары — от 75 очков.", answer
            await game.delivered()
            assert game.version() == version  # nothing played
            after = game.hand(anna)
            assert after is not None and after.message_id == hand.message_id and after.text == hand.text
            # A card marked to discard: no discard button, and no refusal on top of the instruction.
            one = Selection(BY_SUIT, frozenset({0}))
            tap = await tg.wait_for(lambda: found(game, anna, Op.TOGGLE, one), WAIT, "a card to mark")
            assert not (await tg.wait_answer(tg.tap_data(anna, tap[0], tap[1]), timeout=WAIT)).show_alert

            def marked_one() -> Message | None:
                hand = game.hand(anna)
                return hand if hand is not None and "✅" in str(hand.button_texts) else None

            hand = await tg.wait_for(marked_one, WAIT, "the mark")
            text = hand.text or ""
            assert "сбросить карту и закончить ход можно, когда первая выкладка наберёт 75 очков" in text, text
            assert "Так нельзя" not in text and "уязвимой пары — от 75" not in text, text
            ops = [data.op for b in buttons(hand) if (data := hand_cb(b)) is not None]
            assert Op.DISCARD not in ops, ops
        finally:
            await bot.stop()
        assert "Traceback" not in bot.output()


def found(game: Game, user: User, op: Op, selection: Selection) -> tuple[Message, str] | None:
    """The user's hand and the data of its button ``op`` carrying ``selection`` (a meld's first plan)."""
    hand = game.hand(user)
    if hand is None:
        return None
    for b in buttons(hand):
        data = hand_cb(b)
        if data is None or data.op != op:
            continue
        size = len(display_size(hand))
        tapped = HandButton.read(data.op, data.cards, size)
        if tapped.selection == selection and tapped.plan == 0:
            return hand, str(b["callback_data"])
    return None


def display_size(hand: Message) -> list[Json]:
    """The hand's card buttons (one a card)."""
    return [b for b in buttons(hand) if (data := hand_cb(b)) is not None and data.op == Op.TOGGLE]
