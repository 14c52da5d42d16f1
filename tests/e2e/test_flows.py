"""The flows the bot must support, end to end: the real `python -m bot` against the fake Bot API, driven only as
people would (commands in the group, taps on the buttons of the lobby and of their hands, the deep link).

Each scenario gets its deal by its shuffle seed: `find_seed` searches seeds offline with the engine for a first
deal that has what the test needs (a dealt bura, a molodka for the player who does not lead, a claim over
face-down cards), and the bot is started with that seed. The assertions are on what the chats show.
"""

from __future__ import annotations

import asyncio
import re

from bot.games.bura.buttons import HandOp
from bot.games.bura.cards import BACK, cards_text
from bot.games.bura.settings import MatchChoice, Profile, variant
from bot.i18n import Translations
from bot.storage import TableStatus
from bot.table_settings import TableSettings
from bot.telegram.callbacks import HandCb, LobbyCb, LobbyOp
from engine.bura.actions import Claim, DeclareCombo, Lead
from engine.bura.combos import Combo
from engine.bura.events import Claimed, ComboShown, DealEnded, OutcomeKind
from engine.bura.match import Match
from tests.botapi import FakeTelegram, Message
from tests.e2e.conftest import SCALED, Launch, Start
from tests.e2e.players import (
    MOVE_WAIT,
    Players,
    claiming_at_once,
    find_seed,
    greedy,
    hand_cb,
    lobby_button,
    offers,
    play_offline,
    seat_players,
)
from tests.e2e.reader import BotDatabase

RU = Translations().get("ru")


def claimed_in_first_deal(match: Match) -> bool:
    """The greedy players end the first deal with a rightful «Вскрываюсь!» (and the next deal is no dealt bura)."""
    if match.deal.over:
        return False
    events = play_offline(match, greedy)
    return len(match.outcomes) == 1 and any(isinstance(event, Claimed) and event.success for event in events)


async def test_a_single_deal_match_is_played_to_its_end(tg: FakeTelegram, start: Start) -> None:
    """Single deal set through the settings buttons; the deal played out to a claim ends the match: the group
    hears the winner, the table says it is over, and /score, /stats and /top (by rating) tell the result."""
    settings = TableSettings(options={"match": MatchChoice.SINGLE_DEAL})
    storage = await start(find_seed(settings, 2, claimed_in_first_deal, prefix="single"))
    players = await seat_players(tg, storage, 2, settings=[("match", MatchChoice.SINGLE_DEAL.value)])
    await players.table_shows("одна сдача")  # the table names the match the settings made

    moves = await players.play_deal(greedy)
    assert moves > 0
    match = await players.match()
    assert match.finished and len(match.winners) == 1
    winner = players.user(match.seats_of(match.winners[0])[0])
    loser = next(user for user in players.by_seat.values() if user != winner)
    await players.group_says("«Вскрываюсь!»", "✅")
    await players.group_says(f"🏆 {winner.first_name} выигрывает матч!")
    assert (await players.table()).status is TableStatus.FINISHED
    await players.table_shows("Матч окончен.")

    score = await players.command(loser, "/score", "🏁")
    assert "Сейчас здесь не играют. Последний матч окончен:" in score  # no table is open: the last match's result
    assert f"{winner.first_name} 1" in score, score
    mine = await players.command(winner, "/stats", "📊")
    assert mine.splitlines()[:2] == [f"📊 {winner.first_name}", "Бура — матчи: 1 из 1 · сдачи: 1 из 1"], mine
    theirs = await players.command(loser, "/stats", "📊")
    assert theirs.splitlines()[1:] == ["Бура — матчи: 0 из 1 · сдачи: 0 из 1"], theirs
    top = await players.command(loser, "/top", "🏆 Лучшие")
    # A match of people is rated: the chart goes by rating, with the matches won (tests/e2e/test_ratings.py).
    assert [re.sub(r"\d{3,4}", "N", line) for line in top.splitlines()] == [
        "🏆 Лучшие игроки чата по рейтингу (рейтинг · матчи)",
        "Бура",
        f"1. {winner.first_name} — N · 1/1",
        f"2. {loser.first_name} — N · 0/1",
    ]


def robber_match_ends(match: Match) -> bool:
    """Deal 1 played out to a claim, then every leader claims at once (falsely) until the match is over."""
    if not claimed_in_first_deal(match):
        return False
    play_offline(match, claiming_at_once, deals=30)
    return match.finished and len(match.actions) < 60


async def test_a_small_robber_match_is_played_to_eleven(tg: FakeTelegram, start: Start) -> None:
    """The default match (to 11 won deals, a lead of 2) played to its end: the first deal is played out, every
    later one the leader ends at once with a false «Вскрываюсь!» (so that the match takes seconds, not an hour).
    Each deal's score line reaches the group; the last one names the match winner."""
    storage = await start(find_seed(TableSettings(), 2, robber_match_ends, prefix="robber"))
    players = await seat_players(tg, storage, 2)
    await players.table_shows("матч до 11 побед")
    await players.play_deal(greedy)
    await players.group_says("«Вскрываюсь!»", "✅", "Матч: ")
    first = await players.match()
    assert first.deal_number == 2 and sorted(first.scores) == [0, 1]
    score = await players.command(players.user(0), "/score", "📋")
    assert score.startswith("📋 Счёт матча · сдача 2"), score

    while await players.move(claiming_at_once):
        pass
    match = await players.match()
    assert match.finished and max(match.scores) == 11 and max(match.scores) - min(match.scores) >= 2
    winner = players.user(match.seats_of(match.winners[0])[0])
    final = await players.group_says(f"🏆 {winner.first_name} выигрывает матч!")
    assert f"Матч: {winner.first_name} 11 (+1)" in (final.text or ""), final.text
    assert "вскрытие ложное — сдача проиграна." in (final.text or "")
    await players.table_shows("Матч окончен.")
    stats = await players.command(winner, "/stats", "📊")
    assert f"Бура — матчи: 1 из 1 · сдачи: 11 из {match.deal_number}" in stats, stats


def face_down_in_the_claim(match: Match) -> bool:
    """Greedy players end the first deal with a rightful claim over a pile that holds face-down cards."""
    if match.deal.over:
        return False
    return any(
        isinstance(event, Claimed) and event.success and any(card.face_down for card in event.pile)
        for event in play_offline(match, greedy)
    )


async def test_three_players_discard_face_down_and_a_claim_reveals_them(tg: FakeTelegram, start: Start) -> None:
    """Three players; whoever cannot beat discards face down («Сбросить втёмную»); the claim shows the claimant's
    pile with the face-down cards revealed (🂠→card) and the points it counts."""
    storage = await start(find_seed(TableSettings(), 3, face_down_in_the_claim, prefix="three"))
    players = await seat_players(tg, storage, 3)
    await players.play_deal(greedy)
    events = await storage.get_events(players.table_id)
    claimed = next(event.payload for event in events if event.payload["type"] == "Claimed")
    claimant = players.user(int(str(claimed["seat"])))
    face_down = [entry for entry in claimed["pile"] if entry[1]]  # PileCard as JSON: [card, face_down, played_by]
    assert face_down
    said = await players.group_says(f"{claimant.first_name}: «Вскрываюсь!»", "✅")
    assert (said.text or "").count(BACK + "→") == len(face_down), said.text
    assert f"= {claimed['points']} очк" in (said.text or "")
    assert f"Сдачу берёт {claimant.first_name}." in (said.text or "")
    # Nobody saw the discarded cards in the table message while the deal went on: only backs.
    assert any(BACK in (request.params.get("text") or "") for request in tg.calls("editMessageText"))


def played_out_with_a_loser(match: Match) -> bool:
    if match.deal.over:
        return False
    events = play_offline(match, greedy)
    return any(
        isinstance(event, DealEnded)
        and event.outcome.kind is OutcomeKind.PLAYED_OUT
        and len(event.outcome.winners) == 1
        for event in events
    )


async def test_burkozel_two_against_two_is_played_out_to_penalties(tg: FakeTelegram, start: Start) -> None:
    """Four players, the Буркозёл profile chosen with the settings button: partners 0+2 against 1+3, four cards,
    discards only face down, no claims; the deal is played out and the group hears the points and the penalties."""
    settings = TableSettings(profile=Profile.BURKOZEL)
    storage = await start(find_seed(settings, 4, played_out_with_a_loser, prefix="bk"))
    players = await seat_players(tg, storage, 4, settings=[("profile", Profile.BURKOZEL.value)])
    assert (await players.match()).teams
    await players.table_shows("Буркозёл")
    await players.play_deal(greedy)
    match = await players.match()
    assert match.deal_number == 2 and sorted(match.scores)[0] == 0 and max(match.scores) > 0
    loser = max(range(2), key=lambda side: match.scores[side])
    partners = [players.user(seat).first_name for seat in match.seats_of(loser)]
    said = await players.group_says("Сдача сыграна. Очки:", "Штрафные (до 12):")
    penalty = next(line for line in (said.text or "").splitlines() if line.startswith("Штрафные"))
    assert all(name in penalty for name in partners), penalty
    assert f"(+{match.scores[loser]})" in penalty, penalty
    assert "Сдачу берут" in (said.text or "")


def dealt_bura(match: Match) -> bool:
    return any(isinstance(event, ComboShown) and event.combo is Combo.BURA for event in match.start_events)


async def test_a_dealt_bura_wins_the_deal_at_once(tg: FakeTelegram, start: Start) -> None:
    """A bura in the dealt hand wins the deal before anyone moves: the group sees «Бура!» with the three trumps,
    the deal's winner and the next deal; /stats counts the bura."""
    seed = find_seed(TableSettings(), 2, dealt_bura, prefix="bura")
    shown = next(e for e in Match(variant(TableSettings()), 2, seed).start_events if isinstance(e, ComboShown))
    storage = await start(seed)
    players = await seat_players(tg, storage, 2)
    holder = players.user(shown.seat)
    said = await players.group_says(f"{holder.first_name}: «Бура!»")
    text = said.text or ""
    assert cards_text(shown.cards, RU) in text, text
    assert f"Сдачу берёт {holder.first_name}." in text
    assert "Сдача 2" in text  # and the next deal is dealt at once
    assert (await players.match()).deal_number == 2
    stats = await players.command(holder, "/stats", "📊")
    assert "сдачи: 1 из 1 · буры: 1" in stats, stats


def false_claim_after_one_trick(match: Match) -> bool:
    """The first trick, played greedily, leaves the deal on, and its taker's pile short of 31."""
    if match.deal.over:
        return False
    for _ in range(2):
        seat = match.to_act()
        assert seat is not None
        match.apply(greedy(match, seat))
    deal = match.deal
    if deal.over or match.deal_number != 1 or deal.trick is not None:
        return False
    leader = match.to_act()
    return leader is not None and 0 < deal.pile_points(match.side_of(leader)) < 31


async def test_a_claim_asks_once_and_a_false_one_loses_the_deal(tg: FakeTelegram, start: Start) -> None:
    """«Вскрываюсь!» is a one-tap loss no more (issue #12): not offered with no trick taken; tapped, it asks to
    confirm with the number of tricks; «Отмена» brings the hand back; confirmed, a false claim shows the pile, loses
    the deal, and the score and the tally count it."""
    storage = await start(find_seed(TableSettings(), 2, false_claim_after_one_trick, prefix="false"))
    players = await seat_players(tg, storage, 2)
    first = await players.match()
    leader = first.to_act()
    assert leader is not None
    hand = players.hand(players.user(leader))
    assert hand is not None and HandOp.CLAIM_ASK not in {data.op for data in hand_cbs(hand)}
    assert "Вскрываюсь!" not in str(hand.button_texts)  # no trick taken: a claim could only be false
    for _ in range(2):
        await players.move(greedy)
    match = await players.match()
    leader = match.to_act()
    assert leader is not None
    claimant, other = players.user(leader), players.user(1 - leader)
    version = (await players.table()).version
    message, ask = await players.hand_showing(claimant, offers(version, HandOp.CLAIM_ASK, None), "the claim")
    assert ask["text"] == "Вскрываюсь!" and message.keyboard[-1] == [ask]  # alone, on the bottom row
    await players.tap(claimant, message, ask)
    await tg.wait_for(lambda: "Вскрыться? Взяток: 1." in (message.text or ""), MOVE_WAIT, "the question")
    assert message.button_texts == [["✅ Вскрываюсь", "Отмена"]]
    assert (await players.table()).version == version  # asking played nothing
    await players.tap(claimant, message, message.keyboard[0][1])
    await tg.wait_for(lambda: "Вскрываюсь!" in str(message.button_texts), MOVE_WAIT, "the hand back")
    assert (await players.table()).version == version

    await players.play(Claim(leader))  # asks again, then confirms
    said = await players.group_says(f"{claimant.first_name}: «Вскрываюсь!»")
    text = said.text or ""
    assert "Взятки, " in text, text  # the pile, counted
    assert "из 31 ❌" in text, text
    assert f"{claimant.first_name}: вскрытие ложное — сдача проиграна." in text
    assert f"Сдачу берёт {other.first_name}." in text
    assert f"Матч: {other.first_name} 1 (+1)" in text
    mine = await players.command(claimant, "/stats", "📊")
    assert mine.endswith("сдачи: 0 из 1 · ложные вскрытия: 1"), mine
    theirs = await players.command(other, "/stats", "📊")
    assert theirs.endswith("сдачи: 1 из 1"), theirs  # no false claim to count
    score = await players.command(other, "/score", "📋")
    assert f"{other.first_name} 1" in score, score


def hand_cbs(message: Message) -> list[HandCb]:
    found = [hand_cb(button) for row in message.keyboard for button in row]
    return [data for data in found if data is not None]


def molodka_for_the_other(match: Match) -> bool:
    """The player who does not lead holds a molodka (and the leader no combo of his own)."""
    deal = match.deal
    if deal.over:
        return False
    other = 1 - deal.leader
    return DeclareCombo(other, Combo.MOLODKA) in match.legal_actions(other) and not any(
        isinstance(action, DeclareCombo) for action in match.legal_actions(deal.leader)
    )


async def test_stop_seizes_the_lead_with_a_molodka(tg: FakeTelegram, start: Start) -> None:
    """Before the rightful leader leads, the other player taps «Стоп! (молодка)»: the group is told he shows the
    molodka and takes the lead, and his hand asks him to lead all its cards, which he does."""
    storage = await start(find_seed(TableSettings(), 2, molodka_for_the_other, prefix="stop"))
    players = await seat_players(tg, storage, 2)
    match = await players.match()
    seizer = players.user(1 - match.deal.leader)
    cards = match.deal.hands[1 - match.deal.leader]
    version = (await players.table()).version
    message, stop = await players.hand_showing(seizer, offers(version, HandOp.COMBO, None), "the «Стоп!» button")
    assert stop["text"] == "Стоп! (молодка)"
    assert "У вас молодка — нажмите «Стоп!», чтобы забрать ход." in (message.text or "")
    await players.tap(seizer, message, stop)
    said = await players.group_says(f"{seizer.first_name} забирает ход.")
    assert f"{seizer.first_name}: «Стоп!» — молодка {cards_text(cards, RU)}" in (said.text or ""), said.text
    seized = await players.match()
    assert seized.deal.leader == players.seat(seizer)
    hand, lead = await players.hand_showing(seizer, offers(version + 1, HandOp.PLAY, set(cards)), "the forced lead")
    assert "Ваш ход: заходите показанной комбинацией" in (hand.text or ""), hand.text
    assert [
        b
        for row in hand.keyboard
        for b in row
        if (hand_cb(b) or HandCb(table=1, move=0, op=HandOp.REFRESH)).op in (HandOp.TOGGLE, HandOp.PLAY)
    ] == [lead]  # one tap, no marking (issue #12)
    assert str(lead["text"]).startswith("Зайти молодкой "), lead
    await players.table_shows(f"ходит {seizer.first_name}")
    await players.play(Lead(players.seat(seizer), tuple(cards)))
    led = (await players.match()).deal.trick
    assert led is not None and set(led.lead) == set(cards)


async def test_a_move_timer_runs_out_and_the_bot_plays(tg: FakeTelegram, start: Start) -> None:
    """The move timer set to 30 s with the settings button; the leader does nothing: at half time a message of its
    own rings with the time left (his hand stays, issue 37), and at the end the bot plays for him and says what, in
    the group and in his hand. The game's clock runs at TIME_SCALE (tests/e2e/conftest.py): the times shown are the
    game's."""
    storage = await start(find_seed(TableSettings(), 2, lambda match: not match.deal.over, prefix="timer"), SCALED)
    players = await seat_players(tg, storage, 2, settings=[("timer", "30")])
    await players.table_shows("⏳ 30 с на ход")
    match = await players.match()
    leader = match.to_act()
    assert leader is not None
    sleeper = players.user(leader)
    private = tg.private_chat(sleeper)
    reminder = await tg.wait_for(
        lambda: next((m for m in tg.messages(private, from_bot=True) if "⏳ Осталось" in (m.text or "")), None),
        25,
        "the reminder at half time",
    )
    assert reminder.notified and not reminder.keyboard, reminder
    assert any(m.keyboard for m in tg.messages(private, from_bot=True)), "the hand is still there"
    left = re.search(r"Осталось (\d+) с", reminder.text or "")
    assert left is not None and 1 < int(left.group(1)) <= 15, reminder.text  # the game's seconds, not real ones
    said = await tg.wait_for(
        lambda: next((t for t in players.group_texts() if "время вышло" in t), None), 25, "the timeout in the group"
    )
    assert said.startswith(f"⏳ {sleeper.first_name}: время вышло — бот сыграл "), said
    after = await players.match()
    assert len(after.actions) == 1 and after.actions[0].seat == leader
    await tg.wait_for(
        lambda: any(
            "⏳ Время вышло — бот сходил за вас: сыграл " in (m.text or "") for m in tg.messages(private, from_bot=True)
        ),
        MOVE_WAIT,
        "the timeout in his hand",
    )
    await players.table_shows(f"отвечает {players.user(1 - leader).first_name}")


async def test_a_stranger_joins_through_the_deep_link(tg: FakeTelegram, start: Start) -> None:
    """Boris never started the bot: his tap on «join» is answered with the t.me link carrying the table; he opens
    the bot with that payload, is told he is seated, the lobby lists him, and he gets his hand when the deal starts."""
    storage = await start("deep-link")
    anna, boris = tg.user("Аня", "anna"), tg.user("Борис", "boris")
    group = tg.group("Двор", owner=anna, members=[boris])
    tg.add_bot(group)
    await tg.wait_bot_message(group, timeout=MOVE_WAIT)
    tg.start_bot(anna)
    await tg.wait_bot_message(tg.private_chat(anna), timeout=MOVE_WAIT)
    said = tg.send_message(anna, group, "/new")
    lobby = await tg.wait_bot_message(group, after=said, timeout=MOVE_WAIT)
    join = lobby_button(lobby, LobbyOp.JOIN)
    assert join is not None
    table_id = LobbyCb.unpack(str(join["callback_data"])).table
    answer = await tg.wait_answer(tg.tap(boris, lobby, text=str(join["text"])), timeout=MOVE_WAIT)
    # The table's invitation: its id and a signature nobody can make up (issue 35), taken from the answer.
    assert answer.url is not None and answer.url.startswith(f"https://t.me/{tg.bot.username}?start=j{table_id}_")
    invitation = answer.url.split("?start=", 1)[1]
    assert "Борис" not in (lobby.text or "")  # not seated yet: he must open the private chat first

    opened = tg.start_bot(boris, payload=invitation)
    reply = await tg.wait_bot_message(tg.private_chat(boris), after=opened, timeout=MOVE_WAIT)
    assert (reply.text or "").startswith("Вы за столом!")
    await tg.wait_for(lambda: "Борис" in (lobby.text or ""), MOVE_WAIT, "Boris in the lobby")
    table = await storage.get_table(table_id)
    assert table is not None and [seat.user_id for seat in table.seats] == [anna.id, boris.id]

    start_button = lobby_button(lobby, LobbyOp.START)
    assert start_button is not None
    started = await tg.wait_answer(tg.tap(anna, lobby, text=str(start_button["text"])), timeout=MOVE_WAIT)
    assert not started.show_alert
    players = Players(tg, storage, {0: anna, 1: boris}, table_id, group)
    hand = await tg.wait_for(lambda: players.hand(boris), MOVE_WAIT, "Boris's hand")
    assert (hand.text or "").startswith("Стол «Двор»")


async def test_score_stats_and_top_after_a_deal(tg: FakeTelegram, start: Start) -> None:
    """/top before any game says nobody played; after one deal won by a claim /score shows the match score and the
    next deal, /stats each player's line and /top both players, the winner first."""
    storage = await start(find_seed(TableSettings(), 2, claimed_in_first_deal, prefix="tally"))
    players = await seat_players(tg, storage, 2)
    assert await players.command(players.user(0), "/top", "В этом чате") == "В этом чате ещё не играли."
    await players.play_deal(greedy)
    match = await players.match()
    winner = players.user(match.seats_of(match.scores.index(1))[0])
    loser = next(user for user in players.by_seat.values() if user != winner)
    score = await players.command(loser, "/score", "📋")
    lines = score.splitlines()
    assert lines[0] == "📋 Счёт матча · сдача 2"
    assert f"{winner.first_name} 1" in lines[1] and f"{loser.first_name} 0" in lines[1], lines
    stats = await players.command(winner, "/stats", "📊")
    assert stats.splitlines() == [f"📊 {winner.first_name}", "Бура — матчи: 0 из 0 · сдачи: 1 из 1"]
    top = (await players.command(loser, "/top", "🏆 Лучшие")).splitlines()
    assert top == [
        "🏆 Лучшие игроки чата (матчи · сдачи)",
        "Бура",
        f"1. {winner.first_name} — 0/0 · 1/1",
        f"2. {loser.first_name} — 0/0 · 0/1",
    ]


async def test_a_tap_made_while_the_bot_was_down_is_played_late(tg: FakeTelegram, launch: Launch) -> None:
    """A player marks a card and taps «Ходить» while the bot is down for longer than Telegram keeps a tap
    answerable: back up, the bot plays the lead and the table shows it; the answer Telegram refuses ("query is too
    old") is no error."""
    tg.api.callback_window = 1.0
    bot = await launch(find_seed(TableSettings(), 2, lambda match: not match.deal.over, prefix="late"))
    async with BotDatabase(bot.database) as storage:
        players = await seat_players(tg, storage, 2)
        match = await players.match()
        leader = match.to_act()
        assert leader is not None
        mover, other = players.user(leader), players.user(1 - leader)
        card = min(match.deal.hands[leader], key=lambda c: (c.suit == match.deal.trump, c.strength))
        version = (await players.table()).version
        message, mark = await players.hand_showing(mover, offers(version, HandOp.TOGGLE, {card}), "the card")
        await players.tap(mover, message, mark)
        message, lead = await players.hand_showing(mover, offers(version, HandOp.PLAY, {card}), "the lead")
        await bot.stop()
        query = tg.tap(mover, message, text=str(lead["text"]))
        await asyncio.sleep(1.5)
        await bot.start()
        await players.table_shows(f"отвечает {other.first_name}")
        assert (await players.table()).version == version + 1
        assert (await players.match()).deal.trick is not None
        # The bot answers the tap after its commit, so the group may see the move first: wait for the attempt.
        await tg.wait_for(
            lambda: any(str(r.params.get("callback_query_id")) == query.id for r in tg.calls("answerCallbackQuery")),
            MOVE_WAIT,
            "the late answer",
        )
        assert query.answer is None  # refused as too old: the player saw the result in the chats instead
    for _ in range(100):  # the bot logs the refusal right after Telegram's reply reaches it
        if "was not answered" in bot.output():
            break
        await asyncio.sleep(0.1)
    assert "was not answered" in bot.output()
