"""The chat's tally, kept per game: what a move earns in each game, and how /stats and /top tell it."""

from __future__ import annotations

from bot.games.bura.moments import tally_of
from bot.games.buraco.game import BURACO
from bot.games.stats import best_players, tally_line
from bot.i18n import Translations
from bot.storage import Seat, Stats, Table, TableStatus
from engine.bura.match import Match as BuraMatch
from engine.bura.variant import BURA_5, BURA_PAGAT, BURA_STANDARD, BURKOZEL, KOZEL_MONEY
from engine.buraco.cards import Card
from engine.buraco.events import DealScored, Discarded, Event, MatchEnded, RunExtended, SideScore
from engine.buraco.match import Match as BuracoMatch
from engine.buraco.melds import Meld
from engine.core.cards import Suit

RU = Translations().get("ru")
EN = Translations().get("en")


def _table(people: dict[int, int]) -> Table:
    seats = tuple(Seat(seat=seat, user_id=people.get(seat), name=f"s{seat}") for seat in range(4))
    return Table(
        table_id=1,
        chat_id=-1,
        status=TableStatus.PLAYING,
        creator_id=7,
        settings={},
        state=None,
        version=1,
        created_at=0.0,
        updated_at=0.0,
        seats=seats,
    )


def _run(length: int) -> Meld:
    return Meld(Suit.HEARTS, 3, tuple(Card.parse(f"{rank}H") for rank in "3456789TJQK"[:length]), None)


def test_a_tally_line_names_the_game_and_only_the_counters_that_count() -> None:
    bura = Stats(chat_id=-1, user_id=7, game="bura", counts={"matches_won": 1, "matches_played": 2, "buras": 0})
    assert tally_line(bura, RU) == "Бура — матчи: 1 из 2 · сдачи: 0 из 0"
    counted = bura.model_copy(update={"counts": {**bura.counts, "buras": 2, "false_claims": 1}})
    assert tally_line(counted, RU) == "Бура — матчи: 1 из 2 · сдачи: 0 из 0 · буры: 2 · ложные вскрытия: 1"
    buraco = Stats(chat_id=-1, user_id=7, game="buraco", counts={"deals_played": 3, "canastras": 4, "outs": 1})
    assert tally_line(buraco, RU) == "Бурако — матчи: 0 из 0 · сдачи: 0 из 3 · канастры: 4 · выходы: 1"
    assert tally_line(buraco, EN) == "Buraco — matches won: 0/0 · deals won: 0/3 · canastras: 4 · went out: 1"


def test_the_best_players_are_ranked_in_each_game_apart() -> None:
    def tally(user: int, game: str, matches: int, deals: int) -> Stats:
        return Stats(chat_id=-1, user_id=user, game=game, counts={"matches_won": matches, "deals_won": deals})

    ranked = best_players(
        [tally(7, "bura", 1, 3), tally(8, "bura", 1, 5), tally(9, "bura", 2, 0), tally(7, "buraco", 0, 1)], limit=2
    )
    assert {game: [s.user_id for s in rows] for game, rows in ranked.items()} == {"bura": [9, 8], "buraco": [7]}
    assert list(ranked) == ["bura", "buraco"]


def test_bura_counts_in_the_tally_the_lobby_names_its_game_by() -> None:
    def key(variant: object) -> str:
        return tally_of(BuraMatch(variant, 2, "tally"))  # type: ignore[arg-type]

    assert [key(v) for v in (BURA_STANDARD, BURA_PAGAT, BURA_5, BURKOZEL, KOZEL_MONEY)] == [
        "bura",
        "bura",
        "bura",
        "bk",
        "kozel",
    ]


def test_buraco_counts_canastras_going_out_deals_and_matches_per_person() -> None:
    """The seat that grows a run to seven cards made a canastra (§17.4); the one whose discard closed the deal
    went out (§17.6); a deal is won by the higher deal score, a match by its winner; computers count nothing."""
    table = _table({0: 7, 1: 8, 2: 9})  # seat 3 is a computer
    score = SideScore(melded=300, bonuses=200, going_out=100, in_hands=0, morto_penalty=0)
    low = SideScore(melded=100, bonuses=0, going_out=0, in_hands=20, morto_penalty=0)
    events: list[Event] = [
        RunExtended(seat=2, side=0, run=0, card=Card.parse("9H"), meld=_run(7)),
        RunExtended(seat=2, side=0, run=0, card=Card.parse("TH"), meld=_run(8)),  # already a canastra
        RunExtended(seat=1, side=1, run=0, card=Card.parse("8H"), meld=_run(6)),
        Discarded(seat=2, card=Card.parse("KS")),
        DealScored(number=1, closer=0, scores=(score, low), totals=(600, 80)),
        MatchEnded(winner=0, totals=(3100, 900)),
    ]
    match = BuracoMatch("tally")
    tallies = {delta.user_id: (delta.game, delta.counts) for delta in BURACO.stats(table, match, events)}
    both = {"deals_played": 1, "matches_played": 1}
    won = {**both, "deals_won": 1, "matches_won": 1}
    assert tallies == {
        7: ("buraco", won),
        8: ("buraco", both),
        9: ("buraco", {**won, "canastras": 1, "outs": 1}),
    }
