"""The chat-type filters the routers use: coroutines (aiogram would run a plain function in a thread)."""

import inspect
from datetime import UTC, datetime

from aiogram.enums import ChatType
from aiogram.types import CallbackQuery, Chat, Message, User

from bot.handlers.common import GROUP_CHATS, PRIVATE_CHAT

PERSON = User(id=7, is_bot=False, first_name="Аня")


def message_in(kind: ChatType) -> Message:
    chat = Chat(id=7 if kind is ChatType.PRIVATE else -100, type=kind)
    return Message(message_id=1, date=datetime.now(UTC), chat=chat, from_user=PERSON, text="/new")


def tap_on(message: Message | None) -> CallbackQuery:
    return CallbackQuery(id="1", from_user=PERSON, chat_instance="1", message=message, data="h:1:1:p:")


async def test_messages_by_chat_type() -> None:
    for kind in (ChatType.GROUP, ChatType.SUPERGROUP):
        assert await GROUP_CHATS(message_in(kind))
        assert not await PRIVATE_CHAT(message_in(kind))
    assert await PRIVATE_CHAT(message_in(ChatType.PRIVATE))
    assert not await GROUP_CHATS(message_in(ChatType.PRIVATE))
    assert not await GROUP_CHATS(message_in(ChatType.CHANNEL))


async def test_taps_by_the_chat_of_their_message() -> None:
    assert await PRIVATE_CHAT(tap_on(message_in(ChatType.PRIVATE)))
    assert not await GROUP_CHATS(tap_on(message_in(ChatType.PRIVATE)))
    assert await GROUP_CHATS(tap_on(message_in(ChatType.SUPERGROUP)))
    assert not await PRIVATE_CHAT(tap_on(None))  # an inline message's tap has no chat: neither router takes it


def test_the_filters_are_coroutines() -> None:
    assert inspect.iscoroutinefunction(type(GROUP_CHATS).__call__)
