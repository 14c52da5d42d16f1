"""Ratings: a person's skill at a game, from whole matches, with OpenSkill's Plackett–Luce model (issue 38).

**Boards.** A rating is kept per board, and the board is the game a match's tally is kept under (the ``game`` of
its `StatsDelta` rows, as /stats shows them): Бура (its profiles «Бура», Pagat, ru.wiki and «Бура на пятерых»
share one: the same game with small differences), Буркозёл, Козёл (на деньги), Козёл на очки, and Бурако. Буркозёл
and the two Козлы score and end their matches in their own ways (penalties, a pot), so a skill at one says little
of the others: each has its own board. One board per tally also means that /stats and /rating name the same games.

**Who is rated.** Matches of people only, in groups: a match with a computer seat (a /play game, or a group's
table with 🤖) is not rated and shows no change. A person whose seat the computer played while he was away keeps
his seat's result (he left the table to it). A match stopped, or ended because everyone was away, is not rated.

**How.** Two players: the winner over the loser. Partnerships (Бурако, the Бура family's 2×2 where the variant
plays in teams): each side is a team of two, rated as a team. Three to six players: everyone by his place in the
match's final standing, ties allowed (each game's adapter tells it:
`GameAdapter.standing`). A match without a winner (a single deal tied) is a draw.

**The number shown** is conservative: ``1000 + 20·(μ − 3σ)`` rounded, OpenSkill's ordinal (μ − 3σ: the skill
the player has with 99.7% confidence) moved onto an Elo-like scale. A new player (μ = 25, σ = 25/3) shows 1000,
and the number grows as the bot becomes sure of him: a first win between newcomers is +69, the loss −37; two
established equals (σ ≈ 2) move by about ±6 a match. Ranks sort by the same ordinal.

**When.** The ratings are read (one query) and computed under the table's lock just before the commit of the
match's last move, which writes them with the final state; no other move reads or writes them. A person who ends
two matches of one game at two tables in the same few milliseconds would have one of the two updates overwritten
by the other (the read is not in the commit's transaction): accepted, as a person plays one table at a time.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Final

from openskill.models import PlackettLuce, PlackettLuceRating

from bot.games.base import Standing
from bot.i18n import Translator
from bot.storage import OutboxMessage, Rating, RatingChange, RatingStore, RatingUpdate, StatsDelta, Table

Z: Final = 3.0  # standard deviations below the mean: the conservative estimate
SCALE: Final = 20.0  # display points a unit of ordinal
BASE: Final = 1000.0  # what a new player shows (his ordinal is 0)
MU: Final = 25.0  # OpenSkill's defaults: a new player's mean and deviation
SIGMA: Final = MU / 3


def model() -> PlackettLuce:
    """The rating model, with OpenSkill's defaults (μ 25, σ 25/3, β σ/2, τ μ/300)."""
    return PlackettLuce(mu=MU, sigma=SIGMA)


def points(mu: float, sigma: float) -> int:
    """The number a player sees: ``1000 + 20·(μ − 3σ)``, rounded (OpenSkill's ``ordinal(z=3, alpha=20,
    target=1000)``)."""
    return round(BASE + SCALE * (mu - Z * sigma))


def rating_points(rating: Rating) -> int:
    return points(rating.mu, rating.sigma)


def rate(board: str, result: Standing, users: Mapping[int, int], current: Mapping[int, Rating]) -> list[RatingUpdate]:
    """The new ratings of a match's people on ``board``: ``users`` seat -> person, ``current`` their ratings
    (a person without one starts at μ 25, σ 25/3). Every seat must be a person's."""
    rater = model()

    def rating_of(seat: int) -> PlackettLuceRating:
        known = current.get(users[seat])
        return rater.rating(mu=known.mu if known else None, sigma=known.sigma if known else None, name=str(seat))

    teams = [[rating_of(seat) for seat in side] for side in result.sides]
    rated = rater.rate(teams, ranks=[float(place) for place in result.places])
    updates: list[RatingUpdate] = []
    for side, team in zip(result.sides, rated, strict=True):
        for seat, new in zip(side, team, strict=True):
            user = users[seat]
            old = current.get(user)
            before = rating_points(old) if old else points(MU, SIGMA)
            updates.append(
                RatingUpdate(
                    user_id=user,
                    game=board,
                    mu=new.mu,
                    sigma=new.sigma,
                    before=before,
                    after=points(new.mu, new.sigma),
                )
            )
    return updates


def board_of(stats: Sequence[StatsDelta], default: str) -> str:
    """The board a match is rated on: the game its tally is kept under (one for every row of a move)."""
    return next((delta.game for delta in stats), default)


def rated_users(table: Table) -> dict[int, int] | None:
    """Seat -> person of a table whose match is rated: people only, two at least, in a group; else None."""
    if table.chat_id > 0:  # a private chat: a game against the computer (/play)
        return None
    users = {seat.seat: seat.user_id for seat in table.seats if seat.user_id is not None}
    if len(users) != len(table.seats) or len(set(users.values())) < 2:
        return None
    return users


def signed(delta: int) -> str:
    """A change as shown: «+12», «−12» (the minus sign, not a hyphen), «±0»."""
    if delta > 0:
        return f"+{delta}"
    return f"−{-delta}" if delta < 0 else "±0"


def changes_line(updates: Sequence[RatingUpdate | RatingChange], names: Mapping[int, str], tr: Translator) -> str:
    """«📈 Рейтинг: Аня 1069 (+69) · Борис 964 (−36)», the best change first (`names` by user, raw: escaped
    here)."""
    ordered = sorted(updates, key=lambda u: (-(u.after - u.before), -u.after, u.user_id))
    parts = [
        tr.t(
            "ratings-change",
            name=html.escape(names.get(u.user_id, str(u.user_id))),
            after=str(u.after),
            delta=signed(u.after - u.before),
        )
        for u in ordered
    ]
    return tr.t("ratings-match-end", changes=tr.t("tally-separator").join(parts))


class RatingService:
    """A match's end: its people's new ratings, computed from what they were (read at once) before the commit
    that writes them (`GameService.commit_move`)."""

    def __init__(self, repository: RatingStore) -> None:
        self.repository = repository

    async def match_end(
        self, table: Table, result: Standing | None, stats: Sequence[StatsDelta], game: str
    ) -> list[RatingUpdate]:
        """The new ratings of a finished match's people, from its standing (the game's adapter tells it); none
        when it is not rated (a computer at the table, a game in the private chat, no standing)."""
        users = rated_users(table)
        if users is None or result is None:
            return []
        board = board_of(stats, game)
        current = await self.repository.ratings_of(board, set(users.values()))
        return rate(board, result, users, current)

    async def told(
        self,
        table: Table,
        result: Standing | None,
        stats: Sequence[StatsDelta],
        game: str,
        announced: Sequence[OutboxMessage],
        tr: Translator,
    ) -> tuple[list[OutboxMessage], list[RatingUpdate]]:
        """A match's end: its people's new ratings (to commit with it) and its announcements with their changes
        at the end of the result (in the group's language); the announcements as they were when it is unrated."""
        rated = await self.match_end(table, result, stats, game)
        if not rated or not announced:
            return list(announced), rated
        names = {seat.user_id: seat.name for seat in table.seats if seat.user_id is not None}
        last = announced[-1]
        payload = {**(last.payload or {})}
        payload["text"] = f"{payload.get('text', '')}\n{changes_line(rated, names, tr)}"
        return [*announced[:-1], last.model_copy(update={"payload": payload})], rated
