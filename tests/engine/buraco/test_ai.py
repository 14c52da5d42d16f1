"""The Buraco computer players (engine.buraco.ai): legal, fair, reproducible, and sensible where a rule says
what sensible is (RULES §17)."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator

import pytest

from engine.buraco.actions import (
    Action,
    AddToRun,
    CancelDraft,
    Discard,
    DrawStock,
    KeepDrawn,
    NewRun,
    RejectDrawn,
    TakePile,
)
from engine.buraco.ai import Budget, EasyPlayer, HardPlayer, auto_action
from engine.buraco.ai.plan import ending, fit, plan
from engine.buraco.ai.search import draw_worth
from engine.buraco.ai.worlds import World, determinize, sample, unseen
from engine.buraco.cards import BY_INDEX, Card, cards, deck
from engine.buraco.deal import OPENING_MINIMUM, Deal, Phase
from engine.buraco.events import Opened
from engine.buraco.match import Match
from engine.buraco.views import SeatView, seat_view
from engine.core.cards import Suit
from tests.engine.buraco.stack import dealt, lay, position, run, took_morto

H, S, D, C = Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS
Chooser = Callable[[SeatView], Action]


def c(code: str) -> Card:
    return Card.parse(code)


def at_table(deal: Deal) -> Match:
    """A match whose deal is ``deal`` (a stacked scenario), for its views."""
    match = Match(seed=0)
    match.deal = deal
    return match


def random_states(games: int, seed: int, every: int) -> Iterator[Match]:
    """States of random play (melds favoured, so deals reach runs, mortos, canastras), one in ``every`` moves;
    a third of the games with one or both pairs vulnerable (§17.5), so drafts of openings come up too."""
    rng = random.Random(seed)
    for game in range(games):
        match = Match(seed=f"states/{seed}/{game}", target=1)
        if game % 3 == 1:
            deal = match.deal
            match.deal = Deal(deal.dealer, deal.order, (rng.random() < 0.7, rng.random() < 0.7))
        while not match.finished:
            seat = match.to_act()
            assert seat is not None
            legal = match.legal_actions(seat)
            if rng.randrange(every) == 0:
                yield match
            melds = [a for a in legal if isinstance(a, (NewRun, AddToRun))]
            match.apply(rng.choice(melds) if melds and rng.random() < 0.7 else rng.choice(legal))


def test_both_levels_always_choose_a_legal_action() -> None:
    # The one truth is legal_actions (STYLE.md): whatever the state, a computer's choice is in it.
    easy, hard = EasyPlayer(), HardPlayer()  # the bot's budget
    states = 0
    kinds: set[type] = set()
    for match in random_states(games=120, seed=1, every=9):
        seat = match.to_act()
        assert seat is not None
        view = seat_view(match, seat)
        assert list(view.legal) == match.legal_actions(seat)
        for player in (easy, hard):
            action = player.choose(view)
            assert action in view.legal, (player, action)
            kinds.add(type(action))
        assert auto_action(match, seat) in view.legal
        states += 1
    assert states > 2500
    assert {DrawStock, TakePile, NewRun, AddToRun, Discard, KeepDrawn, RejectDrawn, CancelDraft} <= kinds


def hide_again(match: Match, seat: int, rng: random.Random) -> Match:
    """The same match with every card ``seat`` cannot see dealt again at random: the other hands (but for the
    cards seen going in with a pile), the stock and the mortos."""
    seen = seat_view(match, seat).seen
    twin = copy.copy(match)
    deal = twin.deal = match.deal.copy()
    pool: list[Card] = []
    kept: dict[int, list[Card]] = {}
    for other in range(4):
        if other == seat:
            continue
        hand = list(deal.hands[other])
        kept[other] = list(seen[other])
        for card in kept[other]:
            hand.remove(card)
        pool += hand
    pool += deal.stock + [card for morto in deal.mortos for card in morto]
    rng.shuffle(pool)
    for other, known in kept.items():
        size = len(deal.hands[other])
        deal.hands[other] = known + pool[: size - len(known)]
        del pool[: size - len(known)]
    size = len(deal.stock)
    deal.stock, pool = pool[:size], pool[size:]
    deal.mortos = [pool[i * 11 : (i + 1) * 11] for i in range(len(deal.mortos))]
    return twin


def test_a_decision_does_not_depend_on_the_cards_the_seat_cannot_see() -> None:
    # Fair play: the others' hands, the stock and the mortos dealt again give the same view and the same choice.
    easy, hard = EasyPlayer(), HardPlayer()
    rng = random.Random(5)
    compared = changed = 0
    for match in random_states(games=30, seed=2, every=25):
        seat = match.to_act()
        assert seat is not None
        view = seat_view(match, seat)
        twin = hide_again(match, seat, rng)
        assert sorted(twin.deal.cards_in_play(), key=BY_INDEX) == sorted(deck(), key=BY_INDEX)
        changed += twin.deal.hands != match.deal.hands or twin.deal.stock != match.deal.stock
        assert seat_view(twin, seat) == view
        for player in (easy, hard):
            assert player.choose(seat_view(twin, seat)) == player.choose(view)
        compared += 1
    assert compared > 100 and changed > compared // 2


def test_the_same_view_and_seed_give_the_same_decision_whatever_came_before() -> None:
    first, other = HardPlayer(Budget(seed=3)), HardPlayer(Budget(seed=3))
    views = [seat_view(m, to_act(m)) for m in random_states(games=6, seed=3, every=30)]
    answers = [first.choose(view) for view in views]
    assert [other.choose(view) for view in reversed(views)] == list(reversed(answers))
    assert [first.choose(view) for view in views] == answers


def to_act(match: Match) -> int:
    seat = match.to_act()
    assert seat is not None
    return seat


def play(match: Match, players: dict[int, Chooser], limit: int = 30_000) -> int:
    moves = 0
    while not match.finished:
        seat = match.to_act()
        assert seat is not None
        match.apply(players[seat](seat_view(match, seat)))
        moves += 1
        assert moves < limit, "a match between computers must end"
    return moves


def test_a_whole_match_to_3000_between_computers_finishes_and_replays() -> None:
    # §17.7: deals until a pair has 3,000; past 1,500 a pair is vulnerable (§17.5), so openings of 75 are drafted.
    hard, easy = HardPlayer(Budget(seed=1)), EasyPlayer()
    match = Match(seed="ai/match")
    play(match, {0: hard.choose, 1: easy.choose, 2: hard.choose, 3: easy.choose})
    assert match.finished and match.winner is not None and max(match.totals) >= 3000
    assert len(match.history) >= 3
    replayed = Match.from_json(match.to_json())
    assert replayed.snapshot() == match.snapshot()
    again = Match(seed="ai/match")
    play(again, {0: hard.choose, 1: easy.choose, 2: hard.choose, 3: easy.choose})
    assert again.actions == match.actions, "computers are reproducible"


def test_vulnerable_pairs_open_and_matches_end() -> None:
    # §17.5: with both pairs vulnerable from the first deal, every opening must reach 75; the computers open
    # (the engine announces Opened) and the deals still end.
    easy = EasyPlayer()
    opened = 0
    for number in range(4):
        match = Match(seed=f"ai/vulnerable/{number}", target=1)
        deal = match.deal
        match.deal = Deal(deal.dealer, deal.order, (True, True))
        moves = 0
        while not match.finished:
            seat = match.to_act()
            assert seat is not None
            opened += sum(isinstance(event, Opened) for event in match.apply(easy.choose(seat_view(match, seat))))
            moves += 1
            assert moves < 5000
    assert opened >= 4


# -- behaviour pinned to rules ----------------------------------------------------------------------------------


def test_an_opening_below_75_is_not_laid_and_a_draft_that_cannot_reach_it_is_taken_back() -> None:
    # RULES §17.5: a vulnerable pair's first melds must reach 75 at once.
    deal = dealt({}, vulnerable=(True, False))
    position(deal, 0, "3H 4H 5H 9S JD KC")  # 15 points of runs: no opening
    for player in (EasyPlayer(), HardPlayer()):
        action = player.choose(seat_view(at_table(deal), 0))
        assert isinstance(action, Discard)
    deal.apply(NewRun(0, H, 3, (c("3H"), c("4H"), c("5H"))))  # a draft someone else began
    for player in (EasyPlayer(), HardPlayer()):
        assert player.choose(seat_view(at_table(deal), 0)) == CancelDraft(0)


def test_a_vulnerable_pair_that_lays_nothing_discards_and_stays_unopened() -> None:
    # RULES §17.5: the 75 bounds an opening that is laid; a pair without one simply discards (the engine used to
    # leave such a seat no legal action at all, and a match to 3,000 stuck at the first vulnerable deal).
    deal = dealt({}, vulnerable=(True, False))
    position(deal, 0, "3H 4H 9S KD", phase=Phase.DRAW)
    deal.apply(DrawStock(0))
    assert Discard(0, c("KD")) in deal.legal_actions(0)
    action = EasyPlayer().choose(seat_view(at_table(deal), 0))
    assert isinstance(action, Discard)
    events = deal.apply(action)
    assert not any(isinstance(event, Opened) for event in events) and deal.opened == [False, False]


def test_an_opening_of_75_is_laid_whole_then_the_discard_opens_it() -> None:
    # RULES §17.5 and §17.7a-11: several runs laid in one turn count together, checked at the discard.
    deal = dealt({}, vulnerable=(True, False))
    position(deal, 0, "JS QS KS AS 9D TD JD QD 3C")  # 45 + 40 = 85
    match = at_table(deal)
    events = []
    for _ in range(20):
        action = EasyPlayer().choose(seat_view(match, 0))
        assert not isinstance(action, CancelDraft)
        events += deal.apply(action)
        if isinstance(action, Discard):
            break
    opened = [event for event in events if isinstance(event, Opened)]
    assert opened and opened[0].points >= OPENING_MINIMUM and deal.opened[0]
    assert deal.turn == 1


def test_the_first_card_is_kept_when_it_joins_the_hand_and_refused_when_it_does_not() -> None:
    # RULES §17.3: the deal's first card may be kept, or shown and refused for the next one.
    joins = dealt({0: "3H 4H 9S 9C JD KD 5S 6C 7D TC QS"}, stock="5H", dealer=3)
    joins.apply(DrawStock(0))
    assert EasyPlayer().choose(seat_view(at_table(joins), 0)) == KeepDrawn(0)
    alone = dealt({0: "3H 4H 9S 9C JD KD 5S 6C 7D TC QS"}, stock="KH", dealer=3)
    alone.apply(DrawStock(0))
    assert EasyPlayer().choose(seat_view(at_table(alone), 0)) == RejectDrawn(0)
    for deal in (joins, alone):
        assert HardPlayer().choose(seat_view(at_table(deal), 0)) in (KeepDrawn(0), RejectDrawn(0))


def test_a_pile_that_makes_runs_is_taken_and_a_useless_one_is_not() -> None:
    # RULES §17.3: the whole pile, without conditions; worth it when its cards make runs.
    deal = dealt({})
    position(deal, 0, "5H 6H 9S 9C JD KD 2C", phase=Phase.DRAW, pile="KS 7H 8H")
    for player in (EasyPlayer(), HardPlayer()):
        assert player.choose(seat_view(at_table(deal), 0)) == TakePile(0)
    position(deal, 0, "5H 6H 9S 9C JD KD", phase=Phase.DRAW, pile="3D")
    for player in (EasyPlayer(), HardPlayer()):
        assert player.choose(seat_view(at_table(deal), 0)) == DrawStock(0)


def test_the_discard_is_not_a_card_the_next_opponent_can_lay() -> None:
    # The next seat is an opponent; the end of his pair's run is the worst card to give him (§17.3: the pile is
    # his for the taking). 9S and KD are equally useless to the hand; 9S would grow his spades.
    deal = dealt({})
    lay(deal, 1, run("5S 6S 7S 8S", S, 5))
    position(deal, 0, "9S KD 3H 4H")
    for player in (EasyPlayer(), HardPlayer()):
        assert player.choose(seat_view(at_table(deal), 0)) == Discard(0, c("KD"))


def test_the_easy_player_goes_out_when_the_rules_allow() -> None:
    # RULES §17.6: with the morto taken and a clean canastra, the last card leaves by a discard: batida.
    deal = dealt({})
    took_morto(deal, 0)
    lay(deal, 0, run("3H 4H 5H 6H 7H 8H 9H", H, 3))
    position(deal, 0, "TH KD")
    match = at_table(deal)
    assert EasyPlayer().choose(seat_view(match, 0)) == AddToRun(0, 0, 0, c("TH"), 10)
    deal.apply(AddToRun(0, 0, 0, c("TH"), 10))
    assert EasyPlayer().choose(seat_view(match, 0)) == Discard(0, c("KD"))
    deal.apply(Discard(0, c("KD")))
    assert deal.over and deal.closer == 0


def test_the_hard_player_goes_out_ahead_and_plays_on_behind() -> None:
    # RULES §17.6-§17.7: going out ends the deal at once; the hard player does it only when that wins the deal.
    ahead = dealt({})
    took_morto(ahead, 0)
    took_morto(ahead, 1)
    lay(ahead, 0, run("3H 4H 5H 6H 7H 8H 9H", H, 3))
    position(ahead, 0, "TH KD")
    match = at_table(ahead)
    for _ in range(2):
        ahead.apply(HardPlayer().choose(seat_view(match, 0)))
    assert ahead.over and ahead.closer == 0
    behind = dealt({})
    took_morto(behind, 0)
    took_morto(behind, 1)
    lay(behind, 0, run("3H 4H 5H 6H 7H 8H 9H", H, 3))
    lay(behind, 1, run("3S 4S 5S 6S 7S 8S 9S TS JS QS KS", S, 3), run("3D 4D 5D 6D 7D 8D 9D", D, 3))
    lay(behind, 1, run("3C 4C 5C 6C 7C 8C 9C", C, 3))  # three clean canastras against one
    position(behind, 0, "TH KD")
    match = at_table(behind)
    action = HardPlayer().choose(seat_view(match, 0))
    assert isinstance(action, Discard), "behind by hundreds, it keeps two cards rather than go out"
    behind.apply(action)
    assert not behind.over and len(behind.hands[0]) == 1


def test_a_pair_that_cannot_go_out_keeps_two_cards() -> None:
    # RULES §17.7a-12: with no morto for the pair left, its last card may be neither melded nor discarded; the
    # plan keeps two back (one to discard, one to hold), so every move it makes is legal.
    deal = dealt({})
    took_morto(deal, 1)
    took_morto(deal, 3)  # both mortos gone (a test's shortcut: one each would be the other pair's)
    position(deal, 0, "3H 4H 5H 6H 9C")
    legal = deal.legal_actions(0)
    for player in (EasyPlayer(), HardPlayer()):
        action = player.choose(seat_view(at_table(deal), 0))
        assert action in legal
    chosen = fit(cards("3H 4H 5H 6H 9C"), [], ending(False, 0, None))
    assert len(chosen.left) >= 2


# -- the tools the players use ------------------------------------------------------------------------------------


def test_a_plan_lays_clean_runs_first_and_a_substitute_only_with_naturals_along() -> None:
    # RULES §17.4: runs of one suit, at most one substitute; a natural 2 before the 3 is no substitute.
    chosen = plan(cards("2H 3H 4H 5H 9S TS JK KD 6C"), [])
    melds = {(m.suit, m.low, m.cards) for m in chosen.melds}
    assert (H, 2, cards("2H 3H 4H 5H")) in melds
    assert (S, 9, cards("9S TS JK")) in melds or (S, 8, cards("JK 9S TS")) in melds
    assert sorted(chosen.left) == sorted(cards("KD 6C"))
    grown = plan(cards("6H 2S"), [run("3H 4H 5H", H, 3)])
    assert grown.melds[0].cards == cards("3H 4H 5H 6H") and grown.left == (c("2S"),)


def test_a_world_is_the_view_with_the_hidden_cards_dealt_and_plays_the_same_moves() -> None:
    rng = random.Random(9)
    for match in random_states(games=20, seed=4, every=40):
        seat = match.to_act()
        assert seat is not None
        view = seat_view(match, seat)
        hidden = unseen(view)
        world = determinize(view, sample(view, hidden, rng))
        assert sorted(world.cards_in_play(), key=BY_INDEX) == sorted(deck(), key=BY_INDEX)
        assert world.legal_actions(seat) == list(view.legal)
        assert [len(h) for h in world.hands] == [len(h) for h in match.deal.hands]
        for other in range(4):
            hand = list(match.deal.hands[other])
            for card in view.seen[other]:
                hand.remove(card)  # a card seen going in is still in that hand (ValueError if not)


def test_a_position_must_hold_the_whole_deck() -> None:
    deal = Match(seed=1).deal
    with pytest.raises(ValueError):
        Deal.from_position(
            dealer=0,
            vulnerable=(False, False),
            hands=[deal.hands[0][1:], *deal.hands[1:]],
            stock=deal.stock,
            pile=[],
            mortos=deal.mortos,
            runs=((), ()),
            opened=(False, False),
            morto_taken=(None, None),
            unplayed_morto=(None, None),
            turn=1,
            phase=Phase.DRAW,
        )


def test_the_timer_draws_from_the_stock_then_plays_like_the_easy_player() -> None:
    # The bot's move for an absent player: never a gamble on the pile, then melds and a safe discard.
    deal = dealt({})
    lay(deal, 1, run("5S 6S 7S 8S", S, 5))
    position(deal, 0, "5H 6H 9S KD", phase=Phase.DRAW, pile="7H 8H")
    match = at_table(deal)
    assert auto_action(match, 0) == DrawStock(0)
    deal.apply(DrawStock(0))
    assert auto_action(match, 0) == EasyPlayer().choose(seat_view(match, 0))
    with pytest.raises(ValueError):
        auto_action(match, 1)


def test_a_draw_from_an_empty_stock_is_worth_the_first_card_of_the_morto_it_turns_over() -> None:
    # RULES §17.7a-15: with the stock empty a draw makes the first untouched morto the stock and takes its top.
    hand = cards("3H 4H")
    useful, useless = World(((), (), (), ()), (), ((c("5H"),),)), World(((), (), (), ()), (), ((c("KC"),),))
    assert draw_worth(hand, [useful], [], False, False) > draw_worth(hand, [useless], [], False, False)
