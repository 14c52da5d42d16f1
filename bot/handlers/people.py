"""Only people act: a message sent on behalf of a chat is answered, if at all, and goes no further.

In a group Telegram shows some messages as sent by a chat, not a person: a channel's post (every channel's
sender is the same placeholder user, Channel_Bot), an anonymous admin's (GroupAnonymousBot), a linked channel's
post forwarded into its discussion group (the service account 777000). None of them is anyone the bot can seat,
deal to or tell apart from the next one: two channels would be one "user" who could stop each other's tables.
So such a message creates no user, no lobby and no table; a command from one gets one line that says why.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Final

from aiogram.enums import ChatType
from aiogram.types import Message, TelegramObject, User

from bot.handlers.common import respond
from bot.services import TableService

TELEGRAM_SERVICE: Final = 777000  # "Telegram": service notifications and a linked channel's forwarded posts
GROUP_ANONYMOUS_BOT: Final = 1087968824  # the sender shown for an anonymous admin
CHANNEL_BOT: Final = 136817688  # the sender shown for a post made on behalf of a channel
NOT_PEOPLE: Final = frozenset({TELEGRAM_SERVICE, GROUP_ANONYMOUS_BOT, CHANNEL_BOT})


def is_person(user: User | None) -> bool:
    """A real user who can be seated: not a bot, not one of Telegram's stand-ins for a chat."""
    return user is not None and not user.is_bot and user.id not in NOT_PEOPLE


def sent_by_a_person(message: Message) -> bool:
    return message.sender_chat is None and not message.is_automatic_forward and is_person(message.from_user)


async def people_only(
    handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]], event: TelegramObject, data: dict[str, Any]
) -> Any:
    """An outer middleware of messages: a message not sent by a person stops here (see the module's docstring)."""
    if not isinstance(event, Message) or sent_by_a_person(event):
        return await handler(event, data)
    text = event.text or event.caption or ""
    if text.startswith("/") and event.chat.type in (ChatType.GROUP, ChatType.SUPERGROUP):
        tables: TableService = data["tables"]
        tr = await tables.core.chat_translator(event.chat.id)
        await respond(tables, event, tr.t("flow-not-a-person"), data["update_id"])
    return None
