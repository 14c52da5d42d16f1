"""The fake Bot API through a real aiogram `Bot`: every reply and update parses, every error is Telegram's."""

import asyncio

import aiohttp
import pytest
from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramRetryAfter,
    TelegramUnauthorizedError,
)
from aiogram.methods import AnswerCallbackQuery
from aiogram.types import (
    BotCommand,
    InaccessibleMessage,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
)

from tests.botapi.clock import FakeClock
from tests.botapi.conftest import make_bot
from tests.botapi.server import FakeTelegram
from tests.botapi.state import Chat, User


def keyboard(*rows: list[tuple[str, str]]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text=t, callback_data=d) for t, d in row] for row in rows]
    )


def started(tg: FakeTelegram, name: str = "Alice") -> User:
    user = tg.user(name, name.lower())
    tg.start_bot(user)
    return user


def table(tg: FakeTelegram) -> tuple[Chat, User, User]:
    alice, bob = tg.user("Alice", "alice"), tg.user("Bob", "bob")
    group = tg.group("Стол", owner=alice, members=[bob])
    tg.add_bot(group, by=alice)
    return group, alice, bob


async def test_get_me_describes_the_bot(bot: Bot, tg: FakeTelegram) -> None:
    me = await bot.get_me()
    assert (me.id, me.is_bot, me.username) == (tg.bot.id, True, "bura_test_bot")
    assert tg.calls("getMe")[0].ok


async def test_a_wrong_token_is_unauthorized(tg: FakeTelegram) -> None:
    async with make_bot(tg, token="42:wrong") as stranger:
        with pytest.raises(TelegramUnauthorizedError, match="Unauthorized"):
            await stranger.get_me()


async def test_an_unknown_method_is_not_found(tg: FakeTelegram) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{tg.base_url}/bot{tg.token}/sendTelepathy") as response:
            assert response.status == 404
            assert await response.json() == {
                "ok": False,
                "error_code": 404,
                "description": "Not Found: method not found",
            }
        # Method names are case-insensitive, and JSON bodies work as well as forms.
        async with http.post(f"{tg.base_url}/bot{tg.token}/GETME", json={}) as response:
            assert (await response.json())["result"]["id"] == tg.bot.id


async def test_long_polling_waits_for_an_update_and_offset_confirms(bot: Bot, tg: FakeTelegram) -> None:
    assert await bot.get_updates(timeout=0) == []
    alice = tg.user("Alice", "alice")
    poll = asyncio.create_task(bot.get_updates(timeout=30))
    await asyncio.sleep(0.01)
    assert not poll.done()
    tg.start_bot(alice, payload="join-7")
    updates = await asyncio.wait_for(poll, 2)
    assert len(updates) == 1
    message = updates[0].message
    assert message is not None and message.text == "/start join-7"
    assert message.from_user is not None and message.from_user.id == alice.id
    assert message.entities is not None and message.entities[0].type == "bot_command"
    # Unconfirmed updates come again; an offset past them confirms them for good.
    assert [u.update_id for u in await bot.get_updates()] == [updates[0].update_id]
    assert await bot.get_updates(offset=updates[0].update_id + 1) == []
    assert await bot.get_updates() == []


async def test_allowed_updates_filter_new_updates(bot: Bot, tg: FakeTelegram) -> None:
    group, alice, _ = table(tg)
    earlier = await bot.get_updates(allowed_updates=["callback_query"])
    assert [u.event_type for u in earlier] == ["my_chat_member", "message"]  # made before the filter
    tg.send_message(alice, group, "/play")
    message = await bot.send_message(group.id, "ход", reply_markup=keyboard([("Бью", "beat")]))
    tg.tap(alice, tg.messages(group)[-1], text="Бью")
    updates = await bot.get_updates(offset=earlier[-1].update_id + 1)
    assert [u.event_type for u in updates] == ["callback_query"]
    query = updates[0].callback_query
    assert query is not None and query.message is not None
    assert query.message.message_id == message.message_id
    # An empty list restores the default: everything but chat_member and reactions.
    await bot.get_updates(offset=updates[0].update_id + 1, allowed_updates=[])
    tg.send_message(alice, group, "/play")
    assert [u.event_type for u in await bot.get_updates()] == ["message"]


async def test_a_second_poller_ends_the_first_with_a_conflict(bot: Bot, tg: FakeTelegram) -> None:
    first = asyncio.create_task(bot.get_updates(timeout=30))
    await asyncio.sleep(0.01)
    second = asyncio.create_task(bot.get_updates(timeout=30))
    with pytest.raises(Exception, match="terminated by other getUpdates request"):
        await asyncio.wait_for(first, 2)
    tg.start_bot(tg.user("Alice"))
    assert len(await asyncio.wait_for(second, 2)) == 1


async def test_send_edit_and_delete_change_what_the_chat_shows(bot: Bot, tg: FakeTelegram) -> None:
    tg.flood.enabled = False  # five edits in a row would be a flood; limits have their own tests
    alice = started(tg)
    chat = tg.private_chat(alice)
    sent = await bot.send_message(
        alice.id, "Ваш ход: <b>♠️ туз</b>", parse_mode="HTML", reply_markup=keyboard([("A♠", "c:1")])
    )
    assert sent.text == "Ваш ход: ♠️ туз"
    assert sent.entities is not None and sent.entities[0].type == "bold"
    shown = tg.last_message(chat)
    assert shown is not None and shown.button_texts == [["A♠"]]

    edited = await bot.edit_message_text(
        "Ход принят", chat_id=alice.id, message_id=sent.message_id, reply_markup=keyboard([("ОК", "ok")])
    )
    assert not isinstance(edited, bool) and edited.edit_date is not None
    assert (shown.text, shown.button_texts) == ("Ход принят", [["ОК"]])

    await bot.edit_message_reply_markup(chat_id=alice.id, message_id=sent.message_id)
    assert shown.keyboard == []
    # editMessageText without reply_markup drops the keyboard, as Telegram does.
    await bot.edit_message_reply_markup(
        chat_id=alice.id, message_id=sent.message_id, reply_markup=keyboard([("x", "x")])
    )
    await bot.edit_message_text("Ход принят!", chat_id=alice.id, message_id=sent.message_id)
    assert shown.keyboard == []

    assert await bot.delete_message(alice.id, sent.message_id)
    assert tg.messages(chat, from_bot=True) == []
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_message(alice.id, sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("снова", chat_id=alice.id, message_id=sent.message_id)


async def test_replies_carry_the_replied_message(bot: Bot, tg: FakeTelegram) -> None:
    alice = started(tg)
    question = tg.send_message(alice, tg.private_chat(alice), "Сколько очков?")
    answer = await bot.send_message(alice.id, "31", reply_parameters=ReplyParameters(message_id=question.message_id))
    assert answer.reply_to_message is not None and answer.reply_to_message.text == "Сколько очков?"
    with pytest.raises(TelegramBadRequest, match="message to be replied not found"):
        await bot.send_message(alice.id, "31", reply_parameters=ReplyParameters(message_id=999))


async def test_an_edit_that_changes_nothing_is_refused(bot: Bot, tg: FakeTelegram) -> None:
    alice = started(tg)
    sent = await bot.send_message(alice.id, "<i>Стоп!</i>", parse_mode="HTML", reply_markup=keyboard([("a", "a")]))
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_text(
            "<i>Стоп!</i>",
            chat_id=alice.id,
            message_id=sent.message_id,
            parse_mode="HTML",
            reply_markup=keyboard([("a", "a")]),
        )
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_reply_markup(
            chat_id=alice.id, message_id=sent.message_id, reply_markup=keyboard([("a", "a")])
        )


async def test_text_must_hold_1_to_4096_characters_after_parsing(bot: Bot, tg: FakeTelegram) -> None:
    alice = started(tg)
    with pytest.raises(TelegramBadRequest, match="message is too long"):
        await bot.send_message(alice.id, "я" * 4097)
    # Markup does not count: 4096 letters inside <b> fit.
    await bot.send_message(alice.id, "<b>" + "я" * 4096 + "</b>", parse_mode="HTML")
    with pytest.raises(TelegramBadRequest, match="message text is empty"):
        await bot.send_message(alice.id, "<b> </b>", parse_mode="HTML")


@pytest.mark.parametrize(
    ("markup", "reason"),
    [
        ("<b>открыт", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<b><i>x</b></i>", 'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"'),
        ("строка<br>строка", 'Unsupported start tag "br" at byte offset 12'),
        ("1 < 2", 'Unsupported start tag "" at byte offset 2'),
        ("<b", "Unclosed start tag at byte offset 0"),
    ],
)
async def test_bad_html_cannot_be_parsed(bot: Bot, tg: FakeTelegram, markup: str, reason: str) -> None:
    alice = started(tg)
    with pytest.raises(TelegramBadRequest) as caught:
        await bot.send_message(alice.id, markup, parse_mode="HTML")
    assert caught.value.message == f"Bad Request: can't parse entities: {reason}"


async def test_keyboards_are_held_to_telegrams_limits(bot: Bot, tg: FakeTelegram) -> None:
    alice = started(tg)
    with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
        await bot.send_message(alice.id, "x", reply_markup=keyboard([("длинно", "я" * 33)]))  # 66 bytes
    await bot.send_message(alice.id, "x", reply_markup=keyboard([("ровно", "я" * 32)]))  # 64 bytes
    with pytest.raises(TelegramBadRequest, match="REPLY_MARKUP_TOO_LONG"):
        await bot.send_message(alice.id, "x", reply_markup=keyboard([(str(i), str(i)) for i in range(9)]))
    rows = [[(f"{r}.{c}", f"{r}.{c}") for c in range(8)] for r in range(13)]  # 104 buttons
    with pytest.raises(TelegramBadRequest, match="REPLY_MARKUP_TOO_LONG"):
        await bot.send_message(alice.id, "x", reply_markup=keyboard(*rows))
    text_only = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="просто текст")]])
    with pytest.raises(TelegramBadRequest, match="Text buttons are unallowed"):
        await bot.send_message(alice.id, "x", reply_markup=text_only)


async def test_callback_round_trip_and_expiry(bot: Bot, tg: FakeTelegram, clock: FakeClock) -> None:
    group, alice, bob = table(tg)
    sent = await bot.send_message(group.id, "Кто бьёт?", reply_markup=keyboard([("Я", "me"), ("Пас", "pass")]))
    shown = tg.last_message(group, from_bot=True)
    assert shown is not None
    tap = tg.tap(bob, shown, row=0, col=1)
    update = (await bot.get_updates())[-1]
    query = update.callback_query
    assert query is not None and query.data == "pass" and query.from_user.id == bob.id
    assert query.message is not None and query.message.message_id == sent.message_id
    assert tg.answer(tap) is None
    with pytest.raises(TelegramBadRequest, match="MESSAGE_TOO_LONG"):
        await bot(AnswerCallbackQuery(callback_query_id=query.id, text="я" * 201))
    await query.answer("Не ваш ход", show_alert=True)
    answer = await tg.wait_answer(tap)
    assert (answer.text, answer.show_alert, answer.url) == ("Не ваш ход", True, None)
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await query.answer("ещё раз")

    late = tg.tap(alice, shown, text="Я")
    clock.advance(16)
    with pytest.raises(TelegramBadRequest, match="query is too old and response timeout expired"):
        await bot.answer_callback_query(late.id)
    with pytest.raises(TelegramBadRequest, match="query ID is invalid"):
        await bot.answer_callback_query("12345")


async def test_private_chats_need_a_start_and_close_on_a_block(bot: Bot, tg: FakeTelegram) -> None:
    _, _, bob = table(tg)  # the bot knows Bob from the group, but Bob never wrote to it
    with pytest.raises(TelegramForbiddenError, match="bot can't initiate conversation with a user"):
        await bot.send_message(bob.id, "Ваши карты")
    tg.start_bot(bob)
    await bot.send_message(bob.id, "Ваши карты")
    tg.block_bot(bob)
    with pytest.raises(TelegramForbiddenError, match="Forbidden: bot was blocked by the user"):
        await bot.send_message(bob.id, "Ваши карты")
    blocked = [u.my_chat_member for u in await bot.get_updates() if u.my_chat_member is not None]
    assert blocked[-1].new_chat_member.status == "kicked"
    assert blocked[-1].chat.id == bob.id
    tg.start_bot(bob)  # Restart unblocks
    await bot.send_message(bob.id, "С возвращением")


async def test_a_removed_bot_is_kicked_from_the_group(bot: Bot, tg: FakeTelegram) -> None:
    group, alice, _ = table(tg)
    tg.remove_bot(group, by=alice)
    with pytest.raises(TelegramForbiddenError, match="Forbidden: bot was kicked from the group chat"):
        await bot.send_message(group.id, "Я ещё здесь?")
    kinds = [u.event_type for u in await bot.get_updates()]
    assert kinds == ["my_chat_member", "message", "my_chat_member"]


async def test_group_members_and_admins(bot: Bot, tg: FakeTelegram) -> None:
    group, alice, bob = table(tg)
    assert (await bot.get_chat_member(group.id, alice.id)).status == "creator"
    assert (await bot.get_chat_member(group.id, bob.id)).status == "member"
    assert (await bot.get_chat_member(group.id, tg.bot.id)).status == "member"
    admins = await bot.get_chat_administrators(group.id)
    assert [admin.user.id for admin in admins] == [alice.id]
    info = await bot.get_chat(group.id)
    assert (info.type, info.title) == ("group", "Стол")
    tg.leave(bob, group)
    assert (await bot.get_chat_member(group.id, bob.id)).status == "left"
    left = [u.message for u in await bot.get_updates() if u.message and u.message.left_chat_member]
    assert left[0].left_chat_member is not None and left[0].left_chat_member.id == bob.id
    assert await bot.send_chat_action(group.id, "typing")
    assert await bot.leave_chat(group.id)
    with pytest.raises(TelegramForbiddenError, match="bot is not a member of the group chat"):
        await bot.send_message(group.id, "эй")


async def test_privacy_mode_shows_the_bot_only_commands_for_it(bot: Bot, tg: FakeTelegram) -> None:
    group, alice, bob = table(tg)
    await bot.get_updates(offset=-1)
    await bot.get_updates(offset=(await bot.get_updates())[-1].update_id + 1)
    tg.send_message(alice, group, "привет всем")
    tg.send_message(alice, group, "/play@other_bot")
    tg.send_message(alice, group, "/play@bura_test_bot буркозёл")
    tg.send_message(bob, group, "/join")
    texts = [u.message.text for u in await bot.get_updates() if u.message]
    assert texts == ["/play@bura_test_bot буркозёл", "/join"]


async def test_flood_control_answers_429_until_the_clock_moves(bot: Bot, tg: FakeTelegram, clock: FakeClock) -> None:
    group, _, _ = table(tg)
    for _ in range(3):
        await bot.send_message(group.id, "ход")
    with pytest.raises(TelegramRetryAfter) as caught:
        await bot.send_message(group.id, "ход")
    assert caught.value.retry_after == 1
    assert tg.history[-1].parameters == {"retry_after": 1}
    for _ in range(17):
        clock.advance(1)
        await bot.send_message(group.id, "ход")
    with pytest.raises(TelegramRetryAfter) as caught:  # 20 in the last minute
        clock.advance(1)
        await bot.send_message(group.id, "ход")
    assert caught.value.retry_after == 42  # the three sent at 0s leave the window at 60s
    clock.advance(42)
    await bot.send_message(group.id, "ход")


async def test_injected_floods_are_reproducible(bot: Bot, tg: FakeTelegram) -> None:
    alice = started(tg)
    tg.flood.enabled = False

    async def outcomes() -> list[bool]:
        tg.flood.inject(0.5, seed=7, retry_after=2)
        results = []
        for _ in range(12):
            try:
                await bot.send_message(alice.id, "ход")
                results.append(True)
            except TelegramRetryAfter as error:
                assert error.retry_after == 2
                results.append(False)
        return results

    first = await outcomes()
    assert first == await outcomes()
    assert True in first and False in first
    tg.flood.stop_injecting()
    await bot.send_message(alice.id, "тишина")


async def test_a_migrated_group_points_to_its_supergroup(bot: Bot, tg: FakeTelegram) -> None:
    group, _, _ = table(tg)
    supergroup = tg.migrate_to_supergroup(group)
    assert tg.chat(group.id) is supergroup
    with pytest.raises(TelegramMigrateToChat) as caught:
        await bot.send_message(group.id, "ход")
    assert caught.value.migrate_to_chat_id == supergroup.id
    messages = [u.message for u in await bot.get_updates() if u.message]
    assert messages[-2].migrate_to_chat_id == supergroup.id
    assert messages[-1].migrate_from_chat_id == group.id
    assert messages[-1].chat.type == "supergroup"
    sent = await bot.send_message(supergroup.id, "ход")
    assert sent.chat.id == supergroup.id


async def test_commands_are_kept_per_scope_and_language(bot: Bot, tg: FakeTelegram) -> None:
    await bot.set_my_commands([BotCommand(command="play", description="Новая игра")], language_code="ru")
    assert [c.command for c in await bot.get_my_commands(language_code="ru")] == ["play"]
    assert await bot.get_my_commands() == []
    with pytest.raises(TelegramBadRequest, match="BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand(command="Play!", description="x")])
    assert await bot.delete_webhook(drop_pending_updates=True)


async def test_every_request_is_in_the_history(bot: Bot, tg: FakeTelegram) -> None:
    alice = started(tg)
    await bot.send_message(alice.id, "раз")
    with pytest.raises(TelegramBadRequest):
        await bot.send_message(alice.id, "")
    ok, failed = tg.calls("sendMessage")
    assert ok.ok and ok.params == {"chat_id": alice.id, "text": "раз"}
    assert ok.result["text"] == "раз"
    assert not failed.ok and failed.error_code == 400
    assert failed.description == "Bad Request: message text is empty"


async def test_stale_and_forged_taps_reach_the_bot_as_telegram_sends_them(bot: Bot, tg: FakeTelegram) -> None:
    group, alice, bob = table(tg)
    sent = await bot.send_message(group.id, "Ход Алисы", reply_markup=keyboard([("Бью", "beat:1")]))
    shown = tg.messages(group)[-1]
    await bot.edit_message_text("Ход Боба", chat_id=group.id, message_id=sent.message_id)
    with pytest.raises(ValueError, match="no button 'Бью'"):
        tg.tap(alice, shown, text="Бью")
    tg.tap_data(alice, shown, "beat:1")  # her phone still shows the old keyboard
    await bot.delete_message(group.id, sent.message_id)
    tg.tap_data(bob, shown, "beat:1")
    stale, gone = [u.callback_query for u in await bot.get_updates() if u.callback_query]
    assert stale is not None and isinstance(stale.message, Message) and stale.message.text == "Ход Боба"
    assert gone is not None and isinstance(gone.message, InaccessibleMessage)
    assert gone.message.message_id == sent.message_id


async def test_user_links_become_mentions_of_known_users(bot: Bot, tg: FakeTelegram) -> None:
    group, alice, _ = table(tg)
    sent = await bot.send_message(
        group.id,
        f'Ходит <a href="tg://user?id={alice.id}">Алиса</a>, ждёт <a href="tg://user?id=5">Некто</a>',
        parse_mode="HTML",
    )
    assert sent.entities is not None and len(sent.entities) == 1
    mention = sent.entities[0]
    assert (mention.type, mention.offset, mention.length) == ("text_mention", 6, 5)
    assert mention.user is not None and mention.user.id == alice.id


async def test_a_callback_answer_may_only_open_a_telegram_link(bot: Bot, tg: FakeTelegram) -> None:
    alice = started(tg)
    await bot.send_message(alice.id, "x", reply_markup=keyboard([("Войти", "in")]))
    shown = tg.last_message(tg.private_chat(alice))
    assert shown is not None
    first, second = tg.tap(alice, shown, text="Войти"), tg.tap(alice, shown, text="Войти")
    with pytest.raises(TelegramBadRequest, match="URL_INVALID"):
        await bot.answer_callback_query(first.id, url="https://example.com")
    await bot.answer_callback_query(second.id, url="https://t.me/bura_test_bot?start=table-5")
    assert second.answer is not None and second.answer.url == "https://t.me/bura_test_bot?start=table-5"


async def test_pins_bulk_deletes_and_descriptions(bot: Bot, tg: FakeTelegram) -> None:
    group, _, bob = table(tg)
    table_message = await bot.send_message(group.id, "🃏 Бура · сдача 1")
    tg.add_bot(group, admin=True)
    assert await bot.pin_chat_message(group.id, table_message.message_id)
    assert group.pinned == [table_message.message_id]
    assert await bot.unpin_chat_message(group.id)
    with pytest.raises(TelegramBadRequest, match="message to unpin not found"):
        await bot.unpin_chat_message(group.id)
    tg.add_bot(group)  # a member again

    said = tg.send_message(bob, group, "/play")
    assert await bot.delete_messages(group.id, [table_message.message_id, said.message_id, 999])
    # Bob's message stays: only an admin bot may delete other people's messages in a group.
    assert [m.message_id for m in tg.messages(group)] == [1, said.message_id]
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_messages(group.id, [999])

    await bot.set_my_description("Бура для групп", language_code="ru")
    assert (await bot.get_my_description(language_code="ru")).description == "Бура для групп"
    assert (await bot.get_my_short_description()).short_description == ""
    with pytest.raises(TelegramBadRequest, match="short description is too long"):
        await bot.set_my_short_description("я" * 121)


async def test_an_admin_bot_sees_everything_and_member_changes(bot: Bot, tg: FakeTelegram) -> None:
    alice, bob, vika = tg.user("Alice", "alice"), tg.user("Bob", "bob"), tg.user("Vika", "vika")
    group = tg.group("Стол", owner=alice, members=[bob], supergroup=True, username="bura_table")
    tg.add_bot(group)
    tg.add_bot(group, admin=True)  # promoted: no second new_chat_members message
    first = await bot.get_updates(allowed_updates=["message", "chat_member", "my_chat_member"])
    assert [u.event_type for u in first] == ["my_chat_member", "message", "my_chat_member"]
    assert first[-1].my_chat_member is not None
    assert first[-1].my_chat_member.new_chat_member.status == "administrator"
    tg.send_message(bob, group, "привет, @alice")
    tg.join(vika, group)
    updates = await bot.get_updates(offset=first[-1].update_id + 1)
    assert [u.event_type for u in updates] == ["message", "chat_member", "message"]
    greeting = updates[0].message
    assert greeting is not None and greeting.entities is not None
    assert (greeting.entities[0].type, greeting.entities[0].offset) == ("mention", 8)
    joined = updates[1].chat_member
    assert joined is not None and joined.new_chat_member.user.id == vika.id
    chat = await bot.get_chat("@bura_table")
    assert (chat.id, chat.type) == (group.id, "supergroup")
    admins = {admin.user.id: admin.status for admin in await bot.get_chat_administrators(group.id)}
    assert admins == {alice.id: "creator", tg.bot.id: "administrator"}


async def test_the_bot_is_a_member_of_every_private_chat(bot: Bot, tg: FakeTelegram) -> None:
    alice = started(tg)
    assert (await bot.get_chat_member(alice.id, tg.bot.id)).status == "member"
    assert (await bot.get_chat(alice.id)).first_name == "Alice"
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await bot.get_chat(987654321)


async def test_without_privacy_mode_the_bot_reads_the_whole_group(clock: FakeClock) -> None:
    async with FakeTelegram(clock=clock, privacy_mode=False) as tg, make_bot(tg) as bot:
        assert (await bot.get_me()).can_read_all_group_messages
        group, alice, _ = table(tg)
        tg.send_message(alice, group, "кто играет?")
        message = (await bot.get_updates())[-1].message
        assert message is not None and message.text == "кто играет?"


async def test_forum_topics_threads_and_replies_as_telegram_keeps_them(bot: Bot, tg: FakeTelegram) -> None:
    alice, bob = tg.user("Alice", "alice"), tg.user("Bob", "bob")
    forum = tg.forum("Клуб", owner=alice, members=[bob])
    tg.add_bot(forum, admin=True)
    topic = tg.topic(forum, "Бура")
    said = tg.send_message(alice, forum, "/score", topic=topic)
    assert said.thread_id == topic
    answer = await bot.send_message(
        forum.id, "📋 Счёт", message_thread_id=topic, reply_parameters=ReplyParameters(message_id=said.message_id)
    )
    assert answer.message_thread_id == topic and answer.is_topic_message
    shown = tg.messages(forum, from_bot=True, topic=topic)
    assert [m.message_id for m in shown] == [answer.message_id] and shown[0].reply_to is said
    in_general = await bot.send_message(forum.id, "hello")
    assert in_general.message_thread_id is None and tg.messages(forum, from_bot=True, topic=None) != []
    with pytest.raises(TelegramBadRequest, match="message thread not found"):
        await bot.send_message(forum.id, "x", message_thread_id=999)
    group, _, _ = table(tg)
    with pytest.raises(TelegramBadRequest, match="message thread not found"):
        await bot.send_message(group.id, "x", message_thread_id=topic)  # not a forum
    with pytest.raises(TelegramBadRequest, match="message to be replied not found"):
        await bot.send_message(
            forum.id, "x", message_thread_id=topic, reply_parameters=ReplyParameters(message_id=in_general.message_id)
        )


async def test_notifications_protection_and_pin_rights_are_recorded(bot: Bot, tg: FakeTelegram) -> None:
    alice = started(tg)
    hand = await bot.send_message(alice.id, "hand", protect_content=True)
    quiet = await bot.send_message(alice.id, "note", disable_notification=True)
    shown = {m.message_id: m for m in tg.messages(tg.private_chat(alice), from_bot=True)}
    assert (shown[hand.message_id].protected, shown[hand.message_id].notified) == (True, True)
    assert (shown[quiet.message_id].protected, shown[quiet.message_id].notified) == (False, False)

    group, _, _ = table(tg)
    sent = await bot.send_message(group.id, "🃏 table")
    with pytest.raises(TelegramBadRequest, match="not enough rights to manage pinned messages"):
        await bot.pin_chat_message(group.id, sent.message_id)  # a bot that is a member, even of a basic group
    assert group.pinned == []
    tg.add_bot(group, admin=True)
    assert await bot.pin_chat_message(group.id, sent.message_id, disable_notification=True)
    assert tg.api.pin_notified.get(group.id, 0) == 0  # silently here
    assert await bot.pin_chat_message(group.id, sent.message_id)
    assert tg.api.pin_notified[group.id] == 1
    owner = tg.user("Carol", "carol")
    supergroup = tg.group("Большой", owner=owner, supergroup=True)
    tg.add_bot(supergroup)
    other = await bot.send_message(supergroup.id, "🃏 table")
    with pytest.raises(TelegramBadRequest, match="not enough rights to manage pinned messages"):
        await bot.pin_chat_message(supergroup.id, other.message_id)
    tg.add_bot(supergroup, admin=True)
    assert await bot.pin_chat_message(supergroup.id, other.message_id, disable_notification=True)
    assert supergroup.pinned == [other.message_id]
