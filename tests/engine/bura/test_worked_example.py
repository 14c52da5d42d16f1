"""The worked example of RULES §6.5 (seed 000, the pagat text), played as a three-player scenario.

Trump ♦. Seat 0 (A) leads Q♠ 7♠, seat 1 (B) beats with 9♦ J♠, seat 2 (C) holds K♦ 8♦ 9♠: C takes the trick only
with both trumps (K♦ over 9♦, 8♦ over J♠); throwing 8♦ 9♠ and keeping K♦ lets B win. With dealer 2, seat 0 leads.
"""

from __future__ import annotations

from itertools import combinations

from engine.bura.actions import Lead, RespondFaceDown, RespondOpen
from engine.bura.cards import cards, set_beats
from engine.bura.deal import Deal, Phase
from engine.bura.events import CardsDrawn, Led, Responded, TrickTaken
from engine.bura.variant import BURA_STANDARD
from engine.core.cards import Suit
from tests.engine.bura.stack import stacked_deal

A, B, C = 0, 1, 2
HANDS = {A: "QS 7S AH", B: "9D JS 6H", C: "KD 8D 9S"}
# Top of the stock first: after the trick each player draws two, one at a time, from the trick winner on.
STOCK = "TS KS 6S AS 8S 7H"


def _after_b_beats() -> Deal:
    deal, _ = stacked_deal(BURA_STANDARD, hands=HANDS, trump="7D", stock=STOCK, players=3, dealer=2)
    assert deal.trump is Suit.DIAMONDS
    assert deal.apply(Lead(A, cards("QS 7S"))) == [Led(A, cards("QS 7S"))]
    events = deal.apply(RespondOpen(B, cards("9D JS")))
    assert events == [Responded(B, cards("9D JS"), 2, face_down=False, beats=True)]
    assert deal.trick is not None
    assert deal.trick.owner == B
    assert set(deal.trick.best) == set(cards("9D JS"))
    return deal


def test_b_beats_queen_seven_with_nine_of_trumps_and_jack() -> None:
    """RULES §6.5: 9♦ beats Q♠ as a trump and J♠ beats 7♠, so B is now the one to beat; C answers next."""
    deal = _after_b_beats()
    assert deal.phase is Phase.RESPOND
    assert deal.to_act() == C


def test_c_can_take_the_trick_only_with_both_trumps() -> None:
    """RULES §6.5: of C's three possible pairs only {K♦, 8♦} beats the last beater {9♦, J♠}."""
    deal = _after_b_beats()
    assert deal.trick is not None
    beating = [set(pair) for pair in combinations(cards(HANDS[C]), 2) if set_beats(pair, deal.trick.best, deal.trump)]
    assert beating == [set(cards("KD 8D"))]


def test_c_plays_both_trumps_and_takes_the_trick() -> None:
    """RULES §6.5, §6.7: C plays K♦ 8♦ face up, takes all six cards (Q3 + J2 + K4 = 9 points), draws first."""
    deal = _after_b_beats()
    events = deal.apply(RespondOpen(C, cards("KD 8D")))
    assert events[0] == Responded(C, cards("KD 8D"), 2, face_down=False, beats=True)
    assert events[1] == TrickTaken(1, C, C, cards("QS 7S 9D JS KD 8D"), 0)
    assert events[2] == CardsDrawn(((C, 2), (A, 2), (B, 2)), 36 - 9 - 6, None)
    assert deal.pile_points(C) == 9
    assert deal.pile_points(A) == deal.pile_points(B) == 0
    assert deal.tricks_won == [0, 0, 1]
    # ALTERNATE draw from the winner clockwise: C T♠, A K♠, B 6♠, C A♠, A 8♠, B 7♥.
    assert sorted(deal.hands[C]) == sorted(cards("9S TS AS"))
    assert sorted(deal.hands[A]) == sorted(cards("AH KS 8S"))
    assert sorted(deal.hands[B]) == sorted(cards("6H 6S 7H"))
    assert deal.phase is Phase.LEAD
    assert deal.leader == C


def test_c_throws_eight_of_trumps_and_nine_keeps_the_king_and_b_wins() -> None:
    """RULES §6.5: C throws 8♦ 9♠ (face up: they beat nothing) and keeps K♦; B takes the trick (Q3 + J2 = 5)."""
    deal = _after_b_beats()
    events = deal.apply(RespondOpen(C, cards("8D 9S")))
    assert events[0] == Responded(C, cards("8D 9S"), 2, face_down=False, beats=False)
    assert events[1] == TrickTaken(1, B, B, cards("QS 7S 9D JS 8D 9S"), 0)
    assert events[2] == CardsDrawn(((B, 2), (C, 2), (A, 2)), 36 - 9 - 6, None)
    assert deal.pile_points(B) == 5
    assert deal.tricks_won == [0, 1, 0]
    # ALTERNATE draw from B clockwise: B T♠, C K♠, A 6♠, B A♠, C 8♠, A 7♥.
    assert sorted(deal.hands[C]) == sorted(cards("KD KS 8S"))
    assert deal.leader == B


def test_c_throws_face_down_and_b_wins() -> None:
    """RULES §6.5, §6.6: the throw may go face down (★ FACE_DOWN_OPTIONAL); its cards are hidden, B still wins."""
    deal = _after_b_beats()
    events = deal.apply(RespondFaceDown(C, cards("8D 9S")))
    assert events[0] == Responded(C, (), 2, face_down=True, beats=False)
    assert events[1] == TrickTaken(1, B, B, cards("QS 7S 9D JS"), 2)
    assert deal.pile_points(B) == 5


def test_c_beating_the_lead_but_not_b_is_only_a_discard() -> None:
    """RULES §6.5: {K♦, 9♠} beats the lead {Q♠, 7♠} but not the last beater {9♦, J♠}: a discard, B wins."""
    deal = _after_b_beats()
    assert set_beats(cards("KD 9S"), cards("QS 7S"), Suit.DIAMONDS)
    events = deal.apply(RespondOpen(C, cards("KD 9S")))
    assert events[0] == Responded(C, cards("KD 9S"), 2, face_down=False, beats=False)
    assert events[1] == TrickTaken(1, B, B, cards("QS 7S 9D JS KD 9S"), 0)
    assert deal.pile_points(B) == 3 + 2 + 4
