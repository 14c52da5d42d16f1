"""The bot's own membership: removed from a group (close its table), blocked in private (tell the group), and a
group's migration to a supergroup (its tables and messages move to the new chat id)."""

from __future__ import annotations

import logging

from aiogram import F, Router
from aiogram.filters import IS_MEMBER, IS_NOT_MEMBER, ChatMemberUpdatedFilter, Command
from aiogram.types import ChatMemberRestricted, ChatMemberUpdated, Message, Update

from bot.handlers.common import GROUP_CHATS, PRIVATE_CHAT
from bot.services import TableService
from bot.storage import Storage
from bot.telegram.sender import Sender

logger = logging.getLogger(__name__)


def create_router() -> Router:
    router = Router(name="membership")

    groups = Router(name="membership-groups")
    groups.my_chat_member.filter(GROUP_CHATS)
    groups.message.filter(GROUP_CHATS)

    @groups.my_chat_member(ChatMemberUpdatedFilter(IS_MEMBER >> IS_NOT_MEMBER))
    async def removed(event: ChatMemberUpdated, tables: TableService) -> None:
        logger.info("removed from chat %s", event.chat.id)
        await tables.game.close_removed(event.chat.id)

    @groups.my_chat_member(ChatMemberUpdatedFilter(IS_NOT_MEMBER >> IS_MEMBER))
    async def added(event: ChatMemberUpdated, tables: TableService, repository: Storage, event_update: Update) -> None:
        await repository.upsert_chat(event.chat.id)
        await repository.set_chat_removed(event.chat.id, False)
        tr = await tables.core.chat_translator(event.chat.id)
        await tables.say(event.chat.id, tr.t("flow-hello-group"), event_update.update_id)

    @groups.my_chat_member()
    async def rights_changed(event: ChatMemberUpdated, tables: TableService, sender: Sender) -> None:
        """The bot's rights in the group changed: without the right to send, its table pauses at once; with it
        back, the table goes on and the messages waiting for the group are tried now."""
        member = event.new_chat_member
        if isinstance(member, ChatMemberRestricted) and not member.can_send_messages:
            logger.info("the bot may not write in chat %s any more", event.chat.id)
            await tables.game.pause(event.chat.id)
        else:
            await sender.wake_chat(event.chat.id)
            await tables.game.resume(event.chat.id)

    @groups.message(F.migrate_to_chat_id)
    async def migrated(message: Message, repository: Storage) -> None:
        assert message.migrate_to_chat_id is not None
        logger.info("chat %s migrated to %s", message.chat.id, message.migrate_to_chat_id)
        await repository.migrate_chat(message.chat.id, message.migrate_to_chat_id)

    @groups.message(Command("help", "start"))
    async def help_group(message: Message, tables: TableService, event_update: Update) -> None:
        tr = await tables.core.chat_translator(message.chat.id)
        await tables.say(message.chat.id, tr.t("flow-help"), event_update.update_id)

    private = Router(name="membership-private")
    private.my_chat_member.filter(PRIVATE_CHAT)

    @private.my_chat_member(ChatMemberUpdatedFilter(IS_MEMBER >> IS_NOT_MEMBER))
    async def blocked(event: ChatMemberUpdated, tables: TableService, repository: Storage) -> None:
        await repository.set_user_blocked(event.chat.id)
        await tables.game.player_unreachable(event.chat.id)

    @private.my_chat_member(ChatMemberUpdatedFilter(IS_NOT_MEMBER >> IS_MEMBER))
    async def unblocked(event: ChatMemberUpdated, repository: Storage) -> None:
        await repository.set_user_blocked(event.chat.id, False)

    router.include_routers(groups, private)
    return router
