"""A deal's score (RULES §17.7, the seed's §07 and §09) and the match to 3,000."""

from __future__ import annotations

from engine.buraco.actions import Discard
from engine.buraco.cards import Card
from engine.buraco.deal import Deal, Phase
from engine.buraco.events import DealScored, MatchEnded, SideScore
from engine.buraco.match import Match
from engine.buraco.scoring import score_deal
from engine.core.cards import Suit
from tests.engine.buraco.stack import dealt, lay, position, run, took_morto

H, S, C, D = Suit.HEARTS, Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS


def going_out(deal: Deal, seat: int, last: str) -> tuple[SideScore, SideScore]:
    position(deal, seat, last)
    deal.apply(Discard(seat, Card.parse(last)))
    assert deal.over and deal.scores is not None
    return deal.scores


def test_seed_example_melded_180_a_clean_canastra_going_out_less_15_is_465() -> None:
    # RULES §17.7 worked example (seed §09): 180 in cards + 200 + 100 - 15 left with the partner = 465.
    deal = dealt({})
    took_morto(deal, 0)
    lay(deal, 0, run("3H 4H 5H 6H 7H 8H 9H", H, 3))  # 45, a clean canastra
    lay(deal, 0, run("TS JS QS KS AS", S, 10), run("9C TC JC QC KC AC", C, 9), run("3D 4D 5D", D, 3))  # 135
    position(deal, 2, "AD")  # the partner keeps an ace: 15
    mine, _ = going_out(deal, 0, "KD")
    assert (mine.melded, mine.bonuses, mine.going_out, mine.in_hands, mine.morto_penalty) == (180, 200, 100, 15, 0)
    assert mine.total == 465


def test_going_out_scores_only_for_the_pair_that_goes_out() -> None:
    # RULES §17.7: +100 for the closing pair alone.
    deal = dealt({})
    took_morto(deal, 0)
    lay(deal, 0, run("3H 4H 5H 6H 7H 8H 9H", H, 3))
    mine, theirs = going_out(deal, 0, "KD")
    assert mine.going_out == 100 and theirs.going_out == 0


def test_a_pair_that_took_no_morto_loses_100_only_when_the_other_did() -> None:
    # RULES §17.7 and §17.7a-7: -100 for the pair without a morto if the other took one; none if nobody did.
    deal = dealt({})
    took_morto(deal, 0)
    lay(deal, 0, run("3H 4H 5H 6H 7H 8H 9H", H, 3))
    mine, theirs = going_out(deal, 0, "KD")
    assert theirs.morto_penalty == 100 and mine.morto_penalty == 0
    nobody = dealt({})
    nobody.phase = Phase.OVER
    assert [s.morto_penalty for s in score_deal(nobody)] == [0, 0]
    # the other morto went into the stock: still -100, the pair never took one (seed §06)
    stocked = dealt({})
    took_morto(stocked, 1)
    stocked.stock.extend(stocked.mortos.pop())
    assert [s.morto_penalty for s in score_deal(stocked)] == [100, 0]


def test_an_unplayed_morto_counts_100_when_the_opponents_go_out() -> None:
    # RULES §17.7 and §17.7a-8: a morto taken by discarding and never played counts -100 instead of its
    # cards when the opponents close; when the partner closes, or the stock runs out, its cards count.
    deal = dealt({})
    took_morto(deal, 1, direta=False)
    deal.unplayed_morto[1] = 1
    took_morto(deal, 0)
    lay(deal, 0, run("3H 4H 5H 6H 7H 8H 9H", H, 3))
    partner = sum(card.value for card in deal.hands[3])
    _, theirs = going_out(deal, 0, "KD")
    assert theirs.in_hands == 100 + partner
    own = dealt({})
    took_morto(own, 1, direta=False)
    own.unplayed_morto[1] = 1
    lay(own, 1, run("3H 4H 5H 6H 7H 8H 9H", H, 3))
    morto_cards = sum(card.value for card in own.hands[1])
    _, closing = going_out(own, 3, "KD")
    assert closing.in_hands == morto_cards and closing.going_out == 100


def test_a_match_is_won_at_3000_by_the_higher_total_and_a_tie_plays_on() -> None:
    # RULES §17.7: a pair reaching 3,000 ends the match, the higher total wins; equal totals play another deal.
    match = Match(seed=5)
    match.totals = [2900, 2950]
    match.deal.phase = Phase.OVER
    match.deal.scores = (SideScore(150, 0, 0, 0, 0), SideScore(100, 0, 0, 0, 0))  # 3050 - 3050
    events = match._after_deal()
    assert not match.finished and isinstance(events[0], DealScored) and match.deal_number == 1
    match.deal.phase = Phase.OVER
    match.deal.scores = (SideScore(0, 0, 0, 50, 0), SideScore(0, 0, 0, 0, 0))  # 3000 - 3050
    events = match._after_deal()
    assert match.finished and match.winner == 1 and isinstance(events[-1], MatchEnded)


def test_the_closer_need_not_win_the_match() -> None:
    # RULES §17.7: going out does not win the match; the totals do.
    match = Match(seed=5)
    match.totals = [2000, 3100]
    match.deal.phase = Phase.OVER
    match.deal.closer = 0
    match.deal.scores = (SideScore(400, 200, 100, 0, 0), SideScore(0, 0, 0, 0, 0))
    match._after_deal()
    assert match.finished and match.winner == 1


def test_vulnerability_from_1500_fixed_before_the_deal() -> None:
    # RULES §17.5: a pair at 1,500 or more needs 75 to open; the totals before the deal decide.
    match = Match(seed=5)
    match.totals = [1500, 1495]
    match.deal.phase = Phase.OVER
    match.deal.scores = (SideScore(0, 0, 0, 0, 0), SideScore(0, 0, 0, 0, 0))
    match._after_deal()
    assert match.deal.vulnerable == (True, False)
