"""Who a user is in a group, asked of Telegram (getChatMember) and kept briefly.

Joining a table needs the joiner to be a member of the table's group, and managing it (settings, start, /stop)
needs its creator or an admin: both are one question to Telegram. The answer is kept for `TTL` seconds, so a
burst of taps costs one call, and concurrent questions about the same member share that call. A question that
Telegram could not answer (network, 5xx, 429) is not kept: the next one asks again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from enum import Enum

from aiogram import Bot
from aiogram.enums import ChatMemberStatus
from aiogram.exceptions import ClientDecodeError, TelegramAPIError, TelegramBadRequest, TelegramForbiddenError
from aiogram.types import ChatMemberRestricted

logger = logging.getLogger(__name__)

TTL = 60.0  # seconds an answer is kept
SIZE = 20_000  # answers kept at most (the oldest go first)


class Standing(Enum):
    ADMIN = "admin"  # the group's creator or an administrator
    MEMBER = "member"
    OUTSIDER = "outsider"  # left, kicked, never joined (or the chat is not one the bot is in)
    UNKNOWN = "unknown"  # Telegram did not answer: nothing can be said now

    @property
    def is_member(self) -> bool | None:
        """True for a member (admins included), False for an outsider, None when unknown."""
        return None if self is Standing.UNKNOWN else self in (Standing.ADMIN, Standing.MEMBER)


class Members:
    """getChatMember with a short memory; one per process (the dispatcher hands it to handlers as `members`)."""

    def __init__(self, ttl: float = TTL, clock: Callable[[], float] = time.monotonic, size: int = SIZE) -> None:
        self.ttl = ttl
        self.clock = clock
        self.size = size
        self._known: OrderedDict[tuple[int, int], tuple[float, Standing]] = OrderedDict()
        self._asking: dict[tuple[int, int], asyncio.Future[Standing]] = {}

    async def standing(self, bot: Bot, chat_id: int, user_id: int) -> Standing:
        key = (chat_id, user_id)
        known = self._known.get(key)
        if known is not None and known[0] > self.clock():
            return known[1]
        asking = self._asking.get(key)
        if asking is not None:
            return await asyncio.shield(asking)
        future: asyncio.Future[Standing] = asyncio.get_running_loop().create_future()
        self._asking[key] = future
        try:
            standing = await self._ask(bot, chat_id, user_id)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._asking[key]
        future.set_result(standing)
        if standing is not Standing.UNKNOWN:
            self._known[key] = (self.clock() + self.ttl, standing)
            self._known.move_to_end(key)
            while len(self._known) > self.size:
                self._known.popitem(last=False)
        return standing

    async def _ask(self, bot: Bot, chat_id: int, user_id: int) -> Standing:
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except (TelegramBadRequest, TelegramForbiddenError) as error:
            # No such user or chat for the bot (or the bot is no longer there): not a member of anything we run.
            logger.info("getChatMember %s/%s: %s", chat_id, user_id, error.message)
            return Standing.OUTSIDER
        except (TelegramAPIError, ClientDecodeError, TimeoutError) as error:  # network, 5xx, 429: ask again later
            logger.warning("getChatMember %s/%s failed: %s", chat_id, user_id, type(error).__name__)
            return Standing.UNKNOWN
        # A plain "member" from the wire, or aiogram's enum where a model was built in code: compared as text.
        status: str = getattr(member.status, "value", member.status)
        if status in (ChatMemberStatus.CREATOR, ChatMemberStatus.ADMINISTRATOR):
            return Standing.ADMIN
        if status == ChatMemberStatus.MEMBER:
            return Standing.MEMBER
        if isinstance(member, ChatMemberRestricted) and member.is_member:
            return Standing.MEMBER
        return Standing.OUTSIDER
