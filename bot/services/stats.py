"""The chat's tally, kept per game: a player's own (/stats) and the chat's best players of each game (/top)."""

from __future__ import annotations

import html

from bot.games.stats import best_players, tally_line
from bot.i18n import Translator
from bot.services.core import TableCore
from bot.storage import Stats


class StatsService:
    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.repository = core.repository

    async def mine(self, chat_id: int, user_id: int, name: str) -> str:
        """/stats: the user's tally in this chat, one line a game (`name` raw: escaped here)."""
        tr = await self.core.chat_translator(chat_id)
        tallies = await self.repository.get_stats(chat_id, user_id)
        lines = [tr.t("flow-stats-mine", name=html.escape(name))]
        lines.extend(tally_line(stats, tr) for stats in tallies)
        if not tallies:
            lines.append(tr.t("flow-stats-none"))
        return "\n".join(lines)

    async def everywhere(self, user_id: int, name: str, tr: Translator) -> str:
        """/stats in the private chat: the user's tally in every chat he played in, one line a game."""
        tallies: dict[str, Stats] = {}
        for stats in await self.repository.user_stats(user_id):
            known = tallies.get(stats.game)
            if known is not None:
                summed = {key: known.count(key) + stats.count(key) for key in {*known.counts, *stats.counts}}
                stats = known.model_copy(update={"counts": summed})
            tallies[stats.game] = stats
        if not tallies:
            return tr.t("flow-stats-none-everywhere")
        lines = [tr.t("flow-stats-mine-everywhere", name=html.escape(name))]
        lines.extend(tally_line(stats, tr) for stats in tallies.values())
        return "\n".join(lines)

    async def top(self, chat_id: int) -> str:
        """/top: the chat's best players of each game, their names read at once."""
        tr = await self.core.chat_translator(chat_id)
        games = best_players(await self.repository.chat_stats(chat_id))
        if not games:
            return tr.t("flow-top-empty")
        users = await self.repository.get_users({stats.user_id for rows in games.values() for stats in rows})
        lines = [tr.t("flow-top-title")]
        for game, rows in games.items():
            lines.append(tr.t("flow-top-game", game=tr.t(f"game-name-{game}")))
            for place, stats in enumerate(rows, start=1):
                user = users.get(stats.user_id)
                name = html.escape(user.name if user and user.name else str(stats.user_id))
                numbers = {
                    "matches_won": stats.matches_won,
                    "matches_played": stats.matches_played,
                    "deals_won": stats.deals_won,
                    "deals_played": stats.deals_played,
                }
                lines.append(tr.t("flow-top-line", place=place, name=name, **numbers))
        return "\n".join(lines)
