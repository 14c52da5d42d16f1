"""Inline buttons that open something (a link, a Mini App), held to Telegram's rules: a web_app button in private
chats only, to an https:// page; a URL button's link http(s) or tg://; one action a button."""

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from tests.botapi.server import FakeTelegram
from tests.botapi.test_ephemeral import to
from tests.botapi.test_server import keyboard, started, table


def opens(url: str, text: str = "🎴 Открыть стол") -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text=text, web_app=WebAppInfo(url=url))]])


def links(url: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="🎴 Стол", url=url)]])


async def test_a_web_app_button_opens_a_page_from_a_private_chat(bot: Bot, tg: FakeTelegram) -> None:
    alice = started(tg)
    sent = await bot.send_message(alice.id, "Ваши карты", reply_markup=opens("https://bura.example.org/webapp/?t=t1_x"))
    shown = tg.private_chat(alice).messages[sent.message_id]
    assert shown.keyboard == [
        [{"text": "🎴 Открыть стол", "web_app": {"url": "https://bura.example.org/webapp/?t=t1_x"}}]
    ]
    # Our tests' pages: http:// to this host, as WEBAPP_URL allows.
    await bot.edit_message_reply_markup(
        chat_id=alice.id, message_id=sent.message_id, reply_markup=opens("http://127.0.0.1:8081/webapp/?t=t1_x")
    )
    assert tg.calls("editMessageReplyMarkup")[-1].ok


async def test_a_group_takes_no_web_app_button(bot: Bot, tg: FakeTelegram) -> None:
    group, alice, _bob = table(tg)
    page = opens("https://bura.example.org/webapp/")
    with pytest.raises(TelegramBadRequest) as caught:
        await bot.send_message(group.id, "Стол", reply_markup=page)
    assert caught.value.message == "Bad Request: BUTTON_TYPE_INVALID"
    sent = await bot.send_message(group.id, "Стол", reply_markup=keyboard([("🃏 Мои карты", "m:1")]))
    with pytest.raises(TelegramBadRequest, match="BUTTON_TYPE_INVALID"):
        await bot.edit_message_text("Стол", chat_id=group.id, message_id=sent.message_id, reply_markup=page)
    with pytest.raises(TelegramBadRequest, match="BUTTON_TYPE_INVALID"):
        await bot.edit_message_reply_markup(chat_id=group.id, message_id=sent.message_id, reply_markup=page)
    # Not even in a message the group shows one member alone: it is the group's.
    with pytest.raises(TelegramBadRequest, match="BUTTON_TYPE_INVALID"):
        await bot.send_message(group.id, "Ваши карты", ephemeral_message_parameters=to(alice), reply_markup=page)
    assert group.messages[sent.message_id].keyboard == [[{"text": "🃏 Мои карты", "callback_data": "m:1"}]]
    assert tg.ephemeral_messages(group, alice) == []


@pytest.mark.parametrize(
    "url", ["http://bura.example.org/webapp/", "ftp://bura.example.org/", "https:///webapp/", "tg://resolve", "/x"]
)
async def test_a_web_app_page_is_https(bot: Bot, tg: FakeTelegram, url: str) -> None:
    alice = started(tg)
    with pytest.raises(TelegramBadRequest) as caught:
        await bot.send_message(alice.id, "x", reply_markup=opens(url))
    assert caught.value.message == "Bad Request: BUTTON_URL_INVALID"


@pytest.mark.parametrize("url", ["t.me/bura_test_bot", "javascript:alert(1)", "https://", "ftp://example.org/"])
async def test_a_link_button_is_http_or_tg(bot: Bot, tg: FakeTelegram, url: str) -> None:
    group, _alice, _bob = table(tg)
    with pytest.raises(TelegramBadRequest) as caught:
        await bot.send_message(group.id, "x", reply_markup=links(url))
    assert caught.value.message == "Bad Request: BUTTON_URL_INVALID"


async def test_a_link_button_may_open_a_named_mini_app_in_a_group(bot: Bot, tg: FakeTelegram) -> None:
    group, _alice, _bob = table(tg)
    await bot.send_message(group.id, "Стол", reply_markup=links("https://t.me/bura_test_bot/table?startapp=t1_x"))
    await bot.send_message(group.id, "Стол", reply_markup=links("tg://resolve?domain=bura_test_bot"))
    assert all(call.ok for call in tg.calls("sendMessage"))


async def test_a_button_does_one_thing(bot: Bot, tg: FakeTelegram) -> None:
    alice = started(tg)
    both = [
        InlineKeyboardButton(text="x", callback_data="x", url="https://example.org/"),
        InlineKeyboardButton(text="x", callback_data="x", web_app=WebAppInfo(url="https://example.org/")),
        InlineKeyboardButton(text="x", url="https://example.org/", web_app=WebAppInfo(url="https://example.org/")),
    ]
    for button in both:
        with pytest.raises(TelegramBadRequest, match="exactly one of the optional fields"):
            await bot.send_message(alice.id, "x", reply_markup=InlineKeyboardMarkup(inline_keyboard=[[button]]))
