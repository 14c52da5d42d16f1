"""The private chat: /start (with a table's invitation it seats the player), /play against the computer, /help,
/new and /settings (a group's: how to start there), anything else."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, Message

from bot.handlers.common import PRIVATE_CHAT, answer, member_check, respond
from bot.i18n import Translator
from bot.render.keyboard import button, link, link_keyboard
from bot.services import Actor, TableService
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
        actor: Actor | None,
        tr: Translator,
        update_id: int,
    ) -> None:
        if actor is None:
            return
        payload = (command.args or "").strip()
        if is_invitation(payload):
            reply = await tables.rejoin.join_from_link(
                payload,
                actor,
                is_member=member_check(bot, members, actor.user_id),
                update_id=update_id,
            )
            text = reply.text
        else:
            # A lobby that waited for him to open this chat (the host seated by /new, say) is told he is here.
            waits = await tables.rejoin.start_private(actor, update_id)
            if waits.text:
                await respond(tables, message, waits.text, update_id)
                return
            # The first run: what the bot is for, and two ways to begin (a group, or a game right here).
            me = await bot.me()
            markup = link_keyboard(
                [
                    [link(tr.t("flow-start-add-group"), f"https://t.me/{me.username}?startgroup=new")],
                    [button(tr.t("flow-start-play"), PlayCb().pack())],
                ]
            )
            await respond(tables, message, tr.t("flow-start-private"), update_id, markup)
            return
        if text:
            await respond(tables, message, text, update_id)

    @router.callback_query(PlayCb.filter())
    async def play_button(query: CallbackQuery, tables: TableService, actor: Actor, update_id: int) -> None:
        """The greeting's «Сыграть с компьютером»: /play."""
        reply = await tables.lobby.play_alone(actor, None, update_id)
        await answer(query, Reply(reply.text, alert=bool(reply.text)))

    @router.message(Command("play"))
    async def play(
        message: Message, command: CommandObject, tables: TableService, actor: Actor | None, update_id: int
    ) -> None:
        """/play [easy|hard]: a game against the computer right here, this chat being table and hand."""
        if actor is None:
            return
        argument = (command.args or "").strip().lower()
        level = ComputerLevel(argument) if argument in {level.value for level in ComputerLevel} else None
        reply = await tables.lobby.play_alone(actor, level, update_id)
        if reply.text:
            await respond(tables, message, reply.text, update_id)

    @router.message(Command("stop", "cancel"))
    async def stop_alone(message: Message, tables: TableService, actor: Actor | None, update_id: int) -> None:
        """/stop ends the game against the computer held in this chat (its only player is its creator)."""
        if actor is None:
            return

        async def nobody_else() -> bool:
            return False

        reply = await tables.game.stop(message.chat.id, actor, is_admin=nobody_else, update_id=update_id)
        if reply.text:
            await respond(tables, message, reply.text, update_id)

    @router.message(Command("score"))
    async def score_alone(message: Message, tables: TableService, update_id: int) -> None:
        await respond(tables, message, await tables.game.score(message.chat.id), update_id)

    @router.message(Command("help"))
    async def help_private(
        message: Message, tables: TableService, actor: Actor | None, tr: Translator, update_id: int
    ) -> None:
        if actor is not None:
            text = await tables.guide.help(message.chat.id, tr)
            await respond(tables, message, text, update_id)

    @router.message(Command("new", "bura", "settings"))
    async def group_only(
        message: Message, command: CommandObject, tables: TableService, bot: Bot, tr: Translator, update_id: int
    ) -> None:
        """/new and /settings belong to a group's table: one line on how to start one, with «add to a group»."""
        key = "flow-private-settings" if command.command == "settings" else "flow-private-new"
        me = await bot.me()
        markup = None
        if me.username:
            url = f"https://t.me/{me.username}?startgroup=new"
            markup = link_keyboard([[link(tr.t("flow-add-to-group"), url)]])
        await respond(tables, message, tr.t(key), update_id, markup)

    @router.message()
    async def anything_else(
        message: Message, tables: TableService, actor: Actor | None, tr: Translator, update_id: int
    ) -> None:
        """Text, stickers, unknown commands: a short pointer, never an error."""
        if actor is not None:
            await respond(tables, message, tr.t("flow-private-fallback"), update_id)

    return router
