"""«Как это было» (issue 38): a finished Buraco deal replayed as one seat saw it: every turn as the table saw it,
and on his own turns what he alone saw (RULES §17.2: hands and mortos are hidden)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import MutableSequence
from typing import Any

import pytest

from engine.buraco.actions import DrawStock, RejectDrawn
from engine.buraco.ai import EasyPlayer
from engine.buraco.cards import Card, cards
from engine.buraco.match import Match
from engine.buraco.melds import Meld
from engine.buraco.replay import DealReplay, replay_deal
from engine.buraco.views import hand_view, seat_view
from engine.core.cards import Suit
from tests.engine.buraco.stack import order_for

PLAYER = EasyPlayer()


class Laid(random.Random):
    """A ``random.Random`` whose shuffle lays out a given order (the engine takes any Random)."""

    def __init__(self, order: list[Card]) -> None:
        super().__init__(0)
        self.order = order

    def shuffle(self, x: MutableSequence[Any]) -> None:
        x[:] = self.order


def computer(match: Match) -> None:
    seat = match.to_act()
    assert seat is not None
    match.apply(PLAYER.choose(seat_view(match, seat)))


def stacked() -> Match:
    """Deal 1 stacked (Гена, seat 3, deals; Аня, seat 0, starts): Аня refuses Д♦ and draws В♠ (§17.3), lays
    3♥ 4♥ 5♥ and discards Т♣; Борис takes the pile; the computers play the deal out."""
    hands = {0: "3H 4H 5H 9S QS AC 5C 5C 6C TH 6D", 1: "KD KD 7S 8S 9C JC 2D 4D 6S 7C 8C"}
    order = order_for(hands, stock="QD JS 9H 3D", dealer=3)
    match = Match(
        "replay",
        shuffler=lambda number: Laid(order) if number == 0 else random.Random(f"replay/{number}"),
        first_dealer=3,
        target=400,
    )
    match.apply(DrawStock(0))
    match.apply(RejectDrawn(0))
    while match.deal_number < 1:
        computer(match)
    return match


def test_the_first_turns_as_ana_saw_them() -> None:
    record = replay_deal(stacked(), 1, 0)
    assert record is not None
    assert (record.deal, record.seat, record.dealer, record.first) == (1, 0, 3, 0)
    assert Counter(record.hand) == Counter(cards("3H 4H 5H 9S QS AC 5C 5C 6C TH 6D"))
    first, boris = record.turns[:2]
    assert first.turn.seat == 0 and first.turn.rejected == Card.parse("QD")
    assert first.drawn == (Card.parse("JS"),)  # hers alone; the refused Д♦ went face up to the pile
    assert first.turn.laid == ((0, Meld(Suit.HEARTS, 3, cards("3H 4H 5H"), None)),)
    assert first.turn.discarded == Card.parse("AC")
    assert Counter(first.hand or ()) == Counter(cards("9S JS QS 5C 5C 6C TH 6D"))
    assert boris.turn.seat == 1 and boris.turn.took == cards("QD AC")  # the pile is taken face up
    assert (boris.drawn, boris.morto, boris.hand) == ((), (), None)  # his hand is his own
    assert all(seen.hand is None for seen in record.turns if seen.turn.seat != 0)
    assert all(not seen.drawn and not seen.morto for seen in record.turns if seen.turn.seat != 0)
    assert record.scored.number == 1 and record.scored.closer == 0


def test_boris_never_sees_anas_draw() -> None:
    record = replay_deal(stacked(), 1, 1)
    assert record is not None
    first = record.turns[0]
    assert first.turn.drew and first.turn.rejected == Card.parse("QD")  # the refused card is public
    assert (first.drawn, first.morto, first.hand) == ((), (), None)  # В♠ is hers alone
    assert Counter(record.hand) == Counter(cards("KD KD 7S 8S 9C JC 2D 4D 6S 7C 8C"))


def test_none_for_a_deal_not_over_deal_zero_and_a_seat_not_at_the_table() -> None:
    match = stacked()
    assert replay_deal(match, 2, 0) is None
    assert replay_deal(match, 0, 0) is None
    assert replay_deal(match, 1, 4) is None
    assert replay_deal(match, 1, -1) is None


@pytest.mark.parametrize("seed", range(3))
def test_a_replay_names_only_what_its_seat_saw(seed: int) -> None:
    """For every deal over and every seat: each card the replay names is one his views showed him (his hand,
    his draft, the card he drew, the pile, the runs); the replay is the same asked at once or at the end."""
    match = Match(f"leak/{seed}", target=1500)
    seen: dict[tuple[int, int], set[Card]] = {}

    def look() -> None:
        for seat in range(4):
            shown = hand_view(match, seat)
            table = shown.table
            got = seen.setdefault((table.deal_number, seat), set())
            got.update(shown.hand, table.pile, (card for side in table.runs for meld in side for card in meld.cards))
            got.update(card for meld in shown.draft for card in meld.cards)
            got.update(card for card in (shown.drawn, shown.fresh) if card is not None)

    first: dict[tuple[int, int], DealReplay | None] = {}
    look()
    while not match.finished and match.deal_number < 2:
        before = match.deal_number
        computer(match)
        if match.deal_number != before:
            for seat in range(4):
                first[(match.deal_number, seat)] = replay_deal(match, match.deal_number, seat)
        look()
    assert replay_deal(match, match.deal_number + 1, 0) is None
    for (deal, seat), record in first.items():
        assert record is not None
        assert replay_deal(match, deal, seat) == record
        shown = set(record.cards()) - seen[(deal, seat)]
        assert not shown, f"deal {deal}, seat {seat} is shown {shown}"
        assert all(turn.hand is None and not turn.drawn for turn in record.turns if turn.turn.seat != seat)
