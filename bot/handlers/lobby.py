"""Group lobby (/new is bot/handlers/games.py): /addbot seats a computer; /settings and the lobby and settings
buttons; «Ещё матч» under a match's result; /stop (/cancel) ends it."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.handlers.common import GROUP_CHATS, admin_check, answer, member_check, respond
from bot.services import TableService
from bot.services.context import Actor, IsAdmin, Reply
from bot.table_settings import ComputerLevel
from bot.telegram.callbacks import LobbyCb, LobbyOp, RematchCb, RemoveCb, SettingCb
from bot.telegram.members import Members


def create_router() -> Router:
    router = Router(name="lobby")
    router.message.filter(GROUP_CHATS)
    router.callback_query.filter(GROUP_CHATS)

    @router.message(Command("settings"))
    async def settings(
        message: Message, tables: TableService, bot: Bot, members: Members, actor: Actor | None, update_id: int
    ) -> None:
        await _managed(message, tables, bot, members, actor, update_id, tables.settings_menu.command)

    @router.message(Command("addbot"))
    async def add_computer(
        message: Message,
        command: CommandObject,
        tables: TableService,
        bot: Bot,
        members: Members,
        actor: Actor | None,
        update_id: int,
    ) -> None:
        """/addbot [easy|hard]: a computer takes a seat in the lobby."""
        if actor is None:
            return
        argument = (command.args or "").strip().lower()
        level = ComputerLevel(argument) if argument in {level.value for level in ComputerLevel} else None
        is_admin = admin_check(bot, members, message.chat.id, actor.user_id)
        reply = await tables.lobby.add_computer_command(
            message.chat.id,
            actor,
            is_admin=is_admin,
            update_id=update_id,
            level=level,
        )
        if reply.text:
            await respond(tables, message, reply.text, update_id)

    @router.message(Command("stop", "cancel"))
    async def stop_table(
        message: Message, tables: TableService, bot: Bot, members: Members, actor: Actor | None, update_id: int
    ) -> None:
        await _managed(message, tables, bot, members, actor, update_id, tables.game.stop)

    @router.callback_query(LobbyCb.filter(F.op == LobbyOp.SETTINGS))
    async def settings_button(
        query: CallbackQuery,
        callback_data: LobbyCb,
        tables: TableService,
        bot: Bot,
        members: Members,
        actor: Actor,
        update_id: int,
    ) -> None:
        """The lobby's ⚙️: its message becomes the settings menu."""
        if query.message is None:
            await answer(query, Reply())  # the lean path, retried under a 429 like every answer
            return
        chat = query.message.chat
        reply = await tables.settings_menu.open(
            callback_data.table,
            chat.id,
            actor,
            is_admin=admin_check(bot, members, chat.id, actor.user_id),
            update_id=update_id,
        )
        await answer(query, reply)

    @router.callback_query(LobbyCb.filter())
    async def lobby_button(
        query: CallbackQuery,
        callback_data: LobbyCb,
        tables: TableService,
        bot: Bot,
        members: Members,
        actor: Actor,
        update_id: int,
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
            actor,
            update_id=update_id,
            is_admin=admin_check(bot, members, chat.id, actor.user_id),
            is_member=member_check(bot, members, actor.user_id),
            bot_username=me.username or "",
            title=chat.title or "",
        )
        await answer(query, reply)

    @router.callback_query(RematchCb.filter())
    async def rematch_button(
        query: CallbackQuery,
        callback_data: RematchCb,
        tables: TableService,
        bot: Bot,
        members: Members,
        actor: Actor,
        update_id: int,
    ) -> None:
        """«Ещё матч» under a match's result: a new lobby for the same players, each seated by his own tap."""
        if query.message is None:
            await answer(query, Reply())
            return
        message = query.message
        me = await bot.me()
        reply = await tables.rejoin.rematch(
            callback_data.table,
            message.chat.id,
            actor,
            is_member=member_check(bot, members, actor.user_id),
            bot_username=me.username or "",
            update_id=update_id,
            thread_id=message.message_thread_id if isinstance(message, Message) and message.is_topic_message else None,
        )
        await answer(query, reply)

    @router.callback_query(RemoveCb.filter())
    async def remove_button(
        query: CallbackQuery,
        callback_data: RemoveCb,
        tables: TableService,
        bot: Bot,
        members: Members,
        actor: Actor,
        update_id: int,
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
            actor,
            is_admin=admin_check(bot, members, chat.id, actor.user_id),
            update_id=update_id,
        )
        await answer(query, reply)

    @router.callback_query(SettingCb.filter())
    async def setting_button(
        query: CallbackQuery,
        callback_data: SettingCb,
        tables: TableService,
        bot: Bot,
        members: Members,
        actor: Actor,
        update_id: int,
    ) -> None:
        if query.message is None:
            await answer(query, Reply())  # the lean path, retried under a 429 like every answer
            return
        chat = query.message.chat
        reply = await tables.settings_menu.choose(
            callback_data.table,
            callback_data.key,
            callback_data.value,
            chat.id,
            actor,
            update_id=update_id,
            is_admin=admin_check(bot, members, chat.id, actor.user_id),
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
    actor: Actor | None,
    update_id: int,
    command: _ManagerCommand,
) -> None:
    """A command for the table's creator or a group admin (the service checks which, asking Telegram if needed)."""
    if actor is None:
        return
    is_admin = admin_check(bot, members, message.chat.id, actor.user_id)
    reply = await command(message.chat.id, actor, is_admin=is_admin, update_id=update_id)
    if reply.text:
        await respond(tables, message, reply.text, update_id)
