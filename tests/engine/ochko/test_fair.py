"""Очко dealt by the verifiable shuffle (issue 38, docs/fairness.md §4 «Очко»): each shuffle is fair deal k, the
export verifies with engine.verify, and the verifier fails on a changed card."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from engine.core.fair import FairShuffle, SeedChain, permute
from engine.ochko.cards import codes, deck
from engine.ochko.match import Match
from engine.ochko.variant import OCHKO_STANDARD, Options
from engine.verify import verify
from tests.engine.ochko.test_properties import choose

MASTER = bytes(range(32))


def fair_for(players: int) -> FairShuffle:
    return FairShuffle(SeedChain(MASTER), tuple(f"seat {seat}" for seat in range(players)))


def session(seed: int, players: int = 8, steps: int | None = None, options: Options = OCHKO_STANDARD) -> Match:
    rng = random.Random(seed)
    match = Match(options, players, seed, fair=fair_for(players))
    while not match.finished and (steps is None or len(match.actions) < steps):
        match.apply(choose(match, rng))
    return match


def shuffles(match: Match) -> dict[int, list[str]]:
    return {entry[1]: entry[2] for entry in match.trace if entry[0] == "shuffle"}


def test_the_cut_and_every_round_are_dealt_by_the_fair_shuffle() -> None:
    fair = fair_for(4)
    match = Match(OCHKO_STANDARD, 4, "any", fair=fair)
    assert match.fair_deal == match.shuffles + 1  # between rounds: the next shuffle
    order = deck()
    permute(order, fair.chain.seed(1), fair.player_seeds, 1)
    assert [card for _, card in match.cut] == order[: len(match.cut)]
    match.apply(match.legal_actions(match.banker)[0])
    k = match.round_shuffle
    assert match.fair_deal == k == match.shuffles
    order = deck()
    permute(order, fair.chain.seed(k), fair.player_seeds, k)
    assert shuffles(match)[k] == codes(order)
    assert match.banker_card == order[len(match.dealt)]
    assert match.marker == order[-1]


def test_a_reshuffle_is_a_fair_deal_of_the_pile_in_canonical_order() -> None:
    for seed in range(200):
        match = session(seed, steps=400)
        reshuffles = [entry[1] for entry in match.trace if entry[0] == "reshuffle"]
        if reshuffles:
            break
    else:
        pytest.fail("no reshuffle in 200 sessions of 8 seats")
    k = reshuffles[0]
    laid = shuffles(match)[k]
    pile = sorted(deck(), key=lambda card: card.index)
    pile = [card for card in pile if card.code in set(laid)]
    assert match.fair is not None
    permute(pile, match.fair.chain.seed(k), match.fair.player_seeds, k)
    assert codes(pile) == laid


def test_a_session_export_verifies_deal_by_deal() -> None:
    verified = 0
    reshuffled = False
    for seed in range(60):
        match = session(seed, players=8 if seed % 2 else 3, options=Options(max_banks=2, stack=40))
        export = json.loads(json.dumps(match.fair_export()))
        good, lines = verify(export)
        assert good, lines
        assert len(export["deals"]) == match.shuffles
        verified += 1
        reshuffled |= any(deal.get("kind") == "reshuffle" for deal in export["deals"])
    assert verified == 60
    assert reshuffled, "some session reshuffled the returned pile"


def test_mid_round_the_rounds_seeds_stay_hidden() -> None:
    match = session(5, steps=3)
    assert match.in_round
    export = match.fair_export()
    hidden = [deal["number"] for deal in export["deals"] if deal["seed"] is None]
    assert hidden == list(range(match.round_shuffle, match.shuffles + 1))
    assert match.fair is not None
    assert match.fair_deal == match.shuffles


def tamper(export: dict[str, Any], change: str) -> dict[str, Any]:
    changed = copy.deepcopy(export)
    rounds = [deal for deal in changed["deals"] if deal.get("kind") == "round"]
    if change == "deck":
        deck_ = rounds[0]["deck"]
        deck_[0], deck_[1] = deck_[1], deck_[0]
    elif change == "draw":
        draw = next(move for move in rounds[0]["moves"] if move[0] == "draw")
        draw[2] = rounds[0]["layout"]["marker"]
    elif change == "hand":
        hands = rounds[0]["layout"]["hands"]
        seat = next(iter(hands))
        hands[seat] = [rounds[0]["layout"]["marker"]]
    elif change == "reshuffle":
        deal = next(deal for deal in changed["deals"] if deal.get("kind") == "reshuffle")
        deal["deck"][0], deal["deck"][-1] = deal["deck"][-1], deal["deck"][0]
    elif change == "cut":
        cut = next(deal for deal in changed["deals"] if deal.get("kind") == "cut")
        cut["turned"][0][1] = cut["deck"][-1]
    return changed


@pytest.mark.parametrize("change", ["deck", "draw", "hand", "reshuffle", "cut"])
def test_the_verifier_fails_on_a_changed_card(change: str) -> None:
    for seed in range(200):
        match = session(seed, steps=400)
        if any(entry[0] == "reshuffle" for entry in match.trace) and match.fair_over >= 3:
            break
    export = match.fair_export(through=match.shuffles)  # every seed, the round on the table's included
    assert verify(export)[0]
    good, lines = verify(tamper(export, change))
    assert not good
    assert lines[-1] == "verdict: NOT verified"


def test_to_json_keeps_the_fair_shuffle_and_replays() -> None:
    match = session(11, players=5, steps=150)
    data = json.loads(json.dumps(match.to_json()))
    assert data["fair"]["master"] == MASTER.hex()
    replayed = Match.from_json(data)
    assert replayed.snapshot() == match.snapshot()
    assert replayed.fair_export() == match.fair_export()


def test_only_a_fair_match_exports() -> None:
    with pytest.raises(ValueError, match="fair shuffle"):
        Match(OCHKO_STANDARD, 3, 1).fair_export()
    with pytest.raises(ValueError, match="one player's seed per seat"):
        Match(OCHKO_STANDARD, 3, 1, fair=fair_for(4))
