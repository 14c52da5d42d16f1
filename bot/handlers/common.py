"""What every handler module needs: who acts (handed in by `update_context`), whether he administers the group,
how to answer a tap."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import Bot
from aiogram.enums import ChatType
from aiogram.exceptions import (
    ClientDecodeError,
    TelegramAPIError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.filters import Filter
from aiogram.methods import AnswerCallbackQuery
from aiogram.types import CallbackQuery, Chat, Message, TelegramObject, Update, User

from bot import metrics
from bot.render.common import fit_alert
from bot.render.keyboard import Keyboard, LinkKeyboard
from bot.render.names import safe_name
from bot.services import Actor, Reply, TableService
from bot.services.context import IsAdmin, IsMember
from bot.telegram.api import BotApi
from bot.telegram.members import Members, Standing

logger = logging.getLogger(__name__)


class ChatIs(Filter):
    """The update comes from a chat of these types (a tap: from its message's chat).

    A coroutine on purpose: aiogram runs a plain function filter (a magic ``F`` filter too) in a worker thread,
    a thread hop per filter per update, which a profile under load showed among the costliest things we did.
    """

    def __init__(self, *types: ChatType) -> None:
        self.types = frozenset(types)

    async def __call__(self, event: TelegramObject) -> bool:
        chat: Chat | None
        if isinstance(event, CallbackQuery):
            chat = event.message.chat if event.message is not None else None
        else:
            chat = getattr(event, "chat", None)
        return chat is not None and chat.type in self.types


GROUP_CHATS = ChatIs(ChatType.GROUP, ChatType.SUPERGROUP)
PRIVATE_CHAT = ChatIs(ChatType.PRIVATE)


async def _shown_to_one(query: CallbackQuery) -> bool:
    """The tap came from a message the bot showed to one member alone in a group (an ephemeral message)."""
    message = query.message
    return isinstance(message, Message) and message.ephemeral_message_id is not None


SHOWN_TO_ONE = _shown_to_one


def topic_of(message: Message) -> int | None:
    """The forum topic a message was written in (None: not a forum, or its General topic)."""
    return message.message_thread_id if message.is_topic_message else None


async def respond(
    tables: TableService,
    message: Message,
    text: str,
    update_id: int,
    markup: Keyboard | LinkKeyboard | None = None,
) -> None:
    """Answer a command: a reply to it, in its forum topic, so that it does not float away in a busy chat."""
    await tables.say(
        message.chat.id, text, update_id, reply_to=message.message_id, thread_id=topic_of(message), markup=markup
    )


def actor_of(user: User) -> Actor:
    """The person behind an update, his name made safe to show to others (bot/render/names.py)."""
    return Actor(user_id=user.id, name=safe_name(user.full_name, user.id), language_code=user.language_code)


async def update_context(
    handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]], event: TelegramObject, data: dict[str, Any]
) -> Any:
    """An outer middleware of updates: it hands every handler what it may ask for of the update it handles —
    `actor: Actor` (who acts; None where the update has no user: a post on behalf of a chat carries Telegram's
    stand-in, which `people.py` stops), `tr: Translator` (the actor's, in his app's language; a group's own
    language is asked of `TableCore.chat_translator`) and `update_id: int` (what a write records, so that a
    redelivered update is applied once)."""
    tables: TableService = data["tables"]
    user: User | None = data.get("event_from_user")
    actor = actor_of(user) if user is not None else None
    data["actor"] = actor
    data["tr"] = tables.core.translations.for_telegram_language(actor.language_code if actor else None)
    if isinstance(event, Update):
        data["update_id"] = event.update_id
    return await handler(event, data)


def admin_check(bot: Bot, members: Members, chat_id: int, user_id: int) -> IsAdmin:
    """Asks Telegram (getChatMember, cached briefly) only when called: the creator of a table never needs it."""

    async def is_admin() -> bool:
        return await members.standing(bot, chat_id, user_id) is Standing.ADMIN

    return is_admin


def member_check(bot: Bot, members: Members, user_id: int) -> IsMember:
    """Asks Telegram (getChatMember, cached briefly) whether the user is a member of a group, when called."""

    async def is_member(chat_id: int) -> bool | None:
        return (await members.standing(bot, chat_id, user_id)).is_member

    return is_member


ANSWER_WINDOW = 10.0
"""Seconds after a tap reaches the bot during which its answer is still worth retrying: Telegram's client gives
up on it about then ("query is too old")."""
LAST_TRY = 1.0
"""The last try goes this long before the window closes (the tap took a while to reach us, the try a while to
reach Telegram)."""


async def answer(query: CallbackQuery, reply: Reply) -> None:
    """Answer the tap (every tap gets an answer, or the client spins): a toast, an alert, or a t.me link.

    Never raises: whatever the tap did is committed already, so a failed answer loses nothing. A 429 or a
    network error is retried while Telegram still waits for the answer, counted from when the tap's handling
    began; a refusal (400: the query is too old, a tap made while the bot was down) is logged, once."""
    if query.bot is None:
        raise RuntimeError(f"callback query {query.id} reached a handler without its bot")
    params = {"callback_query_id": query.id, "text": fit_alert(reply.text), "show_alert": reply.alert, "url": reply.url}
    api = BotApi(query.bot)  # the lean path (bot/telegram/api.py): a tap's answer is the call players wait for
    since = metrics.HANDLING_SINCE.get()
    until = (time.monotonic() if since is None else since) + ANSWER_WINDOW - LAST_TRY
    attempt = 0
    while True:
        try:
            await api.call(AnswerCallbackQuery, params)
            metrics.tap_answered()
            return
        except TelegramRetryAfter as error:
            metrics.TOO_MANY.inc()
            wait = float(error.retry_after)
        except (TelegramNetworkError, TelegramServerError, ClientDecodeError):
            wait = min(2.0, 0.25 * 2**attempt)
        except TelegramAPIError as error:
            logger.info("callback query %s from %s was not answered: %s", query.id, query.from_user.id, error.message)
            return
        attempt += 1
        left = until - time.monotonic()
        if left <= 0:
            logger.info("callback query %s from %s: no answer got through in time", query.id, query.from_user.id)
            return
        # A flood wait may outlast what is left of the window (Telegram said "retry after 30" to a tap that
        # expires in 9): giving up at once left the tap spinning for good, although a try before the window
        # closes costs one more refusal at worst and is answered as soon as the flood is over.
        await asyncio.sleep(min(wait, left))
