"""What every handler module needs: who acts, whether he administers the group, how to answer a tap."""

from __future__ import annotations

import logging

from aiogram import Bot
from aiogram.enums import ChatMemberStatus, ChatType
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest
from aiogram.filters import Filter
from aiogram.methods import AnswerCallbackQuery
from aiogram.types import CallbackQuery, Chat, TelegramObject, User

from bot.api import BotApi
from bot.services import Actor, Reply
from bot.services.core import IsAdmin

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


def actor_of(user: User) -> Actor:
    return Actor(user_id=user.id, name=user.full_name, language_code=user.language_code)


def admin_check(bot: Bot, chat_id: int, user_id: int) -> IsAdmin:
    """Asks Telegram (getChatMember) only when called: the creator of a table never needs it."""

    async def is_admin() -> bool:
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except TelegramAPIError as error:
            logger.warning("getChatMember %s/%s failed: %s", chat_id, user_id, error)
            return False
        return member.status in {ChatMemberStatus.CREATOR, ChatMemberStatus.ADMINISTRATOR}

    return is_admin


async def answer(query: CallbackQuery, reply: Reply) -> None:
    """Answer the tap (every tap gets an answer, or the client spins): a toast, an alert, or a t.me link.

    A tap made while the bot was down (or stuck) reaches it too late to be answered: Telegram refuses with "query
    is too old". The tap was still handled and its result shows in the chats, so that is no error.
    """
    if query.bot is None:
        raise RuntimeError(f"callback query {query.id} reached a handler without its bot")
    params = {"callback_query_id": query.id, "text": reply.text, "show_alert": reply.alert, "url": reply.url}
    try:
        # The lean path (bot/api.py): a tap's answer is the call players wait for.
        await BotApi(query.bot).call(AnswerCallbackQuery, params)
    except TelegramBadRequest as error:
        if "query is too old" not in error.message:
            raise
        logger.info("callback query %s from %s expired before its answer", query.id, query.from_user.id)


class AnswerOnce:
    """Answers one tap exactly once: the first reply given is sent, later ones are dropped. A service may
    answer an accepted tap early through it (see `GameService.tap`) and the handler answer with whatever the
    service returns, without answering twice."""

    def __init__(self, query: CallbackQuery) -> None:
        self.query = query
        self.answered = False

    async def __call__(self, reply: Reply) -> None:
        if self.answered:
            return
        self.answered = True
        await answer(self.query, reply)
