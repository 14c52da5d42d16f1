"""The hand in the group itself (issue 37, "two chats"), end to end through the strict fake Bot API: «🃏 Мои карты»
under the group's table shows a seated player his own hand there, to him alone (a Bot API 10.2 ephemeral
message); he plays a whole deal from it without leaving the group, and it stays as current as his private hand,
which still rings; nobody else sees it, a spectator is refused, a hand Telegram dropped is asked for again."""

from __future__ import annotations

from bot.table_settings import TableSettings
from bot.telegram.callbacks import HandCb, MyCardsCb
from tests.botapi import FakeTelegram, Message, User
from tests.e2e.conftest import Start
from tests.e2e.players import MOVE_WAIT, Players, buttons, find_seed, greedy, hand_cb, seat_players


def same_hand(players: Players, user: User) -> Message | None:
    """The hand in the group once it reads as his private hand does (text and buttons), else None."""
    private, in_group = players.private_hand(user), players.hand_in_group(user)
    if private is None or in_group is None:
        return None
    if (private.text, private.keyboard) != (in_group.text, in_group.keyboard):
        return None
    return in_group


def my_cards(table: Message) -> str:
    [button] = [b for b in buttons(table) if str(b.get("callback_data", "")).startswith("e:")]
    return str(button["text"])


async def test_a_deal_played_from_the_hands_in_the_group(tg: FakeTelegram, start: Start) -> None:
    storage = await start(find_seed(TableSettings(), 2, lambda match: not match.deal.over, prefix="in-group"))
    players = await seat_players(tg, storage, 2)
    group = players.group
    anna, boris = players.user(0), players.user(1)
    table = await players.table_shows("ходит")
    assert my_cards(table) == "🃏 Мои карты"
    assert MyCardsCb.unpack(str(buttons(table)[0]["callback_data"])).table == players.table_id

    for user in (anna, boris):
        shown = await players.show_in_group(user)
        assert shown.receiver == user and shown.message_id == 0 and shown.ephemeral_id
        assert shown.protected and not shown.notified
        await tg.wait_for(lambda user=user: same_hand(players, user), MOVE_WAIT, "the same hand in both chats")  # type: ignore[misc]
    # Seen by its player alone: not in what the group shows, not in what the other player sees.
    assert all(message.receiver is None for message in tg.messages(group))
    assert [m.receiver for m in tg.ephemeral_messages(group, anna)] == [anna]
    assert [m.receiver for m in tg.ephemeral_messages(group, boris)] == [boris]

    # A member who does not play at the table gets no cards.
    vika = tg.user("Вика", "vika")
    tg.join(vika, group)
    refusal = await tg.wait_answer(tg.tap(vika, table, text="🃏 Мои карты"), timeout=MOVE_WAIT)
    assert refusal.show_alert and (refusal.text or "").startswith("Вы не играете за этим столом"), refusal.text
    assert tg.ephemeral_messages(group, vika) == []

    private_taps = len([q for q in tg.world.queries.values() if q.message.chat.type.value == "private"])
    moves = await players.play_deal(greedy)
    assert moves >= 2
    assert len([q for q in tg.world.queries.values() if q.message.chat.type.value == "private"]) == private_taps, (
        "the whole deal was played from the group"
    )
    match = await players.match()
    assert match.deal_number == 2 or match.finished
    for user in (anna, boris):
        await tg.wait_for(lambda user=user: same_hand(players, user), MOVE_WAIT, "the hands agree after the deal")  # type: ignore[misc]
        assert len(tg.ephemeral_messages(group, user)) == 1, "edited in place, never sent anew unasked"


async def test_the_hand_in_the_group_speaks_the_players_language(tg: FakeTelegram, start: Start) -> None:
    storage = await start(find_seed(TableSettings(), 2, lambda match: not match.deal.over, prefix="in-group-en"))
    players = await seat_players(tg, storage, 2, title="Friday cards", language="en")
    table = await players.table_shows("Trump:")
    assert my_cards(table) == "🃏 My cards"
    user = players.user((await players.match()).to_act() or 0)
    shown = await players.show_in_group(user)
    assert not any(word in (shown.text or "") for word in ("Ваш", "Козырь", "Сдача")), shown.text
    assert await players.move(greedy)
    await tg.wait_for(lambda: same_hand(players, user), MOVE_WAIT, "his hand in the group after his move")


async def test_a_hand_the_group_dropped_is_asked_for_again(tg: FakeTelegram, start: Start) -> None:
    """Telegram promises no ephemeral message to someone offline: once the one shown is gone, the bot stops
    editing it (his private hand goes on), and «🃏 Мои карты» shows the hand as it is now."""
    storage = await start(find_seed(TableSettings(), 2, lambda match: not match.deal.over, prefix="in-group-gone"))
    players = await seat_players(tg, storage, 2)
    anna = players.user(0)
    first = await players.show_in_group(anna)
    assert first.ephemeral_id is not None
    tg.expire_ephemeral(players.group, anna, first.ephemeral_id)
    players.in_group.discard(anna.id)  # she plays on from her private chat meanwhile
    for _ in range(2):
        assert await players.move(greedy)
    await tg.wait_for(lambda: players.private_hand(anna), MOVE_WAIT, "her private hand")
    assert tg.ephemeral_messages(players.group, anna) == []
    again = await players.show_in_group(anna)
    assert again is not first
    await tg.wait_for(lambda: same_hand(players, anna), MOVE_WAIT, "the hand as it is now")
    assert await players.move(greedy)
    await tg.wait_for(lambda: same_hand(players, anna), MOVE_WAIT, "kept current again")


async def test_a_hand_button_on_a_message_everyone_sees_is_refused(tg: FakeTelegram, start: Start) -> None:
    """A hand's button works in a group only on the hand shown to its player alone: forged onto the group's
    table, it is answered as stale and changes nothing."""
    storage = await start(find_seed(TableSettings(), 2, lambda match: not match.deal.over, prefix="in-group-forged"))
    players = await seat_players(tg, storage, 2)
    hand = players.private_hand(players.user(0))
    assert hand is not None
    data = next(d for b in buttons(hand) if (d := hand_cb(b)) is not None)
    table = await players.table_shows("ходит")
    before = (await players.table()).version
    answer = await tg.wait_answer(tg.tap_data(players.user(0), table, HandCb.pack(data)), timeout=MOVE_WAIT)
    assert answer.show_alert
    assert (await players.table()).version == before
