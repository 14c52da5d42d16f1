"""Benchmark: Buraco Aberto's engine and computer players (engine/buraco, engine/buraco/ai).

Run: ``.venv/bin/python -m tests.benchmarks.buraco [--seconds S] [--states N] [--deals N] [--workers N]``.

Prints, on one process (one core) unless ``--workers`` says otherwise:

* random-play deals per second of CPU time: every move a uniformly random legal action of the seat to act,
  from the shuffle to the end of the deal; beside it the bare floor, a deal where every seat draws from the stock
  and discards its first legal card (the engine's cost of a deal with no melding at all), and the easy player's
  deals for scale;
* the cost of ``legal_actions`` per call (the first call on a state, before its cache): p50, p99 and max in
  microseconds, over the states of random play;
* strength: the hard player against the easy one over ``--deals`` single deals played as duplicate pairs -- the
  same shuffle twice, the hard player on seats 0+2 and then on 1+3 -- and the share of deals the hard pair won
  by deal score (a tie wins nothing), with a 95% Wilson interval; the share of pairs won on the two deals' total;
  the mean margin per deal;
* the hard player's decision time (wall clock per ``choose``, view built outside): p50, p95, p99, max.

Every deal of the strength run is seeded by its pair's number alone, so ``--workers`` changes only the time.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Iterable
from multiprocessing.pool import Pool

from engine.buraco.actions import Discard, DrawStock
from engine.buraco.ai import Budget, EasyPlayer, HardPlayer
from engine.buraco.cards import deck
from engine.buraco.deal import Deal
from engine.buraco.match import Match
from engine.buraco.views import seat_view

TARGET_SHARE = 0.60
TARGET_P95 = 1.0  # seconds


def random_deal(rng: random.Random, number: int) -> int:
    """One deal of uniformly random legal moves; returns the number of actions."""
    order = deck()
    rng.shuffle(order)
    deal = Deal(number % 4, order)
    actions = 0
    choice = rng.choice
    while not deal.over:
        seat = deal.turn
        deal.apply(choice(deal.legal_actions(seat)))
        actions += 1
    return actions


def bare_deal(rng: random.Random, number: int) -> int:
    """The floor: draw from the stock and discard the first card allowed, every turn."""
    order = deck()
    rng.shuffle(order)
    deal = Deal(number % 4, order)
    actions = 0
    while not deal.over:
        seat = deal.turn
        legal = deal.legal_actions(seat)
        action = next((a for a in legal if isinstance(a, (DrawStock, Discard))), legal[0])
        deal.apply(action)
        actions += 1
    return actions


def easy_deal(rng: random.Random, number: int) -> int:
    match = Match(f"speed/easy/{number}", target=1)
    player = EasyPlayer()
    actions = 0
    while not match.finished:
        seat = match.to_act()
        assert seat is not None
        match.apply(player.choose(seat_view(match, seat)))
        actions += 1
    return actions


def rate(play: Callable[[random.Random, int], int], seconds: float) -> tuple[float, float]:
    """Deals per second of CPU time and actions per deal."""
    rng = random.Random(12345)
    deals = actions = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds or deals < 5:
        actions += play(rng, deals)
        deals += 1
    return deals / elapsed, actions / deals


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def legal_actions_cost(states: int) -> list[float]:
    """Microseconds of the first ``legal_actions`` call on each state of random play."""
    rng = random.Random(7)
    costs: list[float] = []
    clock = time.perf_counter
    number = 0
    while len(costs) < states:
        order = deck()
        rng.shuffle(order)
        deal = Deal(number % 4, order)
        number += 1
        while not deal.over and len(costs) < states:
            seat = deal.turn
            start = clock()
            legal = deal.legal_actions(seat)
            costs.append((clock() - start) * 1e6)
            deal.apply(rng.choice(legal))
    return costs


def wilson(wins: int, total: int, z: float = 1.96) -> tuple[float, float]:
    if total == 0:
        return (0.0, 1.0)
    p = wins / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return (centre - half, centre + half)


def duplicate_pair(number: int) -> tuple[list[int], list[float]]:
    """One shuffle played twice, the hard pair on seats 0+2 and then on 1+3: the hard pair's margin in each deal
    and the hard player's decision times."""
    margins: list[int] = []
    times: list[float] = []
    for hard_side in (0, 1):
        match = Match(f"buraco/duplicate/{number}", target=1)  # the same seed: the same dealer and shuffle
        players = {
            seat: HardPlayer(Budget(seed=f"{number}/{seat}")) if seat % 2 == hard_side else EasyPlayer()
            for seat in range(4)
        }
        while not match.finished:
            seat = match.to_act()
            assert seat is not None
            view = seat_view(match, seat)
            started = time.perf_counter()
            action = players[seat].choose(view)
            if seat % 2 == hard_side:
                times.append(time.perf_counter() - started)
            match.apply(action)
        scores = match.history[-1]
        margins.append(scores[hard_side].total - scores[1 - hard_side].total)
    return margins, times


def strength(deals: int, workers: int) -> None:
    pairs = max(1, deals // 2)
    started = time.perf_counter()
    cpu = time.process_time()
    pool = Pool(workers) if workers > 1 else None
    results: Iterable[tuple[list[int], list[float]]] = (
        pool.imap(duplicate_pair, range(pairs), chunksize=4) if pool is not None else map(duplicate_pair, range(pairs))
    )
    margins: list[int] = []
    pair_wins = pair_ties = 0
    times: list[float] = []
    for pair_margins, pair_times in results:
        margins += pair_margins
        times += pair_times
        pair_wins += sum(pair_margins) > 0
        pair_ties += sum(pair_margins) == 0
    if pool is not None:
        pool.close()
        pool.join()
    wall = time.perf_counter() - started
    total = len(margins)
    wins = sum(margin > 0 for margin in margins)
    ties = sum(margin == 0 for margin in margins)
    low, high = wilson(wins, total)
    pair_low, pair_high = wilson(pair_wins, pairs)
    mean = sum(margins) / total
    spread = math.sqrt(sum((m - mean) ** 2 for m in margins) / max(1, total - 1))
    print(f"hard vs easy, duplicate: {pairs} pairs = {total} deals, wall {wall / 60:.1f} min", end="")
    print(
        f" ({workers} worker{'s' if workers > 1 else ''}; main-process CPU {(time.process_time() - cpu) / 60:.1f} min)"
    )
    print(f"  deals won by hard: {wins}/{total} = {wins / total:.1%}  95% CI {low:.1%}-{high:.1%}  (ties {ties})")
    print(f"  pairs won by hard on the two deals' total: {pair_wins}/{pairs} = {pair_wins / pairs:.1%}", end="")
    print(f"  95% CI {pair_low:.1%}-{pair_high:.1%}  (ties {pair_ties})")
    print(f"  mean margin per deal: {mean:+.0f} points (95% CI ±{1.96 * spread / math.sqrt(total):.0f})")
    verdict = "met" if wins / total >= TARGET_SHARE else "NOT met"
    print(f"  target: hard wins >= {TARGET_SHARE:.0%} of deals: {verdict}")
    ms = [t * 1000 for t in times]
    p95 = percentile(ms, 0.95)
    print(
        f"hard decision time over {len(ms)} decisions: p50 {percentile(ms, 0.50):.1f} ms, p95 {p95:.1f} ms, "
        f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms; mean {sum(ms) / len(ms):.1f} ms"
    )
    print(f"  target: p95 < {TARGET_P95 * 1000:.0f} ms: {'met' if p95 < TARGET_P95 * 1000 else 'NOT met'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per deals-per-second figure")
    parser.add_argument("--states", type=int, default=100_000, help="legal_actions calls timed")
    parser.add_argument("--deals", type=int, default=1000, help="deals of hard against easy (pairs = deals / 2)")
    parser.add_argument("--workers", type=int, default=1, help="processes for the strength run")
    args = parser.parse_args()
    print(f"Buraco defaults: hard player {Budget()}")
    for name, play in (("random play", random_deal), ("bare floor", bare_deal), ("easy players", easy_deal)):
        per_second, per_deal = rate(play, args.seconds)
        print(f"{name:<13} {per_second:>8.1f} deals/s  {per_deal:>6.1f} actions/deal")
    costs = legal_actions_cost(args.states)
    print(
        f"legal_actions over {len(costs)} calls: p50 {percentile(costs, 0.5):.1f} µs, "
        f"p99 {percentile(costs, 0.99):.1f} µs, max {max(costs):.1f} µs; mean {sum(costs) / len(costs):.1f} µs"
    )
    if args.deals:
        strength(args.deals, args.workers)


if __name__ == "__main__":
    main()
