"""RULES §20.10, one test per row of the settlement table (and its notes): every payment is exactly the bet."""

from __future__ import annotations

from engine.ochko.cards import cards
from engine.ochko.events import BankerDrew, Event, Settled
from engine.ochko.hands import Case, settle
from engine.ochko.variant import OCHKO_STANDARD, Immediate, TwoAces
from tests.engine.ochko.stack import pack, play, table

STD = OCHKO_STANDARD
SUPER = STD.with_options(two_aces=TwoAces.SUPER)


def only_settlement(events: list[Event]) -> Settled:
    [paid] = [event for event in events if isinstance(event, Settled)]
    return paid


def drew(events: list[Event]) -> bool:
    return any(isinstance(event, BankerDrew) for event in events)


def test_row_1_an_open_bust_pays_the_banker_at_once() -> None:
    match = table(pack("TS 7C 8D", "9C 6H"))
    events = play(match, "stake 10; bet 3; hit")
    paid = only_settlement(events)
    assert (paid.player_won, paid.case, paid.amount) == (False, Case.PLAYER_BUST, 3)
    assert not drew(events)
    assert (match.chips[1], match.bank) == (97, 13)


def test_row_2_an_immediate_21_is_paid_at_once() -> None:
    match = table(pack("TS 7C 8D", "AC"))
    events = play(match, "stake 10; bet 6")
    paid = only_settlement(events)
    assert (paid.player_won, paid.case, paid.amount) == (True, Case.IMMEDIATE, 6)
    assert not drew(events)
    assert (match.chips[1], match.bank) == (106, 4)


def test_row_3_any_21_pays_a_21_in_more_cards_at_once_five_pictures_included() -> None:
    options = STD.with_options(immediate=Immediate.ANY_21, five_pictures=True)
    match = table(pack("JS 8C TC", "JD QC QH KS"), options=options)
    events = play(match, "stake 10; bet 5; hit; hit; hit")
    paid = only_settlement(events)
    assert (paid.player_won, paid.case, paid.value) == (True, Case.ANY_21, 21)
    assert not drew(events)


def test_row_4_two_aces_under_bust_pay_the_banker() -> None:
    match = table(pack("AS 7C 8D", "AH"), options=STD.with_options(two_aces=TwoAces.BUST))
    paid = only_settlement(play(match, "stake 10; bet 2"))
    assert (paid.player_won, paid.case, paid.value) == (False, Case.TWO_ACES_BUST, 22)


def test_row_5_the_banker_busts_the_player_wins_even_if_his_dark_card_busts_him() -> None:
    assert settle(cards("TS 9D KC"), False, cards("9C 8H 7S"), STD) == (True, Case.BANKER_BUST)
    assert settle(cards("TS 9D AC"), True, cards("9C 8H 7S"), STD) == (True, Case.BANKER_BUST)


def test_row_6_the_banker_stands_the_dark_hand_over_21_loses() -> None:
    assert settle(cards("TS 9D AC"), True, cards("9C 6H"), STD) == (False, Case.DARK_OVER)


def test_row_7_a_higher_value_wins() -> None:
    assert settle(cards("TS 9D"), False, cards("9C 8H"), STD) == (True, Case.HIGHER)


def test_row_8_a_lower_value_loses() -> None:
    assert settle(cards("TS 6D"), False, cards("9C 8H"), STD) == (False, Case.LOWER)


def test_row_9_equal_values_go_to_the_banker_even_at_21() -> None:
    assert settle(cards("TS 8D"), False, cards("9C 9H"), STD) == (False, Case.TIE)
    assert settle(cards("7S 7D 7C"), False, cards("TC AH"), STD) == (False, Case.TIE)
    assert settle(cards("TS 8D"), True, cards("9C 9H"), STD) == (False, Case.TIE)


def test_row_10_both_21_with_a_dark_card_the_player_wins_except_the_super_bankers_two_aces() -> None:
    assert settle(cards("TS 7D KC"), True, cards("TC AH"), STD) == (True, Case.DARK_21)
    assert settle(cards("TS 7D KC"), True, cards("TC AH"), SUPER) == (True, Case.DARK_21)
    assert settle(cards("TS 7D KC"), True, cards("AC AH"), STD) == (True, Case.DARK_21)
    assert settle(cards("TS 7D KC"), True, cards("AC AH"), SUPER) == (False, Case.SUPER)


def test_row_11_super_the_two_ace_hand_wins() -> None:
    assert settle(cards("TS 9D"), False, cards("AC AH"), SUPER) == (False, Case.SUPER)
    assert settle(cards("AS AD"), False, cards("TC AH"), SUPER) == (True, Case.SUPER)
    assert settle(cards("AS AD"), False, cards("TC AH"), STD) == (False, Case.TIE)


def test_every_payment_is_exactly_the_bet() -> None:
    """§20.10, Ruling 5: 1:1, «суперочко» included; chips + bank are conserved."""
    match = table(pack("AS 8C AC", "TD 9C AH"), options=SUPER)
    events = play(match, "stake 10; bet 4; bet 3; stand")
    amounts = [(event.player_won, event.amount) for event in events if isinstance(event, Settled)]
    assert amounts == [(True, 4), (False, 3)]
    assert match.chips == [90, 104, 97]
    assert match.bank == 9
