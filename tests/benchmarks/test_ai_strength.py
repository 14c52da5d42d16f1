"""The duplicate benchmark's levels: the peeking ones' worlds hold the other seats' true hands, and only theirs; the
levels named by their work."""

from __future__ import annotations

import random
from typing import cast

from engine.bura.ai import Budget, EasyPlayer, HardPlayer, worlds
from engine.bura.ai.worlds import deal_unseen, determinize, unseen_cards
from engine.bura.cards import BY_INDEX
from engine.bura.match import Match
from engine.bura.variant import BURA_STANDARD, SINGLE_DEAL
from engine.bura.views import view
from tests.benchmarks.ai_strength import Peeking, level, seeing

VARIANT = BURA_STANDARD.with_options(match=SINGLE_DEAL)


def _position(moves: int) -> Match:
    """A deal after ``moves`` moves of the easy player on both seats."""
    match = Match(VARIANT, 2, "peek/3")
    easy = EasyPlayer(VARIANT)
    for _ in range(moves):
        seat = match.to_act()
        assert seat is not None
        match.apply(easy.choose(view(match, seat)))
    return match


def test_peeking_worlds_give_the_other_seat_its_true_hand() -> None:
    match = _position(4)
    seat = match.to_act()
    assert seat is not None
    seat_view = view(match, seat)
    unseen = unseen_cards(seat_view, VARIANT)
    truth = {other: sorted(hand, key=BY_INDEX) for other, hand in match.deal.hands.items() if other != seat}
    blind = [deal_unseen(seat_view, unseen, random.Random(n))[0] for n in range(20)]
    assert any(hands != truth for hands in blind)  # without peeking the worlds differ from the truth
    lay = worlds._lay
    with seeing(truth):
        for n in range(20):
            hands, _hidden = deal_unseen(seat_view, unseen, random.Random(n))
            assert hands == truth
            world = determinize(seat_view, VARIANT, random.Random(n), unseen)
            assert {other: world.hands[other] for other in truth} == truth
            assert not {card for hand in truth.values() for card in hand} & set(world.stock)
    assert worlds._lay is lay  # the patch ends with the context


def test_a_peeking_player_chooses_a_legal_move() -> None:
    match = _position(2)
    seat = match.to_act()
    assert seat is not None
    player = Peeking(VARIANT, Budget(samples=4, first_pass=300, race=0, seed=1))
    player.hands = {other: list(hand) for other, hand in match.deal.hands.items() if other != seat}
    seat_view = view(match, seat)
    assert player.choose(seat_view) in seat_view.legal


def test_levels_are_named_by_their_work_as_well() -> None:
    base4 = level("base4")
    assert base4 is not None
    player = base4(VARIANT, 2, "7/0")
    assert isinstance(player, HardPlayer) and player.budget == Budget(seed="7/0").scaled(4)
    hard = level("hard")
    assert hard is not None
    assert cast(HardPlayer, hard(VARIANT, 2, "7/0")).budget == Budget.default(VARIANT, 2, seed="7/0")
    value3 = level("value3")
    assert value3 is not None
    assert cast(HardPlayer, value3(VARIANT, 2, "7/0")).budget == Budget(seed="7/0", horizon=1).scaled(3)
    assert level("base0") is None and level("basex") is None and level("expert") is None
    assert level("value0") is None and level("valuex") is None
