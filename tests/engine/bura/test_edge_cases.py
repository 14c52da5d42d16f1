"""Every edge case of RULES §15, one named test (or a few) each, on stacked decks.

Seats are dealt clockwise from the dealer's left; with ``dealer = players - 1`` seat 0 is the first rightful
leader R. Stock strings list the top card first; the turned-up trump card lies under the stock (★ [V06]).
Expected values are worked out by hand from RULES in the docstrings and comments.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, get_args

import pytest

from engine.bura.actions import Action, Claim, DeclareCombo, Lead, Pass, RespondFaceDown, RespondOpen, action_from_json
from engine.bura.cards import Card, cards, set_beats
from engine.bura.combos import Combo
from engine.bura.deal import Deal, Phase
from engine.bura.errors import IllegalAction, Reason
from engine.bura.events import (
    CardsDrawn,
    Claimed,
    ComboShown,
    DealOutcome,
    LastCardsTaken,
    LeadSeized,
    Led,
    MatchEnded,
    OutcomeKind,
    Redealt,
    Responded,
    SeizureFailed,
    StockDead,
    TrickTaken,
)
from engine.bura.match import Match
from engine.bura.variant import (
    BURA_PAGAT,
    BURA_RU_WIKI,
    BURA_STANDARD,
    BURKOZEL,
    KOZEL_MONEY,
    BuraCombo,
    BuraVsBura,
    FollowSuit,
    FullTie,
    Molodka,
    PreLeadPriority,
    SameComboTie,
    ShortHand,
    SmallMoscow,
    StockShort,
    ThreeAces,
    TrumpCard,
    Variant,
)
from engine.bura.views import public_view, view
from engine.core.cards import Suit
from tests.engine.bura.stack import stacked_deal, stacked_match

# Combos off: for scenarios about hand sizes and drawing, where filler cards must not end the deal.
NO_COMBOS = BURA_STANDARD.with_options(bura=BuraCombo.OFF, three_aces=ThreeAces.OFF, molodka=Molodka.OFF)


def _deal(variant: Variant, hands: dict[int, str], trump: str, stock: str = "", players: int = 0) -> Deal:
    players = players or len(hands)
    deal, _ = stacked_deal(variant, hands=hands, trump=trump, stock=stock, players=players, dealer=players - 1)
    return deal


def _refused(deal: Deal, action: Action, reason: Reason) -> None:
    hands = {seat: list(hand) for seat, hand in deal.hands.items()}
    before = (deal.phase, deal.leader, hands, list(deal.stock), deal.outcome, repr(deal.piles), repr(deal.trick))
    with pytest.raises(IllegalAction) as refused:
        deal.apply(action)
    assert refused.value.reason is reason
    hands = {seat: list(hand) for seat, hand in deal.hands.items()}
    after = (deal.phase, deal.leader, hands, list(deal.stock), deal.outcome, repr(deal.piles), repr(deal.trick))
    assert after == before


def _all_face_down(deal: Deal) -> list[Any]:
    """Every responder still to answer plays his whole answer face down (the first k cards of his hand)."""
    events: list[Any] = []
    while deal.phase is Phase.RESPOND:
        seat = deal.responders[0]
        assert deal.trick is not None
        k = min(len(deal.trick.lead), len(deal.hands[seat]))
        events.extend(deal.apply(RespondFaceDown(seat, tuple(deal.hands[seat][:k]))))
    return events


def _shown(events: list[Any]) -> list[tuple[int, Combo, set[Card]]]:
    return [(e.seat, e.combo, set(e.cards)) for e in events if isinstance(e, ComboShown)]


# Six players: 36 - 18 = 18 in the stock, so one trick of three-card leads draws the whole stock. Trump ♣ (6♣ turned
# up, drawn last by seat 5). Seat 0 leads A♥ 10♥ K♥ (25 points), nobody can beat, and seat 0 draws 6♥ 7♥ 8♥ for the
# second and last trick. No other hand holds a combo at either window.
SIX_HANDS = {0: "AH TH KH", 1: "AS 7C 8D", 2: "TS 8C 9D", 3: "KS 9C JD", 4: "QS JC QD", 5: "JS QC KD"}
# Drawn in rounds 0..5: seat 0 6♥ 7♥ 8♥, seat 1 6♠ T♣ 9♥, seat 2 7♠ A♣ J♥, seat 3 8♠ K♣ Q♥,
# seat 4 9♠ 6♦ 7♦, seat 5 T♦ A♦ 6♣.
SIX_STOCK = "6H 6S 7S 8S 9S TD 7H TC AC KC 6D AD 8H 9H JH QH 7D"
SIX_PLAYERS: dict[str, Any] = {"hands": SIX_HANDS, "trump": "6C", "stock": SIX_STOCK}


def _six_player_layout(variant: Variant) -> Deal:
    return _deal(variant, SIX_HANDS, "6C", SIX_STOCK)


def _play_six_players_to_the_end(table: Match | Deal, face_up: bool = False) -> None:
    """Both tricks of SIX_PLAYERS: seat 0 leads, everyone else discards his whole hand (nobody can beat)."""
    answer = RespondOpen if face_up else RespondFaceDown
    for lead in ("AH TH KH", "6H 7H 8H"):
        table.apply(Lead(0, cards(lead)))
        for seat in range(1, 6):
            hand = table.deal.hands[seat] if isinstance(table, Match) else table.hands[seat]
            table.apply(answer(seat, tuple(hand)))


# -- §15.1 - §15.7: combos at the same moment ------------------------------------------------------------------


def _three_buras(rule: BuraVsBura) -> tuple[Deal, list[Any]]:
    """Three players, trump ♣ shown and returned on top ([V06] SHOWN_RETURNED), so the trick winner draws it.

    Seat 0 leads A♥ and keeps the trick; then seat 0 draws J♣ (the trump card), seat 1 8♣, seat 2 6♣: all nine
    clubs are in hands: {K♣ Q♣ J♣}, {10♣ 9♣ 8♣}, {A♣ 7♣ 6♣}.
    """
    variant = BURA_STANDARD.with_options(trump_card=TrumpCard.SHOWN_RETURNED, bura_vs_bura=rule)
    deal = _deal(variant, {0: "KC QC AH", 1: "TC 9C 7H", 2: "AC 7C 8H"}, "JC", "8C 6C")
    deal.apply(Lead(0, cards("AH")))
    deal.apply(RespondOpen(1, cards("7H")))
    events = deal.apply(RespondOpen(2, cards("8H")))
    return deal, events


def test_three_buras_at_once_top_card_gives_the_highest_top_trump() -> None:
    """RULES §15.1, §9.4 [V19] TOP_CARD: three buras after a draw; the one with A♣ (seat 2) wins the deal."""
    deal, events = _three_buras(BuraVsBura.TOP_CARD)
    assert CardsDrawn(((0, 1), (1, 1), (2, 1)), 36 - 9 - 3, 0) in events
    assert _shown(events) == [(2, Combo.BURA, set(cards("AC 7C 6C")))]
    assert deal.outcome is not None
    assert (deal.outcome.kind, deal.outcome.winners, deal.outcome.combo) == (OutcomeKind.WIN, (2,), Combo.BURA)


def test_three_buras_at_once_trick_compare_counts_from_the_rightful_leader() -> None:
    """RULES §15.1, §9.4 [V19] TRICK_COMPARE: from R (seat 0, the trick winner) {K♣ Q♣ J♣} stands: {10♣ 9♣ 8♣}
    cannot beat Q♣ and J♣ both with 9♣ 8♣, {A♣ 7♣ 6♣} has only the ace to beat with; seat 0 wins."""
    deal, events = _three_buras(BuraVsBura.TRICK_COMPARE)
    assert _shown(events) == [(0, Combo.BURA, set(cards("KC QC JC")))]
    assert deal.outcome is not None
    assert (deal.outcome.kind, deal.outcome.winners, deal.outcome.combo) == (OutcomeKind.WIN, (0,), Combo.BURA)


def test_bura_wins_and_the_molodka_never_matters() -> None:
    """RULES §15.2, §10 step 1: R holds a bura and seat 1 a molodka; the bura wins at once, no «Стоп!» is left."""
    deal = _deal(BURA_STANDARD, {0: "9D KD 6D", 1: "6H 7H 8H"}, "8D")
    assert deal.outcome is not None
    assert (deal.outcome.kind, deal.outcome.winners, deal.outcome.combo) == (OutcomeKind.WIN, (0,), Combo.BURA)
    assert deal.legal_actions(1) == []


def test_bura_of_a_non_leader_beats_the_rightful_leaders_molodka() -> None:
    """RULES §15.2: R's molodka does not matter against seat 1's bura."""
    deal, events = stacked_deal(BURA_STANDARD, hands={0: "6H 7H 8H", 1: "9D KD 6D"}, trump="8D")
    assert _shown(events) == [(1, Combo.BURA, set(cards("9D KD 6D")))]
    assert deal.outcome is not None
    assert deal.outcome.winners == (1,)


def test_moscow_beats_a_bura() -> None:
    """RULES §15.3, §9.2 (BURA_RU_WIKI: three aces = Москва): after the first trick seat 0 draws J♦ for a bura
    {K♦ Q♦ J♦} and seat 1 A♣ for Москва {A♠ A♥ A♣}; Москва wins the deal though seat 0 is R."""
    match = stacked_match(
        BURA_RU_WIKI, deals=[{"hands": {0: "KD QD 7S", 1: "AS AH 6S"}, "trump": "8D", "stock": "JD AC"}]
    )
    match.apply(Lead(0, cards("7S")))
    events = match.apply(RespondOpen(1, cards("6S")))
    assert _shown(events) == [(1, Combo.MOSCOW, set(cards("AS AH AC")))]
    assert match.outcomes[0].kind is OutcomeKind.WIN
    assert match.outcomes[0].winners == (1,)
    assert match.outcomes[0].combo is Combo.MOSCOW
    assert match.wins == [0, 1]


def test_two_molodkas_the_rightful_leader_keeps_the_lead() -> None:
    """RULES §15.4, §9.5 [V20] TURN_ORDER: R holds a molodka too, so seat 1's «Стоп!» fails."""
    deal = _deal(BURA_STANDARD, {0: "6C 7C 8C", 1: "6H 7H 8H"}, "8D")
    events = deal.apply(DeclareCombo(1, Combo.MOLODKA))
    assert SeizureFailed(1, Combo.MOLODKA, 0) in events
    assert deal.leader == 0
    assert Lead(0, cards("6C")) in deal.legal_actions(0)


def test_two_molodkas_the_earliest_in_turn_order_from_r_seizes() -> None:
    """RULES §15.4 [V20]: R (seat 0) holds none; seats 1 and 2 do; seat 1 comes first from R, so his «Стоп!»
    takes the lead even after seat 2's."""
    deal = _deal(BURA_STANDARD, {0: "QS 7S AH", 1: "6H 7H 8H", 2: "6C 7C 8C"}, "8D")
    assert deal.apply(DeclareCombo(2, Combo.MOLODKA))[-1] == LeadSeized(2, 0, Combo.MOLODKA)
    assert deal.apply(DeclareCombo(1, Combo.MOLODKA))[-1] == LeadSeized(1, 2, Combo.MOLODKA)
    assert deal.leader == 1
    assert deal.legal_actions(1)[-1] == Lead(1, cards("6H 7H 8H"))


def test_two_molodkas_higher_cards_option() -> None:
    """RULES §15.4 [V20] HIGHER_CARDS (S4e): seat 1's 9♥ 10♥ A♥ beats R's 6♣ 7♣ 8♣, so seat 1 seizes the lead."""
    variant = BURA_STANDARD.with_options(same_combo_tie=SameComboTie.HIGHER_CARDS)
    deal = _deal(variant, {0: "6C 7C 8C", 1: "9H TH AH"}, "8D")
    assert deal.apply(DeclareCombo(1, Combo.MOLODKA))[-1] == LeadSeized(1, 0, Combo.MOLODKA)
    assert deal.leader == 1


def test_small_moscow_seizes_the_lead_from_a_molodka() -> None:
    """RULES §15.5, §9.2 [V22] SIXES: R holds a molodka, seat 1 the three sixes with the trump six; the small
    Moscow ranks higher and takes the lead."""
    variant = BURA_STANDARD.with_options(small_moscow=SmallMoscow.SIXES)
    deal = _deal(variant, {0: "7H 8H 9H", 1: "6S 6C 6D"}, "8D")
    assert deal.apply(DeclareCombo(1, Combo.SMALL_MOSCOW))[-1] == LeadSeized(1, 0, Combo.SMALL_MOSCOW)
    assert deal.leader == 1


def test_molodka_cannot_answer_a_small_moscow() -> None:
    """RULES §15.5: with three players, seat 2's small Moscow stands; seat 1's molodka, though earlier in turn
    order, is outranked."""
    variant = BURA_STANDARD.with_options(small_moscow=SmallMoscow.SIXES)
    deal = _deal(variant, {0: "QS 7S AH", 1: "7H 8H 9H", 2: "6S 6C 6D"}, "8D")
    deal.apply(DeclareCombo(2, Combo.SMALL_MOSCOW))
    _refused(deal, DeclareCombo(1, Combo.MOLODKA), Reason.COMBO_OUTRANKED)
    assert deal.leader == 2


def _leader_with_36_points(drawn: str, variant: Variant = BURA_STANDARD) -> Deal:
    """Seat 0 leads A♥ 10♥ K♥ and seat 1 throws A♠ 6♣ 7♣ face up: seat 0 has 11 + 10 + 4 + 11 = 36 points.

    Then seat 0 draws the stock cards 1, 3, 5 (9♣ 9♠ J♣) and seat 1 the cards 2, 4, 6 (``drawn``).
    """
    a, b, c = drawn.split()
    deal = _deal(variant, {0: "AH TH KH", 1: "AS 6C 7C"}, "8D", f"9C {a} 9S {b} JC {c}")
    deal.apply(Lead(0, cards("AH TH KH")))
    deal.apply(RespondOpen(1, cards("AS 6C 7C")))
    assert deal.pile_points(0) == 36
    return deal


def test_rightful_leaders_claim_comes_before_a_molodka() -> None:
    """RULES §15.6, §10 step 2: R (36 points) claims at once; seat 1's «Стоп!» with 6♥ 7♥ 8♥ is never considered."""
    deal = _leader_with_36_points("6H 7H 8H")
    assert DeclareCombo(1, Combo.MOLODKA) in deal.legal_actions(1)
    events = deal.apply(Claim(0))
    assert isinstance(events[0], Claimed) and events[0].success and events[0].points == 36
    assert deal.outcome is not None
    assert (deal.outcome.kind, deal.outcome.winners) == (OutcomeKind.WIN, (0,))


def test_a_seized_lead_does_not_take_away_the_rightful_leaders_claim() -> None:
    """RULES §15.6, §8.2: even after seat 1's «Стоп!», R may still claim before anyone leads, and wins."""
    deal = _leader_with_36_points("6H 7H 8H")
    deal.apply(DeclareCombo(1, Combo.MOLODKA))
    assert Claim(0) in deal.legal_actions(0)
    deal.apply(Claim(0))
    assert deal.outcome is not None
    assert (deal.outcome.kind, deal.outcome.winners) == (OutcomeKind.WIN, (0,))


def test_drawn_bura_comes_before_the_claim_under_combos_first() -> None:
    """RULES §15.7 [V25] ★ COMBOS_FIRST: R has 36, seat 1 just drew 6♦ 7♦ 9♦: the bura wins the deal."""
    deal = _leader_with_36_points("6D 7D 9D")
    assert deal.outcome is not None
    assert (deal.outcome.kind, deal.outcome.winners, deal.outcome.combo) == (OutcomeKind.WIN, (1,), Combo.BURA)


def test_claim_comes_before_the_drawn_bura_under_claim_first() -> None:
    """RULES §15.7 [V25] CLAIM_FIRST: R's claim of 36 is heard first and wins."""
    variant = BURA_STANDARD.with_options(pre_lead_priority=PreLeadPriority.CLAIM_FIRST)
    deal = _leader_with_36_points("6D 7D 9D", variant)
    assert deal.outcome is None
    assert Claim(0) in deal.legal_actions(0)
    deal.apply(Claim(0))
    assert deal.outcome is not None
    assert (deal.outcome.kind, deal.outcome.winners, deal.outcome.combo) == (OutcomeKind.WIN, (0,), None)


def test_claim_first_leading_instead_lets_the_bura_win() -> None:
    """RULES §15.7 [V25] CLAIM_FIRST: if R leads instead of claiming, the waiting bura wins the deal."""
    variant = BURA_STANDARD.with_options(pre_lead_priority=PreLeadPriority.CLAIM_FIRST)
    deal = _leader_with_36_points("6D 7D 9D", variant)
    deal.apply(Lead(0, cards("9S")))
    assert deal.outcome is not None
    assert (deal.outcome.winners, deal.outcome.combo) == ((1,), Combo.BURA)


# -- §15.8 - §15.11: claims ------------------------------------------------------------------------------------


def _claim_after_one_trick(lead_hand: str, answer_hand: str) -> tuple[Deal, list[Any]]:
    """Seat 0 leads its first two cards, seat 1 answers face up with its first two (they do not beat)."""
    deal = _deal(BURA_STANDARD, {0: lead_hand, 1: answer_hand}, "8D", "KD 6D")
    deal.apply(Lead(0, cards(lead_hand)[:2]))
    deal.apply(RespondOpen(1, cards(answer_hand)[:2]))
    return deal, deal.apply(Claim(0))


def test_claim_at_exactly_31_wins() -> None:
    """RULES §15.8, §8.1: A♥ 10♥ + 10♠ 6♣ = 11 + 10 + 10 + 0 = 31, a correct claim."""
    deal, events = _claim_after_one_trick("AH TH 6S", "TS 6C 7S")
    claimed = events[0]
    assert isinstance(claimed, Claimed)
    assert (claimed.seat, claimed.points, claimed.threshold, claimed.success) == (0, 31, 31, True)
    assert deal.outcome is not None
    assert (deal.outcome.kind, deal.outcome.winners, deal.outcome.seat) == (OutcomeKind.WIN, (0,), 0)


def test_claim_at_30_is_a_false_claim() -> None:
    """RULES §15.8, §8.4 [V16] ★ LOSE_DEAL: A♥ K♥ + A♠ K♠ = 30; the claimant loses, the opponent wins."""
    deal, events = _claim_after_one_trick("AH KH 6S", "AS KS 7S")
    claimed = events[0]
    assert isinstance(claimed, Claimed)
    assert (claimed.points, claimed.success) == (30, False)
    assert deal.outcome is not None
    assert (deal.outcome.kind, deal.outcome.winners, deal.outcome.seat) == (OutcomeKind.FALSE_CLAIM, (1,), 0)


def test_claim_counts_face_down_cards_the_claimant_never_saw() -> None:
    """RULES §15.9, §8.1: A♥ 10♥ (21 seen) + 10♠ 6♣ face down (10 unseen) = 31; the claim reveals them."""
    match = stacked_match(BURA_STANDARD, deals=[{"hands": {0: "AH TH 6S", 1: "TS 6C 7S"}, "trump": "8D"}])
    match.apply(Lead(0, cards("AH TH")))
    match.apply(RespondFaceDown(1, cards("TS 6C")))
    seen = view(match, 0)
    assert sorted(seen.known_pile) == sorted(cards("AH TH"))
    assert seen.hidden_in_pile == 2
    events = match.apply(Claim(0))
    claimed = events[0]
    assert isinstance(claimed, Claimed)
    assert {(entry.card, entry.face_down) for entry in claimed.pile} == {
        (Card.parse("AH"), False),
        (Card.parse("TH"), False),
        (Card.parse("TS"), True),
        (Card.parse("6C"), True),
    }
    assert (claimed.points, claimed.success) == (31, True)
    assert match.outcomes[0].winners == (0,)


def test_claim_is_lost_once_the_turn_has_passed() -> None:
    """RULES §15.10, §8.2: seat 0 reached 31 but led instead of claiming; seat 1 won that trick, and now seat 0
    may not claim on seat 1's lead turn."""
    deal = _deal(BURA_STANDARD, {0: "AH TH 6S", 1: "TS 6C 7S"}, "8D", "7H 9D")
    deal.apply(Lead(0, cards("AH TH")))
    deal.apply(RespondOpen(1, cards("TS 6C")))
    assert deal.pile_points(0) == 31
    deal.apply(Lead(0, cards("6S")))
    deal.apply(RespondOpen(1, cards("7S")))
    assert deal.leader == 1
    assert Claim(0) not in deal.legal_actions(0)
    _refused(deal, Claim(0), Reason.CLAIM_NOT_NOW)


def test_last_trick_winner_gets_the_final_claim_window_then_the_deal_is_void() -> None:
    """RULES §15.11, §8.2, §11.1: after the last trick its winner (seat 0) may claim or pass; passing makes the
    Bura deal VOID. All 120 points lie in seat 0's pile (six players, the stock drawn completely)."""
    deal = _six_player_layout(BURA_STANDARD)
    _play_six_players_to_the_end(deal)
    assert deal.phase is Phase.FINAL_CLAIM
    assert deal.legal_actions(0) == [Claim(0), Pass(0)]
    assert all(deal.legal_actions(seat) == [] for seat in range(1, 6))
    _refused(deal, Claim(1), Reason.CLAIM_NOT_NOW)
    deal.apply(Pass(0))
    assert deal.outcome == DealOutcome(
        OutcomeKind.VOID, (), None, None, (120, 0, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0), (0, 1, 2, 3, 4, 5)
    )


def test_void_deal_in_the_robber_records_nothing_and_the_same_dealer_deals() -> None:
    """RULES §15.11, §11.1, §12.2: the VOID deal scores nothing in the robber and the same dealer (seat 5) deals."""
    match = stacked_match(BURA_STANDARD, deals=[SIX_PLAYERS, SIX_PLAYERS], players=6, dealer=5)
    _play_six_players_to_the_end(match)
    match.apply(Pass(0))
    assert match.outcomes[0].kind is OutcomeKind.VOID
    assert match.scores == [0] * 6
    assert match.wins == [0] * 6
    assert match.dealer == 5
    assert match.deal_number == 2


def test_final_claim_window_claim_wins() -> None:
    """RULES §15.11: in the final window seat 0 claims 120 and wins the deal."""
    deal = _six_player_layout(BURA_STANDARD)
    _play_six_players_to_the_end(deal)
    deal.apply(Claim(0))
    assert deal.outcome is not None
    assert (deal.outcome.kind, deal.outcome.winners, deal.outcome.points[0]) == (OutcomeKind.WIN, (0,), 120)


# -- §15.12 - §15.14: short stock and short hands ----------------------------------------------------------------


def _five_players_two_tricks(variant: Variant) -> tuple[Deal, list[Any]]:
    """Five players, trump ♣ (A♣ turned up): 36 - 15 = 21 in the stock. Seat 0 leads two three-card tricks and
    keeps both; after the first, 15 cards are drawn (6 left); the second trick's draw meets a short stock."""
    hands = {0: "AH TH KH", 1: "AS 7C 8D", 2: "TS 8C 9D", 3: "KS 9C JD", 4: "QS JC QD"}
    # Round draws: seat 0 6♥ 7♥ 8♥, seat 1 6♠ 6♣ 9♥, seat 2 7♠ 10♣ J♥, seat 3 8♠ Q♣ Q♥, seat 4 9♠ K♣ 6♦;
    # then J♠ 7♦ 10♦ A♦ K♦ and the turned-up A♣ at the bottom.
    stock = "6H 6S 7S 8S 9S 7H 6C TC QC KC 8H 9H JH QH 6D JS 7D TD AD KD"
    deal = _deal(variant, hands, "AC", stock)
    deal.apply(Lead(0, cards("AH TH KH")))
    _all_face_down(deal)
    deal.apply(Lead(0, cards("6H 7H 8H")))
    return deal, _all_face_down(deal)


def test_short_stock_round_complete_leaves_the_trump_card_dead() -> None:
    """RULES §15.12, §7.2 ★ ROUND_COMPLETE: 6 cards for 5 players needing 3 each: one round of one card each
    (J♠ 7♦ 10♦ A♦ K♦), and the turned-up A♣ is dead (36 cards with 5 players leave 1)."""
    deal, events = _five_players_two_tricks(BURA_STANDARD)
    assert CardsDrawn(((0, 1), (1, 1), (2, 1), (3, 1), (4, 1)), 1, None) in events
    assert StockDead(1) in events
    assert deal.dead == [Card.parse("AC")]
    assert deal.stock == []
    assert deal.trump_card_holder is None
    assert [len(deal.hands[seat]) for seat in range(5)] == [1, 1, 1, 1, 1]
    assert deal.hands[0] == [Card.parse("JS")]


def test_short_stock_all_or_nothing_draws_nothing() -> None:
    """RULES §15.12, §7.2 ALL_OR_NOTHING: 6 cards cannot give 15; nobody draws, all 6 are dead, hands are empty
    and the deal goes to the final claim window of seat 0."""
    deal, events = _five_players_two_tricks(BURA_STANDARD.with_options(stock_short=StockShort.ALL_OR_NOTHING))
    assert not any(isinstance(event, CardsDrawn) for event in events)
    assert StockDead(6) in events
    assert sorted(deal.dead) == sorted(cards("JS 7D TD AD KD AC"))
    assert all(hand == [] for hand in deal.hands.values())
    assert deal.phase is Phase.FINAL_CLAIM
    # Captured plus dead points make 120 (RULES §3.3 invariant).
    assert deal.pile_points(0) + sum(card.points for card in deal.dead) == 120


def test_short_stock_round_complete_captured_plus_dead_make_120() -> None:
    """RULES §15.12, §3.3: played to the end under ROUND_COMPLETE, the piles hold 120 - 11 (the dead A♣)."""
    deal, _ = _five_players_two_tricks(BURA_STANDARD)
    deal.apply(Lead(0, cards("JS")))
    _all_face_down(deal)
    deal.apply(Pass(0))
    assert deal.outcome is not None
    assert deal.outcome.kind is OutcomeKind.VOID
    assert sum(deal.outcome.points) == 109


def _exhaustion_five_players(variant: Variant) -> Deal:
    """Five players under DRAW_TO_EXHAUSTION, combos off: after two three-card tricks led and kept by seat 0, the
    last 6 cards go one at a time from seat 0: seat 0 holds 7♦ and the turned-up 6♦, seat 1 A♦, the others one
    filler card each (RULES §7.2)."""
    stock = "AH 6C 7C 8C 9C KH JC QC KC TC QH AC 6H 7H 8H 7D AD"
    deal = _deal(variant, {0: "AS KS QS"}, "6D", stock, players=5)
    for lead in ("AS KS QS", "AH KH QH"):
        deal.apply(Lead(0, cards(lead)))
        _all_face_down(deal)
    assert sorted(deal.hands[0]) == sorted(cards("7D 6D"))
    assert deal.hands[1] == [Card.parse("AD")]
    assert [len(deal.hands[seat]) for seat in range(5)] == [2, 1, 1, 1, 1]
    return deal


def test_unequal_hands_cap_the_lead_and_the_last_holder_takes_his_card() -> None:
    """RULES §15.13, §7.4 ★ CAP_LEAD: seat 0 holds 2, everyone else 1, so only single-card leads are legal; after
    that trick seat 0 alone holds a card and takes it as an unopposed last trick."""
    deal = _exhaustion_five_players(NO_COMBOS.with_options(stock_short=StockShort.DRAW_TO_EXHAUSTION))
    leads = [action for action in deal.legal_actions(0) if isinstance(action, Lead)]
    assert {action.cards for action in leads} == {cards("6D"), cards("7D")}
    deal.apply(Lead(0, cards("7D")))
    events = _all_face_down(deal)
    assert TrickTaken(3, 0, 0, cards("7D"), 4) in events
    assert LastCardsTaken(0, 1) in events
    assert all(hand == [] for hand in deal.hands.values())
    assert deal.pile_points(0) == 120


def test_players_without_cards_are_skipped() -> None:
    """RULES §15.13: 32 cards, 5 players, DRAW_TO_EXHAUSTION: 17 in the stock; after two three-card tricks the
    last 2 cards go to seats 0 and 1, so the third trick is answered by seat 1 alone."""
    variant = NO_COMBOS.with_options(stock_short=StockShort.DRAW_TO_EXHAUSTION, deck_size=32)
    deal = _deal(variant, {0: "AS KS QS"}, "7D", "AH 7C 8C 9C JC KH QC KC TC AC QH", players=5)
    for lead in ("AS KS QS", "AH KH QH"):
        deal.apply(Lead(0, cards(lead)))
        _all_face_down(deal)
    assert [len(deal.hands[seat]) for seat in range(5)] == [1, 1, 0, 0, 0]
    assert deal.to_act() == 0
    deal.apply(Lead(0, tuple(deal.hands[0])))
    assert deal.responders == [1]
    _all_face_down(deal)
    assert deal.legal_actions(0) == [Claim(0), Pass(0)]  # the final claim window: everything was played


def test_short_responder_plays_all_and_cannot_beat() -> None:
    """RULES §15.14, §7.4 PLAY_ALL_CANNOT_BEAT: seat 0 leads 7♦ 6♦; seat 1 holds only A♦, plays it face up and,
    though it beats either card, takes nothing."""
    variant = NO_COMBOS.with_options(
        stock_short=StockShort.DRAW_TO_EXHAUSTION, short_hand=ShortHand.PLAY_ALL_CANNOT_BEAT
    )
    deal = _exhaustion_five_players(variant)
    deal.apply(Lead(0, cards("7D 6D")))
    assert deal.legal_actions(1) == [RespondOpen(1, cards("AD")), RespondFaceDown(1, cards("AD"))]
    events = deal.apply(RespondOpen(1, cards("AD")))
    assert events[0] == Responded(1, cards("AD"), 1, face_down=False, beats=False)
    events = _all_face_down(deal)
    assert TrickTaken(3, 0, 0, cards("7D 6D AD"), 3) in events
    assert deal.tricks_won == [3, 0, 0, 0, 0]


def test_multi_card_lead_over_a_short_hand_is_prevented_by_cap_lead() -> None:
    """RULES §15.14, §7.4 ★ CAP_LEAD: the same two-card lead is refused when every other hand holds one card."""
    deal = _exhaustion_five_players(NO_COMBOS.with_options(stock_short=StockShort.DRAW_TO_EXHAUSTION))
    _refused(deal, Lead(0, cards("7D 6D")), Reason.LEAD_TOO_LARGE)


# -- §15.15 - §15.19: beating ----------------------------------------------------------------------------------


def test_beating_the_lead_but_not_the_last_beater_is_a_discard() -> None:
    """RULES §15.15, §6.5: trump ♥; 9♠ led, K♠ beats it, Q♠ beats 9♠ but not K♠: K♠'s owner (seat 1) takes it."""
    deal = _deal(BURA_STANDARD, {0: "9S 7C 7D", 1: "KS 8C 8D", 2: "QS 9C 9D"}, "8H")
    deal.apply(Lead(0, cards("9S")))
    assert deal.apply(RespondOpen(1, cards("KS")))[0] == Responded(1, cards("KS"), 1, face_down=False, beats=True)
    events = deal.apply(RespondOpen(2, cards("QS")))
    assert events[0] == Responded(2, cards("QS"), 1, face_down=False, beats=False)
    assert events[1] == TrickTaken(1, 1, 1, cards("9S KS QS"), 0)


def test_face_down_set_never_beats() -> None:
    """RULES §15.16, §6.6: seat 1 plays K♠ face down on Q♠; it would beat face up, but face down it does not."""
    deal = _deal(BURA_STANDARD, {0: "QS 7S AH", 1: "KS 6C 6H"}, "8D")
    deal.apply(Lead(0, cards("QS")))
    events = deal.apply(RespondFaceDown(1, cards("KS")))
    assert events[0] == Responded(1, (), 1, face_down=True, beats=False)
    assert events[1] == TrickTaken(1, 0, 0, cards("QS"), 1)
    assert deal.pile_points(0) == 3 + 4


def test_lead_and_beating_sets_are_face_up() -> None:
    """RULES §15.16: the lead and a beating set are shown to everyone (in the events)."""
    deal = _deal(BURA_STANDARD, {0: "QS 7S AH", 1: "KS 6C 6H"}, "8D")
    assert deal.apply(Lead(0, cards("QS"))) == [Led(0, cards("QS"))]
    events = deal.apply(RespondOpen(1, cards("KS")))
    assert events[0] == Responded(1, cards("KS"), 1, face_down=False, beats=True)
    assert events[1] == TrickTaken(1, 1, 1, cards("QS KS"), 0)


def test_taker_peeks_until_the_next_lead_gathers_the_trick() -> None:
    """RULES §6.6 [V10] FACE_DOWN_TAKER_PEEKS, ruled 2026-12-04: seat 0 leads Q♠, K♠ and 6♣ come face down and
    seat 0 takes the trick. Until his next lead he sees both (nobody else sees the other's); once he leads, the
    trick is gathered and its face-down cards are hidden from him again, as from everyone."""
    variant = BURA_STANDARD.with_options(taker_peeks=True)
    match = stacked_match(
        variant,
        deals=[{"hands": {0: "QS AH 7C", 1: "KS 8H 9C", 2: "6C TH JC"}, "trump": "8D", "stock": "7H 8S 9S"}],
        players=3,
        dealer=2,
    )
    match.apply(Lead(0, cards("QS")))
    match.apply(RespondFaceDown(1, cards("KS")))
    match.apply(RespondFaceDown(2, cards("6C")))

    def answers(seat: int | None) -> list[tuple[Card, ...]]:
        table = view(match, seat).table if seat is not None else public_view(match)
        return [play.cards for play in table.history[0].plays]

    assert match.deal.phase is Phase.LEAD and match.to_act() == 0
    assert answers(0) == [cards("KS"), cards("6C")]  # the taker peeks while the trick lies on the table
    assert answers(1) == [cards("KS"), ()]
    assert answers(2) == [(), cards("6C")]
    assert answers(None) == [(), ()]
    assert view(match, 0).hidden_in_pile == 2  # his pile never showed them

    match.apply(Lead(0, cards("AH")))
    assert answers(0) == [(), ()]  # gathered by the next lead: hidden from the taker from now on
    assert answers(1) == [cards("KS"), ()]
    assert answers(2) == [(), cards("6C")]
    assert answers(None) == [(), ()]


def test_mixed_suit_best_is_checked_by_a_full_bijection() -> None:
    """RULES §15.17, §6.4: B beats 8♠ 7♠ with {9♦, J♠}; C's {K♦, Q♠} beats it (K♦ over 9♦, Q♠ over J♠) though a
    greedy strength sort would pair K♦ with J♠ and Q♠ with 9♦ and say no."""
    deal = _deal(BURA_STANDARD, {0: "8S 7S AH", 1: "9D JS 6H", 2: "KD QS 6C"}, "8D")
    deal.apply(Lead(0, cards("8S 7S")))
    deal.apply(RespondOpen(1, cards("9D JS")))
    events = deal.apply(RespondOpen(2, cards("KD QS")))
    assert events[0] == Responded(2, cards("KD QS"), 2, face_down=False, beats=True)
    assert events[1] == TrickTaken(1, 2, 2, cards("8S 7S 9D JS KD QS"), 0)
    assert not set_beats(cards("KD 8S"), cards("9D JS"), Suit.DIAMONDS)


def test_off_suit_higher_card_does_not_beat() -> None:
    """RULES §15.18: trump ♣; K♦ answered to Q♠ does not beat it."""
    deal = _deal(BURA_STANDARD, {0: "QS 7S AH", 1: "KD 6D 6H"}, "8C")
    deal.apply(Lead(0, cards("QS")))
    assert deal.apply(RespondOpen(1, cards("KD")))[0] == Responded(1, cards("KD"), 1, face_down=False, beats=False)
    assert deal.tricks_won == [1, 0]


def test_non_trump_never_beats_a_trump() -> None:
    """RULES §15.18: trump ♣; A♥ answered to 6♣ does not beat it."""
    deal = _deal(BURA_STANDARD, {0: "6C 7S 8H", 1: "AH 6D 6H"}, "8C")
    deal.apply(Lead(0, cards("6C")))
    assert deal.apply(RespondOpen(1, cards("AH")))[0] == Responded(1, cards("AH"), 1, face_down=False, beats=False)
    assert deal.tricks_won == [1, 0]


def test_three_trump_hand_is_a_bura_so_it_is_never_led() -> None:
    """RULES §15.19: a 3-card hand of trumps is auto-declared as a bura at once: no lead is ever possible."""
    deal = _deal(BURA_STANDARD, {0: "9D KD 6D", 1: "QS 7S AH"}, "8D")
    assert deal.outcome is not None
    assert (deal.outcome.winners, deal.outcome.combo) == ((0,), Combo.BURA)
    assert deal.legal_actions(0) == []


def test_two_card_trump_lead_is_legal() -> None:
    """RULES §15.19: two trumps may be led."""
    deal = _deal(BURA_STANDARD, {0: "9D KD 6S", 1: "QS 7S AH"}, "8D")
    assert Lead(0, cards("9D KD")) in deal.legal_actions(0)
    assert deal.apply(Lead(0, cards("9D KD"))) == [Led(0, cards("9D KD"))]


# -- §15.20 - §15.23 ------------------------------------------------------------------------------------------


def test_dealt_bura_counts_and_wins_the_deal() -> None:
    """RULES §15.20 [V18] ★ COUNT: seat 0's dealt bura wins deal 1 at once; seat 0 (the winner) deals next
    ([V04]), so seat 1 leads deal 2."""
    match = stacked_match(
        BURA_STANDARD,
        deals=[
            {"hands": {0: "9D KD 6D", 1: "QS 7S AH"}, "trump": "8D"},
            {"hands": {0: "QS 7S AH", 1: "9D JS 6H"}, "trump": "8D"},
        ],
    )
    assert match.outcomes[0].winners == (0,)
    assert match.wins == [1, 0]
    assert match.scores == [1, 0]
    assert match.deal_number == 2
    assert match.dealer == 0
    assert match.deal.leader == 1


@pytest.mark.parametrize(
    ("hand", "combo"), [("9D KD 6D", Combo.BURA), ("6H 7H 8H", Combo.MOLODKA)], ids=["bura", "molodka"]
)
def test_dealt_combo_is_redealt_under_redeal(hand: str, combo: Combo) -> None:
    """RULES §15.20 [V18] REDEAL (BURA_RU_WIKI): a dealt bura or molodka: the same dealer deals again, no score."""
    match = stacked_match(
        BURA_RU_WIKI,
        deals=[
            {"hands": {0: "QS 7S AH", 1: hand}, "trump": "8D"},
            {"hands": {0: "QS 7S AH", 1: "9D JS 6H"}, "trump": "8D"},
        ],
    )
    assert Redealt(1, 1, combo) in match.start_events
    assert match.outcomes == []
    assert match.scores == [0, 0]
    assert match.wins == [0, 0]
    assert match.dealer == 1
    assert match.deal_number == 1
    assert match.deal.hands[0] == sorted(cards("QS 7S AH"))


def test_trump_card_drawn_last_completes_a_bura() -> None:
    """RULES §15.21, §7.3: six players, the stock is drawn out; seat 5 draws A♣ K♣ and last the turned-up 6♣:
    a bura, which wins in the next pre-lead window."""
    stock = "6H 6S 7S 8S 9S AC 7H TD AD TC 6D KC 8H 9H JH QH 7D"
    deal = _deal(BURA_STANDARD, SIX_HANDS, "6C", stock)
    deal.apply(Lead(0, cards("AH TH KH")))
    events = _all_face_down(deal)
    assert CardsDrawn(tuple((seat, 3) for seat in range(6)), 0, 5) in events
    assert _shown(events) == [(5, Combo.BURA, set(cards("AC KC 6C")))]
    assert deal.outcome is not None
    assert (deal.outcome.kind, deal.outcome.winners, deal.outcome.combo) == (OutcomeKind.WIN, (5,), Combo.BURA)


def test_void_deal_in_the_pot_model_carries_the_pot_and_the_same_dealer_deals() -> None:
    """RULES §15.22, §12.1: six players ante 1 each (pot 6); the deal ends VOID; the pot stays, everyone antes
    again (pot 12, each -2) and the same dealer (seat 5) deals."""
    match = stacked_match(BURA_PAGAT, deals=[SIX_PLAYERS, SIX_PLAYERS], players=6, dealer=5)
    assert match.pot == 6
    _play_six_players_to_the_end(match, face_up=True)  # OPEN play: every answer is a face-up discard
    match.apply(Pass(0))
    assert match.outcomes[0].kind is OutcomeKind.VOID
    assert match.pot == 12
    assert match.scores == [-2] * 6
    assert match.wins == [0] * 6
    assert match.dealer == 5
    assert match.deal_number == 2


def _false_claim_in_the_pot() -> Match:
    """BURA_PAGAT, three players (ante 1, pot 3); R (seat 0) claims with an empty pile."""
    spec = {"hands": {0: "QS 7S AH", 1: "9D JS 6H", 2: "KC 8C 9S"}, "trump": "8D"}
    match = stacked_match(BURA_PAGAT, deals=[spec, spec], players=3, dealer=2)
    assert match.pot == 3
    match.apply(Claim(0))
    return match


def test_false_claim_under_double_pot_doubles_the_pot_and_the_same_dealer_deals() -> None:
    """RULES §15.22, §12.1 DOUBLE_POT: the claimant adds the pot (3), the deal is void, the same dealer (seat 2)
    deals again and everyone antes: pot 3 + 3 + 3 = 9; seat 0 paid 1 + 3 + 1, the others 1 + 1."""
    match = _false_claim_in_the_pot()
    assert match.outcomes[0].kind is OutcomeKind.FALSE_CLAIM
    assert match.pot == 9
    assert match.scores == [-5, -2, -2]
    assert match.dealer == 2
    assert match.deal_number == 2


def test_false_claim_under_double_pot_is_no_won_deal() -> None:
    """RULES §15.22, §12.1, §11.1: under DOUBLE_POT the deal is void, so nobody has won a deal (Match.wins)."""
    match = _false_claim_in_the_pot()
    assert match.wins == [0, 0, 0]


TEAMS = BURA_STANDARD.with_options(partnership=True)


def test_teams_pool_their_piles_and_either_partner_claims_for_the_team() -> None:
    """RULES §15.23, §4: 2x2 (seats 0+2 against 1+3). Seat 0 keeps trick 1 (A♥ 10♥ + J♣ Q♣ face down = 26);
    in trick 2 seat 2 beats his partner's 6♠ with A♠ (allowed) and takes 11 more; seat 2 claims the team's 37."""
    hands = {0: "AH TH 6S", 1: "7C 8C 9S", 2: "AS 9H 6C", 3: "JC QC 7S"}
    # Drawn from seat 0 in turn: seat 0 J♥ Q♥, seat 1 6♥ 7♥, seat 2 8♥ K♥, seat 3 9♣ 10♣.
    deal = _deal(TEAMS, hands, "8D", "JH 6H 8H 9C QH 7H KH TC")
    deal.apply(Lead(0, cards("AH TH")))
    deal.apply(RespondFaceDown(1, cards("7C 8C")))
    deal.apply(RespondFaceDown(2, cards("9H 6C")))
    deal.apply(RespondFaceDown(3, cards("JC QC")))
    assert deal.pile_points(0) == 26
    deal.apply(Lead(0, cards("6S")))
    deal.apply(RespondOpen(1, cards("6H")))
    assert deal.apply(RespondOpen(2, cards("AS")))[0] == Responded(2, cards("AS"), 1, face_down=False, beats=True)
    events = deal.apply(RespondOpen(3, cards("7S")))
    assert TrickTaken(2, 2, 0, cards("6S 6H AS 7S"), 0) in events
    assert deal.leader == 2
    _refused(deal, Claim(0), Reason.CLAIM_NOT_NOW)
    claimed = deal.apply(Claim(2))[0]
    assert isinstance(claimed, Claimed)
    assert (claimed.seat, claimed.side, claimed.points, claimed.success) == (2, 0, 37, True)
    assert deal.outcome is not None
    assert (deal.outcome.winners, deal.outcome.points, deal.outcome.tricks) == ((0,), (37, 0), (2, 0))


def test_teams_a_partners_stop_follows_the_normal_precedence() -> None:
    """RULES §15.23, §9.5: seat 2 (R's partner) and seat 1 both hold a molodka; seat 1 comes first from R, so
    seat 1's «Стоп!» takes the lead from the partner."""
    deal = _deal(TEAMS, {0: "QS 7S AH", 1: "6H 7H 8H", 2: "6C 7C 8C", 3: "9S JS 9D"}, "8D")
    assert deal.apply(DeclareCombo(2, Combo.MOLODKA))[-1] == LeadSeized(2, 0, Combo.MOLODKA)
    assert deal.apply(DeclareCombo(1, Combo.MOLODKA))[-1] == LeadSeized(1, 2, Combo.MOLODKA)
    assert deal.leader == 1


# -- §15.28 - §15.34 ------------------------------------------------------------------------------------------


def test_kozel_for_money_two_and_four_card_leads_are_illegal() -> None:
    """RULES §15.28, §6.1 [V07]: Kozel for money leads 1 or 3 cards; 2 and 4 are refused, 1 and 3 offered."""
    deal = _deal(KOZEL_MONEY, {0: "QS 7S 9S 8S", 1: "9D JS 6H 6C"}, "8D")
    _refused(deal, Lead(0, cards("QS 7S")), Reason.LEAD_SIZE_NOT_ALLOWED)
    _refused(deal, Lead(0, cards("QS 7S 9S 8S")), Reason.LEAD_SIZE_NOT_ALLOWED)
    sizes = {len(action.cards) for action in deal.legal_actions(0) if isinstance(action, Lead)}
    assert sizes == {1, 3}


@pytest.mark.parametrize(("hand", "combo"), [("9D KD 6D 7D", Combo.BURA), ("AS AH AC AD", Combo.MOSCOW)])
def test_kozel_for_money_four_trumps_or_four_aces_take_the_pot(hand: str, combo: Combo) -> None:
    """RULES §15.28, §9.9: seat 1's four trumps (or four aces) take the pot of 2 at once: seat 1 +1, seat 0 -1."""
    plain = {"hands": {0: "QS 7S 9S AH", 1: "9D JS 6H 6C"}, "trump": "8D"}
    match = stacked_match(KOZEL_MONEY, deals=[{"hands": {0: "QS 7S 9S 8S", 1: hand}, "trump": "8D"}, plain])
    assert match.outcomes[0].kind is OutcomeKind.WIN
    assert match.outcomes[0].winners == (1,)
    assert match.outcomes[0].combo is combo
    assert match.scores == [-1 - 1, 1 - 1]  # deal 2 was dealt at once: both anted again
    assert match.wins == [0, 1]


def test_follow_suit_does_not_apply_while_the_stock_lasts() -> None:
    """RULES §15.29 [V08] AFTER_STOCK_EXHAUSTED: with stock left, seat 1 may answer Q♠ with 6♥ though he holds J♠."""
    variant = BURA_STANDARD.with_options(follow_suit=FollowSuit.AFTER_STOCK_EXHAUSTED)
    deal = _deal(variant, {0: "QS 7S AH", 1: "9D JS 6H"}, "8D")
    deal.apply(Lead(0, cards("QS")))
    assert RespondOpen(1, cards("6H")) in deal.legal_actions(1)


def test_follow_suit_after_the_stock_uses_as_many_led_suit_cards_as_possible() -> None:
    """RULES §15.29 [V08] AFTER_STOCK_EXHAUSTED: six players (the stock is gone after one trick). Seat 0 leads
    A♥ K♥; seat 1 (one heart) must play 7♥ and one free card; seat 2 (two hearts) must play 8♥ J♥."""
    variant = NO_COMBOS.with_options(follow_suit=FollowSuit.AFTER_STOCK_EXHAUSTED)
    hands = {0: "AD KD QD", 1: "6C QC KC", 2: "7S JS QS", 3: "KS TS 7C", 4: "8C 9C JC", 5: "6H 9H TH"}
    # Drawn in rounds: seat 0 A♥ K♥ 6♠, seat 1 7♥ 10♣ 8♠, seat 2 8♥ J♥ 9♠, ...
    stock = "AH 7H 8H QH 6D 7D KH TC JH AC 8D 9D 6S 8S 9S JD TD"
    deal = _deal(variant, hands, "AS", stock)
    deal.apply(Lead(0, cards("AD KD QD")))
    _all_face_down(deal)
    assert deal.stock == []
    deal.apply(Lead(0, cards("AH KH")))
    answers = {frozenset(a.cards) for a in deal.legal_actions(1) if isinstance(a, RespondOpen | RespondFaceDown)}
    assert answers == {frozenset(cards("7H TC")), frozenset(cards("7H 8S"))}
    _refused(deal, RespondOpen(1, cards("TC 8S")), Reason.MUST_FOLLOW_SUIT)
    deal.apply(RespondFaceDown(1, cards("7H 8S")))
    answers = {frozenset(a.cards) for a in deal.legal_actions(2) if isinstance(a, RespondOpen | RespondFaceDown)}
    assert answers == {frozenset(cards("8H JH"))}


def _small_moscow_led(answer: str) -> list[Any]:
    variant = BURA_STANDARD.with_options(small_moscow=SmallMoscow.SIXES)
    deal = _deal(variant, {0: answer, 1: "6S 6C 6D"}, "8D")
    deal.apply(DeclareCombo(1, Combo.SMALL_MOSCOW))
    assert deal.apply(Lead(1, cards("6S 6C 6D"))) == [Led(1, cards("6S 6C 6D"))]
    return deal.apply(RespondOpen(0, cards(answer)))


def test_small_moscow_lead_is_beaten_card_by_card() -> None:
    """RULES §15.30, §9.3: 6♠ 6♣ 6♦ (trump ♦) led together; 7♦ 7♠ 7♣ beats each card separately."""
    events = _small_moscow_led("7D 7S 7C")
    assert events[0] == Responded(0, cards("7D 7S 7C"), 3, face_down=False, beats=True)


def test_small_moscow_trump_six_needs_a_higher_trump() -> None:
    """RULES §15.30, §9.3: 6♦ is beaten only by a higher trump; 7♥ 7♠ 7♣ leaves it unbeaten."""
    events = _small_moscow_led("7H 7S 7C")
    assert events[0] == Responded(0, cards("7H 7S 7C"), 3, face_down=False, beats=False)


def test_three_aces_seizer_must_still_lead_one_suit() -> None:
    """RULES §15.31, §9.3 [V21] ★ LEAD_ONLY: seat 1 seizes with A♠ A♥ A♣ but may lead only one-suit sets: here
    each ace alone; the three aces together are a mixed-suit lead."""
    deal = _deal(BURA_STANDARD, {0: "QS 7S 9D", 1: "AS AH AC"}, "8D")
    assert deal.apply(DeclareCombo(1, Combo.THREE_ACES))[-1] == LeadSeized(1, 0, Combo.THREE_ACES)
    leads = {action.cards for action in deal.legal_actions(1) if isinstance(action, Lead)}
    assert leads == {cards("AS"), cards("AH"), cards("AC")}
    _refused(deal, Lead(1, cards("AS AH AC")), Reason.MIXED_SUITS)


def test_seizing_the_lead_does_not_change_who_draws_first() -> None:
    """RULES §15.32, §9.3: seat 2 seizes with a molodka and leads 6♥ 7♥ 8♥; seat 1 beats it with 9♥ 10♥ 9♦ and
    draws first (then seat 2, then seat 0), and leads next."""
    deal = _deal(BURA_STANDARD, {0: "QS 7S AC", 1: "9H TH 9D", 2: "6H 7H 8H"}, "8D", "KD 6D 7D KS 8S 9S JC QC KC")
    deal.apply(DeclareCombo(2, Combo.MOLODKA))
    deal.apply(Lead(2, cards("6H 7H 8H")))
    deal.apply(RespondFaceDown(0, cards("QS 7S AC")))
    events = deal.apply(RespondOpen(1, cards("9H TH 9D")))
    assert events[1] == TrickTaken(1, 1, 1, cards("6H 7H 8H 9H TH 9D"), 3)
    assert events[2] == CardsDrawn(((1, 3), (2, 3), (0, 3)), 36 - 9 - 9, None)
    assert sorted(deal.hands[1]) == sorted(cards("KD KS JC"))
    assert sorted(deal.hands[2]) == sorted(cards("6D 8S QC"))
    assert sorted(deal.hands[0]) == sorted(cards("7D 9S KC"))
    assert deal.leader == 1


def test_illegal_actions_are_never_false_claims() -> None:
    """RULES §15.33: a claim out of turn, a wrong number of cards and a mixed-suit lead are refused; nothing is
    scored and the deal goes on."""
    match = stacked_match(BURA_STANDARD, deals=[{"hands": {0: "QS 7S AH", 1: "9D JS 6H"}, "trump": "8D"}])
    refusals: list[tuple[Action, Reason]] = [
        (Claim(1), Reason.CLAIM_NOT_NOW),
        (Lead(0, cards("QS AH")), Reason.MIXED_SUITS),
    ]
    for action, reason in refusals:
        with pytest.raises(IllegalAction) as refused:
            match.apply(action)
        assert refused.value.reason is reason
    match.apply(Lead(0, cards("QS 7S")))
    refusals = [
        (RespondOpen(1, cards("9D")), Reason.WRONG_CARD_COUNT),
        (Claim(0), Reason.CLAIM_NOT_NOW),
        (Claim(1), Reason.CLAIM_NOT_NOW),
    ]
    for action, reason in refusals:
        with pytest.raises(IllegalAction) as refused:
            match.apply(action)
        assert refused.value.reason is reason
    assert match.outcomes == []
    assert match.deal.outcome is None
    assert match.scores == [0, 0]
    assert match.wins == [0, 0]
    assert match.deal.phase is Phase.RESPOND


def test_manual_draw_cannot_happen_because_drawing_is_automatic() -> None:
    """RULES §15.34, §7.5: not applicable: the engine draws for the players, so «чужой подъём», «двойной подъём»
    and a fifth card cannot occur. There is no draw action, and in random Burkozel games no hand ever holds more
    than four cards nor does anyone draw out of turn (every draw starts with the trick winner)."""
    assert {kind.__name__ for kind in get_args(Action)} == {
        "Lead",
        "RespondOpen",
        "RespondFaceDown",
        "Claim",
        "DeclareCombo",
        "Pass",
    }
    with pytest.raises(ValueError):
        action_from_json({"type": "draw", "seat": 0})
    for seed in range(5):
        match = Match(BURKOZEL, 3, seed)
        rng = random.Random(seed)
        steps = 0
        winner = -1
        while not match.finished and steps < 2000:
            options = [action for seat in match.active for action in match.legal_actions(seat)]
            events = match.apply(rng.choice(options))
            steps += 1
            for event in events:
                if isinstance(event, TrickTaken):
                    winner = event.seat
                if isinstance(event, CardsDrawn):
                    assert event.draws[0][0] == winner
            assert all(len(hand) <= 4 for hand in match.deal.hands.values())


# -- §15.24 - §15.27: Burkozel scoring, on scripted whole deals ---------------------------------------------------


@dataclass(frozen=True)
class Scripted:
    """A whole stacked deal and how it is played, by role: role 0 is the first leader, then clockwise.

    ``tricks`` lists (leader role, lead, answers), each answer (role, face up?, cards) in answering order.
    """

    hands: tuple[str, ...]
    trump: str
    stock: str
    tricks: tuple[tuple[int, str, tuple[tuple[int, bool, str], ...]], ...]

    def spec(self, seats: Sequence[int]) -> dict[str, Any]:
        """The ``stacked_match`` deal for ``seats`` (the first leader first, clockwise)."""
        return {"hands": dict(zip(seats, self.hands, strict=True)), "trump": self.trump, "stock": self.stock}

    def play(self, table: Match | Deal, seats: Sequence[int]) -> list[Any]:
        events: list[Any] = []
        for leader, lead, answers in self.tricks:
            events.extend(table.apply(Lead(seats[leader], cards(lead))))
            for role, face_up, played in answers:
                answer = RespondOpen if face_up else RespondFaceDown
                events.extend(table.apply(answer(seats[role], cards(played))))
        return events


UP, DOWN = True, False

# Three players, trump ♦: every player takes one trick of 40 points (RULES §15.25 full tie 40:40:40).
# A keeps 6♠-9♠ + 10♠ A♠ + J♠ Q♠ K♠ 10♥ (40); B beats 8♣ 9♣ J♣ Q♣ with K♣ 10♣ A♣ 6♦ (5 + 25 + 10 = 40);
# C beats 7♥ 8♥ 9♥ J♥ with A♥ K♥ 9♦ J♦ (2 + 17 + 21 = 40).
TIE_40 = Scripted(
    hands=("6S 7S 8S 9S", "AS TS 6C 7C", "TH KS QS JS"),
    trump="AD",
    stock="8C KC 6H 9C TC 7D JC AC 8D QC 6D TD 7H AH QH 8H KH QD 9H 9D KD JH JD",
    tricks=(
        (0, "6S 7S 8S 9S", ((1, DOWN, "AS TS 6C 7C"), (2, DOWN, "TH KS QS JS"))),
        (0, "8C 9C JC QC", ((1, UP, "KC TC AC 6D"), (2, DOWN, "6H 7D 8D TD"))),
        (1, "7H 8H 9H JH", ((2, UP, "AH KH 9D JD"), (0, DOWN, "QH QD KD AD"))),
    ),
)

# Three players, trump ♣: B takes only the first trick, which holds sixes to nines (0 points); C takes none;
# A takes the other three tricks and all 120 points (RULES §15.24).
ZERO_AND_NO_TRICKS = Scripted(
    hands=("6S 7S 8S AH", "9S 6C 7C 9H", "6H 7H 8H 6D"),
    trump="AC",
    stock="JH 7D TH QH 8D 8C KH JS 9C TS JC KC AS QC TC KS 9D QD QS JD KD AD TD",
    tricks=(
        (0, "6S 7S 8S", ((1, UP, "9S 6C 7C"), (2, DOWN, "6H 7H 8H"))),
        (1, "9H JH QH KH", ((2, DOWN, "6D 7D 8D JS"), (0, UP, "AH TH 8C 9C"))),
        (0, "TS AS KS QS", ((1, DOWN, "JC QC 9D JD"), (2, DOWN, "KC TC QD KD"))),
        (0, "AD", ((1, DOWN, "TD"), (2, DOWN, "AC"))),
    ),
)

# As TIE_40 with 10♦ and 6♣ swapped: A 50, B 30, C 40 (RULES §15.26: 30 and 40 both reach the 3-player 21).
FIFTY_THIRTY_FORTY = Scripted(
    hands=("6S 7S 8S 9S", "AS TS TD 7C", "TH KS QS JS"),
    trump="AD",
    stock="8C KC 6H 9C TC 7D JC AC 8D QC 6D 6C 7H AH QH 8H KH QD 9H 9D KD JH JD",
    tricks=(
        (0, "6S 7S 8S 9S", ((1, DOWN, "AS TS TD 7C"), (2, DOWN, "TH KS QS JS"))),
        (0, "8C 9C JC QC", ((1, UP, "KC TC AC 6D"), (2, DOWN, "6H 7D 8D 6C"))),
        (1, "7H 8H 9H JH", ((2, UP, "AH KH 9D JD"), (0, DOWN, "QH QD KD AD"))),
    ),
)

# Two players, trump ♥, five tricks: B beats the first lead with Q♠ K♠ 10♠ A♠ (28 points) and takes nothing
# more; A takes 92 (RULES §15.26: 28 is below the 2-player 31).
TWO_PLAYERS_92_28 = Scripted(
    hands=("6S 7S 8S 9S", "QS KS TS AS"),
    trump="9H",
    stock="6C JC 7C QC 8C KC 9C TC 6D JS 7D AC 8D 6H 9D 7H QD JD KD JH TD QH AD KH AH 8H TH",
    tricks=(
        (0, "6S 7S 8S 9S", ((1, UP, "QS KS TS AS"),)),
        (1, "6C 7C 8C 9C", ((0, UP, "JC QC KC TC"),)),
        (0, "6D 7D 8D 9D", ((1, DOWN, "JS AC 6H 7H"),)),
        (0, "QD KD TD AD", ((1, DOWN, "JD JH QH KH"),)),
        (0, "AH TH", ((1, DOWN, "8H 9H"),)),
    ),
)


# 2x2 (seats 0+2 against 1+3), trump ♣. The leader's team keeps the first trick (60 points); the other team beats
# the second lead with J♦ Q♦ K♦ 10♦ (35) and leads A♣ to the last trick (25): 60:60 (RULES §15.25).
_TEAMS_HANDS = ("QS KS TS AS", "6S 7S 8S 9S", "JS AH TH 6C", "KH QH JH 6H")
_TEAMS_STOCK = "6D JD 7H 9H 7D QD 8H 8C 8D KD QC 9C 9D TD AD JC AC KC TC"
_TEAMS_FIRST = (0, "QS KS TS AS", ((1, DOWN, "6S 7S 8S 9S"), (2, DOWN, "JS AH TH 6C"), (3, DOWN, "KH QH JH 6H")))
TEAMS_60 = Scripted(
    hands=_TEAMS_HANDS,
    trump="7C",
    stock=_TEAMS_STOCK,
    tricks=(
        _TEAMS_FIRST,
        (0, "6D 7D 8D 9D", ((1, UP, "JD QD KD TD"), (2, DOWN, "7H 8H QC AD"), (3, DOWN, "9H 8C 9C JC"))),
        (1, "AC", ((2, DOWN, "KC"), (3, DOWN, "TC"), (0, DOWN, "7C"))),
    ),
)
# The same cards, but the second team throws its diamonds face down: the leader's team takes all three tricks.
TEAMS_SWEEP = Scripted(
    hands=_TEAMS_HANDS,
    trump="7C",
    stock=_TEAMS_STOCK,
    tricks=(
        _TEAMS_FIRST,
        (0, "6D 7D 8D 9D", ((1, DOWN, "JD QD KD TD"), (2, DOWN, "7H 8H QC AD"), (3, DOWN, "9H 8C 9C JC"))),
        (0, "AC", ((1, DOWN, "KC"), (2, DOWN, "TC"), (3, DOWN, "7C"))),
    ),
)


def _burkozel_3(
    deals: Sequence[Scripted], seats: Sequence[Sequence[int]], played: int | None = None, **options: Any
) -> Match:
    """A 3-player Burkozel match of stacked deals (``seats[i]``: deal i's seating from its first leader), the
    first ``played`` of them (all by default) played out by their scripts."""
    variant = BURKOZEL.with_options(**options) if options else BURKOZEL
    specs = [deal.spec(order) for deal, order in zip(deals, seats, strict=True)]
    match = stacked_match(variant, deals=specs, players=3, dealer=2)
    for deal, order in list(zip(deals, seats, strict=True))[:played]:
        deal.play(match, order)
    return match


def test_burkozel_zero_points_with_a_trick_is_not_no_tricks() -> None:
    """RULES §15.24, §12.4 [B03] ★ 4: B took one trick of sixes to nines (0 points): 4; C took none: 6; A (all
    120 points) 0."""
    match = _burkozel_3([ZERO_AND_NO_TRICKS], [(0, 1, 2)])
    outcome = match.outcomes[0]
    assert (outcome.kind, outcome.winners) == (OutcomeKind.PLAYED_OUT, (0,))
    assert (outcome.points, outcome.tricks) == ((120, 0, 0), (3, 1, 0))
    assert match.scores == [0, 4, 6]
    assert match.wins == [1, 0, 0]


def test_burkozel_zero_points_option_six() -> None:
    """RULES §15.24 [B03] option 6 (S4e): the zero-point trick taker pays 6 like the player without tricks."""
    match = _burkozel_3([ZERO_AND_NO_TRICKS], [(0, 1, 2)], penalty_zero_points=6)
    assert match.scores == [0, 6, 6]


def test_burkozel_full_tie_no_penalties_and_the_next_deal_doubles() -> None:
    """RULES §15.25 [B04] ★ EGG_DOUBLE: 40:40:40 costs nobody anything and doubles the next deal: there seat 2
    (B: a zero-point trick) pays 2 x 4 and seat 0 (C: no trick) 2 x 6 = 12."""
    match = _burkozel_3([TIE_40, ZERO_AND_NO_TRICKS], [(0, 1, 2), (1, 2, 0)], played=1)
    assert match.outcomes[0].points == (40, 40, 40)
    assert match.outcomes[0].winners == (0, 1, 2)
    assert match.scores == [0, 0, 0]
    assert match.wins == [0, 0, 0]
    assert match.doubled_next
    ZERO_AND_NO_TRICKS.play(match, (1, 2, 0))
    assert match.scores == [12, 0, 8]
    assert not match.doubled_next


def test_burkozel_full_tie_doubling_does_not_compound() -> None:
    """RULES §15.25: two ties in a row still double the next deal only once: 8 and 12, not 16 and 24."""
    match = _burkozel_3([TIE_40, TIE_40, ZERO_AND_NO_TRICKS], [(0, 1, 2), (1, 2, 0), (2, 0, 1)])
    assert [outcome.points for outcome in match.outcomes] == [(40, 40, 40)] * 2 + [(0, 0, 120)]
    assert match.scores == [8, 12, 0]


def test_burkozel_full_tie_two_each_option() -> None:
    """RULES §15.25 [B04] option TWO_EACH (BK): every tied player gets 2 and the next deal is not doubled."""
    match = _burkozel_3([TIE_40], [(0, 1, 2)], full_tie=FullTie.TWO_EACH)
    assert match.scores == [2, 2, 2]
    assert not match.doubled_next


def test_burkozel_three_players_threshold_is_21() -> None:
    """RULES §15.26, §12.4 [B05]: with three players 30 and 40 points both reach 21: 2 each (A, 50 points: 0)."""
    match = _burkozel_3([FIFTY_THIRTY_FORTY], [(0, 1, 2)])
    assert match.outcomes[0].points == (50, 30, 40)
    assert match.scores == [0, 2, 2]


def test_burkozel_two_left_after_an_elimination_use_the_threshold_31() -> None:
    """RULES §15.26, §15.27, §12.4: a tie, then a doubled deal gives seat 0 exactly 12 (6 x 2): eliminated (>= 12);
    seats 1 and 2 play on with the 2-player threshold, so seat 1's 28 points cost 4, not 2."""
    match = _burkozel_3([TIE_40, ZERO_AND_NO_TRICKS, TWO_PLAYERS_92_28], [(0, 1, 2), (1, 2, 0), (2, 1)], played=2)
    assert match.scores == [12, 0, 8]
    assert match.active == [1, 2]
    assert match.eliminated == [0]
    assert not match.finished
    assert match.deal.seats == (1, 2)
    assert match.deal.leader == 2
    TWO_PLAYERS_92_28.play(match, (2, 1))
    assert match.outcomes[-1].points[1:] == (28, 92)
    assert match.scores == [12, 4, 8]


def test_burkozel_penalty_overshoot_ends_a_two_player_match() -> None:
    """RULES §15.27, §12.4 [B06]: 2x2, a 60:60 tie, then the other team sweeps the doubled deal: no tricks, 6 x 2 =
    12 in one deal, which reaches the limit (>= 12): team 0 loses."""
    match = stacked_match(
        BURKOZEL, deals=[TEAMS_60.spec((0, 1, 2, 3)), TEAMS_60.spec((1, 2, 3, 0))], players=4, dealer=3
    )
    TEAMS_60.play(match, (0, 1, 2, 3))
    assert match.outcomes[0].points == (60, 60)
    assert match.scores == [0, 0]
    assert match.doubled_next
    events = TEAMS_SWEEP.play(match, (1, 2, 3, 0))
    assert match.outcomes[1].points == (0, 120)
    assert match.scores == [12, 0]
    assert match.finished
    assert (match.winners, match.losers) == ((1,), (0,))
    assert MatchEnded((1,), (0,)) in events
