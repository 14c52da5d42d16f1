"""The private chat: /start (with a table's invitation it seats the player), /play against the computer, /help,
anything else."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, Message, Update

from bot.handlers.common import PRIVATE_CHAT, actor_of, answer, member_check, respond
from bot.render.keyboard import button, link, link_keyboard
from bot.services import TableService
from bot.services.context import Reply
from bot.services.invites import is_invitation
from bot.table_settings import ComputerLevel
from bot.telegram.callbacks import PlayCb
from bot.telegram.members import Members


def create_router() -> Router:
    router = Router(name="private")
    router.message.filter(PRIVATE_CHAT)
    router.callback_query.filter(PRIVATE_CHAT)  # «Сыграть с компьютером» too: a game alone is a private chat's

    @router.message(CommandStart())
    async def start(
        message: Message,
        command: CommandObject,
        tables: TableService,
        bot: Bot,
        members: Members,
        event_update: Update,
    ) -> None:
        if message.from_user is None:
            return
        actor = actor_of(message.from_user)
        payload = (command.args or "").strip()
        if is_invitation(payload):
            reply = await tables.lobby.join_from_link(
                payload,
                actor,
                is_member=member_check(bot, members, actor.user_id),
                update_id=event_update.update_id,
            )
            text = reply.text
        else:
            # The first run: what the bot is for, and two ways to begin (a group, or a game right here).
            await tables.core.remember(actor, started=True)
            tr = tables.core.actor_translator(actor)
            me = await bot.me()
            markup = link_keyboard(
                [
                    [link(tr.t("flow-start-add-group"), f"https://t.me/{me.username}?startgroup=new")],
                    [button(tr.t("flow-start-play"), PlayCb().pack())],
                ]
            )
            await respond(tables, message, tr.t("flow-start-private"), event_update.update_id, markup)
            return
        if text:
            await respond(tables, message, text, event_update.update_id)

    @router.callback_query(PlayCb.filter())
    async def play_button(query: CallbackQuery, tables: TableService, event_update: Update) -> None:
        """The greeting's «Сыграть с компьютером»: /play."""
        reply = await tables.lobby.play_alone(actor_of(query.from_user), None, event_update.update_id)
        await answer(query, Reply(reply.text, alert=bool(reply.text)))

    @router.message(Command("play"))
    async def play(message: Message, command: CommandObject, tables: TableService, event_update: Update) -> None:
        """/play [easy|hard]: a game against the computer right here, this chat being table and hand."""
        if message.from_user is None:
            return
        argument = (command.args or "").strip().lower()
        level = ComputerLevel(argument) if argument in {level.value for level in ComputerLevel} else None
        reply = await tables.lobby.play_alone(actor_of(message.from_user), level, event_update.update_id)
        if reply.text:
            await respond(tables, message, reply.text, event_update.update_id)

    @router.message(Command("stop", "cancel"))
    async def stop_alone(message: Message, tables: TableService, event_update: Update) -> None:
        """/stop ends the game against the computer held in this chat (its only player is its creator)."""
        if message.from_user is None:
            return

        async def nobody_else() -> bool:
            return False

        reply = await tables.game.stop(
            message.chat.id, actor_of(message.from_user), is_admin=nobody_else, update_id=event_update.update_id
        )
        if reply.text:
            await respond(tables, message, reply.text, event_update.update_id)

    @router.message(Command("score"))
    async def score_alone(message: Message, tables: TableService, event_update: Update) -> None:
        await respond(tables, message, await tables.game.score(message.chat.id), event_update.update_id)

    @router.message(Command("help"))
    async def help_private(message: Message, tables: TableService, event_update: Update) -> None:
        if message.from_user is not None:
            tr = tables.core.actor_translator(actor_of(message.from_user))
            text = await tables.lobby.help(message.chat.id, tr)
            await respond(tables, message, text, event_update.update_id)

    @router.message()
    async def anything_else(message: Message, tables: TableService, event_update: Update) -> None:
        """Text, stickers, unknown commands: a short pointer, never an error."""
        if message.from_user is not None:
            tr = tables.core.actor_translator(actor_of(message.from_user))
            await respond(tables, message, tr.t("flow-private-fallback"), event_update.update_id)

    return router
