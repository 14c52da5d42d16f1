"""The test vectors of RULES §18 (and the seed-002 negative example of §16), one named test each.

Set comparisons are checked for every order of both sets: RULES §6.4 says the order in which the cards are put
down does not matter, the engine must find the assignment itself.
"""

from __future__ import annotations

from itertools import permutations

from engine.bura.actions import Lead, RespondOpen
from engine.bura.cards import POINTS, STRENGTH, Card, Rank, beats, cards, set_beats
from engine.bura.combos import Combo
from engine.bura.events import ComboShown, DealEnded, DealOutcome, OutcomeKind, Responded, TrickTaken
from engine.bura.variant import BURA_STANDARD, BuraVsBura
from engine.core.cards import Suit
from tests.engine.bura.stack import stacked_deal


def _set_beats_in_every_order(played: str, best: str, trump: Suit) -> set[bool]:
    """The answers of ``set_beats`` over all orders of both sets (a single answer is expected)."""
    return {set_beats(p, b, trump) for p in permutations(cards(played)) for b in permutations(cards(best))}


def test_strength_order_is_ace_ten_king_queen_jack_nine_eight_seven_six() -> None:
    """RULES §18 / §3.2: STRENGTH = {6:0, 7:1, 8:2, 9:3, J:4, Q:5, K:6, 10:7, A:8}."""
    expected = {"6": 0, "7": 1, "8": 2, "9": 3, "J": 4, "Q": 5, "K": 6, "T": 7, "A": 8}
    assert {rank.value: STRENGTH[rank] for rank in Rank} == expected


def test_card_points_are_eleven_ten_four_three_two_and_nothing() -> None:
    """RULES §18 / §3.3: POINTS = {A:11, 10:10, K:4, Q:3, J:2, 9:0, 8:0, 7:0, 6:0}; 120 in the deck."""
    expected = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0, "6": 0}
    assert {rank.value: POINTS[rank] for rank in Rank} == expected
    assert sum(Card(rank, suit).points for rank in Rank for suit in Suit) == 120


def test_set_beats_trump_and_suit_card_beat_queen_seven() -> None:
    """RULES §18 / §6.4: {9♦, J♠} beats {Q♠, 7♠} with ♦ trump."""
    assert _set_beats_in_every_order("9D JS", "QS 7S", Suit.DIAMONDS) == {True}


def test_set_king_eight_of_trumps_beats_nine_of_trumps_and_jack() -> None:
    """RULES §18 / §6.5: {K♦, 8♦} beats {9♦, J♠} with ♦ trump (K♦ over 9♦, 8♦ over J♠)."""
    assert _set_beats_in_every_order("KD 8D", "9D JS", Suit.DIAMONDS) == {True}


def test_set_eight_of_trumps_and_nine_of_spades_does_not_beat_nine_of_trumps_and_jack() -> None:
    """RULES §18 / §6.5: {8♦, 9♠} does not beat {9♦, J♠} with ♦ trump (nothing beats 9♦)."""
    assert _set_beats_in_every_order("8D 9S", "9D JS", Suit.DIAMONDS) == {False}


def test_three_low_trumps_beat_ace_king_jack_of_spades() -> None:
    """RULES §18 / §6.3: with ♥ trump, {8♥, 6♥, Q♥} beats {A♠, K♠, J♠}: any trump beats any non-trump."""
    assert _set_beats_in_every_order("8H 6H QH", "AS KS JS", Suit.HEARTS) == {True}


def test_trump_ace_and_two_off_suit_sixes_do_not_beat_king_queen_jack_of_spades() -> None:
    """RULES §18 / §6.4: with ♥ trump, {A♥, 6♦, 6♣} does not beat {K♠, Q♠, J♠}: each led card needs its own
    beater, and the sixes of other suits beat nothing."""
    assert _set_beats_in_every_order("AH 6D 6C", "KS QS JS", Suit.HEARTS) == {False}


def test_ace_nine_of_hearts_does_not_beat_ten_jack_of_hearts() -> None:
    """RULES §18 / §16: with ♠ trump, {A♥, 9♥} does not beat {10♥, J♥} (seed 002's error: 9♥ beats neither)."""
    assert _set_beats_in_every_order("AH 9H", "TH JH", Suit.SPADES) == {False}


def test_off_suit_king_does_not_beat_queen() -> None:
    """RULES §18 / §6.3: with ♣ trump, K♦ does not beat Q♠ (a card of another suit never beats, whatever its rank)."""
    assert beats(Card.parse("KD"), Card.parse("QS"), Suit.CLUBS) is False
    assert set_beats(cards("KD"), cards("QS"), Suit.CLUBS) is False


def test_seed_002_negative_example_leader_keeps_the_trick() -> None:
    """RULES §16 / §18: A leads 10♥ J♥, B answers A♥ 9♥ with ♠ trump; 9♥ beats neither card, so A keeps the trick
    (seed 002's table wrongly gives it to B)."""
    deal, _ = stacked_deal(BURA_STANDARD, hands={0: "TH JH 6C", 1: "AH 9H 7C"}, trump="8S", stock="KD 6D")
    deal.apply(Lead(0, cards("TH JH")))
    events = deal.apply(RespondOpen(1, cards("AH 9H")))
    assert events[0] == Responded(1, cards("AH 9H"), 2, face_down=False, beats=False)
    assert events[1] == TrickTaken(1, 0, 0, cards("TH JH AH 9H"), 0)
    assert deal.tricks_won == [1, 0]
    assert deal.pile_points(0) == 10 + 2 + 11 + 0
    assert deal.pile_points(1) == 0
    # The trick winner draws first and leads next (RULES §6.7): K♦ to A, 6♦ to B.
    assert Card.parse("KD") in deal.hands[0]
    assert Card.parse("6D") in deal.hands[1]
    assert deal.leader == 0


def _bura_against_bura(rule: BuraVsBura) -> tuple[list[object], DealOutcome | None]:
    """Trump ♣: seat 0 (the first leader, R) holds {K♣ Q♣ J♣}, seat 1 holds {A♣ 7♣ 6♣}."""
    variant = BURA_STANDARD.with_options(bura_vs_bura=rule)
    deal, events = stacked_deal(variant, hands={0: "KC QC JC", 1: "AC 7C 6C"}, trump="8C")
    return events, deal.outcome


def test_bura_against_bura_top_card_gives_the_ace_seven_six() -> None:
    """RULES §18 / §9.4 [V19] TOP_CARD: bura {K♣ Q♣ J♣} of the leader against {A♣ 7♣ 6♣}: the higher top trump
    (A♣) wins, so the second holder wins the deal in the first pre-lead window."""
    events, outcome = _bura_against_bura(BuraVsBura.TOP_CARD)
    shown = [event for event in events if isinstance(event, ComboShown)]
    assert [(e.seat, e.combo, set(e.cards)) for e in shown] == [(1, Combo.BURA, set(cards("AC 7C 6C")))]
    assert outcome == DealOutcome(OutcomeKind.WIN, (1,), 1, Combo.BURA, (0, 0), (0, 0), (0, 1))
    assert isinstance(events[-1], DealEnded)


def test_bura_against_bura_trick_compare_gives_the_leader() -> None:
    """RULES §18 / §9.4 [V19] TRICK_COMPARE: the leader's {K♣ Q♣ J♣} is led first; {A♣ 7♣ 6♣} cannot beat it
    (neither 7♣ nor 6♣ beats Q♣ or J♣), so the first holder wins the deal."""
    events, outcome = _bura_against_bura(BuraVsBura.TRICK_COMPARE)
    shown = [event for event in events if isinstance(event, ComboShown)]
    assert [(e.seat, e.combo, set(e.cards)) for e in shown] == [(0, Combo.BURA, set(cards("KC QC JC")))]
    assert outcome == DealOutcome(OutcomeKind.WIN, (0,), 0, Combo.BURA, (0, 0), (0, 0), (0, 1))
    assert isinstance(events[-1], DealEnded)
