"""The chat's tally, kept per game: a player's own (/stats) and the chat's best players of each game (/top); the
players' ratings (/rating, and /top by rating where a game of the chat is rated: bot/services/ratings.py)."""

from __future__ import annotations

import html

from bot.games.stats import best_players, tally_line
from bot.i18n import Translator
from bot.services.core import TableCore
from bot.services.ratings import rating_points
from bot.storage import Rating, Stats

TOP = 10  # players a chart shows
# `/rating public` and `/rating private`, as a Russian speaker may type them too.
PUBLIC = frozenset({"public", "on", "публичный", "открыть", "показывать"})
PRIVATE = frozenset({"private", "off", "скрытый", "скрыть", "не показывать"})


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
        """/top: the chat's best players of each game, by rating where the game's matches here were rated (with
        their matches won and played), else by the tally; their names read at once."""
        tr = await self.core.chat_translator(chat_id)
        tallies = await self.repository.chat_stats(chat_id)
        rated: dict[str, list[Rating]] = {}
        for rating in await self.repository.chat_ratings(chat_id):
            rated.setdefault(rating.game, []).append(rating)
        games = {game: rows for game, rows in best_players(tallies).items() if game not in rated}
        if not games and not rated:
            return tr.t("flow-top-empty")
        ids = {r.user_id for rows in rated.values() for r in rows} | {
            s.user_id for rows in games.values() for s in rows
        }
        users = await self.repository.get_users(ids)

        def name(user_id: int) -> str:
            user = users.get(user_id)
            return html.escape(user.name if user and user.name else str(user_id))

        lines: list[str] = []
        if rated:
            counts = {(stats.game, stats.user_id): stats for stats in tallies}
            lines.append(tr.t("ratings-top-title"))
            for game, ratings in sorted(rated.items()):
                lines.append(tr.t("flow-top-game", game=tr.t(f"game-name-{game}")))
                for place, rating in enumerate(ratings[:TOP], start=1):
                    stats = counts.get((game, rating.user_id))
                    won, played = (stats.matches_won, stats.matches_played) if stats else (0, rating.matches)
                    points = str(rating_points(rating))
                    lines.append(
                        tr.t(
                            "ratings-top-line",
                            place=place,
                            name=name(rating.user_id),
                            points=points,
                            won=won,
                            played=played,
                        )
                    )
        if games:
            lines.append(tr.t("flow-top-title"))
        for game, rows in games.items():
            lines.append(tr.t("flow-top-game", game=tr.t(f"game-name-{game}")))
            for place, stats in enumerate(rows, start=1):
                numbers = {
                    "matches_won": stats.matches_won,
                    "matches_played": stats.matches_played,
                    "deals_won": stats.deals_won,
                    "deals_played": stats.deals_played,
                }
                lines.append(tr.t("flow-top-line", place=place, name=name(stats.user_id), **numbers))
        return "\n".join(lines)

    async def overall_top(self, tr: Translator) -> str:
        """The best players of each game everywhere, of those who let their rating show (`/rating public`)."""
        best = await self.repository.top_ratings(None, TOP)
        if not best:
            return tr.t("ratings-top-overall-empty")
        users = await self.repository.get_users({rating.user_id for rating in best})
        lines = [tr.t("ratings-top-overall")]
        game = None
        place = 0
        for rating in best:
            if rating.game != game:
                game, place = rating.game, 0
                lines.append(tr.t("flow-top-game", game=tr.t(f"game-name-{game}")))
            place += 1
            user = users.get(rating.user_id)
            name = html.escape(user.name if user and user.name else str(rating.user_id))
            points = str(rating_points(rating))
            lines.append(tr.t("ratings-top-overall-line", place=place, name=name, points=points))
        return "\n".join(lines)

    async def rating(self, user_id: int, name: str, tr: Translator, chat_id: int | None = None) -> str:
        """/rating: the user's rating on each game he is rated on, his place overall and, in a group, his place
        among its players; then whether it shows in the overall top (`name` raw: escaped here)."""
        ratings = await self.repository.user_ratings(user_id)
        if not ratings:
            return tr.t("ratings-none")
        lines = [tr.t("ratings-mine", name=html.escape(name))]
        for rating in ratings:
            game = tr.t(f"game-name-{rating.game}")
            parts = [tr.t("ratings-game", game=game, points=str(rating_points(rating)), matches=rating.matches)]
            if chat_id is not None:
                here = await self.repository.chat_ratings(chat_id, rating.game)
                if any(r.user_id == user_id for r in here):
                    mine = rating.mu - 3 * rating.sigma
                    place = 1 + sum(1 for r in here if r.mu - 3 * r.sigma > mine)
                    parts.append(tr.t("ratings-rank-chat", place=place, total=len(here)))
            rank = await self.repository.rating_rank(rating.game, user_id)
            if rank is not None:
                parts.append(tr.t("ratings-rank-all", place=rank[0], total=rank[1]))
            lines.append(tr.t("tally-separator").join(parts))
        user = await self.repository.get_user(user_id)
        lines.append(tr.t("ratings-public-yes" if user is not None and user.rating_public else "ratings-public-no"))
        return "\n".join(lines)

    async def group_rating(self, chat_id: int, user_id: int, name: str, args: str | None) -> str:
        """/rating in a group, in its language: his rating with his place among its players, or (`public`,
        `private`) whether it shows in the overall top."""
        tr = await self.core.chat_translator(chat_id)
        return await self._rating_command(user_id, name, tr, args, chat_id)

    async def private_rating(self, user_id: int, name: str, tr: Translator, args: str | None) -> str:
        """/rating in the private chat: his rating on each game and his place overall, or `public`, `private`."""
        return await self._rating_command(user_id, name, tr, args, None)

    async def _rating_command(
        self, user_id: int, name: str, tr: Translator, args: str | None, chat_id: int | None
    ) -> str:
        choice = (args or "").strip().lower()
        if choice in PUBLIC or choice in PRIVATE:
            public = choice in PUBLIC
            await self.repository.set_user_rating_public(user_id, public)
            return tr.t("ratings-made-public" if public else "ratings-made-private")
        return await self.rating(user_id, name, tr, chat_id)
