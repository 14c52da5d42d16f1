"""Which game: /new with a game's name and the greeting's game buttons open that game's lobby in a group; /rules
tells a game's rules (the group's table's, or in private the one chosen by its button)."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.games.registry import PROFILES
from bot.handlers.common import GROUP_CHATS, PRIVATE_CHAT, answer, respond, topic_of
from bot.i18n import Translator
from bot.render.keyboard import keyboard
from bot.render.lobby import game_buttons
from bot.services import Actor, TableService
from bot.services.context import Reply
from bot.telegram.callbacks import GameCb, GameOp


def create_router() -> Router:
    router = Router(name="games")

    group = Router(name="games-group")
    group.message.filter(GROUP_CHATS)
    group.callback_query.filter(GROUP_CHATS)

    @group.message(Command("new", "bura"))
    async def open_table(
        message: Message, command: CommandObject, tables: TableService, actor: Actor | None, update_id: int
    ) -> None:
        """/new [game]: a lobby of the chat's game, or of the game named (/new бурако, /new buraco, /new буркозёл);
        a name the bot does not know gets the list of games as buttons."""
        if actor is None:
            return
        name = (command.args or "").strip()
        profile = tables.guide.game_named(name) if name else None
        if name and profile is None:
            tr = await tables.core.chat_translator(message.chat.id)
            markup = keyboard(game_buttons(PROFILES, tr, GameOp.NEW))
            await respond(tables, message, tr.t("flow-new-which-game"), update_id, markup)
            return
        thread = topic_of(message)
        reply = await tables.lobby.open(message.chat.id, actor, update_id, thread_id=thread, profile=profile)
        if reply.text:
            await respond(tables, message, reply.text, update_id)

    @group.callback_query(GameCb.filter(F.op == GameOp.NEW))
    async def new_button(
        query: CallbackQuery, callback_data: GameCb, tables: TableService, actor: Actor, update_id: int
    ) -> None:
        """A game's button under the greeting (or under «which game?»): that game's lobby, as /new <game>."""
        if query.message is None or callback_data.profile not in PROFILES:
            await answer(query, Reply())
            return
        message = query.message
        thread = message.message_thread_id if isinstance(message, Message) and message.is_topic_message else None
        reply = await tables.lobby.open(
            message.chat.id, actor, update_id, thread_id=thread, profile=callback_data.profile
        )
        await answer(query, Reply(reply.text, alert=bool(reply.text)))

    @group.message(Command("rules"))
    async def rules_group(message: Message, tables: TableService, update_id: int) -> None:
        await respond(tables, message, await tables.guide.rules(message.chat.id), update_id)

    private = Router(name="games-private")
    private.message.filter(PRIVATE_CHAT)
    private.callback_query.filter(PRIVATE_CHAT)

    @private.message(Command("rules"))
    async def rules_private(message: Message, tables: TableService, tr: Translator, update_id: int) -> None:
        """/rules in private: which game? (a button each), then its rules."""
        markup = keyboard(game_buttons(PROFILES, tr, GameOp.RULES))
        await respond(tables, message, tr.t("flow-rules-which-game"), update_id, markup)

    @private.callback_query(GameCb.filter(F.op == GameOp.RULES))
    async def rules_button(
        query: CallbackQuery, callback_data: GameCb, tables: TableService, tr: Translator, update_id: int
    ) -> None:
        if query.message is None or callback_data.profile not in PROFILES:
            await answer(query, Reply(tr.t("flow-stale-button"), alert=True))
            return
        text = await tables.guide.rules(query.message.chat.id, tr, callback_data.profile)
        await tables.say(query.message.chat.id, text, update_id)
        await answer(query, Reply())

    router.include_routers(group, private)
    return router
