"""RULES §20.3 (the table's numbers), §20.4 (card and hand values), §20.13 and §20.17 (options and profiles),
§20.8 item 1 (the bet buttons), and the Match protocol of engine.core."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine.core.match import Match as MatchProtocol
from engine.ochko.actions import Bet, Dark, Deal, Hit, Knock, Leave, StakeBank, Stand, action_from_json, action_to_json
from engine.ochko.cards import SENIORITY, Card, Rank, cards, deck
from engine.ochko.events import PlayerBusted
from engine.ochko.hands import card_value, is_immediate, value
from engine.ochko.match import Match
from engine.ochko.variant import (
    OCHKO_ONE_SHOWDOWN,
    OCHKO_POLISH,
    OCHKO_STANDARD,
    PROFILES,
    BankerDraw,
    Immediate,
    KnockRule,
    NextBanker,
    Options,
    Structure,
    TwoAces,
)
from engine.ochko.views import table_view
from tests.engine.ochko.stack import pack, play, table

STD = OCHKO_STANDARD


def test_the_pack_is_36_cards_or_32_without_sixes() -> None:
    assert len(deck()) == len(set(deck())) == 36
    assert len(deck(32)) == 32 and all(card.rank is not Rank.SIX for card in deck(32))
    assert [card.code for card in deck()[:9]] == ["6S", "7S", "8S", "9S", "JS", "QS", "KS", "TS", "AS"]
    with pytest.raises(ValueError):
        deck(52)
    assert Card.parse("10♦") == Card.parse("TD") and str(Card.parse("TD")) == "10♦"
    with pytest.raises(ValueError):
        Card.parse("1X")


def test_card_values() -> None:
    """§20.4: A 11 (or 1), 10-6 face value, K 4, Q 3, J 2."""
    expected = {"A": 11, "T": 10, "9": 9, "8": 8, "7": 7, "6": 6, "K": 4, "Q": 3, "J": 2}
    for rank, points in expected.items():
        assert card_value(Card.parse(rank + "S"), STD) == points
    assert card_value(Card.parse("AS"), STD.with_options(ace=1)) == 1


def test_the_cut_ranks_by_seniority_not_by_value() -> None:
    """§20.5, Ruling 21: Q beats 10 in the cut though it counts 3."""
    order = [Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE]
    assert sorted(SENIORITY, key=SENIORITY.__getitem__) == order


@pytest.mark.parametrize(("two_aces", "worth"), [(TwoAces.GOLDEN, 21), (TwoAces.SUPER, 21), (TwoAces.BUST, 22)])
def test_two_aces_need_exactly_two_cards(two_aces: TwoAces, worth: int) -> None:
    """[O03], Ruling 4."""
    options = STD.with_options(two_aces=two_aces)
    assert value(cards("AS AD"), options) == worth
    assert value(cards("AS AD"), options.with_options(ace=1)) == 2
    assert value(cards("AS JD AD"), options) == 24


def test_five_pictures_need_exactly_five_pictures() -> None:
    """[O04], Ruling 22: worth 21 when on; a sixth card or a non-picture counts normally."""
    on = STD.with_options(five_pictures=True)
    assert value(cards("JS JD QC QH KS"), on) == 21
    assert value(cards("JS JD QC QH KS"), STD) == 14
    assert value(cards("JS JD QC QH 6S"), on) == 16
    assert value(cards("JS JD QC QH KS JC"), on) == 16
    assert not is_immediate(cards("JS JD QC QH KS"), on)
    assert is_immediate(cards("JS JD QC QH KS"), on.with_options(immediate=Immediate.ANY_21))


def test_immediate_21_is_two_cards_under_two_cards() -> None:
    """[O05], Ruling 2."""
    assert is_immediate(cards("AS TD"), STD)
    assert not is_immediate(cards("7S 7D 7C"), STD)
    assert is_immediate(cards("7S 7D 7C"), STD.with_options(immediate=Immediate.ANY_21))


def test_the_numbers_must_hold() -> None:
    """§20.3: 1 ≤ min_bet ≤ bank_min ≤ stack."""
    for numbers in ({"min_bet": 11}, {"bank_min": 101}, {"min_bet": 0}):
        with pytest.raises(ValidationError):
            Options.model_validate(numbers)
    assert Options(min_bet=10, bank_min=10, stack=10).stack == 10


def test_two_to_eight_seats() -> None:
    """§20.3, Ruling 1."""
    for players in (1, 9):
        with pytest.raises(ValueError):
            Match(STD, players, 0)
    assert Match(STD, 8, 0).players == 8


def test_the_standard_profile_is_every_default() -> None:
    """§20.17 OCHKO_STANDARD: the ★ of §20.13."""
    assert Options() == STD
    assert (STD.structure, STD.ace, STD.two_aces, STD.five_pictures, STD.immediate, STD.dark) == (
        Structure.DUEL,
        11,
        TwoAces.GOLDEN,
        False,
        Immediate.TWO_CARDS,
        True,
    )
    assert (STD.banker_draw, STD.knock, STD.knock_multiple, STD.next_banker, STD.pack) == (
        BankerDraw.FREE,
        KnockRule.FROM_10X,
        10,
        NextBanker.CLOCKWISE,
        36,
    )
    assert (STD.stack, STD.bank_min, STD.min_bet, STD.banks_for(5)) == (100, 10, 1, 5)


def test_the_polish_and_one_showdown_profiles() -> None:
    """§20.17."""
    assert (
        STD.with_options(
            name="OCHKO_POLISH", five_pictures=True, banker_draw=BankerDraw.S3_15_17, next_banker=NextBanker.BREAKER
        )
        == OCHKO_POLISH
    )
    assert (
        STD.with_options(name="OCHKO_ONE_SHOWDOWN", structure=Structure.SHOWDOWN, immediate=Immediate.ANY_21)
        == OCHKO_ONE_SHOWDOWN
    )
    assert set(PROFILES) == {"OCHKO_STANDARD", "OCHKO_POLISH", "OCHKO_ONE_SHOWDOWN"}
    assert Options.model_validate(OCHKO_POLISH.model_dump(mode="json")) == OCHKO_POLISH


def test_a_match_is_a_core_match() -> None:
    assert isinstance(Match(STD, 3, 0), MatchProtocol)


def test_actions_round_trip_through_json() -> None:
    for action in (StakeBank(0, 10), Knock(0), Deal(0), Bet(1, 5), Hit(1), Stand(2), Dark(1), Leave(2)):
        assert action_from_json(action_to_json(action)) == action
    for bad in ({"type": "bet", "seat": 1}, {"type": "pass", "seat": 1}, {"type": "hit", "seat": True}):
        with pytest.raises(ValueError):
            action_from_json(bad)


def test_bet_buttons() -> None:
    """§20.8 item 1, Ruling 24: минимум · треть · половина · весь банк, rounded down and clamped."""
    match = table(pack("TS 8C 9C", "6D 9H"), stacks=[100, 100, 4])
    play(match, "stake 10")
    assert match.bet_buttons() == table_view(match).buttons == (1, 3, 5, 10)
    play(match, "bet 1; stand; stand")  # the bank is 11; seat 2 holds 4 chips
    assert match.bet_buttons() == (1, 3, 4, 4)
    assert all(Bet(2, amount) in match.legal_actions(2) for amount in match.bet_buttons())


def test_an_open_bust_is_announced() -> None:
    match = table(pack("TS 7C 8D", "9C 6H"))
    events = play(match, "stake 10; bet 3; hit")
    assert PlayerBusted(1, 25) in events
