"""BURA_5, RULES §11.4 (ruling 2026-12): no combinations. Five trumps are no instant win, and nothing seizes the
lead. Stacked decks, trump ♦; seat 0 leads first."""

from __future__ import annotations

import pytest

from engine.bura.actions import DeclareCombo, Lead
from engine.bura.cards import cards
from engine.bura.combos import combo_rules
from engine.bura.deal import Phase
from engine.bura.variant import BURA_5
from tests.engine.bura.stack import stacked_deal


def test_bura_5_has_no_combinations() -> None:
    assert combo_rules(BURA_5) == ()


@pytest.mark.parametrize(
    "hands",
    [
        {0: "QS 7S AH 9C JC", 1: "6D 7D 9D JD KD"},  # five trumps for the other player
        {0: "6D 7D 9D JD KD", 1: "QS 7S AH 9C JC"},  # ... and for the leader
        {0: "QS 7S AH 9C JC", 1: "6H 7H 9H JH KH"},  # five of one suit (a molodka elsewhere)
        {0: "QS 7S KH 9C JC", 1: "AH AS AC AD TD"},  # four aces
    ],
)
def test_no_hand_wins_at_once_or_seizes_the_lead(hands: dict[int, str]) -> None:
    """RULES §11.4: whatever is dealt, the deal opens on seat 0's lead and nobody may say «Стоп!»."""
    deal, _ = stacked_deal(BURA_5, hands, "8D")
    assert deal.phase is Phase.LEAD and not deal.over
    assert deal.leader == 0
    assert not any(isinstance(action, DeclareCombo) for seat in (0, 1) for action in deal.legal_actions(seat))
    assert deal.legal_actions(1) == []


def test_five_trumps_are_led_like_any_five_cards_of_a_suit() -> None:
    """RULES §11.4, §6.1 (Bura-5 leads 1..5, engine decision): the five trumps are an ordinary lead."""
    deal, _ = stacked_deal(BURA_5, {0: "6D 7D 9D JD KD", 1: "QS 7S AH 9C JC"}, "8D")
    deal.apply(Lead(0, cards("6D 7D 9D JD KD")))
    assert deal.phase is Phase.RESPOND
