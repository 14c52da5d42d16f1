"""The verifiable shuffle (issue 38, docs/fairness.md): /seed <text> sets one's seed for the lobby one sits in
(in its group, or from the private chat); /verify [N|export] shows what a chat's table committed to and revealed
(the group's table, or the game against the computer in the private chat); /verify export sends the last match
over as a file for the verifier, through the outbox as every answer."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.handlers.common import GROUP_CHATS, PRIVATE_CHAT, respond, topic_of
from bot.services import Actor, TableService
from bot.services.fairness import MatchFile


def create_router() -> Router:
    router = Router(name="fairness")

    @router.message(Command("seed"), GROUP_CHATS)
    @router.message(Command("seed"), PRIVATE_CHAT)
    async def seed(
        message: Message, command: CommandObject, tables: TableService, actor: Actor | None, update_id: int
    ) -> None:
        if actor is None:
            return
        reply = await tables.fairness.set_seed(message.chat.id, actor, command.args or "", update_id)
        if reply.text:
            await respond(tables, message, reply.text, update_id)

    @router.message(Command("verify"), GROUP_CHATS)
    @router.message(Command("verify"), PRIVATE_CHAT)
    async def verify(message: Message, command: CommandObject, tables: TableService, update_id: int) -> None:
        answer = await tables.fairness.verify(message.chat.id, command.args or "")
        if isinstance(answer, MatchFile):
            await tables.fairness.send_file(
                message.chat.id, answer, update_id, reply_to=message.message_id, thread_id=topic_of(message)
            )
        else:
            await respond(tables, message, answer, update_id)

    return router
