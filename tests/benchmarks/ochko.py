"""Benchmark: Очко's engine against a bare loop of the same rules, the computer's decision time, and the computer
against a fixed-threshold player by duplicate rounds (RULES §20).

Run: ``.venv/bin/python -m tests.benchmarks.ochko [--rounds N] [--seed S] [--seconds S] [--trials N]
[--samples N] [--players N] [--parts speed,decide,duplicate]``. One process, one core.

**1. Random rounds per second, against a bare loop in the same run.** The engine plays OCHKO_STANDARD sessions
of ``--players`` seats by uniformly random legal actions (``legal_actions`` of the seat to act, every one
verified by ``Match.apply``: random stakes, knocks, bets, hits, stands and dark cards); a finished session is
replaced by a new one (the cut included). A round is a deal (``Match.round_no``), so a session's cut, stakes and
passing of the bank are counted in the engine's cost. The floor is :func:`bare_round`, one ★ round written
plainly in this file. The two loops run in alternating slices of 20 rounds until each has had ``--seconds`` of
CPU time (process time), so a busy neighbour core slows both alike; ``--trials`` repeats it with other seeds.

**2. The computer's decision time.** Views are sampled from random sessions (every state where a seat acts, a
fresh ``view(match, seat)`` each); on each the time to build the view and the time of ``easy`` and ``odds`` on it
are taken (``perf_counter_ns``), p50 and p99 in µs, over all decisions and over the hit-or-stand ones (PLAY and
BANKER), where the two policies differ. The view is the floor: a policy is the view's cost plus its own.

**3. The computer (``odds``) against the fixed-threshold player (``easy``: hit below 17, stand from 17) by
duplicate rounds.** Three seats, the banker in seat 0 played by ``easy`` (stakes the minimum, hits
below 17) in both halves. Pack k is one round played twice from ``Match(seed=f"ochko-duplicate/{S}/{k}")``:
the computer in seat 1 and the threshold player in seat 2, then the other way round. Both policies bet alike (the
whole bank when it is a fifth of their chips or less, else a third of it: ``engine.ochko.ai``), so only the
hit-or-stand choices differ (``odds`` never goes dark, nor does ``easy``); a seat after one who broke the bank
plays no hand. The
halves are checked to see the same cards: the round's layout in ``Match.trace`` (every seat's first card, the
banker's card, the marker and the fresh pack in the order it is drawn) must be equal, else the run stops. The
figure is the computer's chips won per round less the threshold player's: per pair d = (c₁ + c₂ − t₁ − t₂) / 2,
the mean of d ± 1.96·sd(d)/√n; also each player's share of hands won and the pairs the computer did better in,
the same and worse.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from engine.ochko import ai
from engine.ochko.actions import Action
from engine.ochko.events import RoundEnded, Settled
from engine.ochko.match import Match, Phase
from engine.ochko.variant import OCHKO_STANDARD
from engine.ochko.views import SeatView, view

Policy = Callable[[SeatView], Action | None]
Z: Final = 1.96
SLICE: Final = 20  # rounds per slice of each loop in the side-by-side comparison

# -- 1. the bare loop -------------------------------------------------------------------------------------------

# Cards are 0..35 in the canonical order (suit by suit, ranks 6 7 8 9 J Q K 10 A): RULES §20.4's values, ace 11.
BARE_VALUES: Final = (6, 7, 8, 9, 2, 3, 4, 10, 11) * 4
BARE_STACK: Final = 100  # §20.3 ★ stack
BARE_BANK_MIN: Final = 10  # §20.3 ★ bank_min; min_bet ★ 1


def _bare_value(hand: list[int]) -> int:
    if len(hand) == 2 and BARE_VALUES[hand[0]] == BARE_VALUES[hand[1]] == 11:
        return 21  # [O03] ★ GOLDEN: two aces are 21
    return sum(BARE_VALUES[card] for card in hand)


def bare_round(rng: random.Random, players: int) -> int:
    """One ★ round (OCHKO_STANDARD: DUEL, ace 11, GOLDEN, TWO_CARDS, dark ON, banker FREE), written plainly by
    random choices; returns the hands settled.

    A 36-card pack (``Random.shuffle``); one card to each of ``players - 1`` players from the top, the banker's
    last; the bottom card is the marker; cards are drawn from the bottom; played cards go on a returned pile,
    which is shuffled with the marker into a new pack if the fresh cards run out. The bank is a random stake of
    ``10..100``; each player, with 100 chips, bets a random ``1..min(bank, chips)``, which brings his second card;
    bust pays the bank, an immediate 21 (two cards) is paid from it, 21 stands, otherwise a random choice of hit,
    stand and dark (the engine's random player picks among the same three). The banker then takes his second
    card and hits or stands at random until he stands, busts or reaches 21; settlement by §20.10's ★ rows 5-10
    (banker bust, dark over, higher, lower, tie to the banker, dark 21). A bank at 0 stops the round.

    Left out, where the engine does them: the session (the cut, staking from a stack, «стук», passing the bank,
    its end), sitting out and skipping, every option, the validation of each move and the reasons for a refusal,
    action objects, events, views, the trace of every card and the state's other bookkeeping.
    """
    pack = list(range(36))
    rng.shuffle(pack)
    n = players - 1
    hands = [[pack[i]] for i in range(n)]
    banker_card = pack[n]
    marker: int | None = pack[-1]
    fresh = pack[n + 1 : -1]  # drawn from the end: the bottom of the pack
    returned: list[int] = []
    bank = rng.randint(BARE_BANK_MIN, BARE_STACK)
    chips = [BARE_STACK] * n
    settled = 0

    def draw() -> int:
        nonlocal fresh, returned, marker
        if not fresh:
            fresh = returned + ([marker] if marker is not None else [])
            rng.shuffle(fresh)
            returned, marker = [], None
        return fresh.pop()

    for seat in range(n):
        if bank == 0:
            break  # broken: the rest give their cards back
        hand = hands[seat]
        bet = rng.randint(1, min(bank, chips[seat]))
        hand.append(draw())
        dark = False
        while True:
            mine = _bare_value(hand)
            if mine >= 21:
                break  # a bust or an immediate 21 settles at once, any other 21 stands (Ruling 3)
            choice = rng.randrange(3)
            if choice == 0:  # hit
                hand.append(draw())
                continue
            if choice == 2:  # dark: one card, and the hand ends
                hand.append(draw())
                dark = True
            break
        mine = _bare_value(hand)
        if mine > 21 and not dark:
            won = False  # row 1, the banker draws nothing
        elif mine == 21 and len(hand) == 2 and not dark:
            won = True  # row 2
        else:
            drawn = [draw()]
            his = _bare_value([banker_card, *drawn])
            while his < 21 and rng.randrange(2) == 0:
                drawn.append(draw())
                his = _bare_value([banker_card, *drawn])
            if his > 21:
                won = True  # row 5
            elif mine > 21:
                won = False  # row 6
            elif mine == his == 21 and dark:
                won = True  # row 10
            else:
                won = mine > his  # rows 7-9
            returned.extend(drawn)
        if won:
            bank -= bet
            chips[seat] += bet
        else:
            bank += bet
            chips[seat] -= bet
        returned.extend(hand)
        settled += 1
    return settled


# -- 1. the engine ----------------------------------------------------------------------------------------------


class RandomSessions:
    """OCHKO_STANDARD sessions of ``players`` seats played by uniformly random legal actions, a new session when
    one is over."""

    def __init__(self, players: int, seed: int) -> None:
        self.players = players
        self.seed = seed
        self.rng = random.Random(seed)
        self.sessions = 0
        self.match = self._new()

    def _new(self) -> Match:
        self.sessions += 1
        return Match(OCHKO_STANDARD, self.players, f"ochko-random/{self.seed}/{self.sessions}")

    def step(self) -> None:
        """One random action of the seat to act (a new session first if this one is over)."""
        match = self.match
        if match.finished:
            match = self.match = self._new()
        seat = match.to_act()
        assert seat is not None
        match.apply(self.rng.choice(match.legal_actions(seat)))

    def play(self, rounds: int) -> int:
        """Play until ``rounds`` more rounds have been dealt; returns the actions taken."""
        done = actions = 0
        choice = self.rng.choice
        while True:
            match = self.match
            if match.finished:
                match = self.match = self._new()
            before = match.round_no
            while not match.finished:
                seat = match.to_act()
                assert seat is not None
                match.apply(choice(match.legal_actions(seat)))
                actions += 1
                if match.round_no != before:
                    done += 1
                    before = match.round_no
                    if done >= rounds:
                        return actions


@dataclass(frozen=True)
class Speed:
    bare: float  # rounds per CPU second
    engine: float
    actions_per_round: float  # the engine's

    @property
    def ratio(self) -> float:
        return self.engine / self.bare


def side_by_side(seconds: float, seed: int, players: int) -> Speed:
    """Rounds per second of CPU time of the bare loop and of the engine, in alternating slices until each has
    had ``seconds``: the engine's slice is ``SLICE`` rounds, the bare loop's as many rounds as take about as long
    (resized after every slice), so that both loops share the core's good and bad moments alike."""
    bare_rng = random.Random(seed)
    sessions = RandomSessions(players, seed)
    clock = time.process_time
    spent = [0.0, 0.0]
    rounds = [0, 0]
    actions = 0
    bare_slice = SLICE
    while min(spent) < seconds:
        start = clock()
        for _ in range(bare_slice):
            bare_round(bare_rng, players)
        middle = clock()
        actions += sessions.play(SLICE)
        end = clock()
        rounds[0] += bare_slice
        rounds[1] += SLICE
        spent[0] += middle - start
        spent[1] += end - middle
        if rounds[0] and spent[0] > 0:
            per_bare = spent[0] / rounds[0]
            bare_slice = max(SLICE, min(100 * SLICE, round((end - middle) / per_bare)))
    return Speed(rounds[0] / spent[0], rounds[1] / spent[1], actions / rounds[1])


# -- 2. decision time -------------------------------------------------------------------------------------------


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


@dataclass
class Decisions:
    """Microseconds per call, over all the sampled decisions and over the hit-or-stand ones."""

    all: dict[str, list[float]] = field(default_factory=lambda: {"view": [], "easy": [], "odds": []})
    hit_or_stand: dict[str, list[float]] = field(default_factory=lambda: {"view": [], "easy": [], "odds": []})


def decision_times(samples: int, seed: int, players: int) -> Decisions:
    """Time ``view``, ``easy`` and ``odds`` on ``samples`` states of random sessions (the seat to act)."""
    sessions = RandomSessions(players, seed)
    clock = time.perf_counter_ns
    policies: tuple[tuple[str, Policy], ...] = (("easy", ai.easy), ("odds", ai.odds))
    result = Decisions()
    for _ in range(samples):
        match = sessions.match
        if match.finished:
            sessions.step()  # a new session
            match = sessions.match
        seat = match.to_act()
        assert seat is not None
        start = clock()
        seat_view = view(match, seat)
        taken = {"view": (clock() - start) / 1000}
        for name, policy in policies:
            start = clock()
            action = policy(seat_view)
            taken[name] = (clock() - start) / 1000
            assert action in seat_view.legal
        kinds = [result.all]
        if match.phase in (Phase.PLAY, Phase.BANKER):
            kinds.append(result.hit_or_stand)
        for kind in kinds:
            for name, micros in taken.items():
                kind[name].append(micros)
        sessions.step()
    return result


# -- 3. duplicate rounds ----------------------------------------------------------------------------------------

BANKER: Final = 0
SEATS: Final = (1, 2)


@dataclass(frozen=True)
class Half:
    """One round of a pack: chips won (or lost) and hands won by seat, and the round's layout."""

    chips: dict[int, int]
    won: dict[int, int]
    hands: dict[int, int]
    layout: list[Any]


def play_half(seed: int, number: int, computer_seat: int, computer: Policy, threshold: Policy) -> Half:
    """Pack ``number``'s round with ``computer`` in ``computer_seat``, ``threshold`` in the other player's seat
    and ``ai.easy`` banking in seat 0."""
    match = Match(OCHKO_STANDARD, 3, f"ochko-duplicate/{seed}/{number}", first_banker=BANKER)
    other = SEATS[1] if computer_seat == SEATS[0] else SEATS[0]
    policies: dict[int, Policy] = {BANKER: ai.easy, computer_seat: computer, other: threshold}
    start = list(match.chips)
    won = dict.fromkeys(SEATS, 0)
    hands = dict.fromkeys(SEATS, 0)
    chips = dict.fromkeys(SEATS, 0)
    over = False
    while not over:
        seat = match.to_act()
        assert seat is not None
        action = policies[seat](view(match, seat))
        assert action is not None
        for event in match.apply(action):
            if isinstance(event, Settled):
                hands[event.seat] += 1
                won[event.seat] += event.player_won
            elif isinstance(event, RoundEnded):
                over = True
                chips = {seat: match.chips[seat] - start[seat] for seat in SEATS}
    layout = next(entry for entry in match.trace if entry[0] == "round" and entry[1] == 1)
    return Half(chips, won, hands, layout)


@dataclass
class Duplicate:
    """Per pair: d = the computer's chips per round less the threshold player's; hands won and played by each."""

    diffs: list[float] = field(default_factory=list)
    computer_won: int = 0
    computer_hands: int = 0
    threshold_won: int = 0
    threshold_hands: int = 0
    verified: int = 0  # pairs whose two halves had the same layout

    def interval(self) -> tuple[float, float, float]:
        n = len(self.diffs)
        mean = statistics.fmean(self.diffs)
        half = Z * statistics.stdev(self.diffs) / math.sqrt(n) if n > 1 else float("inf")
        return mean, mean - half, mean + half


def duplicate(
    rounds: int, seed: int, computer: Policy = ai.odds, threshold: Policy = ai.easy, every: int = 0
) -> Duplicate:
    """``rounds`` packs, each played twice with the two players' seats swapped."""
    result = Duplicate()
    started = time.perf_counter()
    for number in range(rounds):
        first = play_half(seed, number, SEATS[0], computer, threshold)
        second = play_half(seed, number, SEATS[1], computer, threshold)
        if first.layout != second.layout:
            raise AssertionError(f"pack {number}: the two halves were dealt different cards")
        result.verified += 1
        c1, t1 = SEATS  # the computer's seat and the threshold player's in the first half
        c2, t2 = t1, c1
        mine = first.chips[c1] + second.chips[c2]
        theirs = first.chips[t1] + second.chips[t2]
        result.diffs.append((mine - theirs) / 2)
        result.computer_won += first.won[c1] + second.won[c2]
        result.computer_hands += first.hands[c1] + second.hands[c2]
        result.threshold_won += first.won[t1] + second.won[t2]
        result.threshold_hands += first.hands[t1] + second.hands[t2]
        if every and (number + 1) % every == 0:
            print(f"  ... {number + 1}/{rounds} packs, {time.perf_counter() - started:.0f} s", flush=True)
    return result


# -- the report -------------------------------------------------------------------------------------------------


def report_speed(seconds: float, trials: int, seed: int, players: int) -> list[Speed]:
    side_by_side(min(seconds, 1.0) / 2, seed - 1, players)  # the interpreter warms
    print(f"1. OCHKO_STANDARD, {players} seats, random rounds against the bare loop (rates per CPU second)")
    print(f"{'trial':>5} {'bare rounds/s':>14} {'engine rounds/s':>16} {'ratio':>7} {'actions/round':>14}")
    speeds = []
    for trial in range(1, trials + 1):
        speed = side_by_side(seconds, seed + trial, players)
        speeds.append(speed)
        print(
            f"{trial:>5} {speed.bare:>14.0f} {speed.engine:>16.0f} {speed.ratio:>7.3f} {speed.actions_per_round:>14.1f}"
        )
    ratios = [speed.ratio for speed in speeds]
    print(
        f"engine / bare: median {statistics.median(ratios):.3f} (range {min(ratios):.3f}-{max(ratios):.3f}); "
        f"engine median {statistics.median(s.engine for s in speeds):.0f} rounds/s, "
        f"bare median {statistics.median(s.bare for s in speeds):.0f} rounds/s"
    )
    return speeds


def report_decisions(samples: int, seed: int, players: int) -> Decisions:
    result = decision_times(samples, seed, players)
    print()
    print(f"2. Decision time over {samples} states of random sessions ({players} seats), µs per call")
    print(f"{'':<6} {'all decisions':>24} {'hit or stand':>24}")
    print(f"{'':<6} {'n':>8} {'p50':>7} {'p99':>7} {'n':>8} {'p50':>7} {'p99':>7}")
    for name in ("view", "easy", "odds"):
        every, some = result.all[name], result.hit_or_stand[name]
        print(
            f"{name:<6} {len(every):>8} {percentile(every, 0.5):>7.1f} {percentile(every, 0.99):>7.1f} "
            f"{len(some):>8} {percentile(some, 0.5):>7.1f} {percentile(some, 0.99):>7.1f}"
        )
    for name in ("easy", "odds"):
        ratio_all = percentile(result.all[name], 0.5) / percentile(result.all["view"], 0.5)
        ratio_some = percentile(result.hit_or_stand[name], 0.5) / percentile(result.hit_or_stand["view"], 0.5)
        print(f"{name} p50 / view p50: all {ratio_all:.3f}, hit or stand {ratio_some:.3f}")
    return result


def report_duplicate(rounds: int, seed: int, every: int) -> Duplicate:
    print()
    print(f"3. odds against the fixed threshold (easy), {rounds} packs each played twice, seats swapped")
    started = time.perf_counter()
    result = duplicate(rounds, seed, every=every)
    mean, low, high = result.interval()
    better = sum(d > 0 for d in result.diffs)
    worse = sum(d < 0 for d in result.diffs)
    print(f"the same cards in both halves (layouts compared): {result.verified} of {rounds} pairs")
    print(
        f"odds chips/round - threshold's: {mean:+.4f} (95% CI {low:+.4f} to {high:+.4f}; "
        f"sd {statistics.stdev(result.diffs) if len(result.diffs) > 1 else 0.0:.3f})"
    )
    print(
        f"hands won: odds {result.computer_won / result.computer_hands:.2%} of {result.computer_hands}, "
        f"threshold {result.threshold_won / result.threshold_hands:.2%} of {result.threshold_hands}"
    )
    print(
        f"pairs: odds better {better}, the same {len(result.diffs) - better - worse}, worse {worse}; "
        f"{time.perf_counter() - started:.0f} s"
    )
    return result


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=10_000, help="duplicate packs, each played twice")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per loop and speed trial")
    parser.add_argument("--trials", type=int, default=3, help="speed trials (bare against engine)")
    parser.add_argument("--samples", type=int, default=20_000, help="states timed for the decision time")
    parser.add_argument("--players", type=int, default=3, help="seats in parts 1 and 2 (part 3 has 3)")
    parser.add_argument("--parts", default="speed,decide,duplicate", help="which parts to run")
    parser.add_argument("--every", type=int, default=2_000, help="progress line every N packs (0: none)")
    args = parser.parse_args(argv)
    parts = set(args.parts.split(","))
    unknown = parts - {"speed", "decide", "duplicate"}
    if unknown:
        parser.error(f"unknown parts: {', '.join(sorted(unknown))}")
    started = time.perf_counter()
    if "speed" in parts:
        report_speed(args.seconds, args.trials, args.seed, args.players)
    if "decide" in parts:
        report_decisions(args.samples, args.seed, args.players)
    if "duplicate" in parts:
        report_duplicate(args.rounds, args.seed, args.every)
    print(f"\nwall time {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
