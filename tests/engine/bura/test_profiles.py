"""Each profile of RULES §13 played for real: a whole stacked deal to its end, and a whole match under its model.

Matches are built from stacked deals (dealt buras end a deal at once, false claims end it on the first move),
sometimes followed by random legal play to the end. Expected scores follow RULES §12 by hand; for the random
tail the scores and the tally of won deals are recomputed from the deal outcomes by the rules of §12.
"""

from __future__ import annotations

import random
from typing import Any

from engine.bura.actions import Claim, DeclareCombo, Lead, RespondFaceDown, RespondOpen
from engine.bura.cards import cards
from engine.bura.combos import Combo
from engine.bura.events import (
    CardsDrawn,
    Claimed,
    ComboShown,
    DealEnded,
    DealOutcome,
    DealStarted,
    Eliminated,
    LeadSeized,
    Led,
    MatchEnded,
    OutcomeKind,
    Responded,
    ScoreChanged,
    TrickTaken,
)
from engine.bura.match import Match
from engine.bura.players import play_random_match
from engine.bura.variant import (
    BURA_5,
    BURA_PAGAT,
    BURA_RU_WIKI,
    BURA_STANDARD,
    BURKOZEL,
    KOZEL_MONEY,
    PENALTY_12,
    ROBBER,
    SMALL_ROBBER,
    MatchKind,
    MatchModel,
    Variant,
)
from tests.engine.bura.stack import stacked_match
from tests.engine.bura.test_edge_cases import (
    DOWN,
    TEAMS_60,
    TEAMS_SWEEP,
    TIE_40,
    TWO_PLAYERS_92_28,
    UP,
    ZERO_AND_NO_TRICKS,
    Scripted,
)

# Trump ♦ (8♦ turned up); neither hand holds a combo.
PLAIN = {"hands": {0: "QS 7S AH", 1: "9D JS 6H"}, "trump": "8D"}
# Seat 0 leads A♥ 10♥, seat 1 throws 10♠ 6♣: seat 0 holds exactly 31 (RULES §8.1).
THIRTY_ONE = {"hands": {0: "AH TH 6S", 1: "TS 6C 7S"}, "trump": "8D", "stock": "KD 6D"}


# A 4-card deal without combos, trump ♦ (for a stacked deal that follows the one under test).
PLAIN_4 = {"hands": {0: "QS 7S AH 9C", 1: "9D JS 6H 6C"}, "trump": "8D"}


def _bura(seat: int) -> dict[str, Any]:
    """A deal in which ``seat`` (of two) is dealt a bura: 9♦ K♦ 6♦ with ♦ trump."""
    return {"hands": {seat: "9D KD 6D", 1 - seat: "QS 7S AH"}, "trump": "8D"}


def _play_thirty_one(match: Match) -> list[Any]:
    events = match.apply(Lead(0, cards("AH TH")))
    events += match.apply(RespondOpen(1, cards("TS 6C")))
    return events + match.apply(Claim(0))


def _robber_sequence(target: int) -> list[int]:
    """Winners of successive deals: level at target - 1 each, then 1 ahead (play on), level, 1 ahead, 2 ahead."""
    return [0, 1] * (target - 1) + [0, 1, 0, 0]


# -- BURA_STANDARD -------------------------------------------------------------------------------------------------


def test_bura_standard_deal_won_by_a_claim_of_31() -> None:
    """RULES §13 BURA_STANDARD, §8: a trick brings seat 0 to 31; he claims on his next lead turn and wins the deal;
    the robber counts one won deal and the winner deals next (§5.5)."""
    match = stacked_match(BURA_STANDARD, deals=[THIRTY_ONE, PLAIN])
    events = _play_thirty_one(match)
    assert [type(event) for event in events[:5]] == [Led, Responded, TrickTaken, CardsDrawn, Claimed]
    assert events[2] == TrickTaken(1, 0, 0, cards("AH TH TS 6C"), 0)
    assert events[3] == CardsDrawn(((0, 2), (1, 2)), 36 - 6 - 4, None)
    claimed = events[4]
    assert isinstance(claimed, Claimed) and (claimed.points, claimed.success) == (31, True)
    ended = events[5]
    assert isinstance(ended, DealEnded)
    assert ended.outcome == DealOutcome(OutcomeKind.WIN, (0,), 0, None, (31, 0), (1, 0), (0, 1))
    assert events[6] == ScoreChanged((1, 0), (1, 0), 0, False)
    assert isinstance(events[7], DealStarted) and events[7].dealer == 0
    assert match.wins == [1, 0]


def _robber_match(variant: Variant, winners: list[int]) -> Match:
    return stacked_match(variant, deals=[*(_bura(seat) for seat in winners), PLAIN])


def test_bura_standard_robber_to_21_needs_a_lead_of_2() -> None:
    """RULES §12.2 ★ ROBBER(21, margin 2): 21:20 and 22:21 play on; 23:21 wins the match for seat 0."""
    sequence = _robber_sequence(21)
    at_21_20 = _robber_match(BURA_STANDARD, sequence[:41])
    assert at_21_20.scores == [21, 20]
    assert not at_21_20.finished
    at_22_21 = _robber_match(BURA_STANDARD, sequence[:43])
    assert at_22_21.scores == [22, 21]
    assert not at_22_21.finished
    match = _robber_match(BURA_STANDARD, sequence)
    assert match.finished
    assert match.deal_number == 44
    assert (match.winners, match.losers) == ((0,), (1,))
    assert match.scores == [23, 21]
    assert match.wins == [23, 21]


def test_small_robber_to_11_needs_a_lead_of_2() -> None:
    """RULES §12.2, product default: SMALL_ROBBER(11, margin 2): 11:10 and 12:11 play on; 13:11 wins."""
    variant = BURA_STANDARD.with_options(match=SMALL_ROBBER)
    sequence = _robber_sequence(11)
    assert not _robber_match(variant, sequence[:21]).finished
    assert not _robber_match(variant, sequence[:23]).finished
    match = _robber_match(variant, sequence)
    assert match.finished
    assert match.deal_number == 24
    assert match.winners == (0,)
    assert match.scores == [13, 11]
    assert match.wins == [13, 11]


def test_robber_false_claim_gives_the_opponent_the_deal() -> None:
    """RULES §12.2 [V16] ★ LOSE_DEAL: R's false claim (empty pile) is a won deal for the opponent: +1."""
    match = stacked_match(BURA_STANDARD, deals=[PLAIN, PLAIN])
    events = match.apply(Claim(0))
    assert ScoreChanged((0, 1), (0, 1), 0, False) in events
    assert match.scores == [0, 1]
    assert match.wins == [0, 1]


# -- BURA_PAGAT ----------------------------------------------------------------------------------------------------


def test_bura_pagat_open_deal_won_by_a_claim_takes_the_pot() -> None:
    """RULES §13 BURA_PAGAT: every answer face up (OPEN); the claim of 31 takes the pot of 2 (both anted 1)."""
    match = stacked_match(BURA_PAGAT, deals=[THIRTY_ONE, PLAIN])
    assert match.pot == 2
    match.apply(Lead(0, cards("AH TH")))
    assert not any(isinstance(action, RespondFaceDown) for action in match.legal_actions(1))
    events = match.apply(RespondOpen(1, cards("TS 6C"))) + match.apply(Claim(0))
    assert match.outcomes[0] == DealOutcome(OutcomeKind.WIN, (0,), 0, None, (31, 0), (1, 0), (0, 1))
    assert ScoreChanged((1, -1), (1, 0), 0, False) in events
    # The next deal is dealt at once: both ante again.
    assert match.scores == [0, -2]
    assert match.pot == 2


def test_bura_pagat_pot_match_with_a_double_pot_false_claim() -> None:
    """RULES §12.1 POT, [V16] DOUBLE_POT: deal 1 seat 1's bura takes the pot (2); deal 2 seat 0 claims falsely and
    matches the pot (2 -> 4), void; deal 3 (same dealer) everyone antes (pot 6) and seat 0's bura takes it.
    Settled after 3 deals: seat 0 +1, seat 1 -1; won deals 1 each (the void deal counts for nobody)."""
    variant = BURA_PAGAT.with_options(match=MatchModel(kind=MatchKind.POT, max_deals=3))
    match = stacked_match(variant, deals=[_bura(1), PLAIN, _bura(0)])
    assert match.scores == [-2, 0]  # deal 2 already anted
    assert match.pot == 2
    assert match.dealer == 1
    match.apply(Claim(0))
    assert match.outcomes[1].kind is OutcomeKind.FALSE_CLAIM
    assert match.deal_number == 3
    assert match.dealer == 1
    assert match.finished
    assert match.scores == [1, -1]
    assert match.pot == 0
    assert (match.winners, match.losers) == ((0,), (1,))
    assert match.wins == [1, 1]


# -- BURA_RU_WIKI --------------------------------------------------------------------------------------------------

# Seat 0 keeps the first trick (7♠ and 9♥, no points); then seat 0 draws K♥ (a molodka, his own) and seat 1 draws 6♦:
# the three sixes with the trump six, a small Moscow that outranks the molodka (RULES §9.2).
SMALL_MOSCOW_DEAL = {"hands": {0: "AH TH 7S", 1: "6S 6C 9H"}, "trump": "8D", "stock": "KH 6D 7C 8S 9S 8C JH QC"}


def test_bura_ru_wiki_small_moscow_then_a_false_claim_loses_double() -> None:
    """RULES §13 BURA_RU_WIKI: seat 1 seizes the lead with a drawn small Moscow and leads 6♠ 6♣ 6♦; seat 0's A♥ 10♥
    K♥ cannot beat the trump six; seat 1 takes 25 points, claims, and is short of 31: LOSE_DOUBLE gives seat 0 +2
    in the robber (one won deal)."""
    match = stacked_match(BURA_RU_WIKI, deals=[SMALL_MOSCOW_DEAL, {**PLAIN, "hands": {1: "QS 7S AH", 0: "9D JS 6H"}}])
    match.apply(Lead(0, cards("7S")))
    match.apply(RespondFaceDown(1, cards("9H")))
    events = match.apply(DeclareCombo(1, Combo.SMALL_MOSCOW))
    assert events[-1] == LeadSeized(1, 0, Combo.SMALL_MOSCOW)
    assert match.legal_actions(1) == [Claim(1), Lead(1, cards("6S 6C 6D"))]
    match.apply(Lead(1, cards("6S 6C 6D")))
    events = match.apply(RespondOpen(0, cards("AH TH KH")))
    assert events[0] == Responded(0, cards("AH TH KH"), 3, face_down=False, beats=False)
    assert events[1] == TrickTaken(2, 1, 1, cards("6S 6C 6D AH TH KH"), 0)
    events = match.apply(Claim(1))
    claimed = events[0]
    assert isinstance(claimed, Claimed) and (claimed.seat, claimed.points, claimed.success) == (1, 25, False)
    assert match.outcomes[0] == DealOutcome(OutcomeKind.FALSE_CLAIM, (0,), 1, None, (0, 25), (1, 1), (0, 1))
    assert ScoreChanged((2, 0), (1, 0), 0, False) in events
    assert match.dealer == 0


def test_bura_ru_wiki_robber_with_lose_double() -> None:
    """RULES §12.2 with [V16] LOSE_DOUBLE: each false claim of seat 0 gives seat 1 +2: 20:0 after ten, and the
    eleventh (22:0) ends the robber; seat 1 has won 11 deals."""
    match = stacked_match(BURA_RU_WIKI, deals=[PLAIN] * 12)
    assert match.variant.match == ROBBER
    for _ in range(10):
        match.apply(Claim(0))
    assert match.scores == [0, 20]
    assert not match.finished
    events = match.apply(Claim(0))
    assert MatchEnded((1,), (0,)) in events
    assert match.scores == [0, 22]
    assert match.wins == [0, 11]


def test_bura_ru_wiki_penalty_12() -> None:
    """RULES §12.3 PENALTY_12: seat 0's claim of 31 costs seat 1 2; then three false claims by seat 1 (R, since the
    winner deals) cost him 4 each (LOSE_DOUBLE): 6, 10, 14 >= 12 loses the match."""
    variant = BURA_RU_WIKI.with_options(match=PENALTY_12)
    reversed_plain = {**PLAIN, "hands": {1: "QS 7S AH", 0: "9D JS 6H"}}
    match = stacked_match(variant, deals=[THIRTY_ONE, *[reversed_plain] * 4])
    _play_thirty_one(match)
    assert match.scores == [0, 2]
    assert match.dealer == 0
    match.apply(Claim(1))
    match.apply(Claim(1))
    assert match.scores == [0, 10]
    assert not match.finished
    match.apply(Claim(1))
    assert match.scores == [0, 14]
    assert match.finished
    assert (match.winners, match.losers) == ((0,), (1,))
    assert match.wins == [4, 0]


# -- BURKOZEL ------------------------------------------------------------------------------------------------------


def test_burkozel_two_players_whole_deal() -> None:
    """RULES §13 BURKOZEL, 2 players: five tricks to the last card (PLAY_OUT); A takes 92, B 28 with one trick:
    below 31, so B pays 4 and A 0 (§12.4); the deal rotates to seat 0."""
    match = stacked_match(BURKOZEL, deals=[TWO_PLAYERS_92_28.spec((0, 1)), PLAIN_4])
    events = TWO_PLAYERS_92_28.play(match, (0, 1))
    taken = [(event.trick_number, event.seat) for event in events if isinstance(event, TrickTaken)]
    assert taken == [(1, 1), (2, 0), (3, 0), (4, 0), (5, 0)]
    ended = next(event for event in events if isinstance(event, DealEnded))
    assert ended.outcome == DealOutcome(OutcomeKind.PLAYED_OUT, (0,), None, None, (92, 28), (4, 1), (0, 1))
    assert ScoreChanged((0, 4), (1, 0), 0, False) in events
    assert match.dealer == 0


def _burkozel_penalties_two(match: Match) -> list[int]:
    """RULES §12.4 for two sides, recomputed from the outcomes: bura +2, four aces +6 to the loser; a played-out
    deal: no tricks 6, 0 points 4, >= 31 2, else 4; a full tie doubles the next deal only."""
    scores = [0, 0]
    factor = 1
    for outcome in match.outcomes:
        next_factor = 1
        if outcome.kind is OutcomeKind.WIN:
            loser = 1 - outcome.winners[0]
            scores[loser] += (6 if outcome.combo is Combo.MOSCOW else 2) * factor
        elif len(outcome.winners) == 2:
            next_factor = 2
        else:
            loser = 1 - outcome.winners[0]
            points, tricks = outcome.points[loser], outcome.tricks[loser]
            penalty = 6 if tricks == 0 else 4 if points == 0 else 2 if points >= 31 else 4
            scores[loser] += penalty * factor
        factor = next_factor
    return scores


def test_burkozel_two_players_match_to_12() -> None:
    """RULES §12.4, [B06]: after the stacked deal (0:4), random play to the end: the loser has 12 or more, the
    scores and the won deals are what the penalty table gives for the outcomes."""
    match = stacked_match(BURKOZEL, deals=[TWO_PLAYERS_92_28.spec((0, 1))])
    TWO_PLAYERS_92_28.play(match, (0, 1))
    assert match.scores == [0, 4]
    play_random_match(match, random.Random(7))
    assert match.finished
    loser = match.losers[0]
    assert match.scores[loser] >= 12 > match.scores[1 - loser]
    assert match.winners == (1 - loser,)
    assert match.scores == _burkozel_penalties_two(match)
    assert match.wins == _tally(match)


def _tally(match: Match, partial_ties: bool = False) -> list[int]:
    """Won deals per side from the outcomes (RULES §12): a combo win, or the single best of a played-out deal.

    RULES does not say whether a partial tie for first (50:50:20) is a won deal for the tied leaders;
    ``partial_ties`` counts it, so the two answers bound the tally.
    """
    wins = [0] * match.sides
    for outcome in match.outcomes:
        if outcome.kind not in (OutcomeKind.WIN, OutcomeKind.PLAYED_OUT):
            continue
        full_tie = len(outcome.winners) == len([side for side in outcome.seats if side < match.sides])
        if len(outcome.winners) == 1 or (partial_ties and not full_tie):
            for side in outcome.winners:
                wins[side] += 1
    return wins


def test_burkozel_three_players_elimination_match() -> None:
    """RULES §12.4 3 players: a 40:40:40 tie, a doubled deal that eliminates seat 0 (12), seats 1 and 2 play on
    under the 2-player table (28 points: 4), then random play until one player is left."""
    specs = [TIE_40.spec((0, 1, 2)), ZERO_AND_NO_TRICKS.spec((1, 2, 0)), TWO_PLAYERS_92_28.spec((2, 1))]
    match = stacked_match(BURKOZEL, deals=specs, players=3, dealer=2)
    TIE_40.play(match, (0, 1, 2))
    events = ZERO_AND_NO_TRICKS.play(match, (1, 2, 0))
    assert Eliminated(0) in events
    assert ScoreChanged((12, 0, 8), (0, 1, 0), 0, False) in events
    TWO_PLAYERS_92_28.play(match, (2, 1))
    assert match.scores == [12, 4, 8]
    assert match.wins == [0, 1, 1]
    play_random_match(match, random.Random(3))
    assert match.finished
    # With two left, the first to 12 loses and the match ends (RULES §12.4 [B06]).
    assert match.eliminated == [0]
    (loser,) = match.losers
    (survivor,) = match.winners
    assert {loser, survivor} == {1, 2}
    assert match.scores[loser] >= 12 > match.scores[survivor]
    low, high = _tally(match), _tally(match, partial_ties=True)
    assert all(lo <= won <= hi for lo, won, hi in zip(low, match.wins, high, strict=True))


def test_burkozel_teams_tie_then_sweep() -> None:
    """RULES §13 BURKOZEL 2x2: deal 1 ends 60:60 (team 0 one trick, team 1 two): no penalty, next deal doubled;
    in deal 2 (seat 1 leads) team 1 takes every trick, team 0 none: 6 x 2 = 12, team 0 loses."""
    specs = [TEAMS_60.spec((0, 1, 2, 3)), TEAMS_SWEEP.spec((1, 2, 3, 0))]
    match = stacked_match(BURKOZEL, deals=specs, players=4, dealer=3)
    events = TEAMS_60.play(match, (0, 1, 2, 3))
    taken = [(event.seat, event.side) for event in events if isinstance(event, TrickTaken)]
    assert taken == [(0, 0), (1, 1), (1, 1)]
    ended = next(event for event in events if isinstance(event, DealEnded))
    assert ended.outcome == DealOutcome(OutcomeKind.PLAYED_OUT, (0, 1), None, None, (60, 60), (1, 2), (0, 1, 2, 3))
    assert ScoreChanged((0, 0), (0, 0), 0, True) in events
    assert match.dealer == 0
    events = TEAMS_SWEEP.play(match, (1, 2, 3, 0))
    assert match.outcomes[1] == DealOutcome(OutcomeKind.PLAYED_OUT, (1,), None, None, (0, 120), (0, 3), (0, 1, 2, 3))
    assert ScoreChanged((12, 0), (0, 1), 0, False) in events
    assert events[-1] == MatchEnded((1,), (0,))
    assert match.wins == [0, 1]


def test_burkozel_four_trumps_win_at_once() -> None:
    """RULES §9.8, §12.4: a dealt bura of four trumps wins the deal; the opponent pays 2."""
    match = stacked_match(BURKOZEL, deals=[{"hands": {0: "QS 7S AH 9C", 1: "9D KD 6D 7D"}, "trump": "8D"}, PLAIN_4])
    assert match.outcomes[0].combo is Combo.BURA
    assert match.scores == [2, 0]
    assert match.wins == [0, 1]


def test_burkozel_four_aces_triple_win() -> None:
    """RULES §9.8, §12.4: four aces (Москва) are a "triple" win: the opponent pays 6."""
    match = stacked_match(BURKOZEL, deals=[{"hands": {0: "QS 7S 8S 9C", 1: "AS AH AC AD"}, "trump": "8D"}, PLAIN_4])
    assert match.outcomes[0].combo is Combo.MOSCOW
    assert match.scores == [6, 0]
    assert match.wins == [0, 1]


# -- KOZEL_MONEY ---------------------------------------------------------------------------------------------------

# Three players, trump ♦, four tricks of three cards: A keeps the first (47), B beats the second (47), C beats
# the third and leads the last (13 + 13 = 26).
KOZEL_47_47_26 = Scripted(
    hands=("6S 7S 8S 9C", "AS TS QS KC", "AH TH JH TD"),
    trump="AD",
    stock="JC TC KD QC AC QD 9S 6H 9H 7H QH JS 8H KH KS 9D 6C 6D 7C 7D JD 8C 8D",
    tricks=(
        (0, "6S 7S 8S", ((1, DOWN, "AS TS QS"), (2, DOWN, "AH TH JH"))),
        (0, "9C JC QC", ((1, UP, "KC TC AC"), (2, DOWN, "TD KD QD"))),
        (1, "6H 7H 8H", ((2, UP, "9H QH KH"), (0, DOWN, "9S JS KS"))),
        (2, "6C 7C 8C", ((0, DOWN, "6D 7D 8D"), (1, DOWN, "9D JD AD"))),
    ),
)


def test_kozel_money_tied_top_totals_split_the_pot() -> None:
    """RULES §13 KOZEL_MONEY, §11.3: played to the last card, 47:47:26; the pot (3 x ante 2 = 6) is split between
    the two tied leaders: +1, +1, -2. Then seat 1's four aces take the next pot at once; settled after 2 deals."""
    variant = KOZEL_MONEY.with_options(match=MatchModel(kind=MatchKind.POT, ante=2, max_deals=2))
    aces = {"hands": {0: "QS 7S 8S 9C", 1: "AS AH AC AD", 2: "6H 7H 8H 9H"}, "trump": "8D"}
    match = stacked_match(variant, deals=[KOZEL_47_47_26.spec((0, 1, 2)), aces], players=3, dealer=2)
    assert match.pot == 6
    events = KOZEL_47_47_26.play(match, (0, 1, 2))
    ended = next(event for event in events if isinstance(event, DealEnded))
    assert ended.outcome == DealOutcome(OutcomeKind.PLAYED_OUT, (0, 1), None, None, (47, 47, 26), (1, 1, 2), (0, 1, 2))
    first, second = [event for event in events if isinstance(event, ScoreChanged)]
    assert (first.scores, first.pot) == ((1, 1, -2), 0)
    assert any(isinstance(event, ComboShown) and event.combo is Combo.MOSCOW for event in events)
    assert match.finished
    assert match.scores == [1 - 2, 1 - 2 + 6, -2 - 2]
    assert match.winners == (1,)
    # Deal 2 is one won deal for seat 1 (whether the split pot counts as won deals RULES does not say).
    assert [after - before for before, after in zip(first.wins, second.wins, strict=True)] == [0, 1, 0]
    assert match.wins[2] == 0


# -- BURA_5 --------------------------------------------------------------------------------------------------------

# Two players, trump ♥, five-card hands: B beats the first lead (30 points); A beats B's lead and keeps the rest.
BURA_5_90_30 = Scripted(
    hands=("6S 7S 8S 9S JS", "QS KS TS AS 6H"),
    trump="QH",
    stock="6C QC 7C KC 8C TC 9C AC JC 7H 6D QD 7D KD 8D TD 9D AD JD 8H KH 9H TH JH AH",
    tricks=(
        (0, "6S 7S 8S 9S JS", ((1, UP, "QS KS TS AS 6H"),)),
        (1, "6C 7C 8C 9C JC", ((0, UP, "QC KC TC AC 7H"),)),
        (0, "6D 7D 8D 9D JD", ((1, DOWN, "QD KD TD AD 8H"),)),
        (0, "KH TH AH", ((1, DOWN, "9H JH QH"),)),
    ),
)


def test_bura_5_whole_deal_more_than_60_wins() -> None:
    """RULES §13 BURA_5, §11.4: five cards each, the whole deck played (the last draw gives three each); A ends with
    90, more than 60, and wins the single-deal match."""
    match = stacked_match(BURA_5, deals=[BURA_5_90_30.spec((0, 1))])
    events = BURA_5_90_30.play(match, (0, 1))
    draws = [event.draws for event in events if isinstance(event, CardsDrawn)]
    assert draws == [((1, 5), (0, 5)), ((0, 5), (1, 5)), ((0, 3), (1, 3))]
    ended = next(event for event in events if isinstance(event, DealEnded))
    assert ended.outcome == DealOutcome(OutcomeKind.PLAYED_OUT, (0,), None, None, (90, 30), (3, 1), (0, 1))
    assert events[-1] == MatchEnded((0,), (1,))
    assert match.wins == [1, 0]


# -- match models with three players and the remaining false-claim branches ---------------------------------------

PLAIN_3 = {"hands": {0: "QS 7S AH", 1: "9D JS 6H", 2: "KC 8C 9S"}, "trump": "8D"}
BURA_FOR_1_OF_3 = {"hands": {0: "QS 7S AH", 1: "9D KD 6D", 2: "KC 8C 9S"}, "trump": "8D"}


def test_robber_three_players_false_claim_gives_every_other_player_a_deal() -> None:
    """RULES §12.2 (engine decision for n >= 3): a false claim gives each other player +1."""
    match = stacked_match(BURA_STANDARD, deals=[PLAIN_3, PLAIN_3], players=3, dealer=2)
    match.apply(Claim(0))
    assert match.outcomes[0].kind is OutcomeKind.FALSE_CLAIM
    assert match.outcomes[0].winners == ()
    assert match.scores == [0, 1, 1]
    assert match.wins == [0, 1, 1]


def test_penalty_12_three_players() -> None:
    """RULES §12.3: a win costs every other player 2; a false claim (★ LOSE_DEAL) costs the claimant 2."""
    variant = BURA_STANDARD.with_options(match=PENALTY_12)
    match = stacked_match(variant, deals=[BURA_FOR_1_OF_3, PLAIN_3], players=3, dealer=2)
    assert match.scores == [2, 0, 2]
    assert match.dealer == 1
    match.apply(Claim(2))  # seat 2 is left of dealer 1: the rightful leader
    assert match.scores == [2, 0, 4]
    assert match.wins == [1, 2, 0]  # as in the robber (n >= 3): the others count the deal as won


def test_pot_lose_deal_two_players_the_opponent_takes_the_pot() -> None:
    """RULES §12.1: under ★ LOSE_DEAL with two players a false claim hands the pot (2) to the opponent."""
    variant = BURA_STANDARD.with_options(match=MatchModel(kind=MatchKind.POT))
    match = stacked_match(variant, deals=[PLAIN, PLAIN])
    events = match.apply(Claim(0))
    assert ScoreChanged((-1, 1), (0, 1), 0, False) in events
    assert match.scores == [-2, 0]  # after the next ante


def test_pot_lose_deal_three_players_is_treated_as_double_pot() -> None:
    """RULES §12.1: under LOSE_DEAL with n >= 3 a false claim is treated as DOUBLE_POT: the claimant matches the
    pot (3), the deal is void and the same dealer deals (everyone antes: pot 9)."""
    variant = BURA_STANDARD.with_options(match=MatchModel(kind=MatchKind.POT))
    match = stacked_match(variant, deals=[PLAIN_3, PLAIN_3], players=3, dealer=2)
    match.apply(Claim(0))
    assert match.pot == 9
    assert match.scores == [-5, -2, -2]
    assert match.dealer == 2
    assert match.wins == [0, 0, 0]


def test_burkozel_four_aces_beat_a_bura_held_at_the_same_time() -> None:
    """RULES §9.8 (engine decision): Москва (four aces) against a bura of another player: Москва wins (+6)."""
    match = stacked_match(BURKOZEL, deals=[{"hands": {0: "9D KD 6D 7D", 1: "AS AH AC AD"}, "trump": "8D"}, PLAIN_4])
    assert (match.outcomes[0].winners, match.outcomes[0].combo) == ((1,), Combo.MOSCOW)
    assert match.scores == [6, 0]


def test_burkozel_molodka_seizes_with_a_free_lead() -> None:
    """RULES §9.8 ★ molodka4 LEAD_FREE: after «Стоп!» with four hearts seat 1 may lead any legal set."""
    match = stacked_match(BURKOZEL, deals=[{"hands": {0: "QS 7S AH 9C", 1: "6H 7H 8H 9H"}, "trump": "8D"}])
    assert match.apply(DeclareCombo(1, Combo.MOLODKA))[-1] == LeadSeized(1, 0, Combo.MOLODKA)
    leads = {action.cards for action in match.legal_actions(1) if isinstance(action, Lead)}
    assert cards("6H") in leads
    assert cards("6H 7H 8H 9H") in leads
    assert len(leads) == 4 + 6 + 4 + 1
