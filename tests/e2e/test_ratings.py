"""Ratings end to end (issue 38): two people play a one-deal match in a group through the fake Bot API; the
result tells each one's new rating and its change, then /rating and /top tell them, in Russian and in English;
one opts into the overall top, which /top in the private chat shows."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from bot.games.bura.settings import MatchChoice
from bot.services.ratings import points
from bot.table_settings import TableSettings
from tests.botapi import FakeTelegram, User
from tests.e2e.conftest import Start
from tests.e2e.players import MOVE_WAIT, Players, find_seed, greedy, seat_players
from tests.e2e.test_flows import claimed_in_first_deal

TEXTS = {
    "ru": {
        "line": "📈 Рейтинг: {winner} {w} (+{gain}) · {loser} {l} (−{loss})",
        "mine": "📈 {name} — рейтинг",
        "game": "Бура — {w} · 1 матч · 1-е место в чате из 2 · 1-е из 2 всего",
        "hidden": "Ваш рейтинг не виден в общем топе. Показать: /rating public",
        "top": "🏆 Лучшие игроки чата по рейтингу (рейтинг · матчи)\nБура\n1. {winner} — {w} · 1/1",
        "public": "Готово: ваш рейтинг теперь виден в общем топе.",
        "overall": "🌍 Общий рейтинг",
    },
    "en": {
        "line": "📈 Rating: {winner} {w} (+{gain}) · {loser} {l} (−{loss})",
        "mine": "📈 {name} — rating",
        "game": "Bura — {w} · 1 match · #1 of 2 in this chat · #1 of 2 overall",
        "hidden": "Your rating does not show in the overall top. Show it: /rating public",
        "top": "🏆 Top players in this chat by rating (rating · matches)\nBura\n1. {winner} — {w} · 1/1",
        "public": "Done: your rating now shows in the overall top.",
        "overall": "🌍 Overall rating",
    },
}


def expected_points() -> tuple[int, int]:
    """What OpenSkill makes of two newcomers' match: the winner's number and the loser's."""
    model = PlackettLuce()
    [[won], [lost]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    return points(won.mu, won.sigma), points(lost.mu, lost.sigma)


async def private_reply(tg: FakeTelegram, user: User, text: str) -> str:
    said = tg.send_message(user, tg.private_chat(user), text)
    reply = await tg.wait_bot_message(tg.private_chat(user), after=said, timeout=MOVE_WAIT)
    return reply.text or ""


async def one_deal_played(tg: FakeTelegram, start: Start, language: str, title: str) -> Players:
    """Two people in a group, their app in `language`, who played a match of one deal (it ends with a claim, so
    one of them wins it) to its end."""
    settings = TableSettings(options={"match": MatchChoice.SINGLE_DEAL})
    storage = await start(find_seed(settings, 2, claimed_in_first_deal, prefix="single"))
    players = await seat_players(
        tg, storage, 2, title=title, settings=[("match", MatchChoice.SINGLE_DEAL.value)], language=language
    )
    await players.play_deal(greedy)
    return players


@pytest.mark.parametrize("language", ["ru", "en"])
async def test_a_match_end_shows_the_rating_changes_then_rating_and_top(
    tg: FakeTelegram, start: Start, language: str
) -> None:
    texts = TEXTS[language]
    players = await one_deal_played(tg, start, language, "Rated")
    match = await players.match()
    assert match.finished and len(match.winners) == 1
    winner = players.user(match.seats_of(match.winners[0])[0])
    loser = next(user for user in players.by_seat.values() if user != winner)
    w, lost = expected_points()
    line = texts["line"].format(
        winner=winner.first_name, w=w, gain=w - 1000, loser=loser.first_name, l=lost, loss=1000 - lost
    )
    await players.group_says(line, what="the rating changes")

    mine = (await players.command(winner, "/rating", "📈")).splitlines()
    assert mine == [texts["mine"].format(name=winner.first_name), texts["game"].format(w=w), texts["hidden"]], mine
    top = (await players.command(loser, "/top", "🏆")).splitlines()
    assert top[:3] == texts["top"].format(winner=winner.first_name, w=w).splitlines(), top
    assert top[3].startswith(f"2. {loser.first_name} — {lost} · 0/1"), top

    assert await private_reply(tg, winner, "/rating public") == texts["public"]
    overall = await private_reply(tg, loser, "/top")
    assert texts["overall"] in overall and f"1. {winner.first_name} — {w}" in overall, overall
    assert f"{loser.first_name} — {lost}" not in overall, "the loser did not opt in"
