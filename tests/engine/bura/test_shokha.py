"""The shokha (шоха, 6♠) [B08], RULES §3.4: ★ off; on, 6♠ beats every card including the trump ace, is worth 0,
and may join a lead set of any suit. Stacked decks; trump ♦ unless a test says otherwise; seat 0 leads first.
"""

from __future__ import annotations

import pytest

from engine.bura.actions import DeclareCombo, Lead, RespondFaceDown, RespondOpen
from engine.bura.cards import ALL_CARDS, SHOKHA, Card, beats, cards, set_beats
from engine.bura.combos import Combo
from engine.bura.deal import Deal, Phase, Trick
from engine.bura.errors import IllegalAction, Reason
from engine.bura.events import DealEnded, OutcomeKind, PileCard, Responded, TrickTaken
from engine.bura.variant import BURA_STANDARD, BURKOZEL, KOZEL_TVALADZE, PROFILES, FollowSuit
from engine.core.cards import SUITS, Suit
from tests.engine.bura.stack import stacked_deal

SHOKHA_BURA = BURA_STANDARD.with_options(name="BURA_SHOKHA", shokha=True)


def test_the_shokha_is_off_by_default_and_6s_is_then_the_lowest_spade() -> None:
    """RULES §3.4 ★ OFF: only KOZEL_TVALADZE (§13) has it; without it 7♠ beats 6♠ and 6♠ beats nothing."""
    assert [name for name, variant in PROFILES.items() if variant.shokha] == ["KOZEL_TVALADZE"]
    assert beats(Card.parse("7S"), SHOKHA, Suit.DIAMONDS)
    assert not beats(SHOKHA, Card.parse("AD"), Suit.DIAMONDS)
    assert not set_beats(cards("6S 8S"), cards("QS 7S"), Suit.DIAMONDS)


@pytest.mark.parametrize("trump", SUITS)
def test_the_shokha_beats_every_card_and_nothing_beats_it(trump: Suit) -> None:
    """RULES §3.4, §6.3 rule 3: 6♠ beats every other card, the trump ace included, whatever the trump; no card
    beats it, not even when spades are trumps (it is then the highest trump, not the lowest)."""
    for card in ALL_CARDS:
        if card is not SHOKHA:
            assert beats(SHOKHA, card, trump, shokha=True)
            assert not beats(card, SHOKHA, trump, shokha=True)
    assert not beats(SHOKHA, SHOKHA, trump, shokha=True)


def test_the_shokha_is_worth_nothing() -> None:
    """RULES §3.4: worth 0 (a six, RULES §3.3)."""
    assert SHOKHA.points == 0


def test_sets_with_the_shokha_are_still_beaten_card_by_card() -> None:
    """RULES §6.4 with [B08]: the bijection search is unchanged; the shokha takes any partner, and a set that holds
    it is never beaten."""
    trump = Suit.DIAMONDS
    assert set_beats(cards("6S 8S"), cards("QS 7S"), trump, shokha=True)  # 6♠ on Q♠, 8♠ on 7♠
    assert set_beats(cards("9H 6S"), cards("AD 8H"), trump, shokha=True)  # 6♠ on the trump ace, 9♥ on 8♥
    assert not set_beats(cards("7H 6S"), cards("AD 8H"), trump, shokha=True)  # 7♥ beats neither
    assert not set_beats(cards("AD KD"), cards("7H 6S"), trump, shokha=True)  # nothing beats the shokha


def test_a_responder_takes_the_trump_ace_with_the_shokha() -> None:
    """RULES §3.4, §6.5: 6♠ answered to the led trump ace beats it, and the answer takes the trick."""
    deal, _ = stacked_deal(SHOKHA_BURA, {0: "AD 7C 8C", 1: "6S 9H JH"}, "8D")
    deal.apply(Lead(0, cards("AD")))
    events = deal.apply(RespondOpen(1, cards("6S")))
    assert events[0] == Responded(1, cards("6S"), 1, face_down=False, beats=True)
    taken = next(event for event in events if isinstance(event, TrickTaken))
    assert taken.seat == 1


def test_without_the_shokha_6s_does_not_beat_the_trump_ace() -> None:
    deal, _ = stacked_deal(BURA_STANDARD, {0: "AD 7C 8C", 1: "6S 9H JH"}, "8D")
    deal.apply(Lead(0, cards("AD")))
    assert deal.apply(RespondOpen(1, cards("6S")))[0] == Responded(1, cards("6S"), 1, face_down=False, beats=False)


def test_a_led_shokha_cannot_be_beaten_so_in_closed_play_every_answer_goes_face_down() -> None:
    """RULES §3.4, §6.6 FACE_DOWN_MANDATORY (KOZEL_TVALADZE): nothing beats a led 6♠, so no answer may be open."""
    deal, _ = stacked_deal(KOZEL_TVALADZE, {0: "6S 7C 8C 9C", 1: "AS AD TD KD"}, "8D")
    deal.apply(Lead(0, cards("6S")))
    answers = deal.legal_actions(1)
    assert answers and all(isinstance(action, RespondFaceDown) for action in answers)
    with pytest.raises(IllegalAction) as refused:
        deal.apply(RespondOpen(1, cards("AD")))
    assert refused.value.reason is Reason.MUST_PLAY_FACE_DOWN


def test_a_face_down_shokha_never_beats() -> None:
    """RULES §6.6, §15.16: a face-down set never beats, even the shokha."""
    deal, _ = stacked_deal(SHOKHA_BURA, {0: "AD 7C 8C", 1: "6S 9H JH"}, "8D")
    deal.apply(Lead(0, cards("AD")))
    events = deal.apply(RespondFaceDown(1, cards("6S")))
    assert events[0] == Responded(1, (), 1, face_down=True, beats=False)
    assert next(event for event in events if isinstance(event, TrickTaken)).seat == 0


def test_the_shokha_joins_a_lead_of_any_suit() -> None:
    """RULES §3.4, §6.1 exceptions: 6♠ may join a set of hearts or of clubs; hearts and clubs together stay a
    mixed lead. Without the shokha 6♠ with a heart is a mixed lead."""
    deal, _ = stacked_deal(SHOKHA_BURA, {0: "6S 7H 9C", 1: "QS JS 6H"}, "8D")
    leads = {frozenset(action.cards) for action in deal.legal_actions(0) if isinstance(action, Lead)}
    assert leads == {frozenset(cards(text)) for text in ("6S", "7H", "9C", "6S 7H", "6S 9C")}
    with pytest.raises(IllegalAction) as refused:
        deal.apply(Lead(0, cards("7H 9C")))
    assert refused.value.reason is Reason.MIXED_SUITS
    with pytest.raises(IllegalAction) as refused:
        deal.apply(Lead(0, cards("6S 7H 9C")))
    assert refused.value.reason is Reason.MIXED_SUITS
    deal.apply(Lead(0, cards("7H 6S")))
    assert deal.phase is Phase.RESPOND
    plain, _ = stacked_deal(BURA_STANDARD, {0: "6S 7H 9C", 1: "QS JS 6H"}, "8D")
    with pytest.raises(IllegalAction) as refused:
        plain.apply(Lead(0, cards("6S 7H")))
    assert refused.value.reason is Reason.MIXED_SUITS


def test_a_lead_joined_by_the_shokha_is_beaten_card_by_card() -> None:
    """RULES §6.4: against 7♥ + 6♠, 8♥ beats the heart but nothing beats the shokha: the leader keeps the trick."""
    deal, _ = stacked_deal(SHOKHA_BURA, {0: "6S 7H 9C", 1: "8H AD JS"}, "8D")
    deal.apply(Lead(0, cards("7H 6S")))
    events = deal.apply(RespondOpen(1, cards("8H AD")))
    assert events[0] == Responded(1, cards("8H AD"), 2, face_down=False, beats=False)


def test_follow_suit_the_joined_shokha_takes_the_leads_suit_and_in_an_answer_is_a_spade() -> None:
    """[V08] with [B08], engine decision: the suit to follow of 7♥ + 6♠ is hearts; a lone 6♠ led is a spade,
    and a 6♠ held counts as a spade. Positions after the stock is gone, built by Deal.from_position."""
    variant = SHOKHA_BURA.with_options(follow_suit=FollowSuit.AFTER_STOCK_EXHAUSTED)

    def answers(lead: str, hand: str, leader_keeps: str) -> set[frozenset[Card]]:
        led, held, kept = cards(lead), cards(hand), cards(leader_keeps)
        rest = [card for card in ALL_CARDS if card not in {*led, *held, *kept}]
        deal = Deal.from_position(
            variant,
            2,
            seats=(0, 1),
            dealer=1,
            trump_card=Card.parse("8D"),
            trump_card_holder=0,
            hands={0: list(kept), 1: list(held)},
            stock=[],
            piles=[[PileCard(card, False, 0) for card in rest], []],
            tricks_won=[len(rest) // 6, 0],
            trick=Trick(9, 0, led, [], led, 0),
            phase=Phase.RESPOND,
            rightful=0,
        )
        return {frozenset(a.cards) for a in deal.legal_actions(1) if isinstance(a, RespondOpen)}

    assert answers("7H 6S", "8H AS 9C", "KC") == {frozenset(cards("8H AS")), frozenset(cards("8H 9C"))}
    assert answers("6S", "AS 8H 9C", "KC QC") == {frozenset(cards("AS"))}
    assert answers("7S", "6S 8H 9C", "KC QC") == {frozenset(cards("6S"))}


def test_the_shokha_stands_in_a_molodka_and_it_is_led_whole() -> None:
    """RULES §9.2 with [B08] (engine decision: the shokha joins a hand of one suit): 7♥ 9♥ + 6♠ is a molodka;
    seat 1 seizes the lead with «Стоп!» and must lead all three ([V24]), a mixed lead."""
    deal, _ = stacked_deal(SHOKHA_BURA, {0: "QS 7S AC", 1: "6S 7H 9H"}, "8D")
    assert DeclareCombo(1, Combo.MOLODKA) in deal.legal_actions(1)
    deal.apply(DeclareCombo(1, Combo.MOLODKA))
    assert [set(action.cards) for action in deal.legal_actions(1) if isinstance(action, Lead)] == [
        set(cards("6S 7H 9H"))
    ]
    plain, _ = stacked_deal(BURA_STANDARD, {0: "QS 7S AC", 1: "6S 7H 9H"}, "8D")
    assert DeclareCombo(1, Combo.MOLODKA) not in plain.legal_actions(1)


def test_the_shokha_counts_as_a_trump_in_a_bura() -> None:
    """RULES §9.2 with [B08] (engine decision after P-de: 6♠ is "always the highest trump"): 6♠ 7♦ 9♦ with ♦
    trump is a bura and wins the deal at once; without the shokha it is nothing."""
    _, events = stacked_deal(SHOKHA_BURA, {0: "QS 7S AC", 1: "6S 7D 9D"}, "8D")
    ended = next(event for event in events if isinstance(event, DealEnded))
    assert (ended.outcome.kind, ended.outcome.seat, ended.outcome.combo) == (OutcomeKind.WIN, 1, Combo.BURA)
    plain, _ = stacked_deal(BURA_STANDARD, {0: "QS 7S AC", 1: "6S 7D 9D"}, "8D")
    assert not plain.over


def test_two_buras_top_card_the_shokha_is_the_highest_card() -> None:
    """RULES §9.4 ★ TOP_CARD with [B08]: the bura with the shokha beats the one with the trump ace."""
    _, events = stacked_deal(SHOKHA_BURA, {0: "AD TD KD", 1: "6S 7D 9D"}, "8D")
    ended = next(event for event in events if isinstance(event, DealEnded))
    assert ended.outcome.seat == 1


def test_burkozel_keeps_6s_a_plain_six() -> None:
    """RULES §13 BURKOZEL: shokha OFF."""
    assert not BURKOZEL.shokha
