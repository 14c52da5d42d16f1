"""Ephemeral messages (Bot API 10.2/10.3) through a real aiogram `Bot`: one member sees them, and the fake
holds a bot to every rule Telegram states for them."""

import asyncio
from typing import Any

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiogram.types import (
    BotCommand,
    EphemeralMessageParameters,
    InlineKeyboardMarkup,
    KeyboardButton,
    Message,
    ReplyKeyboardMarkup,
)

from tests.botapi.clock import FakeClock
from tests.botapi.server import CALLBACK_WINDOW, FakeTelegram
from tests.botapi.state import Chat, User
from tests.botapi.state import Message as StoredMessage
from tests.botapi.test_objects import missing
from tests.botapi.test_server import keyboard, started, table


def to(user: User, query_id: str | None = None, replace: bool | None = None) -> EphemeralMessageParameters:
    return EphemeralMessageParameters(
        receiver_user_id=user.id, callback_query_id=query_id, replace_callback_query_message=replace
    )


async def post_board(bot: Bot, tg: FakeTelegram, group: Chat, text: str, markup: InlineKeyboardMarkup) -> StoredMessage:
    """An ordinary message of the bot's in `group`, as the group sees it."""
    sent = await bot.send_message(group.id, text, reply_markup=markup)
    return group.messages[sent.message_id]


async def whisper(bot: Bot, chat: Chat, user: User, text: str = "Ваши карты: 🂡 🂮", **kwargs: Any) -> Message:
    return await bot.send_message(chat.id, text, ephemeral_message_parameters=to(user), **kwargs)


def latest(tg: FakeTelegram, chat: Chat, user: User) -> StoredMessage:
    shown = tg.last_ephemeral(chat, user)
    assert shown is not None, f"{user.first_name} sees no ephemeral message"
    return shown


async def test_an_ephemeral_message_is_seen_by_its_receiver_alone(bot: Bot, tg: FakeTelegram) -> None:
    group, alice, bob = table(tg)
    before = await bot.get_updates()
    sent = await whisper(bot, group, bob, "<b>Ваш ход</b>", parse_mode="HTML", reply_markup=keyboard([("A♠", "c:1")]))
    assert (sent.message_id, sent.ephemeral_message_id) == (0, 1)
    assert sent.receiver_user is not None and sent.receiver_user.id == bob.id
    assert sent.from_user is not None and sent.from_user.id == tg.bot.id and sent.chat.id == group.id
    assert sent.text == "Ваш ход" and sent.entities is not None and sent.entities[0].type == "bold"
    assert sent.reply_markup is not None

    assert tg.messages(group, from_bot=True) == []  # what the group sees
    last = tg.last_message(group)
    assert last is not None and last.service  # still the bot's arrival
    shown = tg.ephemeral_messages(group, bob)
    assert [(m.text, m.ephemeral_id, m.button_texts) for m in shown] == [("Ваш ход", 1, [["A♠"]])]
    assert tg.last_ephemeral(group, bob) is shown[0]
    assert tg.ephemeral_messages(group, alice) == [] and tg.last_ephemeral(group, alice) is None
    # The bot hears nothing of its own ephemeral message; the call is in the history as any other.
    assert [u.update_id for u in await bot.get_updates()] == [u.update_id for u in before]
    call = tg.calls("sendMessage")[-1]
    assert call.ok and call.params["ephemeral_message_parameters"] == {"receiver_user_id": bob.id}
    assert missing(call.result, "Message") == []


async def test_ids_belong_to_the_chat_and_come_back_once_free(bot: Bot, tg: FakeTelegram) -> None:
    tg.flood.enabled = False
    group, alice, bob = table(tg)
    first, second = await whisper(bot, group, alice), await whisper(bot, group, bob)
    assert (first.ephemeral_message_id, second.ephemeral_message_id) == (1, 2)
    await bot.delete_ephemeral_message(group.id, alice.id, 1)
    third = await whisper(bot, group, bob, "снова")
    assert third.ephemeral_message_id == 1  # reused at once: a bot must not keep a stale id
    assert [m.text for m in tg.ephemeral_messages(group, bob)] == ["Ваши карты: 🂡 🂮", "снова"]


async def test_the_deprecated_top_level_form_still_works_but_not_with_the_new_one(bot: Bot, tg: FakeTelegram) -> None:
    group, _, bob = table(tg)
    sent = await bot.send_message(group.id, "по-старому", receiver_user_id=bob.id)
    assert sent.ephemeral_message_id == 1 and sent.receiver_user is not None
    with pytest.raises(TelegramBadRequest, match="can't be used together with receiver_user_id"):
        await bot.send_message(group.id, "x", receiver_user_id=bob.id, ephemeral_message_parameters=to(bob))
    tap = tg.tap(bob, await post_board(bot, tg, group, "Ход", keyboard([("Бью", "beat")])), text="Бью")
    with pytest.raises(TelegramBadRequest, match="can't be used together"):
        await bot.send_message(group.id, "x", callback_query_id=tap.id, ephemeral_message_parameters=to(bob))
    with pytest.raises(TelegramBadRequest, match="Bad Request: receiver_user_id is empty"):
        await bot.send_message(group.id, "x", callback_query_id=tap.id)


async def test_edits_follow_the_rules_of_ordinary_messages(bot: Bot, tg: FakeTelegram) -> None:
    tg.flood.enabled = False
    group, alice, bob = table(tg)
    sent = await whisper(bot, group, bob, reply_markup=keyboard([("A♠", "c:1")]))
    eid = sent.ephemeral_message_id
    assert eid is not None
    assert await bot.edit_ephemeral_message_text(
        group.id, bob.id, eid, "<i>Ход принят</i>", parse_mode="HTML", reply_markup=keyboard([("ОК", "ok")])
    )
    shown = tg.last_ephemeral(group, bob)
    assert shown is not None and (shown.text, shown.button_texts) == ("Ход принят", [["ОК"]])
    assert shown.entities[0]["type"] == "italic" and shown.edit_date is not None
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_ephemeral_message_text(
            group.id, bob.id, eid, "<i>Ход принят</i>", parse_mode="HTML", reply_markup=keyboard([("ОК", "ok")])
        )
    assert await bot.edit_ephemeral_message_reply_markup(group.id, bob.id, eid)
    assert shown.keyboard == []
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_ephemeral_message_reply_markup(group.id, bob.id, eid)
    # Without reply_markup a text edit drops the keyboard, as editMessageText does.
    await bot.edit_ephemeral_message_reply_markup(group.id, bob.id, eid, reply_markup=keyboard([("x", "x")]))
    await bot.edit_ephemeral_message_text(group.id, bob.id, eid, "Ход принят!")
    assert shown.keyboard == []

    with pytest.raises(TelegramBadRequest, match="message is too long"):
        await bot.edit_ephemeral_message_text(group.id, bob.id, eid, "я" * 4097)
    with pytest.raises(TelegramBadRequest, match="can't parse entities: Can't find end tag"):
        await bot.edit_ephemeral_message_text(group.id, bob.id, eid, "<b>x", parse_mode="HTML")
    with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
        await bot.edit_ephemeral_message_reply_markup(group.id, bob.id, eid, reply_markup=keyboard([("x", "я" * 33)]))
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_ephemeral_message_text(group.id, alice.id, eid, "не тебе")  # another receiver
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_ephemeral_message_text(group.id, bob.id, 99, "нет такого")
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_ephemeral_message(group.id, alice.id, eid)

    assert await bot.delete_ephemeral_message(group.id, bob.id, eid)
    assert tg.ephemeral_messages(group, bob) == []
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_ephemeral_message(group.id, bob.id, eid)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_ephemeral_message_text(group.id, bob.id, eid, "поздно")
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_ephemeral_message_reply_markup(group.id, bob.id, eid, reply_markup=keyboard([("x", "x")]))
    # An ephemeral message is no ordinary message: message_id 0 points at nothing.
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("x", chat_id=group.id, message_id=0)


async def test_content_is_checked_as_for_ordinary_messages(bot: Bot, tg: FakeTelegram) -> None:
    group, _, bob = table(tg)
    with pytest.raises(TelegramBadRequest, match="message is too long"):
        await whisper(bot, group, bob, "я" * 4097)
    with pytest.raises(TelegramBadRequest, match="message text is empty"):
        await whisper(bot, group, bob, "<b> </b>", parse_mode="HTML")
    with pytest.raises(TelegramBadRequest, match='Unsupported start tag "br"'):
        await whisper(bot, group, bob, "a<br>b", parse_mode="HTML")
    with pytest.raises(TelegramBadRequest, match="REPLY_MARKUP_TOO_LONG"):
        await whisper(bot, group, bob, reply_markup=keyboard([(str(i), str(i)) for i in range(9)]))
    reply_keyboard = ReplyKeyboardMarkup(keyboard=[[KeyboardButton(text="Пас")]])
    with pytest.raises(TelegramBadRequest, match="inline keyboard expected"):
        await whisper(bot, group, bob, reply_markup=reply_keyboard)
    assert tg.ephemeral_messages(group, bob) == []
    assert all(not call.ok for call in tg.calls("sendMessage"))


async def test_only_current_members_of_groups_receive_them(bot: Bot, tg: FakeTelegram) -> None:
    group, alice, bob = table(tg)
    carol = started(tg, "Carol")
    with pytest.raises(TelegramBadRequest, match="only to group and supergroup chats"):
        await bot.send_message(carol.id, "x", ephemeral_message_parameters=to(carol))
    with pytest.raises(TelegramBadRequest, match="Bad Request: USER_NOT_PARTICIPANT"):
        await whisper(bot, group, carol)  # never in the group
    tg.leave(bob, group)
    with pytest.raises(TelegramBadRequest, match="USER_NOT_PARTICIPANT"):
        await whisper(bot, group, bob)
    with pytest.raises(TelegramBadRequest, match="Bad Request: user not found"):
        await bot.send_message(
            group.id, "x", ephemeral_message_parameters=EphemeralMessageParameters(receiver_user_id=5)
        )
    with pytest.raises(TelegramBadRequest, match="USER_IS_BOT"):
        await whisper(bot, group, tg.bot)
    supergroup = tg.group("Клуб", owner=alice, members=[bob], supergroup=True)
    tg.add_bot(supergroup)
    assert (await whisper(bot, supergroup, bob)).ephemeral_message_id == 1


async def test_forum_topics_are_honoured(bot: Bot, tg: FakeTelegram) -> None:
    alice, bob = tg.user("Alice", "alice"), tg.user("Bob", "bob")
    forum = tg.forum("Клуб", owner=alice, members=[bob])
    tg.add_bot(forum)
    topic = tg.topic(forum, "Бура")
    sent = await whisper(bot, forum, bob, message_thread_id=topic)
    assert sent.message_thread_id == topic and sent.is_topic_message
    assert tg.ephemeral_messages(forum, bob)[0].thread_id == topic
    with pytest.raises(TelegramBadRequest, match="message thread not found"):
        await whisper(bot, forum, bob, message_thread_id=999)
    group, _, other_bob = table(tg)
    with pytest.raises(TelegramBadRequest, match="message thread not found"):
        await whisper(bot, group, other_bob, message_thread_id=topic)  # not a forum


async def test_a_triggering_query_is_a_fresh_tap_by_the_receiver_in_that_chat(
    bot: Bot, tg: FakeTelegram, clock: FakeClock
) -> None:
    tg.flood.enabled = False
    group, alice, bob = table(tg)
    board = await post_board(bot, tg, group, "Ход Боба", keyboard([("Мои карты", "hand")]))
    tap = tg.tap(bob, board, text="Мои карты")
    sent = await bot.send_message(group.id, "🂡 🂮", ephemeral_message_parameters=to(bob, tap.id))
    assert sent.ephemeral_message_id == 1
    assert latest(tg, group, bob).replaces is None
    with pytest.raises(TelegramBadRequest, match="the callback query was sent by another user"):
        await bot.send_message(group.id, "x", ephemeral_message_parameters=to(alice, tap.id))
    other = tg.group("Другой стол", owner=alice, members=[bob])
    tg.add_bot(other)
    with pytest.raises(TelegramBadRequest, match="the callback query was sent from another chat"):
        await bot.send_message(other.id, "x", ephemeral_message_parameters=to(bob, tap.id))
    with pytest.raises(
        TelegramBadRequest, match="query is too old and response timeout expired or query ID is invalid"
    ):
        await bot.send_message(group.id, "x", ephemeral_message_parameters=to(bob, "12345"))
    clock.advance(CALLBACK_WINDOW + 1)
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.send_message(group.id, "x", ephemeral_message_parameters=to(bob, tap.id))


async def test_replacing_the_tapped_message_for_its_receiver(bot: Bot, tg: FakeTelegram) -> None:
    tg.flood.enabled = False
    group, alice, bob = table(tg)
    board = await post_board(bot, tg, group, "Стол", keyboard([("Мои карты", "hand")]))
    tap = tg.tap(bob, board, text="Мои карты")
    with pytest.raises(TelegramBadRequest, match="callback_query_id must be specified"):
        await bot.send_message(group.id, "x", ephemeral_message_parameters=to(bob, replace=True))
    await bot.send_message(group.id, "🂡 🂮", ephemeral_message_parameters=to(bob, tap.id, replace=True))
    hand = tg.last_ephemeral(group, bob)
    assert hand is not None and hand.replaces is board
    assert tg.last_message(group, from_bot=True) is board  # everyone else still sees the table

    again = tg.tap_data(bob, hand, "more")
    with pytest.raises(TelegramBadRequest, match="an ephemeral message can't be replaced"):
        await bot.send_message(group.id, "x", ephemeral_message_parameters=to(bob, again.id, replace=True))
    # replace_callback_query_message false is what a query from an ephemeral message takes.
    await bot.send_message(group.id, "ещё", ephemeral_message_parameters=to(bob, again.id, replace=False))
    late = tg.tap(alice, board, text="Мои карты")
    await bot.delete_message(group.id, board.message_id)
    with pytest.raises(TelegramBadRequest, match="message to replace not found"):
        await bot.send_message(group.id, "x", ephemeral_message_parameters=to(alice, late.id, replace=True))


async def test_only_the_receiver_taps_it_and_the_bot_sees_an_ephemeral_message(bot: Bot, tg: FakeTelegram) -> None:
    group, alice, bob = table(tg)
    board = await post_board(bot, tg, group, "Стол", keyboard([("Я", "me")]))
    tg.tap(alice, board, text="Я")
    sent = await whisper(bot, group, bob, reply_markup=keyboard([("A♠", "c:1")]))
    shown = tg.last_ephemeral(group, bob)
    assert shown is not None
    with pytest.raises(ValueError, match="only Bob sees this ephemeral message"):
        tg.tap(alice, shown, text="A♠")
    with pytest.raises(ValueError, match="only Bob sees"):
        tg.tap_data(alice, shown, "c:1")
    query = tg.tap(bob, shown, text="A♠")
    payload = tg.world.updates[-1].payload
    assert missing(payload, "CallbackQuery") == [] and missing(payload["message"], "Message") == []
    on_board, on_hand = [u.callback_query for u in await bot.get_updates() if u.callback_query]
    assert on_hand is not None and on_hand.id == query.id and on_hand.data == "c:1"
    message = on_hand.message
    assert isinstance(message, Message) and message.message_id == 0
    assert message.ephemeral_message_id == sent.ephemeral_message_id
    assert message.receiver_user is not None and message.receiver_user.id == bob.id
    assert message.chat.id == group.id and message.reply_markup is not None
    assert on_board is not None and on_hand.chat_instance == on_board.chat_instance
    # The bot answers it as any tap, and may answer with another ephemeral message.
    await on_hand.answer()
    await bot.send_message(group.id, "Сыграно", ephemeral_message_parameters=to(bob, on_hand.id))

    await bot.delete_ephemeral_message(group.id, bob.id, 1)
    with pytest.raises(ValueError, match="gone"):
        tg.tap(bob, shown, text="A♠")
    with pytest.raises(ValueError, match="the ephemeral message is gone"):
        tg.tap_data(bob, shown, "c:1")


async def test_aiograms_shortcuts_on_the_tapped_ephemeral_message_miss(bot: Bot, tg: FakeTelegram) -> None:
    """A trap for the bot: on its own ephemeral message aiogram's shortcuts miss. answer() posts to the whole
    group; reply() makes the message's sender, the bot, its receiver; edit_text() and delete() use message_id 0."""
    tg.flood.enabled = False
    group, _, bob = table(tg)
    await whisper(bot, group, bob, reply_markup=keyboard([("A♠", "c:1")]))
    tg.tap(bob, latest(tg, group, bob), text="A♠")
    query = (await bot.get_updates())[-1].callback_query
    assert query is not None and isinstance(query.message, Message)
    message = query.message.as_(bot)
    await message.answer("всем видно")
    shown = tg.last_message(group, from_bot=True)
    assert shown is not None and shown.text == "всем видно" and not shown.is_ephemeral
    with pytest.raises(TelegramBadRequest, match="USER_IS_BOT"):
        await message.reply("x")
    with pytest.raises(TelegramBadRequest, match="receiver_user_id is empty"):
        await message.answer("x", callback_query_id=query.id)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await message.edit_text("x")
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await message.delete()
    with pytest.raises(TelegramBadRequest, match="message to be replied not found"):
        await bot.send_message(
            group.id, "x", ephemeral_message_parameters=to(bob), reply_parameters=message.as_reply_parameters()
        )
    # What works: the ids the message carries, and the receiver from the query.
    assert message.ephemeral_message_id is not None
    assert await bot.edit_ephemeral_message_text(group.id, query.from_user.id, message.ephemeral_message_id, "x")


async def test_telegram_may_drop_one_and_reuse_its_id(bot: Bot, tg: FakeTelegram) -> None:
    group, alice, bob = table(tg)
    sent = await whisper(bot, group, bob, reply_markup=keyboard([("A♠", "c:1")]))
    assert sent.ephemeral_message_id is not None
    with pytest.raises(ValueError, match="Alice has no ephemeral message 1"):
        tg.expire_ephemeral(group, alice, sent.ephemeral_message_id)
    dropped = tg.expire_ephemeral(group, bob, sent.ephemeral_message_id)
    assert dropped.expired and tg.ephemeral_messages(group, bob) == []
    with pytest.raises(ValueError, match="gone"):
        tg.tap(bob, dropped, text="A♠")
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_ephemeral_message_text(group.id, bob.id, sent.ephemeral_message_id, "x")
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_ephemeral_message(group.id, bob.id, sent.ephemeral_message_id)
    assert (await whisper(bot, group, alice)).ephemeral_message_id == sent.ephemeral_message_id
    # The id is Alice's now: editing it "for Bob" finds nothing.
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_ephemeral_message_text(group.id, bob.id, sent.ephemeral_message_id, "x")


async def test_waiting_for_an_ephemeral_message_and_its_edits(bot: Bot, tg: FakeTelegram) -> None:
    tg.flood.enabled = False
    group, alice, bob = table(tg)
    waiting = asyncio.create_task(tg.wait_ephemeral(group, bob, timeout=2))
    await asyncio.sleep(0.01)
    await whisper(bot, group, alice, "не Бобу")
    assert not waiting.done()
    sent = await whisper(bot, group, bob, "Бобу")
    first = await waiting
    assert first.text == "Бобу"
    edited = asyncio.create_task(tg.wait_ephemeral(group, bob, lambda m: m.text == "Ход принят", timeout=2))
    await asyncio.sleep(0.01)
    assert sent.ephemeral_message_id is not None
    await bot.edit_ephemeral_message_text(group.id, bob.id, sent.ephemeral_message_id, "Ход принят")
    assert await edited is first
    later = asyncio.create_task(tg.wait_ephemeral(group, bob, after=first, timeout=2))
    await whisper(bot, group, bob, "ещё")
    assert (await later).text == "ещё"
    with pytest.raises(TimeoutError, match="an ephemeral message for Alice"):
        await tg.wait_ephemeral(group, alice, after=tg.last_ephemeral(group, alice), timeout=0.05)


async def test_they_count_per_receiver_and_overall_not_per_group(bot: Bot, tg: FakeTelegram, clock: FakeClock) -> None:
    group, alice, bob = table(tg)
    for _ in range(3):
        await whisper(bot, group, bob)
    with pytest.raises(TelegramRetryAfter) as caught:
        await whisper(bot, group, bob)
    assert caught.value.retry_after == 1
    eid = latest(tg, group, bob).ephemeral_id or 0
    with pytest.raises(TelegramRetryAfter):  # edits and deletes count too
        await bot.edit_ephemeral_message_text(group.id, bob.id, eid, "x")
    with pytest.raises(TelegramRetryAfter):
        await bot.delete_ephemeral_message(group.id, bob.id, eid)
    await whisper(bot, group, alice)  # Alice has her own bucket in the group
    await bot.send_message(group.id, "Стол")  # and the group's own is untouched
    clock.advance(1)
    assert await bot.delete_ephemeral_message(group.id, bob.id, eid)


async def test_commands_may_be_ephemeral(bot: Bot, tg: FakeTelegram) -> None:
    commands = [
        BotCommand(command="hand", description="Мои карты", is_ephemeral=True),
        BotCommand(command="play", description="Играть"),
    ]
    assert await bot.set_my_commands(commands)
    got = await bot.get_my_commands()
    assert [(c.command, c.is_ephemeral) for c in got] == [("hand", True), ("play", None)]
