"""The playout policy of the hard player's simulations: heuristic habits played on a :class:`~engine.bura.ai.sim.Sim`.

:func:`habit_move` chooses as the easy player would (engine/bura/ai/easy.py) by the given :class:`Habits`, straight
from a ``Sim``'s plain lists and without building the list of legal moves, with a random move now and then;
:func:`play_out` plays a ``Sim`` to its end that way, one side by its own habits and the others by the easy
player's. tests/engine/bura/test_ai_sim.py checks that it chooses what ``search.rollout_choice`` chooses on the
same ``Deal``.
"""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

from engine.bura.cards import Card, deck
from engine.bura.variant import Discards
from engine.core.cards import Suit

from .easy import EASY, Habits, card_cost, set_beats_fast
from .sim import (
    CLAIM_MOVE,
    DOWN,
    FINAL_PHASE,
    LEAD,
    LEAD_PHASE,
    OPEN,
    OVER_PHASE,
    PASS_MOVE,
    RESPOND_PHASE,
    Move,
    Sim,
    suit_runs,
)

_COSTS: dict[tuple[Suit, int], dict[Card, int]] = {}


def costs_of(trump: Suit, keep: int) -> dict[Card, int]:
    """``card_cost`` of every card, for a trump suit and a value of keeping trumps."""
    table = _COSTS.get((trump, keep))
    if table is None:
        table = _COSTS[(trump, keep)] = {card: card_cost(card, trump, keep) for card in deck(36)}
    return table


COSTS: dict[Suit, dict[Card, int]] = {suit: costs_of(suit, 12) for suit in Suit}


def habit_move(sim: Sim, rng: random.Random, epsilon: float, habits: Habits = EASY) -> Move:
    """The move of the seat to act by heuristic ``habits``, a random one with odds ``epsilon`` (as
    ``search.rollout_choice`` chooses on a ``Deal``)."""
    phase = sim.phase
    if sim.threshold is not None and phase != RESPOND_PHASE and sim.may_claim():
        seat = sim.leader
        points = sim.known[seat] + habits.unseen * sim.unseen[seat]
        if points >= sim.threshold:
            return CLAIM_MOVE
        if phase == FINAL_PHASE:
            return PASS_MOVE
    costs = COSTS[sim.trump] if habits.keep == 12 else costs_of(sim.trump, habits.keep)
    if phase == LEAD_PHASE:
        if sim.forced is not None:
            return (LEAD, sim.forced)
        # Within a suit a card costs more the stronger it is, so the cheapest lead of k cards of a suit is its
        # k weakest: only those are weighed (in the order of leads(), so ties go the same way).
        hand = sim.hands[sim.leader]
        sizes = sim.lead_sizes()
        spread = habits.spread
        chosen: tuple[Card, ...] = ()
        key: tuple[float, int] | None = None
        count = 0
        for start, stop in suit_runs(hand):
            held = stop - start
            cost = 0
            taken = 0
            for k in sizes:
                if k > held:
                    break
                count += comb(held, k)
                while taken < k:
                    cost += costs[hand[start + taken]]
                    taken += 1
                here = (cost / k - spread * k, cost)
                if key is None or here < key:
                    key, chosen = here, tuple(hand[start : start + k])
        if count > 1 and epsilon and rng.random() < epsilon:
            return (LEAD, rng.choice(sim.leads()))
        return (LEAD, chosen)
    # The easy answer weighed combination by combination, without building every move (as easy.easy_answer
    # over answers() would choose: the first of equal ones in the same order).
    hand = sim.hands[sim.responders[0]]
    k = min(len(sim.lead), len(hand))
    best = sim.best
    trump = sim.trump
    discards = sim.rules.discards
    beater: tuple[Card, ...] | None = None
    least_beating = 0
    cheapest: tuple[Card, ...] | None = None  # of every combination
    least = 0
    cheapest_open: tuple[Card, ...] | None = None  # of those that do not beat
    least_open = 0
    combos = 0
    beating = 0
    for chosen in combinations(hand, k):
        combos += 1
        cost = 0
        for card in chosen:
            cost += costs[card]
        if set_beats_fast(chosen, best, trump):
            beating += 1
            if beater is None or cost < least_beating:
                beater, least_beating = chosen, cost
        elif cheapest_open is None or cost < least_open:
            cheapest_open, least_open = chosen, cost
        if cheapest is None or cost < least:
            cheapest, least = chosen, cost
    if discards is Discards.OPEN:
        count = combos
    elif discards is Discards.FACE_DOWN_OPTIONAL:
        count = 2 * combos
    else:
        count = combos + beating
    if count == 1:
        return sim.answers()[0]
    if epsilon and rng.random() < epsilon:
        return rng.choice(sim.answers())
    if beater is not None:
        gain = sim.open_value
        for card in beater:
            gain += card.points
        if gain >= habits.gain or least_beating <= habits.cheap * k:
            return (OPEN, beater)
    assert cheapest is not None
    if discards is not Discards.OPEN:
        return (DOWN, cheapest)
    return (OPEN, cheapest_open if cheapest_open is not None else cheapest)


def play_out(
    sim: Sim,
    rng: random.Random,
    epsilon: float,
    side: int,
    others: float,
    habits: Habits,
    limit: int = 400,
    tricks: int | None = None,
) -> int:
    """Play ``sim`` to its end: ``side`` by ``habits`` with ``epsilon`` random moves, the other sides by the easy
    player's habits with ``others`` (as ``search.play_out`` on a ``Deal``); with ``tricks``, stop as well at the
    first lead once the sides have taken that many tricks in all. Returns the number of moves played."""
    steps = 0
    side_of = sim.side_of
    while sim.phase != OVER_PHASE and steps < limit:
        if tricks is not None and sim.phase == LEAD_PHASE and sum(sim.tricks) >= tricks:
            break
        if side_of[sim.to_act()] == side:
            sim.apply(habit_move(sim, rng, epsilon, habits))
        else:
            sim.apply(habit_move(sim, rng, others))
        steps += 1
    return steps
