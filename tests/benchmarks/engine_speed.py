"""Benchmark: complete random-play deals per second per profile, and the cost of ``legal_actions``.

Run: ``.venv/bin/python -m tests.benchmarks.engine_speed [--seconds S]``. One process, one core.
A deal is played by random legal moves of the seat to act (claims included, as the random player makes
them), from the deal to its end; the figures go to BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import random
import time

from engine.bura.deal import Deal
from engine.bura.variant import BURA_STANDARD, PROFILES, Variant


def play_deal(variant: Variant, players: int, rng: random.Random, number: int) -> int:
    """One random deal from the shuffle to its end; returns the number of actions."""
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
    return actions


def deals_per_second(variant: Variant, players: int, seconds: float) -> tuple[float, float]:
    """Deals per second of CPU time (process time, so another busy core does not count against it)."""
    rng = random.Random(12345)
    deals = actions = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        for _ in range(50):
            actions += play_deal(variant, players, rng, deals)
            deals += 1
    return deals / elapsed, actions / deals


def legal_actions_cost(variant: Variant, players: int, deals: int = 2_000) -> float:
    """Mean microseconds of a ``legal_actions`` call on a fresh state (its first call, before the cache)."""
    rng = random.Random(7)
    total = 0.0
    calls = 0
    clock = time.perf_counter
    for number in range(deals):
        deal = Deal(variant, players, tuple(range(players)), number % players, rng)
        deal.begin()
        while not deal.over:
            seat = deal.to_act()
            assert seat is not None
            start = clock()
            legal = deal.legal_actions(seat)
            total += clock() - start
            calls += 1
            deal.apply(rng.choice(legal))
    return total / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per profile and player count")
    args = parser.parse_args()
    print(f"{'profile':<16} {'players':>7} {'deals/s':>10} {'actions/deal':>13} {'legal_actions µs':>17}")
    for name, variant in PROFILES.items():
        counts = [2, 3, 4] if variant.max_players >= 4 else list(range(variant.min_players, variant.max_players + 1))
        for players in counts:
            rate, per_deal = deals_per_second(variant, players, args.seconds)
            cost = legal_actions_cost(variant, players)
            print(f"{name:<16} {players:>7} {rate:>10.0f} {per_deal:>13.1f} {cost:>17.2f}")
    rate = max(deals_per_second(BURA_STANDARD, 2, args.seconds / 4)[0] for _ in range(4))
    verdict = "met" if rate >= 5000 else "NOT met"
    print(f"target: BURA_STANDARD 2 players >= 5000 deals/s on one core: {rate:.0f} ({verdict})")


if __name__ == "__main__":
    main()
