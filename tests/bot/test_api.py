"""The lean Bot API path (bot/telegram/api.py) against the fake Bot API: what the chats show, aiogram's exceptions."""

import pytest
from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramUnauthorizedError,
)
from aiogram.methods import AnswerCallbackQuery, EditMessageText, GetChat, SendMessage

from bot.storage import OutboxKind
from bot.telegram.api import BotApi
from bot.telegram.calls import ApiRequest, bot_api_call
from tests.botapi.clock import FakeClock
from tests.botapi.conftest import make_bot
from tests.botapi.server import FakeTelegram
from tests.botapi.state import User

MARKUP = {"inline_keyboard": [[{"text": "A♠", "callback_data": "c:1"}, {"text": "Ход", "callback_data": "go"}]]}


def started(tg: FakeTelegram, name: str = "Аня") -> User:
    user = tg.user(name)
    tg.start_bot(user)
    return user


async def test_the_outbox_calls_send_edit_and_delete_what_the_chat_shows(bot: Bot, tg: FakeTelegram) -> None:
    tg.flood.enabled = False
    anna = started(tg)
    chat = tg.private_chat(anna)
    call = bot_api_call(BotApi(bot))

    payload = {"text": "Ваш ход: <b>туз</b>", "parse_mode": "HTML", "reply_markup": MARKUP}
    sent = await call(ApiRequest(kind=OutboxKind.SEND, chat_id=anna.id, payload=payload))
    shown = tg.last_message(chat, from_bot=True)
    assert shown is not None and shown.message_id == sent
    assert (shown.text, shown.button_texts) == ("Ваш ход: туз", [["A♠", "Ход"]])
    assert shown.entities[0]["type"] == "bold"

    # A stale message_id in the payload never overrides the one the sender resolved.
    edit = {"text": "Ход принят", "parse_mode": "HTML", "message_id": 999}
    assert await call(ApiRequest(kind=OutboxKind.EDIT, chat_id=anna.id, message_id=sent, payload=edit)) == sent
    assert (shown.text, shown.keyboard) == ("Ход принят", [])
    markup = {"reply_markup": MARKUP}
    assert await call(ApiRequest(kind=OutboxKind.EDIT, chat_id=anna.id, message_id=sent, payload=markup)) == sent
    assert shown.button_texts == [["A♠", "Ход"]]
    assert [request.method for request in tg.history[-3:]] == [
        "sendMessage",
        "editMessageText",
        "editMessageReplyMarkup",
    ]

    assert await call(ApiRequest(kind=OutboxKind.DELETE, chat_id=anna.id, message_id=sent)) is None
    assert tg.messages(chat, from_bot=True) == []

    # A text without a parse mode is HTML, as the bot's default for aiogram's own calls (bot/app.py).
    await call(ApiRequest(kind=OutboxKind.SEND, chat_id=anna.id, payload={"text": "<b>Бура!</b>"}))
    shown = tg.last_message(chat, from_bot=True)
    assert shown is not None and shown.text == "Бура!" and shown.entities[0]["type"] == "bold"


async def test_refusals_raise_aiograms_exceptions(bot: Bot, tg: FakeTelegram, clock: FakeClock) -> None:
    api = BotApi(bot)
    anna = started(tg)
    boris = tg.user("Борис")  # never opened the bot
    sent = await api.call(SendMessage, {"chat_id": anna.id, "text": "<i>Стоп!</i>", "parse_mode": "HTML"})
    same = {"chat_id": anna.id, "message_id": sent["message_id"], "text": "<i>Стоп!</i>", "parse_mode": "HTML"}
    with pytest.raises(TelegramBadRequest, match="message is not modified") as not_modified:
        await api.call(EditMessageText, same)
    assert isinstance(not_modified.value.method, EditMessageText)
    with pytest.raises(TelegramForbiddenError, match="bot can't initiate conversation"):
        await api.call(SendMessage, {"chat_id": boris.id, "text": "Ваши карты"})
    with pytest.raises(TelegramBadRequest, match="query ID is invalid"):
        await api.call(AnswerCallbackQuery, {"callback_query_id": "12345", "text": None})
    with pytest.raises(TelegramBadRequest, match="message text is empty"):
        await api.call(SendMessage, {"chat_id": anna.id, "text": ""})
    async with make_bot(tg, token="42:wrong") as stranger:
        with pytest.raises(TelegramUnauthorizedError):
            await BotApi(stranger).call(GetChat, {"chat_id": anna.id})

    group = tg.group("Стол", owner=anna)
    tg.add_bot(group, by=anna)
    for _ in range(3):
        await api.call(SendMessage, {"chat_id": group.id, "text": "ход"})
    with pytest.raises(TelegramRetryAfter) as flood:
        await api.call(SendMessage, {"chat_id": group.id, "text": "ход"})
    assert flood.value.retry_after == 1
    clock.advance(60)
    supergroup = tg.migrate_to_supergroup(group)
    with pytest.raises(TelegramMigrateToChat) as moved:
        await api.call(SendMessage, {"chat_id": group.id, "text": "ход"})
    assert moved.value.migrate_to_chat_id == supergroup.id


async def test_an_unreachable_server_is_a_network_error(tg: FakeTelegram) -> None:
    async with make_bot(tg) as bot:
        await tg.stop()
        with pytest.raises(TelegramNetworkError):
            await BotApi(bot).call(SendMessage, {"chat_id": 1, "text": "ход"})


async def test_the_outbox_shows_a_hand_in_the_group_to_its_player_alone(bot: Bot, tg: FakeTelegram) -> None:
    """A row queued in the player's own chat with `ephemeral` in its payload is a message of the group that he
    alone sees (bot/telegram/calls.py): sent, edited and deleted there by its ephemeral id."""
    tg.flood.enabled = False
    anna, boris = started(tg), started(tg, "Борис")
    group = tg.group("Стол", owner=anna, members=[boris])
    tg.add_bot(group)
    call = bot_api_call(BotApi(bot))
    where = {"chat_id": group.id}
    payload = {"text": "Ваши карты: <b>туз</b>", "reply_markup": MARKUP, "protect_content": True, "ephemeral": where}
    sent = await call(ApiRequest(kind=OutboxKind.SEND, chat_id=anna.id, payload=payload))
    [shown] = tg.ephemeral_messages(group, anna)
    assert sent == shown.ephemeral_id and shown.receiver == anna and shown.text == "Ваши карты: туз"
    assert tg.ephemeral_messages(group, boris) == []
    assert all(m.receiver is None for m in tg.messages(group, from_bot=True)), "not in what the group sees"
    assert tg.messages(tg.private_chat(anna), from_bot=True) == [], "nothing in her private chat"

    edit = {"text": "Ход принят", "ephemeral": where, "message_id": 999}
    assert await call(ApiRequest(kind=OutboxKind.EDIT, chat_id=anna.id, message_id=sent, payload=edit)) == sent
    assert (shown.text, shown.keyboard) == ("Ход принят", [])
    markup = {"reply_markup": MARKUP, "ephemeral": where}
    await call(ApiRequest(kind=OutboxKind.EDIT, chat_id=anna.id, message_id=sent, payload=markup))
    assert shown.button_texts == [["A♠", "Ход"]]
    await call(ApiRequest(kind=OutboxKind.DELETE, chat_id=anna.id, message_id=sent, payload={"ephemeral": where}))
    assert tg.ephemeral_messages(group, anna) == []
    assert [request.method for request in tg.history[-4:]] == [
        "sendMessage",
        "editEphemeralMessageText",
        "editEphemeralMessageReplyMarkup",
        "deleteEphemeralMessage",
    ]
