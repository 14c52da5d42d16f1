"""One test per refusal reason not already pinned by a rule's own test (RULES §17); a refusal changes nothing."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine.buraco.actions import AddToRun, Discard, DrawStock, NewRun, TakePile
from engine.buraco.cards import Card, cards
from engine.buraco.deal import Deal, Phase
from engine.buraco.errors import IllegalAction, Reason
from engine.buraco.match import Match
from engine.buraco.melds import arrangements
from engine.core.cards import Suit
from tests.engine.buraco.stack import dealt, lay, position, run

H = Suit.HEARTS


def refused(deal: Deal, action: object, reason: Reason) -> None:
    before = repr({k: v for k, v in vars(deal).items() if k != "_legal"})
    with pytest.raises(IllegalAction) as caught:
        deal.apply(action)  # type: ignore[arg-type]
    assert caught.value.reason is reason
    assert repr({k: v for k, v in vars(deal).items() if k != "_legal"}) == before


@dataclass(frozen=True)
class Shout:
    seat: int


def test_not_seated() -> None:
    refused(dealt({}), DrawStock(7), Reason.NOT_SEATED)


def test_not_your_turn() -> None:
    deal = dealt({}, dealer=3)
    refused(deal, DrawStock(2), Reason.NOT_YOUR_TURN)


def test_unknown_action() -> None:
    deal = dealt({})
    position(deal, 0, "3H 4H")
    refused(deal, Shout(0), Reason.UNKNOWN_ACTION)


def test_card_not_in_hand() -> None:
    deal = dealt({})
    position(deal, 0, "3H 4H")
    refused(deal, Discard(0, Card.parse("KS")), Reason.CARD_NOT_IN_HAND)
    refused(deal, NewRun(0, H, 3, cards("3H 4H 5H")), Reason.CARD_NOT_IN_HAND)  # type: ignore[arg-type]


def test_nothing_to_draw_when_the_stock_and_the_mortos_are_used() -> None:
    # RULES §17.6, §17.7a-15: a draw from an empty stock turns a morto over; with none left there is no draw (a
    # real deal is over by then: this guards a position set up by hand, such as a computer's guessed world).
    deal = dealt({})
    position(deal, 1, "3H 4H", phase=Phase.DRAW, pile="9D")
    deal.hands[3].extend(deal.stock + [card for morto in deal.mortos for card in morto])
    deal.stock, deal.mortos = [], []
    deal._legal = None
    assert deal.legal_actions(1) == [TakePile(1)]
    refused(deal, DrawStock(1), Reason.WRONG_PHASE)


def test_pile_empty() -> None:
    deal = dealt({})
    position(deal, 1, "3H 4H", phase=Phase.DRAW)
    refused(deal, TakePile(1), Reason.PILE_EMPTY)


def test_bad_arrangement() -> None:
    # RULES §17.4: each natural card stands at its own rank's place.
    deal = dealt({})
    position(deal, 0, "3H 4H 5H 9C")
    refused(deal, NewRun(0, H, 3, cards("4H 3H 5H")), Reason.BAD_ARRANGEMENT)  # type: ignore[arg-type]


def test_no_such_meld() -> None:
    deal = dealt({})
    position(deal, 0, "3H 4H 5H 9C")
    refused(deal, AddToRun(0, 0, 4, Card.parse("3H"), 3), Reason.NO_SUCH_MELD)


def test_meld_too_long() -> None:
    # RULES §17.4: a run holds 14 cards at most.
    assert arrangements(cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH JK")) == Reason.MELD_TOO_LONG
    deal = dealt({})
    lay(deal, 0, run("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", H, 1))
    position(deal, 0, "JK 9C 9D")
    refused(deal, AddToRun(0, 0, 0, Card.parse("JK"), 15), Reason.MELD_TOO_LONG)


def test_match_over() -> None:
    match = Match(seed=1)
    match.finished = True
    with pytest.raises(IllegalAction) as caught:
        match.apply(DrawStock(match.deal.turn))
    assert caught.value.reason is Reason.MATCH_OVER
    assert match.legal_actions(match.deal.turn) == []
