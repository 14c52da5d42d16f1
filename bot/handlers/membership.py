"""The bot's own membership: removed from a group (close its table), blocked in private (tell the group), and a
group's migration to a supergroup (its tables and messages move to the new chat id)."""

from __future__ import annotations

import logging

from aiogram import Bot, F, Router
from aiogram.filters import IS_MEMBER, IS_NOT_MEMBER, ChatMemberUpdatedFilter, Command
from aiogram.types import ChatMemberRestricted, ChatMemberUpdated, Message

from bot.games.registry import PROFILES
from bot.handlers.common import GROUP_CHATS, PRIVATE_CHAT, respond
from bot.render.keyboard import Button, LinkButton, link, link_keyboard
from bot.render.lobby import game_buttons
from bot.services import Actor, TableService
from bot.telegram.callbacks import GameOp
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
        await tables.membership.removed(event.chat.id)

    @groups.my_chat_member(ChatMemberUpdatedFilter(IS_NOT_MEMBER >> IS_MEMBER))
    async def added(event: ChatMemberUpdated, tables: TableService, bot: Bot, actor: Actor, update_id: int) -> None:
        """Added to a group: it speaks the language of whoever added the bot, and says how to begin — a button a
        game opens its table; each player opens the private chat once (his hand is dealt there), with a button."""
        await tables.membership.added(event.chat.id, actor)
        tr = await tables.core.chat_translator(event.chat.id)
        me = await bot.me()
        rows: list[list[Button | LinkButton]] = [list(row) for row in game_buttons(PROFILES, tr, GameOp.NEW)]
        rows.append([link(tr.t("flow-hello-button"), f"https://t.me/{me.username}?start=hello")])
        markup = link_keyboard(rows)
        await tables.say(event.chat.id, tr.t("flow-hello-group"), update_id, markup=markup)

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
    async def migrated(message: Message, tables: TableService) -> None:
        assert message.migrate_to_chat_id is not None
        logger.info("chat %s migrated to %s", message.chat.id, message.migrate_to_chat_id)
        await tables.membership.migrated(message.chat.id, message.migrate_to_chat_id)

    @groups.message(Command("help", "start"))
    async def help_group(message: Message, tables: TableService, update_id: int) -> None:
        text = await tables.guide.help(message.chat.id)  # the rules this chat plays
        await respond(tables, message, text, update_id)

    private = Router(name="membership-private")
    private.my_chat_member.filter(PRIVATE_CHAT)

    @private.my_chat_member(ChatMemberUpdatedFilter(IS_MEMBER >> IS_NOT_MEMBER))
    async def blocked(event: ChatMemberUpdated, tables: TableService) -> None:
        await tables.membership.blocked(event.chat.id)

    @private.my_chat_member(ChatMemberUpdatedFilter(IS_NOT_MEMBER >> IS_MEMBER))
    async def unblocked(event: ChatMemberUpdated, tables: TableService) -> None:
        await tables.membership.unblocked(event.chat.id)

    router.include_routers(groups, private)
    return router
