"""What players see (issue #12), end to end through the strict fake Bot API: whose phone rings on a turn, an
English-speaking group, the table's final state at /stop, the trick that ends a deal, /play in one message, a
table in a forum topic, and the first run's buttons."""

from __future__ import annotations

import re
from functools import partial

from bot.games.bura.buttons import HandOp
from bot.games.bura.settings import Profile, variant
from bot.table_settings import TableSettings
from engine.bura.events import DealEnded, OutcomeKind, TrickTaken
from engine.bura.match import Match
from tests.botapi import Chat, FakeTelegram, Message, User
from tests.e2e.conftest import Start
from tests.e2e.players import (
    MOVE_WAIT,
    Players,
    buttons,
    find_seed,
    greedy,
    hand_cb,
    hand_move,
    moved_past,
    play_offline,
    seat_players,
)


def bot_messages(tg: FakeTelegram, chat: Chat) -> list[Message]:
    return tg.messages(chat, from_bot=True)


def hand_of_move(players: Players, user: User, move: int) -> Message | None:
    hand = players.hand(user)
    return hand if hand is not None and hand_move(hand) == move else None


def showing(tg: FakeTelegram, chat: Chat, text: str) -> Message | None:
    return next((m for m in bot_messages(tg, chat) if text in (m.text or "")), None)


def showing_line(tg: FakeTelegram, chat: Chat, line: re.Pattern[str]) -> Message | None:
    return next((m for m in bot_messages(tg, chat) if line.search(m.text or "")), None)


def deleted(message: Message) -> bool:
    return message.deleted


async def test_the_turn_rings_the_one_to_act_and_nothing_else(tg: FakeTelegram, start: Start) -> None:
    """Whenever a person's turn comes, his hand is sent anew at the bottom of his chat, with a notification and
    protected from forwarding, and the old one is deleted (one hand a chat); the mover's own hand is only edited.
    The table is sent silently and pinned silently; the deal's start rings."""
    storage = await start(find_seed(TableSettings(), 2, lambda match: not match.deal.over, prefix="ring"))
    players = await seat_players(tg, storage, 2, admin=True)  # a bot pins only as an admin
    group = players.group
    table = await players.table_shows("ходит")
    assert not table.notified, "the table is sent silently"
    await tg.wait_for(lambda: group.pinned == [table.message_id], MOVE_WAIT, "the table pinned")
    assert tg.api.pin_notified.get(group.id, 0) == 0, "pinned silently"
    deal_start = next(m for m in bot_messages(tg, group) if (m.text or "").startswith("🃏 Сдача 1."))
    assert deal_start.notified, "a deal's start rings"
    pinged = 0
    while (match := await players.match()).deal_number == 1:
        mover = match.to_act()
        assert mover is not None
        version = (await players.table()).version
        hands = {seat: players.hand(user) for seat, user in players.by_seat.items()}
        user = players.user(mover)
        mine = hands[mover]
        assert mine is not None and mine.notified and mine.protected
        assert bot_messages(tg, tg.private_chat(user))[-1] is mine, "his hand is at the bottom"
        if not await players.move(greedy):
            break
        after = await players.match()
        if after.deal_number != 1:
            break
        nxt = after.to_act()
        assert nxt is not None
        for seat, person in players.by_seat.items():
            fresh = await tg.wait_for(
                partial(hand_of_move, players, person, version + 1),
                MOVE_WAIT,
                f"{person.first_name}'s hand of move {version + 1}",
            )
            old = hands[seat]
            assert old is not None
            if seat == nxt and seat != mover:
                assert fresh.message_id > old.message_id, "his turn came: the hand is sent anew"
                assert fresh.notified
                await tg.wait_for(partial(deleted, old), MOVE_WAIT, "the old hand deleted")
                pinged += 1
            else:
                assert fresh is old, "no turn came: the hand is edited in place (silent)"
            kept = [m for m in bot_messages(tg, tg.private_chat(person)) if m.protected]
            assert kept == [fresh], "one hand a chat"
    assert pinged >= 3
    assert tg.api.pin_notified.get(group.id, 0) == 0


async def test_an_english_group_reads_english_throughout(tg: FakeTelegram, start: Start) -> None:
    """People whose Telegram is in English: the group takes their language (hello, lobby, table, announcements,
    /help), and the cards are named in English in the group as in the hands."""
    storage = await start(find_seed(TableSettings(), 2, lambda match: not match.deal.over, prefix="english"))
    players = await seat_players(tg, storage, 2, title="Friday cards", language="en")
    group = players.group
    texts = [m.text or "" for m in bot_messages(tg, group)]
    assert texts[0].startswith("Hi! Pick a game"), texts[0]
    table = await players.table_shows("Trump:", "to lead")
    await players.group_says("🃏 Deal 1.")
    for text in [table.text or "", *(players.hand(u).text or "" for u in players.by_seat.values())]:  # type: ignore[union-attr]
        assert not any(word in text for word in ("Козырь", "ходит", "Ваш", "Сдача")), text
    cyrillic_ranks = set("ТКДВ")
    for user in players.by_seat.values():
        hand = players.hand(user)
        assert hand is not None
        labels = [str(b["text"]) for b in buttons(hand) if (d := hand_cb(b)) and d.op == HandOp.TOGGLE]
        assert labels and not any(label[0] in cyrillic_ranks for label in labels), labels
    await players.play_deal(greedy)
    for text in players.group_texts():
        assert not any(word in text for word in ("Сдачу", "Взятка", "Козырь", "берёт")), text
    help_text = await players.command(players.user(0), "/help", "Bura")
    assert "Claim" in help_text or "claim" in help_text, help_text
    assert not any("а" <= ch <= "я" for ch in help_text.lower()), help_text


async def test_stop_leaves_the_table_in_its_final_state(tg: FakeTelegram, start: Start) -> None:
    """/stop by the creator: the group hears it once; the table message is edited to say the game was stopped,
    with no turn and no clock; it is unpinned; the hands say so and offer nothing to tap."""
    storage = await start(find_seed(TableSettings(), 2, lambda match: not match.deal.over, prefix="stop-final"))
    players = await seat_players(tg, storage, 2, admin=True)
    await players.move(greedy)
    table = await players.table_shows("⏳")
    await tg.wait_for(lambda: players.group.pinned == [table.message_id], MOVE_WAIT, "the table pinned")
    creator = next(user for user in players.by_seat.values() if user.first_name == "Аня")
    await players.command(creator, "/stop", "⏹")
    await players.table_shows("⏹ Аня останавливает игру.")
    final = table.text or ""
    assert not any(part in final for part in ("⏳", "ходит", "отвечает")), final
    await tg.wait_for(lambda: not players.group.pinned, MOVE_WAIT, "the table unpinned")
    said = [m for m in bot_messages(tg, players.group) if "останавливает игру" in (m.text or "") and m is not table]
    assert [m.text for m in said] == ["⏹ Аня останавливает игру."]
    for user in players.by_seat.values():
        chat = tg.private_chat(user)
        hand = await tg.wait_for(
            partial(showing, tg, chat, "останавливает игру"),
            MOVE_WAIT,
            f"{user.first_name}'s hand told",
        )
        assert hand.protected and not any(hand_cb(b) for b in buttons(hand)), hand.keyboard


def ended_by_its_last_trick(match: Match) -> bool:
    """The first deal, played greedily, ends with a trick (no claim): the trick that ends it must be shown."""
    if match.deal.over:
        return False
    events = play_offline(match, greedy)
    ended = next(i for i, e in enumerate(events) if isinstance(e, DealEnded))
    result = events[ended]
    assert isinstance(result, DealEnded)
    return result.outcome.kind is OutcomeKind.PLAYED_OUT and isinstance(events[ended - 1], TrickTaken)


def last_trick(settings: TableSettings, seed: str) -> TrickTaken:
    events = play_offline(Match(variant(settings), 2, seed), greedy)
    ended = next(i for i, e in enumerate(events) if isinstance(e, DealEnded))
    last = events[ended - 1]
    assert isinstance(last, TrickTaken)
    return last


async def test_the_trick_that_ends_a_deal_is_shown(tg: FakeTelegram, start: Start) -> None:
    """RULES §10: a 5-card deal played out to its last card: the trick that ends it is shown as a trick (who
    played what, who took it) in the group's deal result and in each player's hand, not skipped for the next
    deal."""
    settings = TableSettings(profile=Profile.BURA_5)
    seed = find_seed(settings, 2, ended_by_its_last_trick, prefix="last-trick")
    storage = await start(seed)
    players = await seat_players(tg, storage, 2, settings=[("profile", Profile.BURA_5.value)])
    await players.play_deal(greedy)
    trick = last_trick(settings, seed)
    line = re.compile(rf"^Взятка {trick.trick_number}: .* → {players.user(trick.seat).first_name}$", re.MULTILINE)
    said = await players.group_says("Сдача сыграна", f"Взятка {trick.trick_number}: ")
    assert line.search(said.text or ""), said.text
    for user in players.by_seat.values():
        await tg.wait_for(
            partial(showing_line, tg, tg.private_chat(user), line),
            MOVE_WAIT,
            f"{user.first_name}'s hand to show the last trick",
        )


async def test_play_against_the_computer_is_one_message(tg: FakeTelegram, start: Start) -> None:
    """/play: the private chat holds the greeting and one game message (table and hand together), edited in
    place turn after turn; the computer is «🤖 Компьютер», with no number; no «Сдаю!»."""
    storage = await start("play-one")
    anna = tg.user("Аня", "anna")
    chat = tg.private_chat(anna)
    greeting = await tg.wait_bot_message(chat, after=tg.start_bot(anna), timeout=MOVE_WAIT)
    play = next(b for b in buttons(greeting) if "callback_data" in b)
    await tg.wait_answer(tg.tap(anna, greeting, text=str(play["text"])), timeout=MOVE_WAIT)
    game = await tg.wait_for(lambda: next((m for m in bot_messages(tg, chat) if m.protected), None), MOVE_WAIT, "game")
    found = await storage.get_open_table(chat.id)
    assert found is not None
    players = Players(tg, storage, {0: anna}, found.table_id)
    assert "🤖 Компьютер" in (game.text or "") and "Компьютер 1" not in (game.text or "")
    moves = 0
    while (match := await players.match()).deal_number == 1:
        version = (await players.table()).version
        if match.to_act() == 0:
            assert await players.move(greedy)
            moves += 1
        else:  # the computer thinks, then moves: the same message shows it
            await tg.wait_for(partial(moved_past, game, version), MOVE_WAIT, "the computer's move")
        shown = bot_messages(tg, chat)
        assert shown == [greeting, game], [m.text for m in shown]
    assert moves > 0
    assert not any("Сдаю" in (m.text or "") for m in bot_messages(tg, chat))


async def test_a_table_in_a_forum_topic_lives_there(tg: FakeTelegram, start: Start) -> None:
    """A table opened in a forum topic: the lobby, the table, the announcements and the answers to commands are
    all in that topic, and an answer to a command is a reply to it."""
    storage = await start(find_seed(TableSettings(), 2, lambda match: not match.deal.over, prefix="topic"))
    players = await seat_players(tg, storage, 2, topic="Бура")
    assert players.topic is not None
    await players.move(greedy)
    await players.table_shows("отвечает")
    await players.group_says("🃏 Сдача 1.")
    after_hello = bot_messages(tg, players.group)[1:]
    assert len(after_hello) >= 2 and all(m.thread_id == players.topic for m in after_hello), [
        (m.text, m.thread_id) for m in after_hello
    ]
    said = tg.send_message(players.user(0), players.group, "/score", topic=players.topic)
    reply = await tg.wait_for(
        lambda: next((m for m in bot_messages(tg, players.group) if m.reply_to is said), None), MOVE_WAIT, "the reply"
    )
    assert (reply.text or "").startswith("📋") and reply.thread_id == players.topic


async def test_the_first_run_offers_the_way_in(tg: FakeTelegram, start: Start) -> None:
    """/start in private: «➕ Добавить в группу» (a startgroup link) and «🤖 Сыграть с компьютером»; the group
    hello says each player opens the private chat once, with a button that opens it."""
    await start("first-run")
    anna = tg.user("Аня", "anna")
    greeting = await tg.wait_bot_message(tg.private_chat(anna), after=tg.start_bot(anna), timeout=MOVE_WAIT)
    assert greeting.button_texts == [["➕ Добавить в группу"], ["🤖 Сыграть с компьютером"]]
    assert str(buttons(greeting)[0]["url"]).startswith(f"https://t.me/{tg.bot.username}?startgroup=")
    assert "/play" in (greeting.text or "")
    boris = tg.user("Борис", "boris")
    group = tg.group("Двор", owner=anna, members=[boris])
    tg.add_bot(group)
    hello = await tg.wait_bot_message(group, timeout=MOVE_WAIT)
    assert "каждому игроку нужно один раз открыть" in (hello.text or ""), hello.text
    link = buttons(hello)[-1]  # after a button a game (issue 37)
    assert str(link["url"]).startswith(f"https://t.me/{tg.bot.username}?start=")
    payload = str(link["url"]).split("?start=")[1]
    opened = await tg.wait_bot_message(tg.private_chat(boris), after=tg.start_bot(boris, payload), timeout=MOVE_WAIT)
    assert opened.text, "the bot answers the hello link"
