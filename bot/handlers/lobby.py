"""Group lobby (/new is bot/handlers/games.py): /addbot seats a computer; /settings and the lobby and settings
buttons; «Ещё матч» under a match's result; /stop (/cancel) ends it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Chat, Message, TelegramObject

from bot.handlers.common import GROUP_CHATS, admin_check, answer, member_check, respond
from bot.services import TableService
from bot.services.context import Actor, IsAdmin, IsMember, Reply
from bot.table_settings import ComputerLevel
from bot.telegram.callbacks import LobbyCb, LobbyOp, RematchCb, RemoveCb, SettingCb
from bot.telegram.members import Members


@dataclass(frozen=True, slots=True)
class InGroup:
    """Who acts in the group, and what the lobby's services ask about him (Telegram is asked only when they call:
    the table's creator never needs to be found an admin)."""

    chat: Chat
    actor: Actor
    update_id: int
    is_admin: IsAdmin
    is_member: IsMember


async def in_group(
    handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]], event: TelegramObject, data: dict[str, Any]
) -> Any:
    """An inner middleware of the lobby's router: its handlers ask for ``by: InGroup``. An update with no person
    behind it (none reaches a command or a tap here, `people_only`) goes no further."""
    actor: Actor | None = data["actor"]
    chat: Chat | None = data.get("event_chat")
    if actor is None or chat is None:
        return None
    bot: Bot = data["bot"]
    members: Members = data["members"]
    data["by"] = InGroup(
        chat,
        actor,
        data["update_id"],
        is_admin=admin_check(bot, members, chat.id, actor.user_id),
        is_member=member_check(bot, members, actor.user_id),
    )
    return await handler(event, data)


def create_router() -> Router:
    router = Router(name="lobby")
    router.message.filter(GROUP_CHATS)
    router.callback_query.filter(GROUP_CHATS)  # a tap on a message the bot can no longer see is not one of ours
    router.message.middleware(in_group)
    router.callback_query.middleware(in_group)

    @router.message(Command("settings"))
    async def settings(message: Message, tables: TableService, by: InGroup) -> None:
        reply = await tables.settings_menu.command(by.chat.id, by.actor, is_admin=by.is_admin, update_id=by.update_id)
        await _say(tables, message, reply, by)

    @router.message(Command("addbot"))
    async def add_computer(message: Message, command: CommandObject, tables: TableService, by: InGroup) -> None:
        """/addbot [easy|hard]: a computer takes a seat in the lobby."""
        argument = (command.args or "").strip().lower()
        level = ComputerLevel(argument) if argument in {level.value for level in ComputerLevel} else None
        reply = await tables.lobby.add_computer_command(
            by.chat.id, by.actor, is_admin=by.is_admin, update_id=by.update_id, level=level
        )
        await _say(tables, message, reply, by)

    @router.message(Command("stop", "cancel"))
    async def stop_table(message: Message, tables: TableService, by: InGroup) -> None:
        reply = await tables.game.stop(by.chat.id, by.actor, is_admin=by.is_admin, update_id=by.update_id)
        await _say(tables, message, reply, by)

    @router.callback_query(LobbyCb.filter(F.op == LobbyOp.SETTINGS))
    async def settings_button(query: CallbackQuery, callback_data: LobbyCb, tables: TableService, by: InGroup) -> None:
        """The lobby's ⚙️: its message becomes the settings menu."""
        menu = tables.settings_menu
        reply = await menu.open(callback_data.table, by.chat.id, by.actor, is_admin=by.is_admin, update_id=by.update_id)
        await answer(query, reply)

    @router.callback_query(LobbyCb.filter())
    async def lobby_button(
        query: CallbackQuery, callback_data: LobbyCb, tables: TableService, bot: Bot, by: InGroup
    ) -> None:
        me = await bot.me()
        reply = await tables.lobby.tap(
            callback_data.table,
            callback_data.op,
            by.chat.id,
            by.actor,
            update_id=by.update_id,
            is_admin=by.is_admin,
            is_member=by.is_member,
            bot_username=me.username or "",
            title=by.chat.title or "",
        )
        await answer(query, reply)

    @router.callback_query(RematchCb.filter())
    async def rematch_button(
        query: CallbackQuery,
        callback_data: RematchCb,
        tables: TableService,
        bot: Bot,
        by: InGroup,
        event_thread_id: int | None = None,
    ) -> None:
        """«Ещё матч» under a match's result: a new lobby for the same players, each seated by his own tap (in the
        forum topic of the result: aiogram's `event_thread_id`)."""
        me = await bot.me()
        reply = await tables.rejoin.rematch(
            callback_data.table,
            by.chat.id,
            by.actor,
            is_member=by.is_member,
            bot_username=me.username or "",
            update_id=by.update_id,
            thread_id=event_thread_id,
            title=by.chat.title or "",
        )
        await answer(query, reply)

    @router.callback_query(RemoveCb.filter())
    async def remove_button(query: CallbackQuery, callback_data: RemoveCb, tables: TableService, by: InGroup) -> None:
        """A name in the lobby's «Убрать игрока» list: the creator (or an admin) removes that person."""
        table, user = callback_data.table, callback_data.user
        reply = await tables.lobby.remove_player(
            table, user, by.chat.id, by.actor, is_admin=by.is_admin, update_id=by.update_id
        )
        await answer(query, reply)

    @router.callback_query(SettingCb.filter())
    async def setting_button(query: CallbackQuery, callback_data: SettingCb, tables: TableService, by: InGroup) -> None:
        """A button of the settings menu: a row's list of choices, a choice, back to the menu or to the lobby."""
        key, value = callback_data.key, callback_data.value
        reply = await tables.settings_menu.choose(
            callback_data.table, key, value, by.chat.id, by.actor, update_id=by.update_id, is_admin=by.is_admin
        )
        await answer(query, reply)

    return router


async def _say(tables: TableService, message: Message, reply: Reply, by: InGroup) -> None:
    """A command's answer, if it has one: a reply to it in the group."""
    if reply.text:
        await respond(tables, message, reply.text, by.update_id)
