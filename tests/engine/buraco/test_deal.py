"""A deal's rules, one test each, stacked decks (RULES §17.1-§17.6 and the rulings of §17.7a)."""

from __future__ import annotations

import pytest

from engine.buraco.actions import (
    AddToRun,
    CancelDraft,
    Discard,
    DrawStock,
    KeepDrawn,
    NewRun,
    RejectDrawn,
    TakePile,
    action_from_json,
    action_to_json,
)
from engine.buraco.cards import BY_INDEX, JOKER, Card, cards
from engine.buraco.deal import Deal, Phase
from engine.buraco.errors import IllegalAction, Reason
from engine.buraco.events import Discarded, Drew, MortoTaken, Opened, RunLaid, StockRenewed
from engine.buraco.match import Match
from engine.buraco.melds import addition_plans
from engine.buraco.scoring import score_deal
from engine.core.cards import Suit
from tests.engine.buraco.stack import dealt, lay, position, run, take, took_morto

H, S = Suit.HEARTS, Suit.SPADES


def c(code: str) -> Card:
    return Card.parse(code)


def refused(deal: Deal, action: object, reason: Reason) -> None:
    before = state(deal)
    with pytest.raises(IllegalAction) as caught:
        deal.apply(action)  # type: ignore[arg-type]
    assert caught.value.reason is reason
    assert state(deal) == before, "a refused action changes nothing"


def state(deal: Deal) -> str:
    return repr({key: value for key, value in vars(deal).items() if key != "_legal"})


def new_run(seat: int, text: str, suit: Suit, low: int) -> NewRun:
    laid = cards(text)
    return NewRun(seat, suit, low, (laid[0], laid[1], laid[2]))


def test_a_deal_is_two_mortos_of_11_hands_of_11_a_stock_of_42_and_no_pile() -> None:
    # RULES §17.2: 108 cards; two mortos of 11 aside, 11 to each, 42 in the stock, the pile empty.
    deal = Match(seed=7).deal
    assert [len(m) for m in deal.mortos] == [11, 11]
    assert [len(h) for h in deal.hands] == [11, 11, 11, 11]
    assert len(deal.stock) == 42 and deal.pile == []
    assert sorted(deal.cards_in_play()) == sorted(Match(seed=8).deal.cards_in_play())
    assert sum(1 for card in deal.cards_in_play() if card is JOKER) == 4


def test_the_dealers_left_plays_first_and_the_deal_passes_clockwise() -> None:
    # RULES §17.3 and §17.1: the player to the dealer's left starts; the next deal is dealt by the left.
    match = Match(seed=3, first_dealer=2)
    assert match.deal.turn == 3
    match.deal.phase = Phase.OVER
    match.deal.scores = score_deal(match.deal)
    match._after_deal()
    assert match.dealer == 3 and match.deal.turn == 0


def test_first_turn_keep_the_card_then_meld_and_discard() -> None:
    # RULES §17.3 and §17.7a-4: the first player draws; he may keep the card, meld and discard.
    deal = dealt({0: "3H 4H 5H"}, stock="KS", dealer=3)
    assert deal.legal_actions(0) == [DrawStock(0)]
    deal.apply(DrawStock(0))
    assert deal.phase is Phase.FIRST_CHOICE and deal.drawn is c("KS")
    assert deal.legal_actions(0) == [KeepDrawn(0), RejectDrawn(0)]
    deal.apply(KeepDrawn(0))
    deal.apply(new_run(0, "3H 4H 5H", H, 3))
    deal.apply(Discard(0, c("KS")))
    assert deal.pile == [c("KS")] and deal.turn == 1


def test_first_turn_reject_the_card_face_up_and_draw_the_next() -> None:
    # RULES §17.3 and §17.7a-3: a refused first card goes face up on the pile; the second is drawn at once.
    deal = dealt({0: "3H"}, stock="KS QD", dealer=3)
    deal.apply(DrawStock(0))
    events = deal.apply(RejectDrawn(0))
    assert deal.pile == [c("KS")] and c("QD") in deal.hands[0] and c("KS") not in deal.hands[0]
    assert deal.phase is Phase.MELD and [type(e).__name__ for e in events] == ["Rejected", "Drew"]
    deal.apply(Discard(0, c("3H")))
    assert deal.pile == [c("KS"), c("3H")]
    # the next player takes both cards: no restriction on what he discards (two cards were taken)
    deal.apply(TakePile(1))
    assert deal.forbidden is None


def test_the_special_first_draw_is_the_deals_first_turn_only() -> None:
    # RULES §17.7a-2: the other players' first turns are normal: they may take the pile, never refuse a card.
    deal = dealt({0: "3H"}, stock="KS QD", dealer=3)
    deal.apply(DrawStock(0))
    deal.apply(KeepDrawn(0))
    deal.apply(Discard(0, c("3H")))
    assert deal.legal_actions(1) == [DrawStock(1), TakePile(1)]
    deal.apply(DrawStock(1))
    assert deal.phase is Phase.MELD
    refused(deal, RejectDrawn(1), Reason.WRONG_PHASE)


def test_the_whole_pile_is_taken_without_conditions() -> None:
    # RULES §17.3: the whole open pile, with no condition on using its top card.
    deal = dealt({})
    position(deal, 1, "3C 9D", phase=Phase.DRAW, pile="KS 7H 2D")
    deal.apply(TakePile(1))
    assert deal.pile == [] and sorted(deal.hands[1]) == sorted(cards("3C 9D KS 7H 2D"))


def test_a_lone_pile_card_taken_cannot_be_given_back_nor_its_twin() -> None:
    # RULES §17.3 and §17.7a-5: after taking a one-card pile, no card equal to it is discarded that turn.
    deal = dealt({})
    position(deal, 1, "7H 9D", phase=Phase.DRAW, pile="7H")
    deal.apply(TakePile(1))
    refused(deal, Discard(1, c("7H")), Reason.CANNOT_DISCARD_PILE_CARD)
    assert Discard(1, c("9D")) in deal.legal_actions(1)
    deal.apply(Discard(1, c("9D")))
    assert deal.forbidden is None


def test_a_lone_pile_card_is_not_taken_into_a_hand_of_its_twin_alone() -> None:
    # RULES §17.7a-5 with the dead-end guard: nothing could be discarded after it.
    deal = dealt({})
    position(deal, 1, "7H", phase=Phase.DRAW, pile="7H")
    assert deal.legal_actions(1) == [DrawStock(1)]
    refused(deal, TakePile(1), Reason.PILE_TAKE_BLOCKS_DISCARD)


def test_a_lone_pile_card_is_taken_into_its_twin_when_both_can_be_melded_to_take_a_morto() -> None:
    # RULES §17.7a-16: neither 7♥ may be discarded (§17.7a-5), but adding both to the pair's runs empties the hand,
    # takes the morto at once (direta), and its cards give the discard: the take is legal.
    deal = dealt({})
    lay(deal, 1, run("4H 5H 6H", H, 4), run("8H 9H TH", H, 8))
    position(deal, 1, "7H", phase=Phase.DRAW, pile="7H")
    assert deal.legal_actions(1) == [DrawStock(1), TakePile(1)]
    deal.apply(TakePile(1))
    assert deal.legal_actions(1) == [AddToRun(1, 1, 0, c("7H"), 7), AddToRun(1, 1, 1, c("7H"), 7)]
    deal.apply(AddToRun(1, 1, 0, c("7H"), 7))
    assert deal.legal_actions(1) == [AddToRun(1, 1, 1, c("7H"), 7)]
    events = deal.apply(AddToRun(1, 1, 1, c("7H"), 7))
    assert MortoTaken(1, 1, True) in events and len(deal.hands[1]) == 11
    assert any(isinstance(action, Discard) for action in deal.legal_actions(1))


def test_a_lone_pile_card_is_not_taken_when_its_copies_cannot_all_be_melded_to_a_morto() -> None:
    # RULES §17.7a-16: refused only when no sequence of melds, additions and a morto ends the turn.
    deal = dealt({})
    lay(deal, 1, run("4H 5H 6H", H, 4))  # room for one 7♥ only
    position(deal, 1, "7H", phase=Phase.DRAW, pile="7H")
    refused(deal, TakePile(1), Reason.PILE_TAKE_BLOCKS_DISCARD)
    deal = dealt({})
    lay(deal, 1, run("4H 5H 6H", H, 4), run("8H 9H TH", H, 8))
    took_morto(deal, 3)  # room for both, but the pair has had its morto: the hand may not empty by melding
    position(deal, 1, "7H", phase=Phase.DRAW, pile="7H")
    refused(deal, TakePile(1), Reason.PILE_TAKE_BLOCKS_DISCARD)


def test_a_meld_may_leave_only_the_lone_pile_card_when_it_can_be_melded_to_take_a_morto() -> None:
    # RULES §17.7a-16: after taking a lone 7♥, a run that leaves only 7♥ is legal while 7♥ can join a run of the
    # pair and a morto is there to take; the turn goes on with the morto's cards.
    deal = dealt({})
    lay(deal, 0, run("4H 5H 6H", H, 4))
    position(deal, 0, "9C TC JC", phase=Phase.DRAW, pile="7H")
    deal.apply(TakePile(0))
    assert deal.forbidden is c("7H")
    deal.apply(new_run(0, "9C TC JC", Suit.CLUBS, 9))
    assert deal.legal_actions(0) == [AddToRun(0, 0, 0, c("7H"), 7)]
    events = deal.apply(AddToRun(0, 0, 0, c("7H"), 7))
    assert MortoTaken(0, 0, True) in events and deal.phase is Phase.MELD and deal.turn == 0


def test_a_meld_may_not_leave_only_the_lone_pile_card_when_it_joins_no_run() -> None:
    # RULES §17.7a-16 and §17.7a-5: with no run of the pair to take 7♥, it could be neither melded nor discarded.
    deal = dealt({})
    lay(deal, 0, run("4S 5S 6S", S, 4))
    position(deal, 0, "9C TC JC", phase=Phase.DRAW, pile="7H")
    deal.apply(TakePile(0))
    refused(deal, new_run(0, "9C TC JC", Suit.CLUBS, 9), Reason.NO_LEGAL_DISCARD_LEFT)
    assert deal.legal_actions(0) == [Discard(0, c("9C")), Discard(0, c("TC")), Discard(0, c("JC"))]


def test_runs_are_added_to_only_by_their_own_side() -> None:
    # RULES §17.3: one adds to one's own pair's runs, never to the opponents'.
    deal = dealt({})
    lay(deal, 0, run("3H 4H 5H", H, 3))
    position(deal, 1, "6H 9D KC")
    refused(deal, AddToRun(1, 0, 0, c("6H"), 6), Reason.NOT_OWN_MELD)
    position(deal, 2, "6H 9D KC")
    deal.apply(AddToRun(2, 0, 0, c("6H"), 6))  # the partner's run is the pair's
    assert deal.runs[0][0].cards == cards("3H 4H 5H 6H")


def test_several_cards_added_at_once_choose_where_the_substitute_moves_as_legal_moves() -> None:
    # RULES §17.7a-9 and §17.4: 6♥ and 8♥ added at once to 5♥ JK 7♥; each place of the joker is a plan of the
    # engine's one-card moves, every one listed by legal_actions in turn, and they make different runs.
    deal = dealt({})
    lay(deal, 0, run("5H JK 7H", H, 5))
    position(deal, 0, "6H 8H 9C")
    plans = addition_plans(deal.runs[0][0], cards("6H 8H"))
    assert not isinstance(plans, Reason) and len(plans) == 2
    made = []
    for plan in plans:
        trial = deal.copy()
        for step in plan.steps:
            move = AddToRun(0, 0, 0, step.card, step.at, step.moved_to)
            assert move in trial.legal_actions(0)
            assert action_from_json(action_to_json(move)) == move
            trial.apply(move)
        assert trial.runs[0][0] == plan.meld
        made.append(trial.runs[0][0].wild_at)
    assert made == [9, 4]


def test_melding_the_last_card_takes_the_morto_and_the_turn_goes_on() -> None:
    # RULES §17.6 (direta): the last card melded takes 11 from a morto; the same turn goes on to the discard.
    deal = dealt({})
    position(deal, 0, "3H 4H 5H")
    events = deal.apply(new_run(0, "3H 4H 5H", H, 3))
    assert MortoTaken(0, 0, True) in events
    assert len(deal.hands[0]) == 11 and deal.phase is Phase.MELD and deal.turn == 0
    assert len(deal.mortos) == 1 and deal.unplayed_morto == [None, None]


def test_discarding_the_last_card_takes_the_morto_for_the_next_turn() -> None:
    # RULES §17.6 (indireta): the last card discarded takes the morto; it is played from the next turn.
    deal = dealt({})
    position(deal, 1, "9D")
    events = deal.apply(Discard(1, c("9D")))
    assert MortoTaken(1, 1, False) in events
    assert len(deal.hands[1]) == 11 and deal.turn == 2 and deal.unplayed_morto == [None, 1]
    for seat in (2, 3, 0):
        deal.apply(DrawStock(seat))
        deal.apply(Discard(seat, deal.legal_actions(seat)[-1].card))  # type: ignore[union-attr]
    deal.apply(DrawStock(1))
    assert deal.unplayed_morto == [None, None]


def test_the_partner_never_takes_a_second_morto() -> None:
    # RULES §17.6: a pair takes one morto; the other morto is for the other pair (§17.7a-6: a shared pool).
    deal = dealt({})
    took_morto(deal, 0)
    position(deal, 2, "3H 4H 5H 9D")
    refused(deal, new_run(2, "3H 4H 5H", H, 3), Reason.NO_LEGAL_DISCARD_LEFT)  # one card left, no morto for him
    position(deal, 1, "9D")
    deal.apply(Discard(1, c("9D")))
    assert deal.morto_taken[1] == (1, False) and deal.mortos == []


def test_going_out_needs_the_morto_a_clean_canastra_and_the_last_card_discarded() -> None:
    # RULES §17.6: a pair that has its morto and a clean canastra goes out by discarding its last card.
    deal = dealt({})
    took_morto(deal, 0)
    lay(deal, 0, run("3S 4S 5S 6S 7S JK 9S", S, 3))
    position(deal, 0, "9D")
    refused(deal, Discard(0, c("9D")), Reason.NO_CLEAN_CANASTRA)  # a dirty canastra is not enough
    lay(deal, 0, run("3H 4H 5H 6H 7H 8H 9H", H, 3))
    position(deal, 0, "KD 9D")
    refused(deal, AddToRun(0, 0, 1, c("KD"), 14), Reason.NOT_SAME_SUIT)
    deal.apply(Discard(0, c("KD")))
    position(deal, 0, "TH")
    refused(deal, AddToRun(0, 0, 1, c("TH"), 10), Reason.LAST_CARD_MUST_BE_DISCARDED)  # never by melding
    deal.apply(Discard(0, c("TH")))
    assert deal.over and deal.closer == 0 and deal.scores is not None and deal.scores[0].going_out == 100


def test_a_pair_without_a_morto_when_none_is_left_keeps_a_card() -> None:
    # RULES §17.7a-12: the last card may be neither melded nor discarded.
    deal = dealt({})
    took_morto(deal, 1)
    deal.hands[3].extend(deal.mortos.pop())  # the other morto went into the stock long ago
    position(deal, 0, "9D")
    refused(deal, Discard(0, c("9D")), Reason.NO_MORTO_AVAILABLE)
    position(deal, 0, "3H 4H 5H")
    refused(deal, new_run(0, "3H 4H 5H", H, 3), Reason.NO_MORTO_AVAILABLE)


def test_a_morto_becomes_the_stock_when_a_draw_finds_the_stock_empty() -> None:
    # RULES §17.6 and §17.7a-15: an untouched morto is the new stock of 11, at the draw that finds the stock
    # empty, not at the discard that leaves it empty; a morto used so is nobody's.
    deal = dealt({})
    position(deal, 0, "9D KC")
    spare = deal.stock[:-1]
    deal.stock = deal.stock[-1:]
    deal.hands[2].extend(spare)  # the stock's other cards out of the way (the 108 stay accounted for)
    deal.phase = Phase.DRAW
    deal._legal = None
    deal.apply(DrawStock(0))
    events = deal.apply(Discard(0, c("9D")))
    assert not any(isinstance(e, StockRenewed) for e in events)
    assert deal.stock == [] and len(deal.mortos) == 2 and DrawStock(1) in deal.legal_actions(1)
    events = deal.apply(DrawStock(1))
    assert events[0] == StockRenewed(11) and len(deal.stock) == 10 and len(deal.mortos) == 1
    assert deal.morto_taken == [None, None]


def test_the_deal_ends_when_stock_and_mortos_are_used() -> None:
    # RULES §17.6: with stock and mortos used, the last drawer finishes his turn and the deal ends; the pile
    # is not taken after that.
    deal = dealt({})
    position(deal, 0, "9D KC", phase=Phase.DRAW)
    deal.hands[2].extend(deal.stock[:-1] + deal.mortos[0] + deal.mortos[1])
    deal.stock = deal.stock[-1:]
    deal.mortos.clear()
    deal.apply(DrawStock(0))
    deal.apply(Discard(0, c("9D")))
    assert deal.over and deal.closer is None and deal.legal_actions(1) == []
    assert deal.scores is not None and deal.scores[0].going_out == deal.scores[1].going_out == 0


def last_stock_card(deal: Deal, seat: int, hand: str, card: str) -> list[list[Card]]:
    """``seat`` to draw ``card``, the stock's last; the other stock cards out of the way (the 108 stay accounted
    for). Returns the mortos still available, in the order they were set aside."""
    position(deal, seat, hand, phase=Phase.DRAW)
    take(deal, c(card))
    deal.hands[(seat + 2) % 4].extend(deal.stock)
    deal.stock = [c(card)]
    deal._legal = None
    return [list(morto) for morto in deal.mortos]


def test_the_last_stock_card_drawn_the_turn_goes_on_and_a_morto_may_still_be_taken() -> None:
    # RULES §17.7a-15: the stock runs out when a draw finds no card, not when its last card is drawn: the last
    # drawer melds his hand empty and takes a morto (direta) as usual; the morto left is the next draw's stock.
    deal = dealt({})
    first, second = last_stock_card(deal, 0, "3H 4H", "5H")
    deal.apply(DrawStock(0))
    assert deal.stock == [] and len(deal.mortos) == 2 and deal.phase is Phase.MELD
    events = deal.apply(new_run(0, "3H 4H 5H", H, 3))
    assert MortoTaken(0, 0, True) in events and sorted(deal.hands[0], key=BY_INDEX) == sorted(first, key=BY_INDEX)
    events = deal.apply(Discard(0, deal.hands[0][0])) + deal.apply(DrawStock(1))
    assert StockRenewed(11) in events and deal.hands[1][-1] is second[0] and deal.mortos == []
    assert deal.stock == list(reversed(second[1:])) and deal.morto_taken == [(0, True), None]


def test_when_the_stock_runs_out_the_first_morto_set_aside_becomes_the_stock() -> None:
    # RULES §17.7a-15: two mortos untouched: at the next draw the first one set aside at the deal is the new
    # stock (its first card on top, drawn by that player), the other stays available and is nobody's yet.
    deal = dealt({})
    first, second = last_stock_card(deal, 0, "9D KC", "5H")
    deal.apply(DrawStock(0))
    assert deal.apply(Discard(0, c("9D"))) == [Discarded(0, c("9D"))]
    assert deal.apply(DrawStock(1)) == [StockRenewed(11), Drew(1)]
    assert deal.hands[1][-1] is first[0] and deal.mortos == [second]
    assert deal.stock == list(reversed(first[1:])) and deal.morto_taken == [None, None]


def stock_just_emptied(deal: Deal, pile_card: str) -> None:
    """Seat 0 draws the stock's last card and discards ``pile_card``; seat 1 (the other pair) holds 3♥ 4♥ and
    is to draw, the pile holding ``pile_card`` alone."""
    position(deal, 1, "3H 4H")
    last_stock_card(deal, 0, f"{pile_card} KC", "9D")
    deal.apply(DrawStock(0))
    assert deal.apply(Discard(0, c(pile_card))) == [Discarded(0, c(pile_card))]
    assert deal.stock == [] and deal.pile == [c(pile_card)] and deal.turn == 1 and not deal.over


def test_the_last_morto_is_not_the_stock_until_a_draw_so_the_pile_taker_may_meld_out_for_it() -> None:
    # RULES §17.7a-15: one morto left when the stock's last card was drawn stays a morto until a draw needs a
    # card: the next player takes the pile instead, his pair melds its hand empty and takes that morto (§17.6
    # direta). No card is then left for a draw: he finishes his turn and the deal ends (§17.6).
    deal = dealt({})
    took_morto(deal, 0)
    stock_just_emptied(deal, "5H")
    last = list(deal.mortos[0])
    assert TakePile(1) in deal.legal_actions(1)
    deal.apply(TakePile(1))
    events = deal.apply(new_run(1, "3H 4H 5H", H, 3))
    assert MortoTaken(1, 1, True) in events and deal.morto_taken[1] == (1, True) and deal.mortos == []
    assert sorted(deal.hands[1], key=BY_INDEX) == sorted(last, key=BY_INDEX)
    events = deal.apply(Discard(1, deal.hands[1][0]))
    assert not any(isinstance(e, StockRenewed) for e in events)
    assert deal.over and deal.closer is None and deal.scores is not None


def test_two_mortos_left_the_pile_taker_gets_the_first_and_the_second_becomes_the_stock() -> None:
    # RULES §17.7a-15: with both mortos untouched when the stock's last card was drawn, neither is the stock
    # yet: the next player takes the pile and melds out, and his pair takes the first set aside (§17.7a-6);
    # the second becomes the stock at the next draw.
    deal = dealt({})
    first, second = [list(morto) for morto in deal.mortos]
    stock_just_emptied(deal, "5H")
    deal.apply(TakePile(1))
    deal.apply(new_run(1, "3H 4H 5H", H, 3))
    assert deal.morto_taken == [None, (1, True)] and deal.mortos == [second]
    assert sorted(deal.hands[1], key=BY_INDEX) == sorted(first, key=BY_INDEX)
    events = deal.apply(Discard(1, deal.hands[1][0]))
    assert not any(isinstance(e, StockRenewed) for e in events) and deal.stock == [] and not deal.over
    assert deal.apply(DrawStock(2)) == [StockRenewed(11), Drew(2)]
    assert deal.hands[2][-1] is second[0] and deal.mortos == [] and deal.morto_taken[0] is None


def test_a_match_stored_before_the_ruling_replays_with_the_stock_renewed_at_the_discard() -> None:
    # RULES §17.7a-15 moved the renewal from the discard to the draw. A match stored before has no
    # "stock_renewal" in its JSON: its log replays with the old timing, to the state it was played to, where
    # the new timing would differ (the player after the last stock card took the pile: no stock there yet).
    match = Match(seed="stored", renew_at_discard=True)
    renewed = taken = False
    while not taken:
        deal, seat = match.deal, match.to_act()
        assert seat is not None and match.deal_number == 0
        legal = match.legal_actions(seat)
        if deal.phase is Phase.FIRST_CHOICE:
            action: object = KeepDrawn(seat)
        elif deal.phase is Phase.DRAW:
            action = TakePile(seat) if renewed and TakePile(seat) in legal else DrawStock(seat)
            taken = isinstance(action, TakePile)
        else:
            action = next(a for a in legal if isinstance(a, Discard))
        events = match.apply(action)  # type: ignore[arg-type]
        renewed = renewed or any(isinstance(e, StockRenewed) for e in events)
    assert len(match.deal.stock) == 11 and len(match.deal.mortos) == 1
    stored = match.to_json()
    assert stored["stock_renewal"] == "discard"
    del stored["stock_renewal"]  # as stored before the ruling
    loaded = Match.from_json(stored)
    assert loaded.renew_at_discard and loaded.snapshot() == match.snapshot()
    under_the_ruling = Match.from_json({**stored, "stock_renewal": "draw"})
    assert under_the_ruling.deal.stock == [] and len(under_the_ruling.deal.mortos) == 2
    fresh = Match(seed="stored")
    assert fresh.to_json()["stock_renewal"] == "draw" and not Match.from_json(fresh.to_json()).renew_at_discard
    with pytest.raises(ValueError):
        Match.from_json({**stored, "stock_renewal": "sometimes"})


def test_the_last_drawer_may_take_the_last_morto_indireta_and_then_the_deal_ends() -> None:
    # RULES §17.7a-15 and §17.6: the last drawer discards his last card and takes the one morto left
    # (indireta); no card is left for a draw, so the deal ends with his turn, and the unplayed morto's cards
    # count against his pair as usual (§17.7a-8: the opponents did not close).
    deal = dealt({})
    took_morto(deal, 1)
    last_stock_card(deal, 0, "3H 4H 9D", "5H")
    deal.apply(DrawStock(0))
    deal.apply(new_run(0, "3H 4H 5H", H, 3))
    events = deal.apply(Discard(0, c("9D")))
    assert MortoTaken(0, 0, False) in events and not any(isinstance(e, StockRenewed) for e in events)
    assert deal.over and deal.closer is None and deal.morto_taken[0] == (0, False)
    assert deal.scores is not None and deal.scores[0].morto_penalty == 0


def test_a_vulnerable_pairs_opening_is_75_laid_in_one_turn_checked_at_the_discard() -> None:
    # RULES §17.5 and §17.7a-11: the opening's runs and additions of the turn count together, at the discard.
    deal = dealt({}, vulnerable=(True, False))
    position(deal, 0, "3H 4H 5H JS QS KS AD 2D 3D 9C")
    deal.apply(new_run(0, "3H 4H 5H", H, 3))  # 15
    deal.apply(new_run(0, "JS QS KS", S, 11))  # 30
    assert deal.table_runs(0) == [] and deal.draft_points(0) == 45
    refused(deal, Discard(0, c("9C")), Reason.OPENING_BELOW_MINIMUM)
    deal.apply(new_run(0, "AD 2D 3D", Suit.DIAMONDS, 1))  # 30: 75 in all
    events = deal.apply(Discard(0, c("9C")))
    assert isinstance(events[0], Opened) and events[0].points == 75
    assert len(deal.table_runs(0)) == 3 and deal.opened[0]


def test_an_opening_below_75_is_taken_back() -> None:
    # RULES §17.5: a draft is not on the table; cancelling returns its cards to the hand.
    deal = dealt({}, vulnerable=(True, False))
    position(deal, 0, "3H 4H 5H 6H 7H 8H 9H KC")
    for text, low in (("3H 4H 5H", 3),):
        deal.apply(new_run(0, text, H, low))
    for card, at in (("6H", 6), ("7H", 7), ("8H", 8), ("9H", 9)):
        deal.apply(AddToRun(0, 0, 0, c(card), at))
    # a clean canastra: 45 in cards; its bonus does not count toward the 75
    assert deal.runs[0][0].clean_canastra and deal.draft_points(0) == 45
    refused(deal, Discard(0, c("KC")), Reason.OPENING_BELOW_MINIMUM)
    deal.apply(CancelDraft(0))
    assert sorted(deal.hands[0]) == sorted(cards("3H 4H 5H 6H 7H 8H 9H KC")) and deal.runs[0] == []


def test_a_pair_below_1500_melds_freely() -> None:
    # RULES §17.5: the minimum holds from 1,500 only; below it a single run of three is fine.
    deal = dealt({})
    position(deal, 0, "3H 4H 5H 9C")
    events = deal.apply(new_run(0, "3H 4H 5H", H, 3))
    assert isinstance(events[0], RunLaid)
    deal.apply(Discard(0, c("9C")))


def test_a_melded_card_never_returns_and_a_new_run_is_three_cards() -> None:
    # RULES §17.3: what is laid stays laid; runs of at least three.
    deal = dealt({})
    position(deal, 0, "3H 4H 5H 9C")
    deal.apply(new_run(0, "3H 4H 5H", H, 3))
    refused(deal, CancelDraft(0), Reason.NOTHING_TO_CANCEL)
    assert not any(isinstance(a, CancelDraft) for a in deal.legal_actions(0))


def test_a_substitute_that_spoils_the_only_clean_canastra_cannot_leave_the_last_card() -> None:
    # RULES §17.6: with the morto taken, the last card goes out only beside a clean canastra; a substitute
    # added to the only one leaves a card that could never be discarded (found by the property test).
    deal = dealt({})
    took_morto(deal, 0)
    lay(deal, 0, run("3H 4H 5H 6H 7H 8H 9H", H, 3))
    position(deal, 2, "2S 8C")
    refused(deal, AddToRun(2, 0, 0, c("2S"), 10), Reason.NO_LEGAL_DISCARD_LEFT)
    assert [type(a) for a in deal.legal_actions(2)] == [Discard, Discard]
