"""The deal's turns are read incrementally (engine.buraco.turns `_Reading`, kept on the match): at every step of
random matches they are what reading the whole deal afresh gives, across deals and a reload from JSON."""

from __future__ import annotations

import random

from engine.buraco.deal import Deal
from engine.buraco.match import Match
from engine.buraco.turns import _turns, deal_actions, deal_turns


def afresh(match: Match) -> tuple[object, ...]:
    deal = match.deal
    actions = deal_actions(match)
    if not actions:
        return ()
    return _turns(Deal(deal.dealer, deal.order, deal.vulnerable, renew_at_discard=deal.renew_at_discard), actions)


def test_the_turns_read_step_by_step_are_the_turns_read_afresh() -> None:
    for seed in range(3):
        rng = random.Random(seed)
        match = Match(seed=f"reading-{seed}")
        deals = 0
        for step in range(2000):
            if match.finished or deals >= 2:
                break
            assert deal_turns(match) == afresh(match), (seed, step)
            if step % 97 == 0:  # a state loaded from storage reads afresh, and on from there
                match = Match.from_json(match.to_json())
            seat = match.to_act()
            assert seat is not None
            number = match.deal_number
            match.apply(rng.choice(match.legal_actions(seat)))
            deals += match.deal_number != number
        assert deals >= 1, "the matches crossed a deal"
