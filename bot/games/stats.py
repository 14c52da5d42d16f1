"""The chat's tally: what a move earned, seat by seat, as one row a person (computers keep no stats), and the
tally told in /stats and /top, whichever game it is of."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum

from bot.i18n import Translator
from bot.storage import Counter, Stats, StatsDelta, Table

# Every game counts these; a game's own counters (a ``StrEnum`` of its own) follow them.
COMMON = frozenset(Counter)


def seat_stats(table: Table, game: str, earned: Iterable[tuple[int, StrEnum]]) -> list[StatsDelta]:
    """``(seat, counter)`` pairs, one a point earned, summed per person at ``table``, in the tally of ``game``."""
    users = {seat.seat: seat.user_id for seat in table.seats}
    totals: dict[int, dict[str, int]] = {}
    for seat, counter in earned:
        user = users.get(seat)
        if user is not None:
            row = totals.setdefault(user, {})
            row[counter.value] = row.get(counter.value, 0) + 1
    return [StatsDelta(chat_id=table.chat_id, user_id=user, game=game, counts=row) for user, row in totals.items()]


def tally_line(stats: Stats, tr: Translator) -> str:
    """ "Бура — матчи: 1 из 2 · сдачи: 7 из 12 · буры: 1": the game's own counters only where they count."""
    parts = [
        tr.t("stats-matches", won=stats.matches_won, played=stats.matches_played),
        tr.t("stats-deals", won=stats.deals_won, played=stats.deals_played),
    ]
    for name in sorted(stats.counts):
        if name not in COMMON and stats.count(name) and tr.has(f"stats-{name}"):
            parts.append(tr.t(f"stats-{name}", count=stats.count(name)))
    return tr.t("stats-game", game=tr.t(f"game-name-{stats.game}"), tally=tr.t("tally-separator").join(parts))


def best_players(tallies: Sequence[Stats], limit: int = 10) -> dict[str, list[Stats]]:
    """The chat's best players of each game it has played: by matches won, then deals won."""
    games: dict[str, list[Stats]] = {}
    for stats in tallies:
        games.setdefault(stats.game, []).append(stats)
    return {
        game: sorted(rows, key=lambda s: (-s.matches_won, -s.deals_won, s.user_id))[:limit]
        for game, rows in sorted(games.items())
    }
