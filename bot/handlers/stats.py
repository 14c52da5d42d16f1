"""The chat's tally, kept per game: /stats (your own) and /top (the chat's best players of each game)."""

from __future__ import annotations

import html

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message, Update

from bot.games.stats import best_players, tally_line
from bot.handlers.common import GROUP_CHATS, respond
from bot.services import TableService
from bot.storage import Storage


def create_router() -> Router:
    router = Router(name="stats")
    router.message.filter(GROUP_CHATS)

    @router.message(Command("stats"))
    async def my_stats(message: Message, tables: TableService, repository: Storage, event_update: Update) -> None:
        if message.from_user is None:
            return
        tr = await tables.core.chat_translator(message.chat.id)
        tallies = await repository.get_stats(message.chat.id, message.from_user.id)
        lines = [tr.t("flow-stats-mine", name=html.escape(message.from_user.full_name))]
        lines.extend(tally_line(stats, tr) for stats in tallies)
        if not tallies:
            lines.append(tr.t("flow-stats-none"))
        await respond(tables, message, "\n".join(lines), event_update.update_id)

    @router.message(Command("top"))
    async def top(message: Message, tables: TableService, repository: Storage, event_update: Update) -> None:
        tr = await tables.core.chat_translator(message.chat.id)
        games = best_players(await repository.chat_stats(message.chat.id))
        if not games:
            await respond(tables, message, tr.t("flow-top-empty"), event_update.update_id)
            return
        lines = [tr.t("flow-top-title")]
        for game, rows in games.items():
            lines.append(tr.t("flow-top-game", game=tr.t("game-name", profile=game)))
            for place, stats in enumerate(rows, start=1):
                user = await repository.get_user(stats.user_id)
                name = html.escape(user.name if user and user.name else str(stats.user_id))
                numbers = {
                    "matches_won": stats.matches_won,
                    "matches_played": stats.matches_played,
                    "deals_won": stats.deals_won,
                    "deals_played": stats.deals_played,
                }
                lines.append(tr.t("flow-top-line", place=place, name=name, **numbers))
        await respond(tables, message, "\n".join(lines), event_update.update_id)

    return router
