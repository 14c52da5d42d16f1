"""Issue 37, end to end: what a newcomer meets. The real `python -m bot` against the fake Bot API."""

from __future__ import annotations

from functools import partial

from bot.games.bura.buttons import HandOp
from bot.games.bura.settings import MatchChoice
from bot.storage import TableStatus
from bot.table_settings import TableSettings
from bot.telegram.callbacks import LobbyCb, LobbyOp
from engine.bura.actions import Claim
from tests.botapi import Chat, FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess, Start
from tests.e2e.players import MOVE_WAIT, Players, find_seed, greedy, lobby_button, offers, seat_players
from tests.e2e.reader import BotDatabase
from tests.e2e.test_flows import molodka_for_the_other


async def test_the_host_who_never_opened_the_private_chat_is_sent_there_and_seated(
    tg: FakeTelegram, bot: BotProcess
) -> None:
    """Dima adds the bot and sends /new, never having opened its private chat; Boris joins. «Начать» answers Dima
    with the table's invitation (his private chat opens); his /start there says the table waits, the group hears
    it quietly, and the next «Начать» deals."""
    dima, boris = tg.user("Дима", "dima"), tg.user("Борис", "boris")
    group = tg.group("Двор", owner=dima, members=[boris])
    tg.add_bot(group, by=dima)
    await tg.wait_bot_message(group, timeout=MOVE_WAIT)
    said = tg.send_message(dima, group, "/new")
    lobby = await tg.wait_bot_message(group, after=said, timeout=MOVE_WAIT)
    said = tg.start_bot(boris)
    await tg.wait_bot_message(tg.private_chat(boris), after=said, timeout=MOVE_WAIT)
    join = lobby_button(lobby, LobbyOp.JOIN)
    assert join is not None
    table_id = LobbyCb.unpack(str(join["callback_data"])).table
    await tg.wait_answer(tg.tap(boris, lobby, text=str(join["text"])), timeout=MOVE_WAIT)
    await tg.wait_for(lambda: "Борис" in (lobby.text or ""), MOVE_WAIT, "Boris in the lobby")

    start = lobby_button(lobby, LobbyOp.START)
    assert start is not None
    before = len(tg.messages(group, from_bot=True))
    answer = await tg.wait_answer(tg.tap(dima, lobby, text=str(start["text"])), timeout=MOVE_WAIT)
    assert answer.url is not None and f"?start=j{table_id}_" in answer.url, answer
    opened = tg.start_bot(dima, payload=answer.url.split("?start=", 1)[1])
    reply = await tg.wait_bot_message(tg.private_chat(dima), after=opened, timeout=MOVE_WAIT)
    assert "Вас ждут за столом" in (reply.text or "")
    ready = await tg.wait_for(
        lambda: next((m for m in tg.messages(group, from_bot=True) if "получит карты" in (m.text or "")), None),
        MOVE_WAIT,
        "the group told Dima is ready",
    )
    assert ready is not None and not ready.notified
    assert len(tg.messages(group, from_bot=True)) == before + 1  # no ringing wall: that one quiet line

    answer = await tg.wait_answer(tg.tap(dima, lobby, text=str(start["text"])), timeout=MOVE_WAIT)
    assert not answer.show_alert and answer.url is None, answer
    async with BotDatabase(bot.database) as storage:
        table = await storage.get_table(table_id)
        assert table is not None and table.status is TableStatus.PLAYING


async def test_the_greeting_offers_every_game_and_new_opens_the_one_named(tg: FakeTelegram, bot: BotProcess) -> None:
    """The greeting named only Бура, and Бурако was the 8th choice under ⚙️. Now it has a button a game; /new бурако
    opens Бурако's lobby; an unknown name is answered with the games; /rules tells the table's game."""
    anna, boris = tg.user("Аня", "anna"), tg.user("Борис", "boris")
    group = tg.group("Двор", owner=anna, members=[boris])
    tg.add_bot(group, by=anna)
    greeting = await tg.wait_bot_message(group, timeout=MOVE_WAIT)
    labels = [str(button["text"]) for row in greeting.keyboard for button in row]
    assert {"Бура (классика)", "Буркозёл", "Бурако"} <= set(labels), labels

    said = tg.send_message(anna, group, "/new шахматы")
    which = await tg.wait_bot_message(group, after=said, timeout=MOVE_WAIT)
    assert (which.text or "").startswith("Не знаю такой игры") and len(which.keyboard) >= 4

    said = tg.send_message(anna, group, "/new бурако")
    lobby = await tg.wait_bot_message(group, after=said, timeout=MOVE_WAIT)
    assert "Бурако" in (lobby.text or "") and lobby_button(lobby, LobbyOp.JOIN) is not None
    said = tg.send_message(boris, group, "/rules")
    rules = await tg.wait_bot_message(group, after=said, timeout=MOVE_WAIT)
    assert (rules.text or "").startswith("Бурако") and "канастра" in (rules.text or "")


async def test_a_games_button_under_the_greeting_opens_its_lobby(tg: FakeTelegram, bot: BotProcess) -> None:
    anna = tg.user("Аня", "anna")
    group = tg.group("Двор", owner=anna)
    tg.add_bot(group, by=anna)
    greeting = await tg.wait_bot_message(group, timeout=MOVE_WAIT)
    answer = await tg.wait_answer(tg.tap(anna, greeting, text="Буркозёл"), timeout=MOVE_WAIT)
    assert not answer.show_alert, answer
    lobby = await tg.wait_for(
        lambda: next((m for m in tg.messages(group, from_bot=True) if "Буркозёл" in (m.text or "")), None),
        MOVE_WAIT,
        "Burkozel's lobby",
    )
    assert lobby_button(lobby, LobbyOp.JOIN) is not None


async def test_the_private_chat_answers_rules_stats_and_the_group_commands(tg: FakeTelegram, bot: BotProcess) -> None:
    """In private, /rules, /stats, /top, /settings and /new all got «Я веду игру в группах…»."""
    anna = tg.user("Аня", "anna")
    chat = tg.private_chat(anna)
    said = tg.start_bot(anna)
    await tg.wait_bot_message(chat, after=said, timeout=MOVE_WAIT)

    said = tg.send_message(anna, chat, "/rules")
    which = await tg.wait_bot_message(chat, after=said, timeout=MOVE_WAIT)
    assert which.text == "Правила какой игры?"
    tapped = tg.tap(anna, which, text="Буркозёл")
    await tg.wait_answer(tapped, timeout=MOVE_WAIT)
    rules = await tg.wait_bot_message(chat, after=which, timeout=MOVE_WAIT)
    assert (rules.text or "").startswith("Буркозёл") and "Штрафные после сдачи" in (rules.text or "")

    said = tg.send_message(anna, chat, "/stats")
    stats = await tg.wait_bot_message(chat, after=said, timeout=MOVE_WAIT)
    assert (stats.text or "").startswith("Вы ещё нигде не играли")
    said = tg.send_message(anna, chat, "/top")
    top = await tg.wait_bot_message(chat, after=said, timeout=MOVE_WAIT)
    assert "отправьте /top там" in (top.text or "")
    for command in ("/new", "/settings"):
        said = tg.send_message(anna, chat, command)
        told = await tg.wait_bot_message(chat, after=said, timeout=MOVE_WAIT)
        assert "Я веду игру в группах" not in (told.text or "")
        [[add]] = told.keyboard
        assert str(add["url"]).endswith("?startgroup=new"), add


async def test_another_match_after_the_end_seats_the_same_players(tg: FakeTelegram, start: Start) -> None:
    """A one-deal match played to its end: the hands lose their buttons, /score tells the result, and «Ещё матч»
    under the result opens a lobby that each player joins by his own tap."""
    settings = TableSettings(options={"match": MatchChoice.SINGLE_DEAL})
    storage = await start(find_seed(settings, 2, lambda match: not match.finished, prefix="rematch-e2e"))
    players = await seat_players(tg, storage, 2, settings=[("match", MatchChoice.SINGLE_DEAL.value)])
    await players.play_deal(greedy)
    assert (await players.table()).status is TableStatus.FINISHED
    group = players.group

    def rematch(message: Message) -> bool:
        return any(text == "🔁 Ещё матч" for row in message.button_texts for text in row)

    result = await tg.wait_for(
        lambda: next((m for m in tg.messages(group, from_bot=True) if rematch(m)), None),
        MOVE_WAIT,
        "the result with «Ещё матч»",
    )
    anna, boris = players.user(0), players.user(1)
    for person in (anna, boris):
        chat = tg.private_chat(person)

        def over(chat: Chat = chat) -> Message | None:
            shown = tg.messages(chat, from_bot=True)
            return next((m for m in shown if m.protected and "Матч окончен." in (m.text or "")), None)

        hand = await tg.wait_for(over, MOVE_WAIT, "the hand over")
        assert not hand.keyboard, hand.keyboard
        assert players.hand(person) is None  # no hand with buttons left in his chat
    score = await players.command(anna, "/score", "🏁")
    assert "Последний матч окончен" in score

    answer = await tg.wait_answer(tg.tap(boris, result, text="🔁 Ещё матч"), timeout=MOVE_WAIT)
    assert not answer.show_alert, answer
    await tg.wait_for(
        lambda: next((m for m in reversed(tg.messages(group, from_bot=True)) if lobby_button(m, LobbyOp.JOIN)), None),
        MOVE_WAIT,
        "the new lobby",
    )
    answer = await tg.wait_answer(tg.tap(anna, result, text="🔁 Ещё матч"), timeout=MOVE_WAIT)
    assert not answer.show_alert, answer
    assert answer.text == "Все снова за столом — новый матч начался."  # issue 38: it starts by itself
    table = await storage.get_open_table(group.id)
    assert table is not None and table.creator_id == boris.id and table.status is TableStatus.PLAYING
    assert {seat.user_id for seat in table.seats} == {anna.id, boris.id}
    renewed = Players(tg, storage, players.by_seat, table.table_id, group_chat=group)
    for person in (anna, boris):
        await tg.wait_for(lambda person=person: renewed.hand(person), MOVE_WAIT, "the new match's hand")  # type: ignore[misc]


def _telling(players: Players, person: User, part: str) -> Message | None:
    """The person's hand, once its text holds `part`."""
    hand = players.hand(person)
    return hand if hand is not None and part in (hand.text or "") else None


async def test_a_tap_made_stale_by_a_stop_says_who_took_the_lead(tg: FakeTelegram, start: Start) -> None:
    """The leader's old keyboard after the other's «Стоп!»: his tap says who took the lead, and his hand tells
    the call (it said only «Эта кнопка устарела: стол уже изменился.»)."""
    storage = await start(find_seed(TableSettings(), 2, molodka_for_the_other, prefix="stop"))
    players = await seat_players(tg, storage, 2)
    match = await players.match()
    leader, seizer = players.user(match.deal.leader), players.user(1 - match.deal.leader)
    version = (await players.table()).version
    old_hand, toggle = await players.hand_showing(leader, offers(version, HandOp.TOGGLE, None), "a card to mark")
    message, stop = await players.hand_showing(seizer, offers(version, HandOp.COMBO, None), "the «Стоп!» button")
    await players.tap(seizer, message, stop)
    await players.group_says(f"{seizer.first_name} забирает ход.")
    late = await tg.wait_answer(tg.tap_data(leader, old_hand, str(toggle["callback_data"])), timeout=MOVE_WAIT)
    assert late.show_alert and late.text == f"Поздно: {seizer.first_name} говорит «Стоп!» и забирает ход.", late
    hand = await tg.wait_for(
        lambda: _telling(players, leader, "«Стоп!» — молодка"), MOVE_WAIT, "the hand telling the call"
    )
    assert f"{seizer.first_name} забирает ход." in (hand.text or "")


async def test_the_hand_tells_why_a_deal_ended_before_the_next(tg: FakeTelegram, start: Start) -> None:
    """A false claim ends the first deal: each hand, showing deal 2, first tells the claim, its count and the
    result (it said only «Сдачу берёт Борис.»)."""
    storage = await start(find_seed(TableSettings(), 2, lambda match: not match.deal.over, prefix="hand-story"))
    players = await seat_players(tg, storage, 2)
    for _ in range(2):  # a trick taken: a claim may be made (a false one here)
        await players.move(greedy)
    match = await players.match()
    leader = match.to_act()
    assert leader is not None and match.deal_number == 1
    claimant, other = players.user(leader), players.user(1 - leader)
    await players.play(Claim(leader))
    assert (await players.match()).deal_number == 2
    for person in (claimant, other):
        told = await tg.wait_for(
            partial(_telling, players, person, "«Вскрываюсь!»"), MOVE_WAIT, "the hand telling the claim"
        )
        text = told.text or ""
        assert f"{claimant.first_name}: «Вскрываюсь!»" in text
        assert "из 31 ❌" in text and "вскрытие ложное" in text
        assert f"Сдачу берёт {other.first_name}." in text
