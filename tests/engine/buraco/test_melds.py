"""Runs (RULES §17.4, the seed's §03), their arrangements and additions, card values and canastra bonuses."""

from __future__ import annotations

import pytest

from engine.buraco.cards import BY_INDEX, JOKER, Card, cards, deck, value
from engine.buraco.errors import Reason
from engine.buraco.melds import (
    Addition,
    Meld,
    add,
    addition_plans,
    additions,
    arrange,
    arrangements,
    natural,
    new_runs,
    plan_additions,
    plan_new,
)
from engine.core.cards import Suit
from tests.engine.buraco.stack import run

H = Suit.HEARTS


def shapes(text: str) -> list[tuple[int, int | None]] | Reason:
    found = arrangements(cards(text))
    if isinstance(found, Reason):
        return found
    return [(meld.low, meld.wild_at) for meld in found]


@pytest.mark.parametrize(
    ("laid", "expected"),
    [
        ("3H 4H 5H", [(3, None)]),
        ("AH 2H 3H", [(1, None)]),  # ace low, 2♥ natural before the 3
        ("QH KH AH", [(12, None)]),  # ace high
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", [(1, None)]),  # both aces: 14 cards
        ("2H 3H JK", [(2, 4), (1, 1)]),  # §17.7a-1: one substitute beside a natural 2; wild low or high
        ("2H JK 4H", [(2, 3)]),
        ("2H 4H 5H", [(4, 6), (3, 3)]),  # seed §03: the 2 substitutes for the 3 or the 6
        ("2H 2C 4H", [(2, 3)]),
        ("2H 2H 3H", [(2, 4), (1, 1)]),
        ("QH KH AH 2H", [(11, 11)]),  # Q K A with the 2 for the jack: no wrap
        ("2H 3H 4H", [(2, None), (3, 5)]),  # natural, or the 2 as a substitute if the player says so
        ("KH AH 2H", [(12, 12)]),  # 2♥ = Q: Q K A, allowed (§17.7a-14 forbids K-A-2, not these cards)
    ],
)
def test_arrangements_of_a_run(laid: str, expected: list[tuple[int, int | None]]) -> None:
    # RULES §17.4 and §17.7a-10: where the substitute stands is the player's; the default (clean, else the
    # highest top end) comes first.
    result = shapes(laid)
    assert not isinstance(result, Reason), result
    assert sorted(result) == sorted(expected)
    assert result[0] == expected[0]


def test_a_run_of_14_with_one_ace_and_a_substitute_has_the_substitute_at_either_ace() -> None:
    # RULES §17.7a-10 (and §17.4: the ace low or high): with one ace, the substitute stands for the other one,
    # low or high, as the player says; no third way.
    laid = cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH JK")
    found = arrangements(laid)
    assert not isinstance(found, Reason)
    middle = cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    assert found == [
        Meld(H, 1, (Card.parse("AH"), *middle, JOKER), 14),  # the default, as before
        Meld(H, 1, (JOKER, *middle, Card.parse("AH")), 1),  # the joker as the low ace: the placement missed
    ]
    for meld in found:
        assert arrange(meld.suit, meld.low, meld.cards) == meld
        first, start, steps = plan_new(meld)  # and the engine's atomic moves lay it
        built = run(" ".join(card.code for card in first), H, start)
        for step in steps:
            assert step in additions(built, {step.card: 1})
            built = add(built, step)
        assert built == meld


def _every_run_of(chosen: list[Card]) -> set[Meld]:
    """Every run the cards make, by brute force: each suit and window, naturals everywhere but at most one
    place, where one of the cards that may be a substitute stands (RULES §17.4)."""
    runs: set[Meld] = set()
    size = len(chosen)
    wilds = {card for card in chosen if card.may_be_wild}
    for suit in Suit:
        for low in range(1, 16 - size):
            naturals = [natural(suit, p) for p in range(low, low + size)]
            candidates = [naturals]
            candidates += [[*naturals[:spot], wild, *naturals[spot + 1 :]] for spot in range(size) for wild in wilds]
            for laid in candidates:
                if sorted(laid, key=BY_INDEX) == sorted(chosen, key=BY_INDEX):
                    meld = arrange(suit, low, laid)
                    if isinstance(meld, Meld):
                        runs.add(meld)
    return runs


@pytest.mark.parametrize("size", [3, 4, 7, 12, 13, 14])
def test_arrangements_are_every_run_the_cards_make_and_nothing_else(size: int) -> None:
    # RULES §17.7a-10: every place of the substitute is offered, and only legal runs (checked against a brute
    # force over every window of hearts, the substitute a joker, a 2 of another suit or 2♥, at every place).
    for low in range(1, 16 - size):
        window = [natural(H, p) for p in range(low, low + size)]
        hands = [window]
        for spot in range(size):
            for wild in (JOKER, Card.parse("2S"), Card.parse("2H")):
                hands.append([*window[:spot], wild, *window[spot + 1 :]])
        for chosen in hands:
            found = arrangements(chosen)
            expected = _every_run_of(chosen)
            if isinstance(found, Reason):
                assert not expected, (chosen, found)
            else:
                assert len(set(found)) == len(found) and set(found) == expected, chosen


@pytest.mark.parametrize(
    ("laid", "reason"),
    [
        ("7H 7S 7C", Reason.SETS_NOT_ALLOWED),  # §17.4: no sets of one rank
        ("5H 6H 8S", Reason.NOT_SAME_SUIT),
        ("5H 6H 6H 7H", Reason.DUPLICATE_RANK),
        ("5H JK 2S 8H", Reason.TWO_SUBSTITUTES),
        ("JK 2C 2D", Reason.TWO_SUBSTITUTES),
        ("5H JK 9H", Reason.NOT_CONSECUTIVE),
        ("KH AH 2H 3H", Reason.WRAPS_AROUND),  # §17.7a-14
        ("JH QH KH AH 2H 3H", Reason.WRAPS_AROUND),
        ("AH AH 2H", Reason.NOT_CONSECUTIVE),
        ("5H 6H", Reason.MELD_TOO_SHORT),
    ],
)
def test_what_is_not_a_run(laid: str, reason: Reason) -> None:
    # RULES §17.4: runs of one suit only, natural ranks never repeat, one substitute at most.
    assert shapes(laid) == reason


def test_a_2_in_its_natural_place_is_not_a_substitute() -> None:
    # RULES §17.4: 2♥ before 3♥ is natural; the run stays clean and may take one substitute more.
    meld = run("2H 3H 4H 5H", H, 2)
    assert meld.clean
    assert Addition(JOKER, 6) in additions(meld, {JOKER: 1})
    assert run("2H 3H 4H 5H JK", H, 2).wild_at == 6


def test_the_substitute_moves_when_its_natural_card_is_added() -> None:
    # RULES §17.4, the seed's example: 2♥=3 4♥ 5♥ plus 3♥ gives 2♥ 3♥ 4♥ 5♥, clean.
    meld = run("2H 4H 5H", H, 3)
    assert meld.wild_at == 3
    moves = [a for a in additions(meld, {Card(3, H): 1}) if a.card is Card(3, H)]
    assert Addition(Card(3, H), 3, 2) in moves and Addition(Card(3, H), 3, 6) in moves
    cleaned = add(meld, Addition(Card(3, H), 3, 2))
    assert cleaned.clean and cleaned.low == 2 and cleaned.cards == cards("2H 3H 4H 5H")
    dirty = add(meld, Addition(Card(3, H), 3, 6))
    assert dirty.wild_at == 6 and dirty.cards == cards("3H 4H 5H 2H")


def test_a_joker_moved_stays_a_substitute() -> None:
    # RULES §17.4: the joker never becomes clean; 5♥ JK=6 7♥ + 6♥ sends the joker to 4 or 8.
    meld = run("5H JK 7H", H, 5)
    moves = {a.moved_to for a in additions(meld, {Card(6, H): 1})}
    assert moves == {4, 8}
    assert add(meld, Addition(Card(6, H), 6, 4)).wild_at == 4


def test_no_place_for_the_substitute_in_a_run_of_14() -> None:
    # RULES §17.4, seed §03: where no legal place is left for the substitute, the swap is not made.
    meld = run("AH 2H 3H 4H 5H 6H JK 8H 9H TH JH QH KH AH", H, 1)
    assert additions(meld, {Card(7, H): 1}) == []
    assert plan_additions(meld, cards("7H")) == Reason.NO_PLACE_FOR_SUBSTITUTE


def test_one_substitute_per_run() -> None:
    # RULES §17.4: at most one substitute; a dirty run takes no second.
    meld = run("5H JK 7H", H, 5)
    assert not additions(meld, {Card(2, Suit.SPADES): 1})
    assert plan_additions(meld, cards("2S")) == Reason.TWO_SUBSTITUTES


def test_several_cards_added_are_added_one_by_one() -> None:
    # RULES §17.7a-9: several cards at once are legal exactly when they could be added card by card.
    meld = run("5H 6H 7H", H, 5)
    plan = plan_additions(meld, cards("9H 8H 4H"))
    assert not isinstance(plan, Reason)
    for step in plan:
        assert step in additions(meld, {step.card: 1})
        meld = add(meld, step)
    assert meld.cards == cards("4H 5H 6H 7H 8H 9H")
    assert plan_additions(run("5H 6H 7H", H, 5), cards("9H")) == Reason.NOT_ADJACENT
    assert plan_additions(run("5H 6H 7H", H, 5), cards("8S")) == Reason.NOT_SAME_SUIT


def test_several_cards_added_at_once_let_the_player_choose_where_the_substitute_moves() -> None:
    # RULES §17.7a-9 and §17.4: 5♥ JK=6 7♥ plus 6♥ and 8♥ card by card sends the joker to 4 or to 9; both runs
    # are offered, the default (the highest top end, §17.7a-10) first, as the one-card addition offers 4 or 8.
    meld = run("5H JK 7H", H, 5)
    plans = addition_plans(meld, cards("6H 8H"))
    assert not isinstance(plans, Reason)
    assert [plan.meld for plan in plans] == [run("5H 6H 7H 8H JK", H, 5), run("JK 5H 6H 7H 8H", H, 4)]
    assert plan_additions(meld, cards("6H 8H")) == list(plans[0].steps)  # the default, as before
    for plan in plans:
        grown = meld
        for step in plan.steps:
            assert step in additions(grown, {step.card: 1})
            grown = add(grown, step)
        assert grown == plan.meld


@pytest.mark.parametrize(
    ("laid", "suit", "low", "card"),
    [
        ("5H JK 7H", H, 5, "6H"),  # the joker moves to 4 or 8
        ("2H 4H 5H", H, 3, "3H"),  # 2♥ to its natural place or to 6
        ("5H 6H 7H", H, 5, "JK"),  # a joker added low or high
        ("5H 6H 7H", H, 5, "2H"),
        ("AH 2H 3H 4H 5H 6H JK 8H 9H TH JH QH KH", H, 1, "7H"),  # only one place left for the joker
        ("5H JK 7H", H, 5, "8H"),
    ],
)
def test_one_card_added_as_several_offers_every_place_of_the_one_card_addition(
    laid: str, suit: Suit, low: int, card: str
) -> None:
    # RULES §17.7a-9: the several-card plans of a single card are exactly its one-card additions.
    meld = run(laid, suit, low)
    single = additions(meld, {Card.parse(card): 1})
    plans = addition_plans(meld, cards(card))
    assert not isinstance(plans, Reason)
    assert sorted((plan.steps for plan in plans), key=repr) == sorted(((step,) for step in single), key=repr)


def test_any_run_is_laid_as_three_and_grown() -> None:
    # The engine's atomic moves reach every run: three adjacent places of a valid run are a valid run.
    for text, low in (("3H 4H 5H 6H JK 8H 9H", 3), ("JK 4H 5H", 3), ("9H TH JH QH KH AH 2S", 8)):
        found = arrangements(cards(text))
        assert not isinstance(found, Reason)
        target = next(m for m in found if m.low == low) if low else found[0]
        first, start, steps = plan_new(target)
        built = run(" ".join(c.code for c in first), H, start)
        for step in steps:
            assert step in additions(built, {step.card: 1}), (text, step)
            built = add(built, step)
        assert built == target


def test_new_runs_are_bounded_whatever_the_hand() -> None:
    # The enumeration of new runs stays small even for the whole deck (at most 190 a suit).
    everything: dict[Card, int] = {}
    for card in deck():
        everything[card] = everything.get(card, 0) + 1
    assert len(new_runs(everything)) <= 4 * 190


def test_card_values() -> None:
    # RULES §17.7 (seed §07): joker 20, a 2 10, ace 15, K..8 10, 7..3 5.
    assert [Card.parse(c).value for c in ["JK", "2S", "AS", "KS", "8S", "7S", "3S"]] == [20, 10, 15, 10, 10, 5, 5]
    assert value(deck()) == 4 * 20 + 8 * 10 + 8 * 15 + 8 * 6 * 10 + 8 * 5 * 5


@pytest.mark.parametrize(
    ("text", "suit", "low", "bonus"),
    [
        ("3H 4H 5H 6H 7H 8H 9H", H, 3, 200),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH", H, 1, 200),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", H, 1, 500),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", H, 1, 1000),
        ("3H 4H 5H 2S 7H 8H 9H", H, 3, 100),
        ("AH 2H 3H 4H 5H 6H JK 8H 9H TH JH QH KH AH", H, 1, 100),  # §17.7a-13: dirty is 100 at any length
        ("3H 4H 5H 6H 7H 8H", H, 3, 0),
    ],
)
def test_canastra_bonus_is_its_highest_category(text: str, suit: Suit, low: int, bonus: int) -> None:
    # RULES §17.7: clean 200, 13 clean 500, 14 clean 1000, dirty 100; only the highest counts.
    assert run(text, suit, low).bonus == bonus


def test_canastra_from_seven_cards_substitute_included() -> None:
    # RULES §17.4: a canastra from 7 cards.
    assert run("3H 4H 5H JK 7H 8H 9H", H, 3).canastra
    assert not run("3H 4H 5H JK 7H 8H", H, 3).canastra


def test_seed_example_a_run_of_six_hearts_and_the_nine_is_a_clean_canastra_245() -> None:
    # RULES §17.7 worked example (seed §09): 3♥-8♥ + 9♥ = 7 naturals: 25 + 10 + 10 = 45, + 200 = 245.
    meld = run("3H 4H 5H 6H 7H 8H", H, 3)
    meld = add(meld, Addition(Card(9, H), 9))
    assert isinstance(meld, Meld) and meld.clean_canastra
    assert meld.value == 45
    assert meld.value + meld.bonus == 245
