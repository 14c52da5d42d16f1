"""The test vectors of RULES §20.18, one test each (stacked packs: tests/engine/ochko/stack.py)."""

from __future__ import annotations

import pytest

from engine.ochko.actions import Bet, Deal, Hit, Knock, StakeBank, Stand
from engine.ochko.cards import Card, cards
from engine.ochko.errors import IllegalAction, Reason
from engine.ochko.events import (
    BankClosed,
    BankEnd,
    BankerDrew,
    Event,
    Reshuffled,
    SessionEnded,
    Settled,
    Skipped,
    SkipWhy,
)
from engine.ochko.hands import Case, value
from engine.ochko.match import Match, Phase
from engine.ochko.variant import (
    OCHKO_STANDARD,
    BankerDraw,
    Immediate,
    KnockRule,
    NextBanker,
    Options,
    Structure,
    TwoAces,
)
from engine.ochko.views import view
from tests.engine.ochko.stack import pack, pile_in_canonical_order, play, shuffler, table

STD = OCHKO_STANDARD


def settled(events: list[Event]) -> list[Settled]:
    return [event for event in events if isinstance(event, Settled)]


def banker_draws(events: list[Event]) -> list[Card]:
    return [event.card for event in events if isinstance(event, BankerDrew)]


def test_v1_deal_order_marker_bottom_draws_values() -> None:
    """§20.18 V1."""
    match = table(pack("9S KH 7D", "QC 8H TS", "6C"))
    play(match, "stake 10; bet 5")
    assert match.hands[1] == list(cards("9S QC"))
    assert value(match.hands[1], STD) == 12
    assert (match.phase, match.to_act()) == (Phase.PLAY, 1)
    assert match.hands[2] == list(cards("KH"))
    assert match.banker_card == Card.parse("7D")
    assert match.marker == Card.parse("6C")
    assert view(match, 2).table.banker_cards == cards("7D")
    events = play(match, "hit; stand; stand")
    [paid] = settled(events)
    assert (paid.seat, paid.player_won, paid.amount, paid.value) == (1, True, 5, 20)
    assert paid.banker_cards == cards("7D TS")
    assert match.chips == [90, 105, 100]
    assert match.bank == 5
    assert (match.phase, match.to_act()) == (Phase.BET, 2)


def test_v2_immediate_ochko() -> None:
    """§20.18 V2."""
    match = table(pack("AS 7C 7D", "TD 8S 9H"))
    events = play(match, "stake 10; bet 4")
    [paid] = settled(events)
    assert (paid.seat, paid.player_won, paid.amount, paid.case) == (1, True, 4, Case.IMMEDIATE)
    assert match.banker_hand == list(cards("7D"))
    events += play(match, "bet 1; stand; stand")
    assert settled(events)[1].player_won is False
    assert match.bank == 7
    assert banker_draws(events) == list(cards("9H"))


def test_v3_open_bust() -> None:
    """§20.18 V3."""
    match = table(pack("TS 7C 8D", "9C 6H"))
    events = play(match, "stake 10; bet 3; hit")
    [paid] = settled(events)
    assert (paid.player_won, paid.value, paid.case) == (False, 25, Case.PLAYER_BUST)
    assert banker_draws(events) == []
    assert (match.bank, match.chips[1]) == (13, 97)
    assert (match.phase, match.to_act()) == (Phase.BET, 2)


def test_v4_bankers_bust() -> None:
    """§20.18 V4."""
    match = table(pack("7S 8C 9C", "6D 7H TS"))
    events = play(match, "stake 10; bet 2; stand; hit")
    [paid] = settled(events)
    assert (paid.player_won, paid.value, paid.case) == (True, 13, Case.BANKER_BUST)
    assert value(paid.banker_cards, STD) == 26
    assert match.bank == 8


def test_v5_tie() -> None:
    """§20.18 V5."""
    match = table(pack("TS 8C 9C", "8D 9H"))
    [paid] = settled(play(match, "stake 10; bet 5; stand; stand"))
    assert (paid.player_won, paid.case) == (False, Case.TIE)
    assert match.bank == 15


def test_v6_21_in_three_cards() -> None:
    """§20.18 V6: ★ the banker's 21 beats it; with [O05] ANY_21 it is paid at the hit."""
    match = table(pack("7S 8C TC", "7C 7H AD"))
    events = play(match, "stake 10; bet 5; hit")
    [paid] = settled(events)
    assert (paid.player_won, paid.value, paid.case) == (False, 21, Case.TIE)
    assert banker_draws(events) == list(cards("AD"))
    assert match.bank == 15
    match = table(pack("7S 8C TC", "7C 7H AD"), options=STD.with_options(immediate=Immediate.ANY_21))
    events = play(match, "stake 10; bet 5; hit")
    [paid] = settled(events)
    assert (paid.player_won, paid.case) == (True, Case.ANY_21)
    assert banker_draws(events) == []
    assert match.bank == 5


def test_v7_dark_card_banker_busts() -> None:
    """§20.18 V7."""
    match = table(pack("TS 8C 9C", "9D KC 8H 7S"))
    play(match, "stake 10; bet 5; dark")
    assert view(match, 1).hand == (Card.parse("TS"), Card.parse("9D"), None)
    assert (match.phase, match.to_act(), value(match.banker_hand, STD)) == (Phase.BANKER, 0, 17)
    [paid] = settled(play(match, "hit"))
    assert (paid.player_won, paid.case, paid.value, paid.dark) == (True, Case.BANKER_BUST, 23, True)
    assert match.chips[1] == 105


def test_v8_dark_card_over_21() -> None:
    """§20.18 V8."""
    match = table(pack("TS 8C 9C", "9D KC 8H"))
    [paid] = settled(play(match, "stake 10; bet 5; dark; stand"))
    assert (paid.player_won, paid.case, paid.value) == (False, Case.DARK_OVER, 23)
    assert match.chips[1] == 95


@pytest.mark.parametrize("two_aces", [TwoAces.GOLDEN, TwoAces.SUPER])
def test_v9_dark_21_against_21(two_aces: TwoAces) -> None:
    """§20.18 V9 (★ and SUPER)."""
    match = table(pack("TS 8C TC", "7D KC AH"), options=STD.with_options(two_aces=two_aces))
    [paid] = settled(play(match, "stake 10; bet 5; dark"))
    assert (paid.player_won, paid.case, paid.value) == (True, Case.DARK_21, 21)
    assert value(paid.banker_cards, STD) == 21


def test_v10_dark_tie_under_21() -> None:
    """§20.18 V10."""
    match = table(pack("9S 8C TC", "6D QC 8H"))
    [paid] = settled(play(match, "stake 10; bet 5; dark; stand"))
    assert (paid.player_won, paid.case, paid.value) == (False, Case.TIE, 18)


@pytest.mark.parametrize(
    ("two_aces", "won", "case"),
    [
        (TwoAces.GOLDEN, True, Case.IMMEDIATE),
        (TwoAces.SUPER, True, Case.IMMEDIATE),
        (TwoAces.BUST, False, Case.TWO_ACES_BUST),
    ],
)
def test_v11_a_players_two_aces(two_aces: TwoAces, won: bool, case: Case) -> None:
    """§20.18 V11."""
    match = table(pack("AS 8C 9C", "AD"), options=STD.with_options(two_aces=two_aces))
    events = play(match, "stake 10; bet 2")
    [paid] = settled(events)
    assert (paid.player_won, paid.case, paid.amount) == (won, case, 2)
    assert banker_draws(events) == []


@pytest.mark.parametrize(
    ("two_aces", "won", "case"),
    [
        (TwoAces.GOLDEN, True, Case.DARK_21),
        (TwoAces.SUPER, False, Case.SUPER),
        (TwoAces.BUST, True, Case.BANKER_BUST),
    ],
)
def test_v12_the_bankers_two_aces_against_a_dark_21(two_aces: TwoAces, won: bool, case: Case) -> None:
    """§20.18 V12."""
    match = table(pack("TS 8C AC", "7D KC AH"), options=STD.with_options(two_aces=two_aces))
    [paid] = settled(play(match, "stake 10; bet 5; dark"))
    assert (paid.player_won, paid.case, paid.value) == (won, case, 21)


def test_v13_five_pictures() -> None:
    """§20.18 V13: [O04] ON stands by itself on 21; ★ OFF holds 14 and is still to act."""
    stacked = pack("JS 8C TC", "JD QC QH KS TH")
    match = table(stacked, options=STD.with_options(five_pictures=True))
    events = play(match, "stake 10; bet 5; hit; hit; hit")
    assert banker_draws(events) == list(cards("TH"))
    [paid] = settled(play(match, "stand"))
    assert (paid.player_won, paid.value, paid.case) == (True, 21, Case.HIGHER)
    assert match.bank == 5
    match = table(stacked)
    play(match, "stake 10; bet 5; hit; hit; hit")
    assert value(match.hands[1], STD) == 14
    assert (match.phase, match.to_act()) == (Phase.PLAY, 1)


def test_v14_bankers_draw_rules() -> None:
    """§20.18 V14."""

    def at(draws: str, rule: BankerDraw) -> Match:
        match = table(pack("TS 8C 9C", draws), options=STD.with_options(banker_draw=rule))
        play(match, "stake 10; bet 5; stand")
        return match

    match = at("9D 6H JS", BankerDraw.S3_15_17)
    assert match.legal_actions(0) == [Hit(0)]
    play(match, "hit")
    assert value(match.banker_hand, STD) == 17
    assert match.legal_actions(0) == [Stand(0)]
    [paid] = settled(play(match, "stand"))
    assert paid.player_won
    assert at("9D 6H JS", BankerDraw.FREE).legal_actions(0) == [Hit(0), Stand(0)]
    match = at("9D 6H JS", BankerDraw.HOUSE_17)
    assert match.legal_actions(0) == [Hit(0)]
    play(match, "hit")
    assert match.legal_actions(0) == [Stand(0)]
    assert at("9D 7H", BankerDraw.S3_15_17).legal_actions(0) == [Hit(0), Stand(0)]
    assert at("9D 7H", BankerDraw.HOUSE_17).legal_actions(0) == [Hit(0)]


def test_v15_bet_limits() -> None:
    """§20.18 V15 (a), (b), (c)."""
    match = table(pack("TS 8C 9C", "9D 9H"), stacks=[100, 100, 4])
    play(match, "stake 10")
    assert match.legal_actions(1) == [Bet(1, amount) for amount in range(1, 11)]
    for amount, reason in ((0, Reason.BET_BELOW_MINIMUM), (11, Reason.BET_ABOVE_BANK)):
        with pytest.raises(IllegalAction) as refused:
            match.apply(Bet(1, amount))
        assert refused.value.reason is reason
    events = play(match, "bet 10; stand; stand")
    assert match.bank == 0
    assert [event.why for event in events if isinstance(event, BankClosed)] == [BankEnd.BROKEN]
    match = table(pack("TS 8C 9C", "6D 8H"), stacks=[100, 100, 4])
    play(match, "stake 10; bet 1; stand; stand")
    assert match.bank == 11
    assert match.legal_actions(2) == [Bet(2, amount) for amount in range(1, 5)]
    match = table(pack("TS 8C 9C", "9D 8H"), options=STD.with_options(min_bet=5))
    play(match, "stake 10; bet 7; stand; stand")
    assert match.bank == 3
    assert match.legal_actions(2) == [Bet(2, 3)]


@pytest.mark.parametrize(("rule", "next_banker"), [(NextBanker.CLOCKWISE, 1), (NextBanker.BREAKER, 2)])
def test_v16_the_bank_broken(rule: NextBanker, next_banker: int) -> None:
    """§20.18 V16: the bank broken mid-round; who stakes next under [O09]."""
    match = table(pack("TS 9C 9D", "6H TH 9S 8S"), options=STD.with_options(next_banker=rule))
    events = play(match, "stake 10; bet 1; hit; bet 11; stand; stand")
    assert settled(events)[-1].player_won
    assert match.chips == [90, 99, 111]
    assert (match.phase, match.to_act()) == (Phase.STAKE, next_banker)


def test_v16_second_pack_the_players_after_the_breaker_do_not_play() -> None:
    """§20.18 V16, the second pack (Ruling 16)."""
    match = table(pack("TS 9C 9D", "9H 9S"))
    events = play(match, "stake 10; bet 10; stand; stand")
    assert Skipped(2, SkipWhy.BANK_BROKEN) in events
    assert match.chips == [90, 110, 100]
    assert (match.phase, match.to_act()) == (Phase.STAKE, 1)


V17_PACK = pack("TS TC 6D", "9S TH 9C TD")
V17_THREE_ROUNDS = "stake 10; bet 10; hit; bet 10; hit; bet 30; hit; bet 30; hit; bet 5; hit; bet 5; hit"


def test_v17_knock() -> None:
    """§20.18 V17: ★ FROM_10X asks before round 4; the knocked round's bank goes to the banker."""
    match = table(V17_PACK)
    rounds = []
    for script in ("stake 10; bet 10; hit; bet 10; hit", "bet 30; hit; bet 30; hit", "bet 5; hit; bet 5; hit"):
        play(match, script)
        rounds.append((match.bank, match.phase))
    assert rounds == [(30, Phase.BET), (90, Phase.BET), (100, Phase.KNOCK)]
    assert match.legal_actions(0) == [Knock(0), Deal(0)]
    play(match, "knock; bet 1; hit; bet 1; hit")
    assert match.chips == [192, 54, 54]
    assert (match.phase, match.to_act()) == (Phase.STAKE, 1)


def test_v17_forced_and_any_round() -> None:
    """§20.18 V17: FORCED_10X makes round 4 the last with no question; ANY_ROUND asks right after the stake."""
    match = table(V17_PACK, options=STD.with_options(knock=KnockRule.FORCED_10X))
    play(match, V17_THREE_ROUNDS)
    assert match.phase is Phase.BET
    assert match.last_round
    play(match, "bet 1; hit; bet 1; hit")
    assert match.chips == [192, 54, 54]
    match = table(V17_PACK, options=STD.with_options(knock=KnockRule.ANY_ROUND))
    play(match, "stake 10")
    assert match.phase is Phase.KNOCK


V18_DRAWS = "JC JH JD QS QC QH QD KC KH KD 6S 6D 7S 7H 7D 8S 9S 8C 8H 9C 9D TS TC TD AS AC AD"


def test_v18_the_fresh_cards_run_out() -> None:
    """§20.18 V18 (§20.7 item 8, Ruling 8): the returned pile and the marker are reshuffled."""
    stacked = pack("JS 6H 7C 8D 9H TH 6C KS", V18_DRAWS, "AH")
    match = table(stacked, pile_in_canonical_order, players=8)
    events = play(
        match,
        "stake 10; bet 1; hit; hit; hit; hit; hit; hit; stand; hit; hit; hit;"
        "bet 1; hit; stand; hit; stand; bet 1; hit; bet 1; stand; hit;"
        "bet 1; stand; hit; bet 1; stand; hit; bet 1",
    )
    assert [(paid.seat, paid.player_won) for paid in settled(events)] == [
        (1, True),
        (2, True),
        (3, False),
        (4, False),
        (5, True),
        (6, True),
    ]
    assert (match.to_act(), value(match.hands[7], STD)) == (7, 17)
    assert match.pack == []
    assert match.marker == Card.parse("AH")
    assert len(match.returned) == 32
    events = play(match, "hit")
    assert Reshuffled(33, 2) in events
    [paid] = settled(events)
    assert paid.cards == cards("6C AD 6S")
    assert (paid.player_won, paid.value) == (False, 23)
    assert match.bank == 9


def test_v19_sitting_out() -> None:
    """§20.18 V19 (Ruling 12)."""
    match = table(pack("TS 7D"), options=STD.with_options(min_bet=5), stacks=[100, 100, 3])
    play(match, "stake 10")
    assert match.dealt == [1]
    assert match.hands == {1: [Card.parse("TS")]}
    assert match.banker_card == Card.parse("7D")


def test_v20_players_leaving() -> None:
    """§20.18 V20 (§20.14 items 7 and 9)."""
    match = table(pack("TS 9C 7D", "6D 8H 9S"))
    play(match, "stake 10; bet 5; leave 1")
    assert (match.phase, value(match.banker_hand, STD)) == (Phase.BANKER, 15)
    [paid] = settled(play(match, "hit"))
    assert (paid.seat, paid.player_won) == (1, True)
    assert match.chips[1] == 105
    events = play(match, "leave 2")
    assert Skipped(2, SkipWhy.LEFT) in events
    assert BankClosed(0, BankEnd.NO_PLAYERS, 5, None, 1) in events
    assert match.finished
    assert match.phase is Phase.OVER
    assert match.chips == [95, 105, 100]


def test_v21_the_banker_leaves_mid_round() -> None:
    """§20.18 V21 (Ruling 18)."""
    match = table(pack("TS 9C 7D", "8D 6H KC 9D 7C KD"))
    events = play(match, "stake 10; bet 5; leave 0; stand")
    [paid] = settled(events)
    assert (paid.player_won, paid.banker_cards) == (True, cards("7D 6H KC"))
    events = play(match, "bet 2; stand")
    [paid] = settled(events)
    assert (paid.player_won, paid.case, paid.banker_cards) == (False, Case.TIE, cards("7D 7C KD"))
    assert BankClosed(0, BankEnd.LEFT, 7, None, 1) in events
    assert match.chips == [97, 105, 98]
    assert (match.phase, match.to_act()) == (Phase.STAKE, 1)


def test_v22_showdown_cover() -> None:
    """§20.18 V22 (§20.12, Ruling 20)."""
    match = table(pack("TS 9C 9H", "8D 6H 8H"), options=STD.with_options(structure=Structure.SHOWDOWN))
    play(match, "stake 10; bet 6; stand")
    assert match.legal_actions(2) == [Bet(2, amount) for amount in range(1, 5)]
    events = play(match, "bet 4; stand")
    assert banker_draws(events) == list(cards("8H"))
    assert (match.phase, value(match.banker_hand, STD)) == (Phase.BANKER, 17)
    paid = settled(play(match, "stand"))
    assert [(p.seat, p.player_won, p.amount) for p in paid] == [(1, True, 6), (2, False, 4)]
    assert match.bank == 8


def test_v23_cut_for_the_bank() -> None:
    """§20.18 V23 (§20.5, Ruling 21)."""
    match = Match(STD, 4, 0, shuffler=shuffler(pack("KS AH 9D AC TS QC")), volunteers=[0, 1, 2, 3])
    assert [(seat, card.code) for seat, card in match.cut] == [
        (0, "KS"),
        (1, "AH"),
        (2, "9D"),
        (3, "AC"),
        (1, "TS"),
        (3, "QC"),
    ]
    assert (match.banker, match.phase, match.to_act()) == (3, Phase.STAKE, 3)


def test_v24_ace_1() -> None:
    """§20.18 V24 ([O02] 1, Ruling 27)."""
    ace_1 = STD.with_options(ace=1)
    match = table(pack("AS 8C 9C", "TD"), options=ace_1)
    assert settled(play(match, "stake 10; bet 2")) == []
    assert value(match.hands[1], ace_1) == 11
    assert (match.phase, match.to_act()) == (Phase.PLAY, 1)
    match = table(pack("AS 8C 9C", "AD"), options=ace_1)
    play(match, "stake 10; bet 2")
    assert value(match.hands[1], ace_1) == 2


def test_v25_showdown_payments() -> None:
    """§20.18 V25 (§20.12)."""
    match = table(pack("AS TC 9H", "TD 9S KD 8H 6C"), options=STD.with_options(structure=Structure.SHOWDOWN))
    [paid] = settled(play(match, "stake 10; bet 3"))
    assert (paid.seat, paid.player_won, paid.case) == (1, True, Case.IMMEDIATE)
    assert match.bank == 7
    events = play(match, "bet 5; dark")
    assert banker_draws(events) == list(cards("8H"))
    [paid] = settled(play(match, "hit"))
    assert (paid.seat, paid.player_won, paid.case, paid.value) == (2, True, Case.BANKER_BUST, 23)
    assert match.bank == 2


def test_v26_the_banker_leaves_between_rounds() -> None:
    """§20.18 V26 (§20.14 item 8)."""
    match = table(V17_PACK)
    play(match, V17_THREE_ROUNDS)
    assert match.phase is Phase.KNOCK
    events = play(match, "leave 0")
    assert BankClosed(0, BankEnd.LEFT, 100, None, 1) in events
    assert match.chips == [190, 55, 55]
    assert (match.phase, match.to_act()) == (Phase.STAKE, 1)
    match = table(V17_PACK)
    play(match, "leave 0")
    assert (match.phase, match.to_act(), match.banks_held) == (Phase.STAKE, 1, 0)
    assert match.chips == [100, 100, 100]


@pytest.mark.parametrize("max_banks", [None, 0])
def test_v27_end_of_the_session(max_banks: int | None) -> None:
    """§20.18 V27 (Ruling 17): one orbit of banks, then OVER; with max_banks 0 play goes on."""
    match = table(pack("TS 9C", "9D 8H"), players=2, options=Options(max_banks=max_banks))
    play(match, "stake 10; bet 10; stand; stand")
    assert (match.phase, match.to_act()) == (Phase.STAKE, 1)
    events = play(match, "stake 30; bet 30; stand; stand")
    assert match.chips == [120, 80]
    if max_banks is None:
        assert match.finished
        assert match.to_act() is None
        assert match.legal_actions(0) == match.legal_actions(1) == []
        assert events[-1] == SessionEnded((120, 80))
    else:
        assert (match.phase, match.to_act()) == (Phase.STAKE, 0)
        assert match.legal_actions(0)[0] == StakeBank(0, 10)
