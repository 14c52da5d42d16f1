"""Benchmark: strength of the computer players, pairing by pairing, and the hard player's decision time.

Run: ``.venv/bin/python -m tests.benchmarks.ai_strength [--deals N] [--games bura,burkozel] [--workers N]``.
Each deal is a single deal (SINGLE_DEAL) with fresh cards; the two levels swap seats every deal. In 4-player
Буркозёл each level plays a 2x2 team (seats 0+2 against 1+3). A deal is "decided" when exactly one side wins it
(a void deal or a 60:60 tie decides nothing). The share of decided deals won comes with a 95% Wilson interval.

Every deal is seeded by its number alone (the cards, and the seed of each computer player), so ``--workers``
only spreads the deals over processes: the results are the same for any number of workers.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Iterable
from multiprocessing.pool import Pool

from engine.bura.ai import Budget, EasyPlayer, HardPlayer
from engine.bura.match import Match
from engine.bura.players import Player, RandomPlayer
from engine.bura.variant import BURA_STANDARD, BURKOZEL, SINGLE_DEAL, Variant
from engine.bura.views import view

Maker = Callable[[Variant, int], Player]
LEVELS: dict[str, Maker] = {
    "hard": lambda variant, seed: HardPlayer(variant, Budget.default(variant, seed=seed)),
    "easy": lambda variant, seed: EasyPlayer(variant),
    "random": lambda variant, seed: RandomPlayer(random.Random(seed)),
}


def wilson(wins: int, total: int, z: float = 1.96) -> tuple[float, float]:
    if total == 0:
        return (0.0, 1.0)
    p = wins / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return (centre - half, centre + half)


GAMES: dict[str, tuple[Variant, int]] = {"bura": (BURA_STANDARD, 2), "burkozel": (BURKOZEL, 4)}


def play_deal(task: tuple[str, str, str, int]) -> tuple[int, list[float]]:
    """One deal of a pairing: (1 if level a won, -1 if level b won, 0 if undecided; the hard player's times)."""
    game, a, b, number = task
    variant, players = GAMES[game]
    single = variant.with_options(match=SINGLE_DEAL)
    match = Match(single, players, f"strength/{a}/{b}/{number}")
    a_side = number % 2  # the levels swap sides every deal
    seats = {seat: (a if seat % 2 == a_side else b) for seat in range(players)}
    brains = {seat: LEVELS[level](single, number * 10 + seat) for seat, level in seats.items()}
    times: list[float] = []
    while not match.finished:
        seat = match.to_act()
        assert seat is not None
        started = time.perf_counter()
        action = brains[seat].choose(view(match, seat))
        if seats[seat] == "hard":
            times.append(time.perf_counter() - started)
        match.apply(action)
    winners = match.outcomes[-1].winners
    if len(winners) != 1:
        return 0, times
    return (1 if winners[0] % 2 == a_side else -1), times


def duel(game: str, a: str, b: str, deals: int, times: list[float], pool: Pool | None = None) -> tuple[int, int, int]:
    """Returns (wins of a, wins of b, undecided deals); appends the hard player's decision times."""
    tasks = [(game, a, b, number) for number in range(deals)]
    results: Iterable[tuple[int, list[float]]] = (
        pool.imap(play_deal, tasks, chunksize=4) if pool is not None else map(play_deal, tasks)
    )
    wins_a = wins_b = undecided = 0
    for result, taken in results:
        times.extend(taken)
        if result > 0:
            wins_a += 1
        elif result < 0:
            wins_b += 1
        else:
            undecided += 1
    return wins_a, wins_b, undecided


def _report_times(label: str, times: list[float]) -> None:
    if times:
        print(
            f"hard decision time{label} over {len(times)} decisions: p50 {percentile(times, 0.5) * 1000:.0f} ms, "
            f"p95 {percentile(times, 0.95) * 1000:.0f} ms, p99 {percentile(times, 0.99) * 1000:.0f} ms, "
            f"max {max(times) * 1000:.0f} ms",
            flush=True,
        )


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--games", default="bura,burkozel")
    parser.add_argument("--pairings", default="hard-easy,easy-random,hard-random")
    parser.add_argument("--workers", type=int, default=1, help="processes to spread the deals over")
    args = parser.parse_args()
    pool = Pool(args.workers) if args.workers > 1 else None
    times: list[float] = []
    print(f"{'game':<10} {'pairing':<12} {'deals':>6} {'decided':>8} {'A wins':>7} {'share':>7} {'95% CI':>16}")
    try:
        for game in args.games.split(","):
            game_times: list[float] = []
            for pairing in args.pairings.split(","):
                a, b = pairing.split("-")
                wins_a, wins_b, _undecided = duel(game, a, b, args.deals, game_times, pool)
                decided = wins_a + wins_b
                low, high = wilson(wins_a, decided)
                share = wins_a / decided if decided else float("nan")
                print(
                    f"{game:<10} {pairing:<12} {args.deals:>6} {decided:>8} {wins_a:>7} {share:>7.1%} "
                    f"{f'{low:.1%}-{high:.1%}':>16}",
                    flush=True,
                )
            _report_times(f" in {game}", game_times)
            times.extend(game_times)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    _report_times("", times)


if __name__ == "__main__":
    main()
