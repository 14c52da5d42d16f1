"""One test per refusal reason (RULES §20.14 item 14): each is reachable, and a refusal changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.ochko.actions import Bet, Dark, Hit, Knock, Leave, StakeBank, Stand
from engine.ochko.errors import IllegalAction, Reason
from engine.ochko.match import Match
from engine.ochko.variant import OCHKO_STANDARD, BankerDraw
from tests.engine.ochko.stack import pack, play, table
from tests.engine.ochko.test_edge_cases import empty_the_pack

STD = OCHKO_STANDARD


def at(
    script: str, deal: str, draws: str = "", *, players: int = 3, stacks: list[int] | None = None, **options: Any
) -> Match:
    match = table(pack(deal, draws), players=players, options=STD.with_options(**options), stacks=stacks)
    play(match, script)
    return match


def no_card_anywhere() -> Match:
    match = at("stake 10; bet 1", "TS 8C 9C", "9D 6H")
    empty_the_pack(match)
    return match


ORBIT = "stake 10; bet 10; stand; stand"  # V27: the player breaks the bank
Scenario = Callable[[], tuple[Match, Any]]
SCENARIOS: dict[Reason, list[Scenario]] = {
    Reason.SESSION_OVER: [
        lambda: (
            at("stake 10; bet 10; stand; stand; stake 30; bet 30; stand; stand", "TS 9C", "9D 8H", players=2),
            Leave(0),
        ),
    ],
    Reason.UNKNOWN_ACTION: [lambda: (at("stake 10", "TS 8C 9C"), "hit")],
    Reason.NOT_SEATED: [lambda: (at("stake 10", "TS 8C 9C"), Bet(3, 1)), lambda: (at("", "TS 8C 9C"), Leave(-1))],
    Reason.HAS_LEFT: [lambda: (at("stake 10; leave 2", "TS 8C 9C"), Leave(2))],
    Reason.NOT_YOUR_TURN: [
        lambda: (at("stake 10", "TS 8C 9C"), Bet(2, 1)),
        lambda: (at("stake 10", "TS 8C 9C"), Hit(0)),
    ],
    Reason.WRONG_PHASE: [lambda: (at("stake 10", "TS 8C 9C"), Knock(1)), lambda: (at("", "TS 8C 9C"), Bet(0, 10))],
    Reason.STAKE_BELOW_MINIMUM: [lambda: (at("", "TS 8C 9C"), StakeBank(0, 9))],
    Reason.STAKE_ABOVE_CHIPS: [lambda: (at("", "TS 8C 9C"), StakeBank(0, 101))],
    Reason.BET_BELOW_MINIMUM: [lambda: (at("stake 10", "TS 8C 9C", min_bet=2), Bet(1, 1))],
    Reason.BET_ABOVE_BANK: [lambda: (at("stake 10", "TS 8C 9C"), Bet(1, 11))],
    Reason.BET_ABOVE_CHIPS: [lambda: (at("stake 10", "TS 8C 9C", stacks=[100, 5, 100]), Bet(1, 6))],
    Reason.DARK_NOT_PLAYED: [lambda: (at("stake 10; bet 1", "TS 8C 9C", "9D", dark=False), Dark(1))],
    Reason.NO_CARD_LEFT: [lambda: (no_card_anywhere(), Hit(1)), lambda: (no_card_anywhere(), Dark(1))],
    Reason.BANKER_MUST_HIT: [
        lambda: (at("stake 10; bet 1; stand", "TS 8C 9C", "9D 6H", banker_draw=BankerDraw.S3_15_17), Stand(0)),
    ],
    Reason.BANKER_MUST_STAND: [
        lambda: (at("stake 10; bet 1; stand", "TS 8C 9C", "9D 8H", banker_draw=BankerDraw.HOUSE_17), Hit(0)),
    ],
}


@pytest.mark.parametrize("reason", list(Reason), ids=lambda reason: reason.value)
def test_refusal(reason: Reason) -> None:
    """The reason is given, by apply and by diagnose, and the state is left as it was."""
    for scenario in SCENARIOS[reason]:
        match, action = scenario()
        before = match.snapshot()
        with pytest.raises(IllegalAction) as error:
            match.apply(action)
        assert error.value.reason is reason
        assert match.diagnose(action) is reason
        assert match.snapshot() == before


def test_a_banker_without_a_card_must_stand() -> None:
    match = no_card_anywhere()
    play(match, "stand")
    assert match.legal_actions(0) == [Stand(0)]
    with pytest.raises(IllegalAction) as error:
        match.apply(Hit(0))
    assert error.value.reason is Reason.NO_CARD_LEFT


def test_every_reason_has_a_scenario() -> None:
    assert set(SCENARIOS) == set(Reason)
