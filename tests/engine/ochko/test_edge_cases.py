"""RULES §20.14, one test per edge case, named after it."""

from __future__ import annotations

import pytest

from engine.ochko.actions import Bet, Deal, Hit, Leave, StakeBank, Stand
from engine.ochko.cards import Card
from engine.ochko.errors import IllegalAction, Reason
from engine.ochko.events import BankClosed, BankEnd, Reshuffled, Settled, Skipped, SkipWhy
from engine.ochko.hands import Case
from engine.ochko.match import Match, Phase
from engine.ochko.variant import OCHKO_STANDARD, KnockRule, Structure, TwoAces
from tests.engine.ochko.stack import pack, pile_in_canonical_order, play, table
from tests.engine.ochko.test_vectors import V18_DRAWS

STD = OCHKO_STANDARD


def empty_the_pack(match: Match) -> None:
    """Contrive §20.7 item 9 (unreachable at ★ settings): no fresh card, nothing returned, no marker."""
    match.returned += match.pack + ([match.marker] if match.marker else [])
    match.pack, match.marker = [], None
    match.returned.clear()


def test_1_the_fresh_cards_run_out_mid_round() -> None:
    """Item 1, §20.7 item 8: the returned pile and the marker become the pack; no new marker is cut."""
    match = table(pack("JS 6H 7C 8D 9H TH 6C KS", V18_DRAWS, "AH"), pile_in_canonical_order, players=8)
    play(
        match,
        "stake 10; bet 1; hit; hit; hit; hit; hit; hit; stand; hit; hit; hit;"
        "bet 1; hit; stand; hit; stand; bet 1; hit; bet 1; stand; hit;"
        "bet 1; stand; hit; bet 1; stand; hit; bet 1",
    )
    events = play(match, "hit")
    assert [event for event in events if isinstance(event, Reshuffled)] == [Reshuffled(33, 2)]
    assert (match.round_no, match.shuffles) == (2, 3)  # the next round's pack is shuffle 3
    reshuffle = match.trace.index(["reshuffle", 2])
    assert not any(entry[0] == "round" for entry in match.trace[reshuffle : reshuffle + 3])


def test_2_no_card_anywhere_the_hand_stands() -> None:
    """Item 2, Ruling 9: hitting and the dark card are illegal; the banker must stand."""
    match = table(pack("TS 8C 9C", "9D 6H"))
    play(match, "stake 10; bet 5")
    empty_the_pack(match)
    assert match.legal_actions(1) == [Stand(1)]
    play(match, "stand")
    assert match.legal_actions(0) == [Stand(0)]  # no second card for the banker: he must stand on 9
    play(match, "stand")
    assert match.chips[1] == 105


def test_3_a_player_whose_lo_rose_above_his_chips_is_skipped() -> None:
    """Item 3, Ruling 11: dealt in against a small bank, he cannot afford lo when his turn comes."""
    first = pack("TS 9C", "9D 8H")
    second = pack("TS 8C 9C", "6D 8H")
    match = table(first, second, options=STD.with_options(min_bet=5), stacks=[100, 100, 4])
    play(match, "stake 10; bet 7; stand; stand")
    assert match.bank == 3
    assert match.dealt == [1, 2]  # min(min_bet, bank) = 3 ≤ 4 chips
    events = play(match, "bet 3; stand; stand")
    assert match.bank == 6
    assert Skipped(2, SkipWhy.CANNOT_AFFORD) in events
    assert match.round_no == 3


def test_4_a_bank_smaller_than_min_bet_may_be_bet_whole() -> None:
    """Item 4, Ruling 11."""
    match = table(pack("TS 8C 9C", "9D 8H"), options=STD.with_options(min_bet=5))
    play(match, "stake 10; bet 7; stand; stand")
    assert match.bank == 3
    assert match.legal_actions(2) == [Bet(2, 3)]


def test_5_the_whole_bank_won_mid_round_stops_the_round() -> None:
    """Item 5, Ruling 16."""
    match = table(pack("TS 9C 9D", "9H 9S"))
    events = play(match, "stake 10; bet 10; stand; stand")
    assert Skipped(2, SkipWhy.BANK_BROKEN) in events
    assert BankClosed(0, BankEnd.BROKEN, 0, 1, 1) in events


def test_6_the_knock_question_comes_only_before_a_round() -> None:
    """Item 6: a bank that passes the multiple mid-round is offered the knock before the next round."""
    match = table(pack("TS TC 6D", "9S TH 9C TD"), options=STD.with_options(knock_multiple=2))
    play(match, "stake 10; bet 10; hit")
    assert match.bank == 20
    assert (match.phase, match.to_act()) == (Phase.BET, 2)
    play(match, "bet 1; hit")
    assert (match.phase, match.to_act()) == (Phase.KNOCK, 0)


def test_7_a_player_not_dealt_in_is_removed_at_once() -> None:
    """Item 7: not dealt in (or settled): removed at once, his chips stay."""
    match = table(pack("TS 7D"), options=STD.with_options(min_bet=5), stacks=[100, 100, 3])
    play(match, "stake 10; leave 2")
    assert match.present == [True, True, False]
    assert (match.phase, match.to_act(), match.chips[2]) == (Phase.BET, 1, 3)


def test_7_a_player_dealt_in_without_a_bet_gives_his_card_back() -> None:
    match = table(pack("TS 9C 7D"))
    events = play(match, "stake 10; leave 2")
    assert Skipped(2, SkipWhy.LEFT) in events
    assert 2 not in match.hands
    assert Card.parse("9C") in match.returned
    events = play(match, "leave 1")
    assert BankClosed(0, BankEnd.NO_PLAYERS, 10, None, 1) in events
    assert match.finished


def test_7_a_player_who_leaves_on_his_turn_stands() -> None:
    match = table(pack("TS 9C 7D", "6D 8H 9S"))
    play(match, "stake 10; bet 5; leave 1")
    assert (match.phase, match.to_act()) == (Phase.BANKER, 0)


def test_7_a_player_waiting_for_the_banker_is_settled_as_usual() -> None:
    options = STD.with_options(structure=Structure.SHOWDOWN)
    match = table(pack("TS 9C 9H", "8D 6H 8H"), options=options)
    play(match, "stake 10; bet 6; stand; leave 1; bet 4; stand")
    events = play(match, "stand")
    assert [(e.seat, e.player_won) for e in events if isinstance(e, Settled)] == [(1, True), (2, False)]
    assert match.chips[1] == 106


def test_8_the_banker_leaves_in_stake_knock_and_mid_round() -> None:
    """Item 8, Ruling 18 (V21, V26)."""
    match = table(pack("TS 9C 7D"))
    play(match, "leave 0")
    assert (match.banker, match.banks_held, match.phase) == (1, 0, Phase.STAKE)
    match = table(pack("TS TC 6D", "9S TH 9C TD"), options=STD.with_options(knock=KnockRule.ANY_ROUND))
    events = play(match, "stake 10; leave 0")
    assert BankClosed(0, BankEnd.LEFT, 10, None, 1) in events
    assert match.chips == [100, 100, 100]
    match = table(pack("TS 9C 7D", "8D 6H KC 9D 7C KD"))
    play(match, "stake 10; bet 5; stand")
    assert match.phase is Phase.BANKER
    events = play(match, "leave 0")  # the engine plays his hand at once: 13, hits K, stands on 17
    assert any(isinstance(event, Settled) and event.player_won for event in events)
    assert match.last_round is False and match.banker_left


def test_9_the_last_opponent_leaves() -> None:
    """Item 9 (V20): nobody can be dealt in: the bank goes to the banker and, with no opponent, OVER."""
    match = table(pack("TS 9C 7D"), players=2)
    events = play(match, "stake 10; leave 1")
    assert BankClosed(0, BankEnd.NO_PLAYERS, 10, None, 1) in events
    assert match.finished
    assert match.chips == [100, 100]


def test_10_two_aces_for_the_banker_under_bust() -> None:
    """Item 10: 22 is a bust: the player wins whatever he holds."""
    match = table(pack("TS 8C AC", "6D AH"), options=STD.with_options(two_aces=TwoAces.BUST))
    events = play(match, "stake 10; bet 5; stand")
    [paid] = [event for event in events if isinstance(event, Settled)]
    assert (paid.player_won, paid.case, paid.value) == (True, Case.BANKER_BUST, 16)


def test_11_a_hand_worth_21_stands_by_itself() -> None:
    """Item 11, Ruling 3: «Ещё» is never offered at 21."""
    match = table(pack("7S 8C TC", "7C 7H"))
    play(match, "stake 10; bet 5")
    assert Hit(1) in match.legal_actions(1)
    play(match, "hit")
    assert match.phase is Phase.BANKER
    assert 1 in match.waiting


def test_12_a_whole_bank_bet_lost_doubles_the_bank() -> None:
    """Item 12."""
    match = table(pack("TS 8C 9C", "6D 9H"))
    play(match, "stake 10; bet 10; stand; stand")
    assert match.bank == 20
    assert (match.phase, match.to_act()) == (Phase.BET, 2)


def test_13_every_timeout_move_is_legal() -> None:
    """Item 13 (a bot policy): STAKE → bank_min, KNOCK → Deal, BET → lo, PLAY → Stand are always legal."""
    match = table(pack("TS 8C 9C", "6D 9H"), options=STD.with_options(knock=KnockRule.ANY_ROUND))
    assert match.legal_actions(0)[0] == StakeBank(0, 10)
    play(match, "stake 10")
    assert Deal(0) in match.legal_actions(0)
    play(match, "deal")
    assert match.legal_actions(1)[0] == Bet(1, 1)
    play(match, "bet 1")
    assert Stand(1) in match.legal_actions(1)


def test_14_illegal_actions_are_rejected_and_change_nothing() -> None:
    """Item 14 (every reason: test_refusals.py)."""
    match = table(pack("TS 8C 9C", "6D 9H"))
    play(match, "stake 10")
    before = match.snapshot()
    for action in (Bet(1, 11), StakeBank(0, 10), Hit(2), Leave(7)):
        with pytest.raises(IllegalAction) as refused:
            match.apply(action)
        assert isinstance(refused.value.reason, Reason)
        assert match.snapshot() == before


def test_the_session_ends_when_nobody_can_bank_against_an_opponent() -> None:
    """§20.6 item 7, Ruling 17: a broke player sits out (Ruling 25); his bank closes NO_PLAYERS; OVER."""
    match = table(pack("TS 9C", "6D 8H"), players=2, stacks=[100, 5])
    events = play(match, "stake 10; bet 5; stand; stand")  # 16 loses to 17
    assert match.chips == [105, 0]
    assert BankClosed(0, BankEnd.NO_PLAYERS, 15, None, 1) in events
    assert match.finished
    assert match.banks_held == 1
