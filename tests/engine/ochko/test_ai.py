"""The two tiny policies of engine.ochko.ai: what they choose, and that they read a view and nothing else."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from engine.ochko import ai
from engine.ochko.actions import Bet, Deal, Hit, Knock, StakeBank, Stand
from engine.ochko.match import Match
from engine.ochko.variant import OCHKO_STANDARD, BankerDraw, KnockRule, Options
from engine.ochko.views import SeatView, view
from tests.engine.ochko.stack import pack, play, table

STD = OCHKO_STANDARD


def test_easy_stakes_and_bets_the_minimum() -> None:
    match = table(pack("TS 8C 9C", "9D"))
    assert ai.easy(view(match, 0)) == StakeBank(0, 10)
    play(match, "stake 10")
    assert ai.easy(view(match, 1)) == Bet(1, 1)
    assert ai.easy(view(match, 2)) is None  # not his turn


@pytest.mark.parametrize(("draw", "choice"), [("6D", Hit(1)), ("7D", Stand(1)), ("9D", Stand(1))])
def test_easy_hits_below_17(draw: str, choice: object) -> None:
    match = table(pack("TS 8C 9C", draw))
    play(match, "stake 10; bet 1")
    assert ai.easy(view(match, 1)) == choice


def test_easy_banker_follows_his_draw_rule() -> None:
    match = table(pack("TS 8C 9C", "9D 8H"), options=STD.with_options(banker_draw=BankerDraw.FREE))
    play(match, "stake 10; bet 1; stand")  # the banker on 17
    assert ai.easy(view(match, 0)) == Stand(0)
    match = table(pack("TS 8C 9C", "9D 6H"), options=STD.with_options(banker_draw=BankerDraw.FREE))
    play(match, "stake 10; bet 1; stand")  # on 15
    assert ai.easy(view(match, 0)) == Hit(0)


def test_easy_knocks_once_the_bank_reached_the_multiple() -> None:
    match = table(pack("TS TC 6D", "9S TH 9C TD"), options=STD.with_options(knock=KnockRule.ANY_ROUND))
    play(match, "stake 10")
    assert ai.easy(view(match, 0)) == Deal(0)
    match = table(pack("TS TC 6D", "9S TH 9C TD"), options=STD.with_options(knock_multiple=2))
    play(match, "stake 10; bet 10; hit; bet 1; hit")
    assert ai.easy(view(match, 0)) == Knock(0)


def test_odds_counts_the_bust_chance_over_unseen_cards() -> None:
    match = table(pack("TS 8C 9C", "6D", "7H"))
    play(match, "stake 10; bet 1")  # seat 1 on 16; he has seen TS 6D, the banker's 9C and the marker 7H
    seat = view(match, 1)
    # 16 busts with anything worth 6 or more: the 6s to the 10s and the aces, 24 cards, of which he saw 4.
    assert ai.bust_chance(seat) == pytest.approx((24 - 4) / (36 - 4))
    assert ai.odds(seat) == Stand(1)
    match = table(pack("TS 8C 9C", "JD"))
    play(match, "stake 10; bet 1")  # on 12: only tens and aces bust
    assert ai.odds(view(match, 1)) == Hit(1)


def walk(value: Any, seen: set[int]) -> None:
    """Fail if a view holds the match, its lists, or anything mutable."""
    if id(value) in seen:
        return
    seen.add(id(value))
    assert not isinstance(value, Match | list | dict | set), type(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            walk(getattr(value, item.name), seen)
    elif isinstance(value, tuple):
        for item in value:
            walk(item, seen)


@pytest.mark.parametrize("policy", [ai.easy, ai.odds])
def test_a_policy_reads_only_its_view(policy: Any) -> None:
    """The view holds no reference to the match; changing the hidden state (the pack's order, the others'
    cards) after the view is taken cannot change the policy's choice, nor can deleting the match."""
    rng = random.Random(3)
    for seed in range(12):
        match = Match(Options(knock_multiple=2, max_banks=2, stack=30), 4, seed)
        while not match.finished:
            seat = match.to_act()
            assert seat is not None
            seat_view: SeatView = view(match, seat)
            walk(seat_view, set())
            choice = policy(seat_view)
            assert choice in match.legal_actions(seat)
            rng.shuffle(match.pack)
            for other, hand in match.hands.items():
                if other != seat:
                    hand.reverse()
            assert policy(seat_view) == choice
            match.apply(choice)
        del match
