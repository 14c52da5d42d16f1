"""Computer players: they choose only legal moves, and they play fair.

Fairness: a player's decision depends only on what its seat may see. We take a real state, deal the cards
the seat cannot see into each other's places at random (other hands, the stock, dead cards, others' face-down
answers), check that the seat's view is unchanged, and check that the decision is the same.
"""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from typing import Any

import pytest

import engine.bura.ai.playout as playout_module
from engine.bura.actions import Claim, Lead, RespondFaceDown, RespondOpen
from engine.bura.ai import SHARP, Budget, EasyPlayer, HardPlayer, current_best, determinize
from engine.bura.ai.inference import Inference, answer_was_sensible, lead_was_sensible
from engine.bura.ai.search import close_to_best, rollout_choice, undominated
from engine.bura.ai.worlds import deal_unseen, unplaced, unseen_cards
from engine.bura.cards import Card, cards
from engine.bura.deal import Deal, Phase, Play
from engine.bura.events import PileCard
from engine.bura.match import Match
from engine.bura.players import RandomPlayer, random_step
from engine.bura.variant import BURA_STANDARD, PROFILES, SINGLE_DEAL, FollowSuit, StockShort, Variant
from engine.bura.views import SeatView, view
from engine.core.cards import Suit
from tests.engine.bura.stack import stacked_match


def _hidden_slots(deal: Deal, seat: int) -> list[Card]:
    """Every card the seat may not see, wherever it lies (the public trump card and shown combos excepted)."""
    public = {deal.trump_card} | {card for held in deal.shown for card in held.cards}
    hidden: list[Card] = []
    for other, hand in deal.hands.items():
        if other != seat:
            hidden.extend(card for card in hand if card not in public)
    hidden.extend(card for card in [*deal.stock, *deal.dead] if card not in public)
    tricks = [*deal.history, *([deal.trick] if deal.trick is not None else [])]
    for trick in tricks:
        for play in trick.plays:
            if play.face_down and play.seat != seat:
                hidden.extend(play.cards)
    return hidden


def shuffle_unseen(match: Match, seat: int, rng: random.Random) -> Match:
    """A copy of ``match`` in which the cards ``seat`` cannot see have traded places at random."""
    other = copy.deepcopy(match)
    deal = other.deal
    hidden = _hidden_slots(deal, seat)
    shuffled = list(hidden)
    rng.shuffle(shuffled)
    mapping = dict(zip(hidden, shuffled, strict=True))

    def swap(card: Card) -> Card:
        return mapping.get(card, card)

    for holder in deal.hands:
        if holder != seat:
            deal.hands[holder] = sorted((swap(card) for card in deal.hands[holder]), key=lambda c: c.index)
    deal.stock = [swap(card) for card in deal.stock]
    deal.dead = [swap(card) for card in deal.dead]
    for trick in [*deal.history, *([deal.trick] if deal.trick is not None else [])]:
        trick.plays = [
            Play(p.seat, tuple(swap(c) for c in p.cards), p.face_down, p.beats) if p.face_down and p.seat != seat else p
            for p in trick.plays
        ]
    deal.piles = [
        [PileCard(swap(e.card), e.face_down, e.played_by) if e.face_down and e.played_by != seat else e for e in pile]
        for pile in deal.piles
    ]
    deal.deck_order = ()
    deal._legal_cache = {}
    return other


def _random_states(variant: Variant, players: int, count: int, seed: int) -> list[Match]:
    rng = random.Random(seed)
    states: list[Match] = []
    match = Match(variant.with_options(match=SINGLE_DEAL), players, seed)
    while len(states) < count:
        if match.finished:
            match = Match(variant.with_options(match=SINGLE_DEAL), players, rng.randrange(10**9))
            continue
        if rng.random() < 0.3:
            states.append(copy.deepcopy(match))
        match.apply(random_step(match, rng))
    return states


CASES = [(name, players) for name, v in PROFILES.items() for players in sorted({v.min_players, v.max_players})]


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_decisions_do_not_depend_on_unseen_cards(name: str, players: int) -> None:
    variant = PROFILES[name]
    rng = random.Random(11)
    for match in _random_states(variant, players, 12, seed=players):
        seat = match.to_act()
        assert seat is not None
        seen = view(match, seat)
        twin = shuffle_unseen(match, seat, rng)
        assert view(twin, seat) == seen, "shuffling unseen cards must not change the view"
        assert EasyPlayer(variant).choose(view(twin, seat)) == EasyPlayer(variant).choose(seen)
        for horizon in (0, 1):  # full playouts, and the learned value after a trick where it fits the table
            budget = replace(Budget(seed=5), samples=4, horizon=horizon)
            hard_here = HardPlayer(variant, budget).choose(seen)
            hard_there = HardPlayer(variant, budget).choose(view(twin, seat))
            assert hard_here == hard_there


def test_the_bots_budget_is_three_times_the_base_only_at_a_two_player_three_card_table() -> None:
    base = Budget(seed=1)
    assert Budget.default(BURA_STANDARD, 2, seed=1) == replace(base.scaled(3), horizon=1)  # the learned value
    assert Budget.default(PROFILES["BURA_PAGAT"], 2, seed=1) == base.scaled(3)
    assert Budget.default(BURA_STANDARD, 3, seed=1) == base
    assert Budget.default(PROFILES["BURKOZEL"], 2, seed=1) == base
    assert Budget.default(PROFILES["BURA_5"], 2, seed=1) == base


def test_the_shuffle_really_moves_hidden_cards() -> None:
    """The fairness test would prove nothing if the twin had the same hidden cards."""
    match = Match(BURA_STANDARD, 2, 3)
    seat = match.to_act()
    assert seat is not None
    twin = shuffle_unseen(match, seat, random.Random(1))
    other = 1 - seat
    assert twin.deal.hands[seat] == match.deal.hands[seat]
    assert twin.deal.hands[other] != match.deal.hands[other] or twin.deal.stock != match.deal.stock


# The least work a hard player can do: two worlds a move, no racing, no weighing; its endgame in two worlds within
# 300 nodes each (a bigger one falls back to playouts, so both paths are taken).
TINY = Budget(samples=1, first_pass=1, race=0, weighed=1, endgame_worlds=2, exact_nodes=300)


@pytest.mark.parametrize("name", list(PROFILES))
def test_every_level_chooses_legal_actions(name: str) -> None:
    """Over 1,000 random states of each profile (all its player counts), every level of the ladder (random, easy,
    hard, hard with four times the work; the hard ones with the least work, which takes the same paths, and the
    learned value where the bot's budget uses it) picks one of ``view.legal`` for every seat that has a move,
    «Стоп!» out of turn included."""
    variant = PROFILES[name]
    counts = range(variant.min_players, variant.max_players + 1)
    checked = 0
    for players in counts:
        easy = EasyPlayer(variant)
        tiny = replace(TINY, seed=players, horizon=Budget.default(variant, players).horizon)
        hard = HardPlayer(variant, tiny)
        hard4 = HardPlayer(variant, tiny.scaled(4))
        rand = RandomPlayer(random.Random(players))
        for match in _random_states(variant, players, 1000 // len(counts) + 1, 7):
            for seat in match.active:
                seat_view = view(match, seat)
                if not seat_view.legal:
                    continue
                for player in (rand, easy, hard):
                    assert player.choose(seat_view) in seat_view.legal
                if checked % 4 == 0:  # the same paths with more worlds: a quarter of the states
                    assert hard4.choose(seat_view) in seat_view.legal
                checked += 1
    assert checked >= 1000


def _endgame_states(variant: Variant, players: int, count: int) -> list[Match]:
    """States of random play once the stock is empty and little is left in the hands (the exact search's)."""
    return [
        match
        for match in _random_states(variant, players, count * 12, seed=9)
        if not match.deal.stock and sum(len(h) for h in match.deal.hands.values()) <= 8
    ][:count]


@pytest.mark.parametrize(("name", "players"), [("BURKOZEL", 4), ("BURKOZEL", 2), ("BURA_5", 2), ("KOZEL_MONEY", 3)])
def test_endgame_decisions_do_not_depend_on_unseen_cards(name: str, players: int) -> None:
    """The exact search plays sampled worlds too: shuffling what the seat cannot see changes no decision."""
    variant = PROFILES[name]
    rng = random.Random(3)
    states = _endgame_states(variant, players, 10)
    assert len(states) >= 5
    for match in states:
        seat = match.to_act()
        assert seat is not None
        seen = view(match, seat)
        twin = shuffle_unseen(match, seat, rng)
        assert view(twin, seat) == seen
        budget = Budget(endgame_worlds=4, seed=2)
        assert HardPlayer(variant, budget).choose(seen) == HardPlayer(variant, budget).choose(view(twin, seat))


@pytest.mark.parametrize("name", ["BURA_STANDARD", "BURKOZEL"])
def test_a_decision_is_a_function_of_the_seed_and_the_view(name: str) -> None:
    """The same seed and view give the same decision, whatever the player decided before (its dice are seeded by
    the position); the work is counted in iterations, never in time."""
    variant = PROFILES[name]
    budget = Budget(samples=6, first_pass=300, race=300, seed="table/7")
    states = _random_states(variant, variant.max_players if name == "BURKOZEL" else 2, 12, seed=21)
    seasoned = HardPlayer(variant, budget)
    first = []
    for match in states:
        seat = match.to_act()
        assert seat is not None
        first.append(seasoned.choose(view(match, seat)))
    for match, decided in zip(reversed(states), reversed(first), strict=True):
        seat = match.to_act()
        assert seat is not None
        assert HardPlayer(variant, budget).choose(view(match, seat)) == decided
        assert seasoned.choose(view(match, seat)) == decided


@pytest.mark.parametrize("name", list(PROFILES))
def test_determinized_worlds_agree_with_the_view(name: str) -> None:
    """A sampled world holds every card once, the same hand sizes, and the same moves for the seat."""
    variant = PROFILES[name]
    for match in _random_states(variant, variant.max_players, 40, seed=2):
        seat = match.to_act()
        assert seat is not None
        world = determinize(view(match, seat), variant, random.Random(0))
        places = [*world.stock, *world.dead, *(c for h in world.hands.values() for c in h)]
        places += [entry.card for pile in world.piles for entry in pile]
        if world.trick is not None:
            places += [*world.trick.lead, *(c for p in world.trick.plays for c in p.cards)]
        assert sorted(places) == sorted(match.deal.deck_order)
        assert {s: len(h) for s, h in world.hands.items()} == {s: len(h) for s, h in match.deal.hands.items()}
        assert world.hands[seat] == match.deal.hands[seat]
        assert world.legal_actions(seat) == match.legal_actions(seat)


def test_easy_beats_random_in_a_short_run() -> None:
    """Sanity, not the benchmark (tests/benchmarks/ai_strength.py measures with confidence intervals)."""
    wins = {"easy": 0, "random": 0}
    for number in range(40):
        match = Match(BURA_STANDARD.with_options(match=SINGLE_DEAL), 2, f"duel/{number}")
        easy_seat = number % 2
        easy = EasyPlayer(BURA_STANDARD)
        rand = RandomPlayer(random.Random(number))
        while not match.finished:
            seat = match.to_act()
            assert seat is not None
            player = easy if seat == easy_seat else rand
            match.apply(player.choose(view(match, seat)))
        outcome = match.outcomes[-1]
        if len(outcome.winners) == 1:
            wins["easy" if outcome.winners[0] == easy_seat else "random"] += 1
    assert wins["easy"] > 3 * wins["random"]


# -- the hard player in stacked positions (seat 0 leads first: the dealer is seat 1) ---------------------------


def test_hard_player_claims_a_sure_31() -> None:
    """RULES §8.1: seat 0 took 54 open points; the claim cannot fail, and the hard player makes it."""
    match = stacked_match(
        BURA_STANDARD,
        deals=[{"hands": {0: "AS TS KS", 1: "AC TC KC"}, "trump": "8H", "stock": "6D 7D 6C 7C 8C 9C"}],
    )
    match.apply(Lead(0, cards("AS TS KS")))
    match.apply(RespondOpen(1, cards("AC TC KC")))
    assert match.to_act() == 0
    assert HardPlayer(BURA_STANDARD, Budget(seed=1)).choose(view(match, 0)) == Claim(0)


def test_hard_player_does_not_claim_short_of_31() -> None:
    """Seat 0 knows every card of its pile (25 points): a claim would surely be false (RULES §8.4)."""
    match = stacked_match(
        BURA_STANDARD,
        deals=[{"hands": {0: "AS TS KS", 1: "6C 7C 8C"}, "trump": "8H", "stock": "6D 7D 9C JC 9D JD"}],
    )
    match.apply(Lead(0, cards("AS TS KS")))
    match.apply(RespondOpen(1, cards("6C 7C 8C")))
    seat_view = view(match, 0)
    assert seat_view.may_claim
    assert not isinstance(HardPlayer(BURA_STANDARD, Budget(seed=1)).choose(seat_view), Claim)


def _trump_share_of_opponent(player: HardPlayer, seat_view: SeatView, opponent: int) -> float:
    """The share of trumps in ``opponent``'s hand over the worlds ``player`` would sample."""
    seeds, _odds = player._worlds(seat_view, 200)
    held = [
        card for seed in seeds for card in determinize(seat_view, BURA_STANDARD, random.Random(seed)).hands[opponent]
    ]
    return sum(card.suit is seat_view.table.trump for card in held) / len(held)


def test_hard_player_infers_trumps_behind_an_expensive_lead() -> None:
    """Seat 0 led a lone ace although the easy player's habits lead the cheapest card: the worlds the hard
    player samples should mostly give seat 0 cards dearer than that ace, i.e. trumps."""
    match = stacked_match(BURA_STANDARD, deals=[{"hands": {0: "AS 9H JH", 1: "6C 7C 8D"}, "trump": "KH"}])
    match.apply(Lead(0, cards("AS")))
    seat_view = view(match, 1)
    uniform = _trump_share_of_opponent(HardPlayer(BURA_STANDARD, Budget(weighed=1, seed=3)), seat_view, 0)
    inferred = _trump_share_of_opponent(HardPlayer(BURA_STANDARD, Budget(weighed=8, seed=3), miss=0.01), seat_view, 0)
    assert uniform < 0.4
    assert inferred > 0.6


def test_the_opponent_model_leads_the_cheapest_cards() -> None:
    trump = Suit.HEARTS
    assert lead_was_sensible(cards("7C AS 9H"), cards("7C"), BURA_STANDARD, 3, trump)
    assert not lead_was_sensible(cards("7C AS 9H"), cards("AS"), BURA_STANDARD, 3, trump)
    assert lead_was_sensible(cards("AS 9H JH"), cards("AS"), BURA_STANDARD, 3, trump)


def test_the_opponent_model_beats_cheaply_or_dumps_face_down() -> None:
    trump = Suit.HEARTS
    # A led ten is worth beating: with the cheapest card that beats it (the six of trumps, not the ace), open.
    assert answer_was_sensible(cards("AS 6H 7C"), cards("6H"), False, cards("TS"), 10, BURA_STANDARD, trump)
    assert not answer_was_sensible(cards("AS 6H 7C"), cards("AS"), False, cards("TS"), 10, BURA_STANDARD, trump)
    assert not answer_was_sensible(cards("AS 6H 7C"), cards("7C"), True, cards("TS"), 10, BURA_STANDARD, trump)
    # A led six is not worth a trump: the cheapest card goes face down.
    assert answer_was_sensible(cards("9H 7C KD"), cards("7C"), True, cards("6S"), 0, BURA_STANDARD, trump)
    assert not answer_was_sensible(cards("9H 7C KD"), cards("KD"), True, cards("6S"), 0, BURA_STANDARD, trump)


def test_the_opponent_model_is_the_easy_players_habit() -> None:
    """The inference models the others with the easy player's habits: check it agrees with EasyPlayer."""
    for match in _random_states(BURA_STANDARD, 2, 150, seed=5):
        seat = match.to_act()
        assert seat is not None
        seat_view = view(match, seat)
        action = EasyPlayer(BURA_STANDARD).choose(seat_view)
        hand = list(seat_view.hand)
        trump = seat_view.table.trump
        if isinstance(action, Lead):
            cap = min(n for s, n in seat_view.table.hand_sizes if s != seat and n)
            assert lead_was_sensible(hand, action.cards, BURA_STANDARD, cap, trump)
        trick = seat_view.table.trick
        if isinstance(action, RespondOpen | RespondFaceDown) and trick is not None:
            best = current_best(trick)
            value = sum(c.points for c in trick.lead)
            face_down = isinstance(action, RespondFaceDown)
            assert answer_was_sensible(hand, action.cards, face_down, best, value, BURA_STANDARD, trump)


@pytest.mark.parametrize("name", list(PROFILES))
def test_weighed_worlds_are_the_determinized_worlds(name: str) -> None:
    """The inference weighs a world from the others' hands and hidden answers alone (``deal_unseen``): they must
    be the ones ``determinize`` lays out from the same seed, or the worlds played out are not the ones weighed."""
    variant = PROFILES[name]
    for match in _random_states(variant, variant.max_players, 30, seed=4):
        seat = match.to_act()
        assert seat is not None
        seat_view = view(match, seat)
        unseen = unseen_cards(seat_view, variant)
        hands, hidden = deal_unseen(seat_view, unseen, random.Random(9))
        world = determinize(seat_view, variant, random.Random(9), unseen)
        assert hands == {s: h for s, h in world.hands.items() if s != seat}
        tricks = [*world.history, *([world.trick] if world.trick is not None else [])]
        assert hidden == [p.cards for t in tricks for p in t.plays if p.face_down and p.seat != seat]


def test_hard_player_does_not_answer_face_up_what_cannot_beat() -> None:
    """Open cards that do not beat only tell the taker the points he won (and when he may claim): the same
    cards face down do no worse (RULES §6.6)."""
    match = stacked_match(BURA_STANDARD, deals=[{"hands": {0: "AS 9H JH", 1: "6C 7C 8D"}, "trump": "KH"}])
    match.apply(Lead(0, cards("AS")))
    seat_view = view(match, 1)
    moves = undominated(list(seat_view.legal), seat_view)
    assert not any(isinstance(move, RespondOpen) for move in moves)
    assert {move.cards for move in moves if isinstance(move, RespondFaceDown)} == {(c,) for c in seat_view.hand}


def test_no_weighed_world_gives_the_other_side_an_unshown_bura() -> None:
    """A bura wins at once (RULES §9.2): a world where the other seat holds three trumps between tricks is
    impossible, and the inference gives it no weight."""
    match = stacked_match(BURA_STANDARD, deals=[{"hands": {0: "AS 9H JH", 1: "6C 7C 8D"}, "trump": "KH"}])
    match.apply(Lead(0, cards("AS")))
    match.apply(RespondFaceDown(1, cards("6C")))
    seat_view = view(match, 0)
    unseen = unseen_cards(seat_view, BURA_STANDARD)
    inference = Inference(seat_view, determinize(seat_view, BURA_STANDARD, random.Random(0), unseen), 0.1, True)
    trump = seat_view.table.trump
    rng = random.Random(2)
    weighed = 0
    for _ in range(1000):
        hands, hidden = deal_unseen(seat_view, unseen, rng)
        weight = inference.weigh(hands, hidden, rng)
        if all(card.suit is trump for card in hands[1]):
            assert weight == 0.0
            weighed += 1
    assert weighed > 0


def test_sharp_habits_beat_the_easy_player() -> None:
    """Sanity for the hard player's simulations: its own side plays sharper habits than the easy player's
    (about 58% of deals over thousands; here a short run that must not lose)."""
    wins = losses = 0
    rng = random.Random(0)
    for number in range(200):
        match = Match(BURA_STANDARD.with_options(match=SINGLE_DEAL), 2, f"habits/{number}")
        sharp_seat = number % 2
        easy = EasyPlayer(BURA_STANDARD)
        while not match.finished:
            seat = match.to_act()
            assert seat is not None
            if seat == sharp_seat:
                action = rollout_choice(match.deal, match.deal.legal_actions(seat), rng, 0.0, SHARP)
            else:
                action = easy.choose(view(match, seat))
            match.apply(action)
        winners = match.outcomes[-1].winners
        if len(winners) == 1:
            wins += winners[0] == sharp_seat
            losses += winners[0] != sharp_seat
    assert wins > losses


def test_racing_keeps_only_the_moves_close_to_the_best() -> None:
    """After a pass over the same worlds, a move that loses to the best one world after world is out; one whose
    difference is within the noise stays for the next round of worlds."""
    rng = random.Random(4)
    best = [rng.choice((1.0, -1.0)) for _ in range(40)]
    close = [value if rng.random() < 0.9 else -value for value in best]  # differs in a few worlds either way
    worse = [value - 1.0 for value in best]  # a point worse everywhere
    assert close_to_best([0, 1, 2], [best, close, worse], 1.5) == [0, 1]
    assert close_to_best([0, 2], [best, close, worse], 1.5) == [0]


def test_a_close_decision_gets_more_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The racing rounds go to decisions the first pass cannot settle: with racing on, the hard player plays out
    more moves over a game, and still picks legal moves."""
    played = 0
    original = playout_module.play_out

    def counting(*args: Any, **kwargs: Any) -> int:
        nonlocal played
        steps = original(*args, **kwargs)
        played += steps
        return steps

    monkeypatch.setattr(playout_module, "play_out", counting)
    counted: dict[int, int] = {}
    for race in (0, 6000):
        played = 0
        match = Match(BURA_STANDARD.with_options(match=SINGLE_DEAL), 2, "race/1")
        hard = HardPlayer(BURA_STANDARD, Budget(race=race, seed=1))
        easy = EasyPlayer(BURA_STANDARD)
        while not match.finished:
            seat = match.to_act()
            assert seat is not None
            seat_view = view(match, seat)
            action = (hard if seat == 0 else easy).choose(seat_view)
            assert action in seat_view.legal
            match.apply(action)
        counted[race] = played
    assert counted[6000] > counted[0]


@pytest.mark.parametrize("follow", [FollowSuit.NEVER, FollowSuit.SINGLE_LEAD], ids=["sim", "deal"])
def test_hard_player_decides_the_final_claim_after_unopposed_last_cards(follow: FollowSuit) -> None:
    """RULES §7.4, §8.2: when the only player with cards takes them as an unopposed last trick, the final claim
    window opens on a position no world can be laid out for (the view does not say whose pile those cards went
    to: ``unplaced`` counts them). The hard player still answers with one of its legal moves, whether its
    variant plays out on the sim or (a duty to follow suit [V08]) on Deal; drawing to exhaustion [V13] makes the
    hands unequal."""
    variant = BURA_STANDARD.with_options(
        follow_suit=follow, stock_short=StockShort.DRAW_TO_EXHAUSTION, match=SINGLE_DEAL
    )
    hard = HardPlayer(variant, TINY)
    rng = random.Random(5)
    unopposed = 0
    for seed in range(12):
        match = Match(variant, 5, seed)
        while not match.finished and match.deal.phase is not Phase.FINAL_CLAIM:
            seat = match.deal.to_act()
            assert seat is not None
            legal = match.deal.legal_actions(seat)
            match.apply(rng.choice([a for a in legal if not isinstance(a, Claim)] or legal))
        if match.finished:
            continue
        in_piles = sum(len(pile) for pile in match.deal.piles)
        in_tricks = sum(len(t.lead) + sum(len(p.cards) for p in t.plays) for t in match.deal.history)
        seat_view = view(match, match.deal.leader)
        assert unplaced(unseen_cards(seat_view, variant)) == in_piles - in_tricks
        unopposed += in_piles > in_tricks
        assert hard.choose(seat_view) in seat_view.legal
    assert unopposed >= 3
