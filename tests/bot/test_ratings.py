"""Ratings (bot/services/ratings.py): the standing of a finished match (each game's adapter tells it), and
OpenSkill's own updates of it."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from bot.games.base import Standing
from bot.games.bura.game import BURA
from bot.games.buraco.game import BURACO
from bot.i18n import Translations
from bot.services.ratings import board_of, changes_line, points, rate, rated_users
from bot.storage import Rating, RatingUpdate, Seat, StatsDelta, Table, TableStatus
from engine.bura.match import Match as BuraMatch
from engine.bura.variant import BURA_STANDARD, BURKOZEL, KOZEL_MONEY, SINGLE_DEAL
from engine.buraco.match import Match as BuracoMatch


def table(chat_id: int, users: list[int | None]) -> Table:
    seats = tuple(Seat(seat=n, user_id=user, name=f"p{n}") for n, user in enumerate(users))
    return Table(
        table_id=1,
        chat_id=chat_id,
        status=TableStatus.PLAYING,
        creator_id=7,
        settings={},
        state=None,
        version=1,
        created_at=0.0,
        updated_at=0.0,
        seats=seats,
    )


def known(user_id: int, mu: float, sigma: float) -> Rating:
    return Rating(user_id=user_id, game="bura", mu=mu, sigma=sigma, matches=3, updated_at=0.0)


def library(teams: list[list[tuple[float, float]]], ranks: list[float]) -> list[list[tuple[float, float]]]:
    """OpenSkill's own answer for the same teams and ranks."""
    model = PlackettLuce()
    rated = model.rate([[model.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams], ranks=ranks)
    return [[(player.mu, player.sigma) for player in team] for team in rated]


# -- OpenSkill's updates ---------------------------------------------------------------------------------------


def test_two_players_the_winner_over_the_loser_as_openskill_rates_them() -> None:
    users = {0: 70, 1: 80}
    current = {70: known(70, 28.0, 6.0)}  # 80 is new: 25, 25/3
    updates = rate("bura", Standing(((0,), (1,)), (2, 1)), users, current)
    expected = library([[(28.0, 6.0)], [(25.0, 25 / 3)]], [2.0, 1.0])
    assert [(u.user_id, u.mu, u.sigma) for u in updates] == [(70, *expected[0][0]), (80, *expected[1][0])]
    assert updates[1].mu > 25.0 > updates[0].mu - 3.0, "the winner gains, the loser loses"
    assert [(u.before, u.after) for u in updates] == [
        (points(28.0, 6.0), points(*expected[0][0])),
        (1000, points(*expected[1][0])),
    ]
    assert {u.game for u in updates} == {"bura"}


def test_partnerships_are_rated_as_teams_as_openskill_rates_them() -> None:
    users = {0: 70, 1: 80, 2: 71, 3: 81}
    current = {70: known(70, 30.0, 4.0), 81: known(81, 20.0, 5.0)}
    updates = rate("bk", Standing(((0, 2), (1, 3)), (1, 2)), users, current)
    expected = library([[(30.0, 4.0), (25.0, 25 / 3)], [(25.0, 25 / 3), (20.0, 5.0)]], [1.0, 2.0])
    assert [(u.user_id, u.mu, u.sigma) for u in updates] == [
        (70, *expected[0][0]),
        (71, *expected[0][1]),
        (80, *expected[1][0]),
        (81, *expected[1][1]),
    ]


def test_four_players_each_by_his_place_ties_allowed_as_openskill_rates_them() -> None:
    users = {0: 70, 1: 80, 2: 90, 3: 100}
    current = {90: known(90, 26.0, 3.0)}
    places = (2, 1, 3, 2)  # seat 1 won; seats 0 and 3 tie for second
    updates = rate("kozel", Standing(((0,), (1,), (2,), (3,)), places), users, current)
    new = (25.0, 25 / 3)
    expected = library([[new], [new], [(26.0, 3.0)], [new]], [2.0, 1.0, 3.0, 2.0])
    assert [(u.mu, u.sigma) for u in updates] == [team[0] for team in expected]
    assert updates[0].mu == updates[3].mu, "a tie rates alike"


def test_the_shown_number_is_the_conservative_ordinal_on_an_elo_like_scale() -> None:
    model = PlackettLuce()
    assert points(25.0, 25 / 3) == 1000, "a new player shows 1000"
    for mu, sigma in ((25.0, 25 / 3), (31.2, 2.5), (18.0, 6.0)):
        assert points(mu, sigma) == round(model.rating(mu=mu, sigma=sigma).ordinal(z=3.0, alpha=20, target=1000))
    assert points(30.0, 2.0) > points(30.0, 4.0), "the surer, the higher"


# -- the standing of a finished match -------------------------------------------------------------------------


def test_a_match_not_finished_has_no_standing() -> None:
    assert BURA.standing(BuraMatch(BURA_STANDARD, 2, seed=1)) is None
    assert BURACO.standing(BuracoMatch(seed=1)) is None


def test_two_players_of_bura_played_to_the_end() -> None:
    match = BuraMatch(BURA_STANDARD.model_copy(update={"match": SINGLE_DEAL}), 2, seed=5)
    while not match.finished:
        seat = match.to_act()
        assert seat is not None
        match.apply(match.legal_actions(seat)[0])
    found = BURA.standing(match)
    assert found is not None and found.sides == ((0,), (1,))
    if match.winners:
        assert found.places[match.winners[0]] == 1 and sorted(found.places) == [1, 2]
    else:
        assert found.places == (1, 1), "a tied deal is a draw"


def test_bura_partnerships_stand_as_sides() -> None:
    match = BuraMatch(BURKOZEL, 4, seed=1)
    assert match.teams
    match.finished, match.winners, match.losers = True, (1,), (0,)
    assert BURA.standing(match) == Standing(((0, 2), (1, 3)), (2, 1))


def test_bura_free_for_all_places_by_the_score_and_the_order_of_elimination() -> None:
    match = BuraMatch(BURA_STANDARD, 4, seed=1)  # the robber: won deals, the more the better
    match.finished, match.winners, match.losers = True, (2,), (0, 1, 3)
    match.scores = [3, 7, 11, 3]
    assert BURA.standing(match) == Standing(((0,), (1,), (2,), (3,)), (3, 2, 1, 3))
    penalties = BuraMatch(BURKOZEL, 3, seed=1)  # penalty points: the fewer the better; the last one out before
    penalties.finished, penalties.winners, penalties.losers = True, (1,), (2, 0)
    penalties.eliminated = [2, 0]
    penalties.scores = [12, 4, 15]
    assert BURA.standing(penalties) == Standing(((0,), (1,), (2,)), (2, 1, 3))
    pot = BuraMatch(KOZEL_MONEY, 3, seed=1)  # a pot's chips: the more the better; tied winners share first
    pot.finished, pot.winners, pot.losers = True, (0, 2), (1,)
    pot.scores = [10, 2, 10]
    assert BURA.standing(pot) == Standing(((0,), (1,), (2,)), (1, 2, 1))


def test_buraco_stands_as_two_partnerships() -> None:
    match = BuracoMatch(seed=1)
    match.finished, match.winner = True, 1
    sides = tuple(tuple(s for s in range(4) if match.side_of(s) == side) for side in (0, 1))
    assert BURACO.standing(match) == Standing(sides, (2, 1))


# -- who is rated -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chat_id", "users", "rated"),
    [
        (-100, [7, 8], {0: 7, 1: 8}),
        (-100, [7, None], None),  # a computer at the table
        (-100, [7, 8, None, 9], None),
        (7, [7, None], None),  # /play: against the computer, in the private chat
        (-100, [7], None),
    ],
)
def test_only_matches_of_people_in_groups_are_rated(
    chat_id: int, users: list[int | None], rated: dict[int, int] | None
) -> None:
    assert rated_users(table(chat_id, users)) == rated


def test_the_board_is_the_game_of_the_tally() -> None:
    deltas = [StatsDelta(chat_id=-1, user_id=7, game="bk", counts={"matches_played": 1})]
    assert board_of(deltas, "bura") == "bk"
    assert board_of([], "buraco") == "buraco"


def test_the_changes_line_best_first_with_real_minus_signs() -> None:
    tr = Translations().get("ru")
    updates = [
        RatingUpdate(user_id=8, game="bura", mu=22.0, sigma=8.0, before=1000, after=964),
        RatingUpdate(user_id=7, game="bura", mu=28.0, sigma=8.0, before=1000, after=1069),
        RatingUpdate(user_id=9, game="bura", mu=25.0, sigma=8.0, before=1010, after=1010),
    ]
    line = changes_line(updates, {7: "Аня <3", 8: "Борис"}, tr)
    assert line == "📈 Рейтинг: Аня &lt;3 1069 (+69) · 9 1010 (±0) · Борис 964 (−36)"
    assert changes_line(updates[:1], {8: "Boris"}, Translations().get("en")) == "📈 Rating: Boris 964 (−36)"
