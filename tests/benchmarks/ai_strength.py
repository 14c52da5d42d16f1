"""Benchmark: strength of the computer players by duplicate deals, along a ladder, with ratings and decision times.

Run: ``.venv/bin/python -m tests.benchmarks.ai_strength [--pairs N] [--games bura,burkozel]
[--pairings easy-random,hard-easy,hard4-hard,hard-random] [--workers N] [--out FILE]``.

**Duplicate deals.** Each shuffle is played twice, the two levels swapping seats: level A on side 0 and B on side
1, then the same cards with B on side 0 and A on side 1 (in 4-player Буркозёл each level is a 2x2 team, seats
0+2 against 1+3). Whatever luck the cards bring, both levels get it once, so what is left is the play. A deal is
decided when exactly one side wins it (a void deal or a 60:60 tie decides nothing).

**Shares and intervals.** Per pairing: the share of decided deals won by A, with a 95% interval over pairs (the
two deals of a pair share their cards, so they are not independent): the share is a ratio of sums over pairs,
W/D, and its standard error comes from the pairs' residuals w_i - share * d_i (the delta method with the pair as
the unit), ``1.96 * sqrt(sum(r_i^2) / (n (n - 1))) / mean(d)``. Also shown: the pairs A won both deals of, split,
and lost both; and, for comparison, the Wilson interval that takes the deals as independent.

**Ratings.** A Bradley-Terry fit over the decided deals of all pairings of a game, on the Elo scale (400 points
is 10:1 odds), random anchored at 0. A chain of pairings gives each step's Elo difference.

**Decision times.** Wall clock of ``choose`` per decision of each level, inside the worker process: p50, p95,
p99 and max per level and game. They depend on what else runs on the machine (say what did).

**Levels.** ``hard`` is the hard player with the bot's budget for the table (``Budget.default``), ``hard4`` with
four times that; ``base`` with the base budget (the field defaults of ``Budget``), the bot's in Буркозёл and a third
of its in two-player Бура, and ``baseN`` with N times the base (``base4``, ``base16``): levels named by their work,
whatever the bot's default is. ``base`` and ``baseN`` play every playout to the end (horizon 0); the bot's budget
in two-player Бура with the standard rules lets the learned value judge them after one trick
(engine/bura/ai/value.py), and ``valueN`` is N times the base with that value.

**Peeking levels (a diagnostic, not players).** ``peek`` is the hard player with the base budget whose every sampled
world gives the other seats the hands they really hold (the stock and the face-down answers are still sampled), and
``peek4`` the same with four times the budget and the other side's playouts without random moves (the easy player
exactly). Against the easy player they bound what any inference about the other hand could add to the search: pairings
``peek-easy`` and ``peek4-easy``, not played by default.

**Reproducible, resumable.** Pair N of a game is seeded by N alone (the cards, the dealer, each computer's
seed), so ``--workers`` changes only the wall time. With ``--out`` every pair's result is appended to a JSON-lines
file as it finishes (gzip-compressed if its name ends in ``.gz``: tests/benchmarks/records.py); a later run with
the same file skips the pairs it holds and reports over pairs 0..N-1, so a long run can be stopped and resumed,
or extended with a larger ``--pairs``. ``--report`` only reads the file. The kept runs are in docs/lab/results/.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from multiprocessing.pool import Pool
from pathlib import Path

from engine.bura.actions import Action
from engine.bura.ai import Budget, EasyPlayer, HardPlayer, worlds
from engine.bura.ai.worlds import Layout, Unseen
from engine.bura.cards import Card
from engine.bura.match import Match
from engine.bura.players import Player, RandomPlayer
from engine.bura.variant import BURA_STANDARD, BURKOZEL, SINGLE_DEAL, Variant
from engine.bura.views import SeatView, view
from tests.benchmarks import records


@contextmanager
def seeing(hands: dict[int, list[Card]]) -> Iterator[None]:
    """While it lasts, every world laid out (``worlds._lay``: determinize, lay_out, deal_unseen) gives the other
    seats the cards of ``hands``; the rest of the unseen cards are shuffled as before."""
    lay = worlds._lay

    def peeking(view: SeatView, unseen: Unseen, rng: random.Random, variant: Variant | None) -> Layout:
        return lay(view, unseen, _TruthFirst(rng, view, unseen, hands), variant)

    worlds._lay = peeking
    try:
        yield
    finally:
        worlds._lay = lay


class Peeking(HardPlayer):
    """The hard player with the others' true hands in every world it samples (a diagnostic: see the module
    docstring). :func:`play_deal` tells it the hands before each decision (:attr:`hands`)."""

    hands: dict[int, list[Card]] | None = None

    def choose(self, view: SeatView) -> Action:
        with seeing(self.hands or {}):
            return super().choose(view)


class _TruthFirst(random.Random):
    """A shuffle that puts the others' true cards first, where ``worlds._lay`` deals the others' hands from
    (after the cards pinned to them), and the rest in ``rng``'s order."""

    def __init__(self, rng: random.Random, view: SeatView, unseen: Unseen, hands: dict[int, list[Card]]) -> None:
        super().__init__(0)
        self.rng = rng
        self.front = [
            card
            for seat in view.table.seats
            if seat != view.seat
            for card in hands.get(seat, [])
            if card not in unseen.pinned.get(seat, [])
        ]
        self.placed = set(self.front)

    def shuffle(self, x: list[Card]) -> None:  # type: ignore[override]
        self.rng.shuffle(x)
        x[:] = [*self.front, *(card for card in x if card not in self.placed)]


Maker = Callable[[Variant, int, str], Player]  # (variant, players, seed)
LEVELS: dict[str, Maker] = {
    "random": lambda variant, players, seed: RandomPlayer(random.Random(seed)),
    "easy": lambda variant, players, seed: EasyPlayer(variant),
    "base": lambda variant, players, seed: HardPlayer(variant, Budget(seed=seed)),
    "hard": lambda variant, players, seed: HardPlayer(variant, Budget.default(variant, players, seed=seed)),
    "hard4": lambda variant, players, seed: HardPlayer(variant, Budget.default(variant, players, seed=seed).scaled(4)),
    "peek": lambda variant, players, seed: Peeking(variant, Budget(seed=seed)),
    "peek4": lambda variant, players, seed: Peeking(variant, Budget(seed=seed).scaled(4), others_epsilon=0.0),
}
LADDER = ("random", "easy", "base", "hard", "hard4")  # the order levels are printed in


def level(name: str) -> Maker | None:
    """The maker of level ``name``: one of :data:`LEVELS`, ``baseN`` (N times the base budget) or ``valueN`` (the
    same with the learned value), or None."""
    if name in LEVELS:
        return LEVELS[name]
    for prefix, horizon in (("base", 0), ("value", 1)):
        times = name.removeprefix(prefix)
        if times != name and times.isdigit() and int(times) >= 1:
            budget = Budget(horizon=horizon).scaled(int(times))
            return lambda variant, players, seed: HardPlayer(variant, replace(budget, seed=seed))
    return None


GAMES: dict[str, tuple[Variant, int]] = {"bura": (BURA_STANDARD, 2), "burkozel": (BURKOZEL, 4)}
Z = 1.96


def play_deal(game: str, levels: dict[int, str], number: int) -> tuple[int | None, dict[str, list[float]]]:
    """One deal of shuffle ``number``, ``levels[side]`` playing each side: the winning side (None if the deal
    decided nothing) and each level's decision times in milliseconds."""
    variant, players = GAMES[game]
    single = variant.with_options(match=SINGLE_DEAL)
    match = Match(single, players, f"duplicate/{number}")
    sides = {seat: match.side_of(seat) for seat in range(players)}
    brains = {}
    for at, side in sides.items():
        maker = level(levels[side])
        assert maker is not None, f"unknown level {levels[side]}"
        brains[at] = maker(single, players, f"{number}/{at}")
    times: dict[str, list[float]] = {name: [] for name in levels.values()}
    while not match.finished:
        seat = match.to_act()
        assert seat is not None
        seat_view = view(match, seat)
        brain = brains[seat]
        if isinstance(brain, Peeking):
            brain.hands = {other: list(hand) for other, hand in match.deal.hands.items() if other != seat}
        started = time.perf_counter()
        action = brain.choose(seat_view)
        times[levels[sides[seat]]].append(round((time.perf_counter() - started) * 1000, 2))
        match.apply(action)
    winners = match.outcomes[-1].winners
    return (winners[0] if len(winners) == 1 else None), times


def play_pair(task: tuple[str, str, str, int]) -> dict[str, object]:
    """Both deals of pair ``number`` of ``a`` against ``b``: the deals A won and the decided ones, and the times."""
    game, a, b, number = task
    won = decided = 0
    times: dict[str, list[float]] = {a: [], b: []}
    for a_side in (0, 1):
        winner, taken = play_deal(game, {a_side: a, 1 - a_side: b}, number)
        if winner is not None:
            decided += 1
            won += winner == a_side
        for level, values in taken.items():
            times[level].extend(values)
    return {"game": game, "pairing": f"{a}-{b}", "pair": number, "won": won, "decided": decided, "times": times}


# -- statistics ---------------------------------------------------------------------------------------------------


def wilson(wins: int, total: int, z: float = Z) -> tuple[float, float]:
    """The Wilson interval of a share of independent trials."""
    if total == 0:
        return (0.0, 1.0)
    p = wins / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return (centre - half, centre + half)


def paired_share(results: list[tuple[int, int]], z: float = Z) -> tuple[float, float, float]:
    """The share of decided deals won, W/D over pairs of (won, decided), and its interval with the pair as the
    unit (delta method for a ratio of means: the residuals w_i - share * d_i)."""
    n = len(results)
    won = sum(w for w, _ in results)
    decided = sum(d for _, d in results)
    if n < 2 or decided == 0:
        return (float("nan"), 0.0, 1.0)
    share = won / decided
    residuals = sum((w - share * d) ** 2 for w, d in results)
    half = z * math.sqrt(residuals / (n * (n - 1))) / (decided / n)
    return (share, max(0.0, share - half), min(1.0, share + half))


def elo(share: float) -> float:
    """The Elo difference that makes ``share`` the expected score."""
    share = min(max(share, 1e-6), 1 - 1e-6)
    return 400 * math.log10(share / (1 - share))


def bradley_terry(wins: dict[tuple[str, str], tuple[int, int]], anchor: str) -> dict[str, float]:
    """Ratings (Elo scale, ``anchor`` at 0) of the levels of ``wins``: (a, b) -> (deals a won, deals b won),
    by the minorization-maximization iteration of the Bradley-Terry likelihood."""
    levels = sorted({level for pair in wins for level in pair})
    strength = dict.fromkeys(levels, 1.0)
    for _ in range(2000):
        updated = {}
        for level in levels:
            total = 0.0
            games = 0.0
            for (a, b), (won_a, won_b) in wins.items():
                if level not in (a, b):
                    continue
                other = b if level == a else a
                total += won_a if level == a else won_b
                games += (won_a + won_b) / (strength[level] + strength[other])
            updated[level] = max(total, 0.5) / games if games else strength[level]
        norm = updated.get(anchor, 1.0)
        strength = {level: value / norm for level, value in updated.items()}
    return {level: 400 * math.log10(value) for level, value in strength.items()}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


# -- running and reporting ----------------------------------------------------------------------------------------


@dataclass
class Results:
    """The pairs played, by (game, pairing): pair number -> (won, decided); and the decision times per level."""

    pairs: dict[tuple[str, str], dict[int, tuple[int, int]]] = field(default_factory=dict)
    times: dict[tuple[str, str, str], dict[int, list[float]]] = field(default_factory=dict)

    def add(self, record: dict[str, object]) -> None:
        game, pairing, number = str(record["game"]), str(record["pairing"]), int(str(record["pair"]))
        self.pairs.setdefault((game, pairing), {})[number] = (int(str(record["won"])), int(str(record["decided"])))
        times = record["times"]
        assert isinstance(times, dict)
        for level, values in times.items():
            self.times.setdefault((game, pairing, level), {})[number] = list(values)


def load(path: Path | None) -> Results:
    results = Results()
    for record in records.read(path):
        results.add(record)
    return results


def run(tasks: list[tuple[str, str, str, int]], workers: int, results: Results, out: Path | None, every: int) -> None:
    pool = Pool(workers) if workers > 1 else None
    started = time.perf_counter()
    with ExitStack() as stack:
        stream = stack.enter_context(records.appending(out)) if out is not None else None
        try:
            done: Iterable[dict[str, object]] = (
                pool.imap_unordered(play_pair, tasks) if pool is not None else map(play_pair, tasks)
            )
            for count, record in enumerate(done, 1):
                results.add(record)
                if stream is not None:
                    records.append(stream, [record])
                if every and count % every == 0:
                    elapsed = time.perf_counter() - started
                    print(f"  ... {count}/{len(tasks)} pairs, {elapsed / 60:.1f} min", flush=True)
        finally:
            if pool is not None:
                pool.close()
                pool.join()


def _levels_in(pairings: list[str]) -> list[str]:
    named = {level for pairing in pairings for level in pairing.split("-")}
    return [level for level in LADDER if level in named] + sorted(named - set(LADDER))


def report(results: Results, games: list[str], pairings: list[str], pairs: int) -> Iterator[str]:
    for game in games:
        yield f"{game}: duplicate deals, pairs 0-{pairs - 1}"
        yield (
            f"  {'pairing':<12} {'pairs':>5} {'decided':>7} {'A won':>6} {'share':>6} {'95% CI (pairs)':>15}"
            f" {'Wilson (deals)':>15} {'2-0':>5} {'1-1':>5} {'0-2':>5} {'Elo diff':>14}"
        )
        wins: dict[tuple[str, str], tuple[int, int]] = {}
        for pairing in pairings:
            held = results.pairs.get((game, pairing), {})
            rows = [held[n] for n in range(pairs) if n in held]
            if not rows:
                yield f"  {pairing:<12} (not played)"
                continue
            a, b = pairing.split("-")
            won = sum(w for w, _ in rows)
            decided = sum(d for _, d in rows)
            wins[(a, b)] = (won, decided - won)
            share, low, high = paired_share(rows)
            w_low, w_high = wilson(won, decided)
            both = sum(1 for w, d in rows if d == 2 and w == 2)
            split = sum(1 for w, d in rows if d == 2 and w == 1)
            none = sum(1 for w, d in rows if d == 2 and w == 0)
            yield (
                f"  {pairing:<12} {len(rows):>5} {decided:>7} {won:>6} {share:>6.1%} {f'{low:.1%}-{high:.1%}':>15}"
                f" {f'{w_low:.1%}-{w_high:.1%}':>15} {both:>5} {split:>5} {none:>5}"
                f" {f'{elo(share):+.0f} ({elo(low):+.0f}..{elo(high):+.0f})':>14}"
            )
        if wins and "random" in {level for pair in wins for level in pair}:
            ratings = bradley_terry(wins, "random")
            ladder = [level for level in _levels_in(pairings) if level in ratings]
            yield "  ratings (Bradley-Terry, Elo scale, random = 0): " + ", ".join(
                f"{level} {ratings[level]:+.0f}" for level in ladder
            )
        for level in _levels_in(pairings):
            values = [
                t
                for pairing in pairings
                if level in pairing.split("-")
                for n, ts in results.times.get((game, pairing, level), {}).items()
                if n < pairs
                for t in ts
            ]
            if values:
                yield (
                    f"  {level:<6} decision time over {len(values):>7} decisions: p50 {percentile(values, 0.5):.1f} ms,"
                    f" p95 {percentile(values, 0.95):.1f} ms, p99 {percentile(values, 0.99):.1f} ms,"
                    f" max {max(values):.1f} ms"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=5000, help="deal pairs per pairing (pairs 0..N-1)")
    parser.add_argument("--games", default="bura,burkozel")
    parser.add_argument("--pairings", default="easy-random,hard-easy,hard4-hard,hard-random")
    parser.add_argument("--workers", type=int, default=1, help="processes to spread the pairs over")
    parser.add_argument(
        "--out", type=Path, default=None, help="JSON-lines file of pair results, gzip if .gz (appended, resumed)"
    )
    parser.add_argument("--report", action="store_true", help="only report what --out holds")
    parser.add_argument("--progress", type=int, default=0, help="print progress every N pairs")
    args = parser.parse_args()
    games = args.games.split(",")
    pairings = args.pairings.split(",")
    for pairing in pairings:
        if any(level(name) is None for name in pairing.split("-")):
            parser.error(f"unknown level in {pairing}: levels are {', '.join(LEVELS)}, baseN and valueN")
    results = load(args.out)
    if not args.report:
        for game in games:
            for pairing in pairings:
                held = results.pairs.get((game, pairing), {})
                a, b = pairing.split("-")
                tasks = [(game, a, b, n) for n in range(args.pairs) if n not in held]
                if tasks:
                    print(f"{game} {pairing}: playing {len(tasks)} pairs", flush=True)
                    run(tasks, args.workers, results, args.out, args.progress)
                for line in report(results, [game], [pairing], args.pairs):
                    print(line, flush=True)
    print()
    for line in report(results, games, pairings, args.pairs):
        print(line, flush=True)


if __name__ == "__main__":
    main()
