"""Benchmark: the engine's random play against a bare Bura loop in the same run, and the cost per call.

Run: ``.venv/bin/python -m tests.benchmarks.engine_speed [--seconds S] [--rounds N] [--calls N]``. One process,
one core.

* **bare loop**: :func:`bare_deal`, a plain pure-Python 2-player Bura deal played by random moves to the last
  card (what a competent programmer writes in an afternoon, no engine). It is the floor the engine is measured
  against, in the same run, so a busy neighbour core moves both figures alike.
* **engine**: a BURA_STANDARD 2-player deal from the shuffle to its end, every move a uniformly random legal
  action of the seat to act (claims included, as the random player makes them), each verified by
  ``Deal.apply``. Random deals often end early on a claim (mostly a false one), so they hold fewer tricks than
  the bare loop's: the fair ratio is **per trick**; the ratio per deal is printed beside it.
* the two loops run in alternating slices of 20 deals, so that a busy neighbour slows both alike; ``--rounds``
  repeats the comparison with other seeds and reports each round's ratio, so the spread shows. A second of both
  first (``--warmup``) lets the engine fill its memos of leads and answers, as any long run does.
* the cost of one ``legal_actions`` call (the first on a state, before its cache) and of one ``apply`` call, over
  the states of random play: p50 and p99 in microseconds.
* every profile's random-play deals per second, tricks per deal and actions per deal, for scale.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from itertools import combinations, permutations

from engine.bura.deal import Deal
from engine.bura.variant import BURA_STANDARD, PROFILES, Variant

TARGET = 0.3  # engine tricks per second against the bare loop's, in the same run


def bare_deal(rng: random.Random) -> int:
    """One 2-player Bura deal by random play, written plainly; returns the number of tricks.

    36 cards as the numbers 0..35 (suit ``c // 9``, strength ``c % 9`` in ace-ten order), three cards dealt to
    each one at a time, the next card turned up for trump and put under the stock. The leader leads a uniformly
    random one-suit set of 1-3 of his cards (every such set listed, one picked); the other answers with a random
    set of as many cards; the answer takes the trick if some pairing has each of its cards beat its partner
    (RULES §6.4: every permutation tried). The winner draws first, one card each in turn, while the stock holds
    a card for both; the deal is played to the last card.

    Left out, where the engine does them: claims, combinations and the pre-lead window, face-down answers, seats
    other than two, every variant option, action objects, events, views, the legality check of each move and
    the reason for a refusal.
    """
    deck = list(range(36))
    rng.shuffle(deck)
    hands = [deck[0:6:2], deck[1:6:2]]  # one at a time, the dealer (seat 1) last
    trump = deck[6] // 9
    stock = [deck[6], *reversed(deck[7:])]  # the turned-up card at the bottom, the top last

    def beats(x: int, y: int) -> bool:
        if x // 9 == y // 9:
            return x > y
        return x // 9 == trump

    leader = 0
    tricks = 0
    while hands[leader]:
        hand = hands[leader]
        other = hands[1 - leader]
        leads: list[tuple[int, ...]] = []
        for suit in range(4):
            suited = [card for card in hand if card // 9 == suit]
            for k in range(1, len(suited) + 1):
                leads.extend(combinations(suited, k))
        lead = rng.choice(leads)
        answer = rng.sample(other, len(lead))
        for card in lead:
            hand.remove(card)
        for card in answer:
            other.remove(card)
        if any(all(beats(a, b) for a, b in zip(answer, order, strict=True)) for order in permutations(lead)):
            leader = 1 - leader
        tricks += 1
        while len(stock) >= 2 and len(hand) < 3:  # the trick's winner, now the leader, draws first
            hands[leader].append(stock.pop())
            hands[1 - leader].append(stock.pop())
    return tricks


def engine_deal(variant: Variant, players: int, rng: random.Random, number: int) -> tuple[int, int]:
    """One random deal from the shuffle to its end through the engine; returns (tricks, actions)."""
    seats = tuple(range(players))
    deal = Deal(variant, players, seats, number % players, rng)
    deal.begin()
    actions = 0
    choice = rng.choice
    while not deal.over:
        seat = deal.to_act()
        assert seat is not None
        deal.apply(choice(deal.legal_actions(seat)))
        actions += 1
    return len(deal.history), actions


def timed(play: Callable[[int], tuple[int, int]], seconds: float) -> tuple[float, float, float]:
    """Deals and tricks per second of CPU time (process time: a busy neighbour core does not count), and actions
    per deal."""
    deals = tricks = actions = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds or deals < 10:
        for _ in range(20):
            t, a = play(deals)
            tricks += t
            actions += a
            deals += 1
    return deals / elapsed, tricks / elapsed, actions / deals


def engine_rates(variant: Variant, players: int, seconds: float, seed: int) -> tuple[float, float, float]:
    rng = random.Random(seed)
    return timed(lambda number: engine_deal(variant, players, rng, number), seconds)


def side_by_side(seconds: float, seed: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """(deals/s, tricks/s) of the bare loop and of the engine (BURA_STANDARD, 2 players), run in alternating
    slices of 20 deals until each has had ``seconds`` of CPU time: whatever the neighbours do to this core's
    speed (the machine's two cores are shared), they do to both alike."""
    bare_rng = random.Random(seed)
    engine_rng = random.Random(seed)
    clock = time.process_time
    spent = [0.0, 0.0]
    deals = [0, 0]
    tricks = [0, 0]
    while min(spent) < seconds:
        start = clock()
        for _ in range(20):
            tricks[0] += bare_deal(bare_rng)
        middle = clock()
        for _ in range(20):
            tricks[1] += engine_deal(BURA_STANDARD, 2, engine_rng, deals[1])[0]
            deals[1] += 1
        end = clock()
        deals[0] += 20
        spent[0] += middle - start
        spent[1] += end - middle
    bare, engine = ((deals[i] / spent[i], tricks[i] / spent[i]) for i in range(2))
    return bare, engine


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def call_costs(variant: Variant, players: int, calls: int) -> tuple[list[float], list[float]]:
    """Microseconds of each ``legal_actions`` call (the first on its state) and each ``apply`` of random play."""
    rng = random.Random(7)
    legal_costs: list[float] = []
    apply_costs: list[float] = []
    clock = time.perf_counter
    number = 0
    while len(apply_costs) < calls:
        deal = Deal(variant, players, tuple(range(players)), number % players, rng)
        number += 1
        deal.begin()
        while not deal.over:
            seat = deal.to_act()
            assert seat is not None
            start = clock()
            legal = deal.legal_actions(seat)
            middle = clock()
            deal.apply(rng.choice(legal))
            end = clock()
            legal_costs.append((middle - start) * 1e6)
            apply_costs.append((end - middle) * 1e6)
    return legal_costs, apply_costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per loop and round, and per profile")
    parser.add_argument("--rounds", type=int, default=3, help="bare/engine rounds for the ratio")
    parser.add_argument("--calls", type=int, default=100_000, help="apply calls timed for the per-call costs")
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds of both loops before measuring")
    parser.add_argument("--no-profiles", action="store_true", help="skip the per-profile table")
    args = parser.parse_args()

    side_by_side(args.warmup / 2, 0)  # the engine's memos of leads and answers fill, the interpreter warms

    print("BURA_STANDARD, 2 players, against the bare loop in the same run (rates per CPU second)")
    print(
        f"{'round':>5} {'bare deals/s':>13} {'tricks/s':>10} {'engine deals/s':>15} {'tricks/s':>10} "
        f"{'per trick':>10} {'per deal':>9}"
    )
    per_trick: list[float] = []
    per_deal: list[float] = []
    for round_ in range(1, args.rounds + 1):
        (bare_deals, bare_tricks), (deals, tricks) = side_by_side(args.seconds, round_)
        per_trick.append(tricks / bare_tricks)
        per_deal.append(deals / bare_deals)
        print(
            f"{round_:>5} {bare_deals:>13.0f} {bare_tricks:>10.0f} {deals:>15.0f} {tricks:>10.0f} "
            f"{per_trick[-1]:>10.3f} {per_deal[-1]:>9.3f}"
        )
    trick_ratio = statistics.median(per_trick)
    verdict = "met" if trick_ratio >= TARGET else "NOT met"
    print(
        f"ratio per trick: median {trick_ratio:.3f} (range {min(per_trick):.3f}-{max(per_trick):.3f}); "
        f"per deal: median {statistics.median(per_deal):.3f} (range {min(per_deal):.3f}-{max(per_deal):.3f})"
    )
    print(f"target: engine tricks/s >= {TARGET} of the bare loop's: {verdict}")

    legal_costs, apply_costs = call_costs(BURA_STANDARD, 2, args.calls)
    for name, costs in (("legal_actions", legal_costs), ("apply", apply_costs)):
        print(
            f"{name:<13} over {len(costs)} calls: p50 {percentile(costs, 0.5):.1f} µs, "
            f"p99 {percentile(costs, 0.99):.1f} µs"
        )

    if args.no_profiles:
        return
    print()
    print(f"{'profile':<16} {'players':>7} {'deals/s':>10} {'tricks/deal':>12} {'actions/deal':>13}")
    for name, variant in PROFILES.items():
        counts = [2, 3, 4] if variant.max_players >= 4 else list(range(variant.min_players, variant.max_players + 1))
        for players in counts:
            deals, tricks, per_deal_actions = engine_rates(variant, players, args.seconds, 12345)
            print(f"{name:<16} {players:>7} {deals:>10.0f} {tricks / deals:>12.1f} {per_deal_actions:>13.1f}")


if __name__ == "__main__":
    main()
