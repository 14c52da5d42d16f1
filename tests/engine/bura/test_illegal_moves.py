"""One test per illegal move and per refusal ``Reason``: the reason is the one expected and nothing changes.

STYLE: ``legal_actions`` is the single truth and ``apply`` raises ``IllegalAction`` before anything changes.
Every test compares ``Match.snapshot()`` (or the deal's state) before and after the refused action, and checks
that the refused action is not among the legal ones. RULES §15.33: an illegal action is never a false claim.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import pytest

from engine.bura.actions import Action, Claim, DeclareCombo, Lead, Pass, RespondFaceDown, RespondOpen
from engine.bura.cards import Card, cards
from engine.bura.combos import Combo
from engine.bura.deal import Deal, Phase
from engine.bura.errors import IllegalAction, Reason
from engine.bura.events import DealEnded, LeadSeized, OutcomeKind
from engine.bura.match import Match
from engine.bura.variant import (
    BURA_PAGAT,
    BURA_STANDARD,
    BURKOZEL,
    KOZEL_MONEY,
    BuraCombo,
    FollowSuit,
    MatchKind,
    MatchModel,
    Molodka,
    StockShort,
    ThreeAces,
    Variant,
)
from tests.engine.bura.stack import stacked_deal, stacked_match

# Trump ♦. Seat 0 leads first (dealer 1); no combos in either hand.
HANDS = {0: "QS 7S AH", 1: "9D JS 6H"}
TRUMP = "8D"
STOCK = "KD 6D"


def _match(variant: Variant = BURA_STANDARD, **spec: Any) -> Match:
    deal = {"hands": HANDS, "trump": TRUMP, "stock": STOCK, **spec}
    players = len(deal["hands"]) if "players" not in deal else deal.pop("players")
    return stacked_match(variant, deals=[deal], players=players, dealer=players - 1)


def _refused(match: Match, action: Action, reason: Reason) -> None:
    """``action`` is refused with ``reason`` and the match is exactly as before."""
    before = match.snapshot()
    logged = list(match.actions)
    if 0 <= action.seat < match.players:
        assert action not in match.legal_actions(action.seat)
    with pytest.raises(IllegalAction) as refused:
        match.apply(action)
    assert refused.value.reason is reason
    assert match.snapshot() == before
    assert match.actions == logged


def _deal_state(deal: Deal) -> tuple[object, ...]:
    hands = {seat: list(hand) for seat, hand in deal.hands.items()}
    return (deal.phase, deal.leader, hands, list(deal.stock), deal.outcome, repr(deal.piles), repr(deal.trick))


def _answers(match: Match, seat: int) -> set[tuple[Card, ...]]:
    """The card sets of ``seat``'s legal answers, face up or down."""
    return {a.cards for a in match.legal_actions(seat) if isinstance(a, RespondOpen | RespondFaceDown)}


def _after_lead(match: Match, lead: str, seat: int = 0) -> None:
    match.apply(Lead(seat, cards(lead)))
    assert match.deal.phase is Phase.RESPOND


# -- turn and phase ----------------------------------------------------------------------------------------------


def test_lead_out_of_turn_is_refused() -> None:
    """RULES §6.1, §6.7: seat 0 (left of the dealer) leads the first trick; seat 1 may not lead."""
    match = _match()
    _refused(match, Lead(1, cards("JS")), Reason.NOT_YOUR_TURN)


def test_answer_out_of_turn_is_refused() -> None:
    """RULES §6.2: responders answer clockwise from the leader; with three players seat 2 may not answer before
    seat 1."""
    match = _match(hands={0: "QS 7S AH", 1: "9D JS 6H", 2: "KC 8C 9S"}, trump="8D")
    _after_lead(match, "QS")
    _refused(match, RespondOpen(2, cards("9S")), Reason.NOT_YOUR_TURN)


def test_leader_may_not_answer_his_own_lead() -> None:
    """RULES §6.2: only the other players answer the lead."""
    match = _match()
    _after_lead(match, "QS")
    _refused(match, RespondOpen(0, cards("7S")), Reason.NOT_YOUR_TURN)


def test_answer_before_any_lead_is_refused() -> None:
    """RULES §6.2: there is nothing to answer before the lead."""
    match = _match()
    _refused(match, RespondOpen(1, cards("JS")), Reason.WRONG_PHASE)


def test_lead_while_the_trick_is_being_answered_is_refused() -> None:
    """RULES §6.1: the leader leads once per trick; while answers are due no new lead may be made."""
    match = _match()
    _after_lead(match, "QS")
    _refused(match, Lead(0, cards("7S")), Reason.WRONG_PHASE)


def test_declaring_a_combo_in_the_middle_of_a_trick_is_refused() -> None:
    """RULES §9.1: a combo cannot be declared in the middle of a trick (here a molodka held by seat 1)."""
    match = _match(hands={0: "QS 7S AH", 1: "6H 7H 8H"}, trump="8D")
    _after_lead(match, "QS")
    _refused(match, DeclareCombo(1, Combo.MOLODKA), Reason.WRONG_PHASE)


def test_seat_outside_the_table_is_refused() -> None:
    """RULES §4: seats are 0..n-1; a move for seat 2 at a two-player table is refused."""
    match = _match()
    _refused(match, Lead(2, cards("QS")), Reason.NOT_SEATED)


def test_unknown_kind_of_move_is_refused() -> None:
    """STYLE: one typed class per kind of move; anything else is refused, never guessed at."""

    @dataclass(frozen=True)
    class Shout:
        seat: int

    match = _match()
    _refused(match, cast(Action, Shout(0)), Reason.UNKNOWN_ACTION)


# -- the cards of a move -----------------------------------------------------------------------------------------


def test_lead_of_a_card_not_in_hand_is_refused() -> None:
    """RULES §6.1: the leader places cards from his hand; K♠ is not in seat 0's hand."""
    match = _match()
    _refused(match, Lead(0, cards("KS")), Reason.CARD_NOT_IN_HAND)


def test_answer_with_a_card_not_in_hand_is_refused() -> None:
    """RULES §6.2: the answer is made of the responder's own cards; Q♠ was led by seat 0."""
    match = _match()
    _after_lead(match, "7S")
    _refused(match, RespondOpen(1, cards("QS")), Reason.CARD_NOT_IN_HAND)


def test_lead_naming_the_same_card_twice_is_refused() -> None:
    """RULES §6.1: k cards means k different cards; Q♠ Q♠ is not a two-card lead."""
    match = _match()
    _refused(match, Lead(0, cards("QS QS")), Reason.DUPLICATE_CARD)


def test_answer_naming_the_same_card_twice_is_refused() -> None:
    """RULES §6.2: the answer is exactly k different cards."""
    match = _match()
    _after_lead(match, "QS 7S")
    _refused(match, RespondOpen(1, cards("JS JS")), Reason.DUPLICATE_CARD)


def test_empty_lead_is_refused() -> None:
    """RULES §6.1: a lead is at least one card."""
    match = _match()
    _refused(match, Lead(0, ()), Reason.NO_CARDS)


def test_lead_of_mixed_suits_is_refused() -> None:
    """RULES §6.1, §15.33: an ordinary lead is all one suit; Q♠ A♥ is refused (and is no false claim)."""
    match = _match()
    _refused(match, Lead(0, cards("QS AH")), Reason.MIXED_SUITS)
    assert match.deal.outcome is None


def test_two_card_lead_in_kozel_for_money_is_refused() -> None:
    """RULES §6.1 [V07], §15.28: Kozel for money allows leads of 1 or 3 cards only; Q♠ 7♠ is refused."""
    match = _match(KOZEL_MONEY, hands={0: "QS 7S 9S AH", 1: "9D JS 6H 6C"})
    _refused(match, Lead(0, cards("QS 7S")), Reason.LEAD_SIZE_NOT_ALLOWED)


def test_four_card_lead_in_kozel_for_money_is_refused() -> None:
    """RULES §6.1 [V07], §15.28: a lead of four spades is refused in Kozel for money."""
    match = _match(KOZEL_MONEY, hands={0: "QS 7S 9S 8S", 1: "9D JS 6H 6C"})
    _refused(match, Lead(0, cards("QS 7S 9S 8S")), Reason.LEAD_SIZE_NOT_ALLOWED)


def _short_hands_match() -> Match:
    """Five players under DRAW_TO_EXHAUSTION: 36 - 15 = 21 in the stock, two three-card tricks take 15 + 6.

    After the second trick seat 0 (who led both, nobody beat) drew two cards, everyone else one (RULES §7.2).
    Combos are off so that the scenario is only about the hand sizes.
    """
    variant = BURA_STANDARD.with_options(
        stock_short=StockShort.DRAW_TO_EXHAUSTION,
        bura=BuraCombo.OFF,
        three_aces=ThreeAces.OFF,
        molodka=Molodka.OFF,
    )
    # Seat 0 draws the stock cards 1, 6, 11 (A♥ K♥ Q♥), then 16 and the turned-up trump card 6♦ last.
    stock = "AH 6C 7C 8C 9C KH JC QC KC TC QH AC 6H 7H 8H 7D"
    match = stacked_match(
        variant, deals=[{"hands": {0: "AS KS QS"}, "trump": "6D", "stock": stock}], players=5, dealer=4
    )
    for lead in ("AS KS QS", "AH KH QH"):
        match.apply(Lead(0, cards(lead)))
        for seat in (1, 2, 3, 4):
            match.apply(RespondFaceDown(seat, tuple(match.deal.hands[seat])))
    assert sorted(match.deal.hands[0]) == sorted(cards("7D 6D"))
    assert [len(match.deal.hands[seat]) for seat in (1, 2, 3, 4)] == [1, 1, 1, 1]
    assert match.deal.stock == []
    return match


def test_lead_over_the_cap_is_refused() -> None:
    """RULES §7.4 [V14] CAP_LEAD: the leader may not lead more cards than the smallest other hand (1 card here)."""
    match = _short_hands_match()
    _refused(match, Lead(0, cards("7D 6D")), Reason.LEAD_TOO_LARGE)
    assert Lead(0, cards("6D")) in match.legal_actions(0)


def test_answer_with_too_few_cards_is_refused() -> None:
    """RULES §6.2: every responder answers with exactly k cards; one card against a two-card lead is refused."""
    match = _match()
    _after_lead(match, "QS 7S")
    _refused(match, RespondOpen(1, cards("9D")), Reason.WRONG_CARD_COUNT)


def test_answer_with_too_many_cards_is_refused() -> None:
    """RULES §6.2, §15.33: three cards against a one-card lead are refused, not penalized."""
    match = _match()
    _after_lead(match, "QS")
    _refused(match, RespondFaceDown(1, cards("9D JS 6H")), Reason.WRONG_CARD_COUNT)


def test_seizer_must_lead_all_the_molodka() -> None:
    """RULES §9.2 [V24] ★ LEAD_ALL: after «Стоп!» with a molodka, the seizer leads all three cards."""
    match = _match(hands={0: "QS 7S AH", 1: "6H 7H 8H"}, trump="8D")
    events = match.apply(DeclareCombo(1, Combo.MOLODKA))
    assert LeadSeized(1, 0, Combo.MOLODKA) in events
    _refused(match, Lead(1, cards("8H")), Reason.MUST_LEAD_COMBO)
    _refused(match, Lead(1, cards("7H 8H")), Reason.MUST_LEAD_COMBO)
    # RULES §8.2: the seizer may also claim before he leads (★ engine decision).
    assert match.legal_actions(1) == [Claim(1), Lead(1, cards("6H 7H 8H"))]


def test_single_lead_must_be_followed_under_single_lead_option() -> None:
    """RULES §6.2 [V08] SINGLE_LEAD_MUST_FOLLOW: seat 1 holds J♠ and may not answer a single Q♠ with 6♥."""
    match = _match(BURA_STANDARD.with_options(follow_suit=FollowSuit.SINGLE_LEAD))
    _after_lead(match, "QS")
    _refused(match, RespondOpen(1, cards("6H")), Reason.MUST_FOLLOW_SUIT)
    _refused(match, RespondFaceDown(1, cards("9D")), Reason.MUST_FOLLOW_SUIT)
    assert _answers(match, 1) == {cards("JS")}


def _six_player_after_stock() -> Match:
    """Six players: 36 - 18 = 18 in the stock, and the first trick of three-card leads uses it all up.

    Combos are off so that the filler cards of the stacked deck cannot end the deal or seize the lead.
    """
    variant = BURA_STANDARD.with_options(
        follow_suit=FollowSuit.AFTER_STOCK_EXHAUSTED, bura=BuraCombo.OFF, three_aces=ThreeAces.OFF, molodka=Molodka.OFF
    )
    # Drawing goes 0..5 three times from seat 0 (who keeps the first trick): seat 0 gets A♥ 9♣ 6♠,
    # seat 1 gets 7♥ T♣ 8♠.
    stock = "AH 7H 8H JH QH KH 9C TC AC 7C 8C JC 6S 8S 9S KS TS"
    hands = {0: "AD KD QD", 1: "6C QC KC"}
    match = stacked_match(variant, deals=[{"hands": hands, "trump": "AS", "stock": stock}], players=6, dealer=5)
    # Before the stock runs out there is no duty to follow: seat 1 may answer a diamond lead with any cards.
    match.apply(Lead(0, cards("AD KD QD")))
    assert RespondOpen(1, cards("6C QC KC")) in match.legal_actions(1)
    for seat in range(1, 6):
        match.apply(RespondFaceDown(seat, tuple(match.deal.hands[seat])))
    assert match.deal.stock == []
    assert sorted(match.deal.hands[1]) == sorted(cards("7H TC 8S"))
    return match


def test_suit_must_be_followed_after_the_stock_runs_out_under_that_option() -> None:
    """RULES §6.2 [V08] AFTER_STOCK_EXHAUSTED, §15.29: with the stock gone, seat 1 holds 7♥ and must answer the
    lead of A♥ with it."""
    match = _six_player_after_stock()
    _after_lead(match, "AH")
    _refused(match, RespondOpen(1, cards("TC")), Reason.MUST_FOLLOW_SUIT)
    assert _answers(match, 1) == {cards("7H")}


def test_face_down_answer_is_refused_in_open_play() -> None:
    """RULES §6.6 [V10] OPEN (BURA_PAGAT): every card is played face up."""
    match = _match(BURA_PAGAT)
    _after_lead(match, "QS")
    _refused(match, RespondFaceDown(1, cards("6H")), Reason.FACE_DOWN_NOT_ALLOWED)


def test_open_non_beating_answer_is_refused_under_face_down_mandatory() -> None:
    """RULES §6.6 [V10] FACE_DOWN_MANDATORY (★ Burkozel): 6♥ does not beat Q♠, so it must go face down."""
    match = _match(BURKOZEL, hands={0: "QS 7S AH 9C", 1: "9D JS 6H 6C"})
    _after_lead(match, "QS")
    _refused(match, RespondOpen(1, cards("6H")), Reason.MUST_PLAY_FACE_DOWN)
    assert RespondOpen(1, cards("9D")) in match.legal_actions(1)


# -- claims, combos, passes --------------------------------------------------------------------------------------


def test_claim_in_a_play_out_game_is_refused() -> None:
    """RULES §11.2 [B01] ★ PLAY_OUT: Burkozel has no claim; the claim is refused, not scored."""
    match = _match(BURKOZEL, hands={0: "QS 7S AH 9C", 1: "9D JS 6H 6C"})
    _refused(match, Claim(0), Reason.CLAIMS_NOT_ALLOWED)


def test_claim_by_a_player_who_is_not_the_leader_is_refused() -> None:
    """RULES §8.2, §15.10, §15.33: only the leader claims, on his own turn; seat 1's claim is refused, never
    turned into a false claim."""
    match = _match()
    _refused(match, Claim(1), Reason.CLAIM_NOT_NOW)
    assert match.deal.outcome is None
    assert match.outcomes == []


def test_claim_while_answering_is_refused() -> None:
    """RULES §8.2, §15.33: a claim in the middle of a trick is refused, neither the leader's nor the responder's
    counts as a false claim."""
    match = _match()
    _after_lead(match, "QS")
    _refused(match, Claim(1), Reason.CLAIM_NOT_NOW)
    _refused(match, Claim(0), Reason.CLAIM_NOT_NOW)
    assert match.outcomes == []


def test_declaring_a_combo_not_held_is_refused() -> None:
    """RULES §9.7, §10 step 3: only a holder may say «Стоп!»; seat 1 holds no molodka."""
    match = _match()
    _refused(match, DeclareCombo(1, Combo.MOLODKA), Reason.NO_SUCH_COMBO)


def test_declaring_another_combo_than_the_one_held_is_refused() -> None:
    """RULES §9.2: seat 1 holds a molodka (6♥ 7♥ 8♥), not three aces."""
    match = _match(hands={0: "QS 7S AH", 1: "6H 7H 8H"}, trump="8D")
    _refused(match, DeclareCombo(1, Combo.THREE_ACES), Reason.NO_SUCH_COMBO)


def test_declaring_again_after_passing_is_refused() -> None:
    """RULES §9.7: the holder chose PASS in this window, so the «Стоп!» is gone."""
    match = _match(hands={0: "QS 7S AH", 1: "6H 7H 8H"}, trump="8D")
    match.apply(Pass(1))
    _refused(match, DeclareCombo(1, Combo.MOLODKA), Reason.NO_SUCH_COMBO)


def test_declaring_a_combo_outranked_by_the_standing_one_is_refused() -> None:
    """RULES §9.2, §10 step 3: seat 1 seized the lead with three aces; seat 2's molodka ranks lower."""
    match = _match(hands={0: "QS 7S 9D", 1: "AS AH AC", 2: "6C 7C 8C"}, trump="8D")
    match.apply(DeclareCombo(1, Combo.THREE_ACES))
    _refused(match, DeclareCombo(2, Combo.MOLODKA), Reason.COMBO_OUTRANKED)


def test_pass_with_nothing_to_pass_is_refused() -> None:
    """RULES §9.7, §8.2: PASS declines an optional «Стоп!» or the final claim; seat 1 has neither."""
    match = _match()
    _refused(match, Pass(1), Reason.NOTHING_TO_PASS)
    _refused(match, Pass(0), Reason.NOTHING_TO_PASS)


def test_pass_during_a_trick_is_refused() -> None:
    """RULES §6.2: a responder must answer with k cards; there is no passing."""
    match = _match()
    _after_lead(match, "QS")
    _refused(match, Pass(1), Reason.NOTHING_TO_PASS)


# -- after the end -----------------------------------------------------------------------------------------------


def test_move_in_a_finished_deal_is_refused() -> None:
    """RULES §9.6 COUNT: a dealt bura ends the deal at once; nothing may be played in it afterwards."""
    deal, events = stacked_deal(BURA_STANDARD, hands={0: "QS 7S AH", 1: "9D KD 6D"}, trump="8D")
    assert isinstance(events[-1], DealEnded)
    assert deal.outcome is not None and deal.outcome.kind is OutcomeKind.WIN
    before = _deal_state(deal)
    for action in (Lead(0, cards("QS")), Claim(0), Pass(1), RespondOpen(1, cards("9D"))):
        assert deal.legal_actions(action.seat) == []
        with pytest.raises(IllegalAction) as refused:
            deal.apply(action)
        assert refused.value.reason is Reason.DEAL_OVER
        assert _deal_state(deal) == before


@pytest.mark.parametrize(
    "action",
    [Lead(0, cards("QS")), Lead(1, cards("JS")), Claim(0), Pass(0), RespondOpen(1, cards("JS"))],
    ids=["lead", "lead_other", "claim", "pass", "answer"],
)
def test_any_move_after_the_match_is_over_is_refused(action: Action) -> None:
    """RULES §12: a match to one won deal ends with seat 1's dealt bura; every later move is refused."""
    variant = BURA_STANDARD.with_options(match=MatchModel(kind=MatchKind.ROBBER, target=1, margin=1))
    match = stacked_match(
        variant,
        deals=[{"hands": {0: "QS 7S AH", 1: "9D KD 6D"}, "trump": "8D"}],
    )
    assert match.finished
    assert match.winners == (1,)
    assert all(match.legal_actions(seat) == [] for seat in (0, 1))
    _refused(match, action, Reason.MATCH_OVER)
