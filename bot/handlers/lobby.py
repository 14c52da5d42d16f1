"""Group lobby: /new (/bura) opens a table; /addbot seats a computer; /settings and the lobby and settings buttons;
/stop (/cancel) ends it."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message, Update

from bot.handlers.common import GROUP_CHATS, actor_of, admin_check, answer, member_check, respond, topic_of
from bot.services import TableService
from bot.services.context import Actor, IsAdmin, Reply
from bot.table_settings import ComputerLevel
from bot.telegram.callbacks import LobbyCb, RemoveCb, SettingCb
from bot.telegram.members import Members


def create_router() -> Router:
    router = Router(name="lobby")
    router.message.filter(GROUP_CHATS)
    router.callback_query.filter(GROUP_CHATS)

    @router.message(Command("new", "bura"))
    async def open_table(message: Message, tables: TableService, event_update: Update) -> None:
        if message.from_user is None:
            return
        reply = await tables.lobby.open(
            message.chat.id, actor_of(message.from_user), event_update.update_id, thread_id=topic_of(message)
        )
        if reply.text:
            await respond(tables, message, reply.text, event_update.update_id)

    @router.message(Command("settings"))
    async def settings(
        message: Message, tables: TableService, bot: Bot, members: Members, event_update: Update
    ) -> None:
        await _managed(message, tables, bot, members, event_update, tables.lobby.settings_command)

    @router.message(Command("addbot"))
    async def add_computer(
        message: Message,
        command: CommandObject,
        tables: TableService,
        bot: Bot,
        members: Members,
        event_update: Update,
    ) -> None:
        """/addbot [easy|hard]: a computer takes a seat in the lobby."""
        if message.from_user is None:
            return
        argument = (command.args or "").strip().lower()
        level = ComputerLevel(argument) if argument in {level.value for level in ComputerLevel} else None
        is_admin = admin_check(bot, members, message.chat.id, message.from_user.id)
        reply = await tables.lobby.add_computer_command(
            message.chat.id,
            actor_of(message.from_user),
            is_admin=is_admin,
            update_id=event_update.update_id,
            level=level,
        )
        if reply.text:
            await respond(tables, message, reply.text, event_update.update_id)

    @router.message(Command("stop", "cancel"))
    async def stop_table(
        message: Message, tables: TableService, bot: Bot, members: Members, event_update: Update
    ) -> None:
        await _managed(message, tables, bot, members, event_update, tables.game.stop)

    @router.callback_query(LobbyCb.filter())
    async def lobby_button(
        query: CallbackQuery,
        callback_data: LobbyCb,
        tables: TableService,
        bot: Bot,
        members: Members,
        event_update: Update,
    ) -> None:
        if query.message is None:
            await answer(query, Reply())  # the lean path, retried under a 429 like every answer
            return
        chat = query.message.chat
        me = await bot.me()
        reply = await tables.lobby.tap(
            callback_data.table,
            callback_data.op,
            chat.id,
            actor_of(query.from_user),
            update_id=event_update.update_id,
            is_admin=admin_check(bot, members, chat.id, query.from_user.id),
            is_member=member_check(bot, members, query.from_user.id),
            bot_username=me.username or "",
            title=chat.title or "",
        )
        await answer(query, reply)

    @router.callback_query(RemoveCb.filter())
    async def remove_button(
        query: CallbackQuery,
        callback_data: RemoveCb,
        tables: TableService,
        bot: Bot,
        members: Members,
        event_update: Update,
    ) -> None:
        """A name in the lobby's «Убрать игрока» list: the creator (or an admin) removes that person."""
        if query.message is None:
            await answer(query, Reply())  # the lean path, retried under a 429 like every answer
            return
        chat = query.message.chat
        reply = await tables.lobby.remove_player(
            callback_data.table,
            callback_data.user,
            chat.id,
            actor_of(query.from_user),
            is_admin=admin_check(bot, members, chat.id, query.from_user.id),
            update_id=event_update.update_id,
        )
        await answer(query, reply)

    @router.callback_query(SettingCb.filter())
    async def setting_button(
        query: CallbackQuery,
        callback_data: SettingCb,
        tables: TableService,
        bot: Bot,
        members: Members,
        event_update: Update,
    ) -> None:
        if query.message is None:
            await answer(query, Reply())  # the lean path, retried under a 429 like every answer
            return
        chat = query.message.chat
        reply = await tables.lobby.setting(
            callback_data.table,
            callback_data.key,
            callback_data.value,
            chat.id,
            actor_of(query.from_user),
            update_id=event_update.update_id,
            is_admin=admin_check(bot, members, chat.id, query.from_user.id),
        )
        await answer(query, reply)

    return router


class _ManagerCommand(Protocol):
    def __call__(
        self, chat_id: int, actor: Actor, *, is_admin: IsAdmin, update_id: int | None = None
    ) -> Awaitable[Reply]: ...


async def _managed(
    message: Message,
    tables: TableService,
    bot: Bot,
    members: Members,
    event_update: Update,
    command: _ManagerCommand,
) -> None:
    """A command for the table's creator or a group admin (the service checks which, asking Telegram if needed)."""
    if message.from_user is None:
        return
    is_admin = admin_check(bot, members, message.chat.id, message.from_user.id)
    reply = await command(
        message.chat.id, actor_of(message.from_user), is_admin=is_admin, update_id=event_update.update_id
    )
    if reply.text:
        await respond(tables, message, reply.text, event_update.update_id)
