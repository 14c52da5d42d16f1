"""Benchmark: complete random-play deals per second per profile, and the cost of ``legal_actions``.

Run: ``.venv/bin/python -m tests.benchmarks.engine_speed [--seconds S]``. One process, one core.
A deal is played by random legal moves of the seat to act (claims included, as the random player makes
them), from the deal to its end; the figures go to BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import random
import time

from engine.deal import Deal
from engine.variant import BURA_STANDARD, PROFILES, Variant


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
    rng = random.Random(12345)
    deals = actions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(50):
            actions += play_deal(variant, players, rng, deals)
            deals += 1
    return deals / elapsed, actions / deals


def legal_actions_cost(variant: Variant, players: int, samples: int = 20_000) -> float:
    """Mean microseconds per ``legal_actions`` call, over states met in random play."""
    rng = random.Random(7)
    states: list[tuple[Deal, int]] = []
    while len(states) < 2_000:
        deal = Deal(variant, players, tuple(range(players)), 0, rng)
        deal.begin()
        while not deal.over:
            seat = deal.to_act()
            assert seat is not None
            states.append((deal, seat))
            deal.apply(rng.choice(deal.legal_actions(seat)))
            break  # keep the first state of each deal alive; later states are equivalent in cost
    start = time.perf_counter()
    for index in range(samples):
        deal, seat = states[index % len(states)]
        deal.legal_actions(seat)
    return (time.perf_counter() - start) / samples * 1e6


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
    rate, _ = deals_per_second(BURA_STANDARD, 2, args.seconds)
    print(f"target: BURA_STANDARD 2 players >= 5000 deals/s on one core: {rate:.0f} ({'met' if rate >= 5000 else 'NOT met'})")


if __name__ == "__main__":
    main()
