"""The hard computer player: determinized Monte Carlo with inference and racing, and exact search at the end.

It samples the hidden cards consistently with everything the seat has seen (engine/bura/ai/worlds.py), weighs
each sampled world by how plausible it makes the others' past moves if they play by the easy player's habits
(engine/bura/ai/inference.py: an opponent who led a king while holding a seven is unlikely; one who kept
declining to spend trumps probably holds them, the makings of a bura), resamples the worlds by those weights,
plays each candidate move out to the end of the deal in every world (on a :class:`~engine.bura.ai.sim.Sim`, the
deal reduced to what play changes) with everybody following the easy player's habits and a random move now and
then, and picks the move with the best mean result. The moves still close to the best after that pass race on
over fresh worlds while the work allows (:func:`close_to_best`): a close decision gets the work a clear one does
not need. Dominated moves are not tried: an open answer that cannot beat, when the same cards may go face down
(:func:`undominated`). A claim is judged by its odds over all the weighed worlds: won if the pile holds enough,
lost if not.

Where a learned value fits the table (two-player Бура with the standard rules: engine/bura/ai/value.py) and the
budget's ``horizon`` asks for it, a playout stops at the first lead after the candidate's trick instead of running
to the end, and the value judges the position: the odds the hard player went on to win from positions like it,
fitted on its own deals against the easy player. The own side's later moves are then valued as the hard player
would play them, with what it will have learned, not by the easy habits; against the easy player that wins five
to seven points of decided deals more than full playouts with the same worlds (BENCHMARKS.md: +4.9 at the bot's
budget over 5,000 pairs, +7.4 at the base over 1,000).

Once the stock is empty and few cards are left, each move is valued instead by exact search of the rest of the
deal in every sampled world (engine/bura/ai/exact.py), as far as the budget's nodes allow.

The work per decision is a :class:`Budget` counted in simulated moves, worlds and nodes, never in time, and the
dice of a decision are seeded by the budget's seed and the position (:func:`position_key`), so a loaded server
does not make the player weaker and a decision can be replayed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.bura.actions import Action, Claim, DeclareCombo, Lead, RespondFaceDown, RespondOpen
from engine.bura.deal import Deal, Phase
from engine.bura.events import OutcomeKind
from engine.bura.variant import EndOfDeal, Variant
from engine.bura.views import SeatView, current_best

from . import playout
from .easy import EASY, EasyPlayer, Habits, easy_answer, easy_lead_key, set_beats_fast, threshold
from .exact import Exhausted, solve
from .inference import Inference
from .sim import Sim, as_move, convertible, from_deal, from_view, supported
from .value import Value, fits, shipped
from .worlds import Unseen, clone, deal_unseen, determinize, unplaced, unseen_cards


@dataclass(frozen=True, slots=True)
class Budget:
    """The hard player's work per decision, in iterations, and the seed of its dice.

    ``samples``: worlds per candidate move at most in the first pass; ``first_pass``: the simulated moves that
    pass may spend; ``race``: simulated moves to spend after it on the moves still within ``margin`` standard
    errors of the best one, in rounds of worlds drawn from those weighed; ``weighed``: worlds weighed by the
    inference for each one of the first pass (1: no inference; the racing rounds draw from the same weighed
    worlds, so without enough of them racing replays the same few); ``exact``: once the stock is empty and the
    hands hold this many cards at most, each move is valued by exact search (engine/bura/ai/exact.py) in
    ``endgame_worlds`` worlds, within ``exact_nodes`` nodes a world, or by playouts if that is not enough;
    ``horizon``: where the learned value fits the table (engine/bura/ai/value.py), a playout stops at the first
    lead after this many tricks (the candidate's own trick counted) and the value judges the position; 0, or where
    no value fits, every playout runs to the end of the deal (a playout then costs more simulated moves, but the
    worlds stay as many); ``seed``: seeds the dice of every decision, with the position.

    The field defaults are the base budget: in Буркозёл it won 76.3% of the decided duplicate deals against the
    easy player where the smaller budget it had before (1,500 simulated moves, no racing, two worlds weighed for
    each) won 68.7%, and neither racing alone nor weighing alone made the difference (200 deal pairs each,
    BENCHMARKS.md). :meth:`default` is the bot's budget for a table."""

    samples: int = 32
    first_pass: int = 2000
    race: int = 3000
    margin: float = 1.5
    weighed: int = 8
    exact: int = 8
    endgame_worlds: int = 16
    exact_nodes: int = 4000
    horizon: int = 0
    seed: int | str = 0

    @classmethod
    def default(cls, variant: Variant, players: int, seed: int | str = 0) -> Budget:
        """The bot's budget for ``variant`` at a table of ``players``, seeded by ``seed``: three times the base in
        two-player Бура with three-card hands, the base elsewhere; playouts judged by the learned value after one
        trick where it fits the table (:func:`~engine.bura.ai.value.fits`).

        In two-player Бура more work pays: four times the base wins 65.9% of the decided duplicate deals against
        the easy player over 5,000 pairs, where the base wins 62.0%, and 53.5% against the base itself; sixteen
        times no more than four. Four times is too close to the decision-time target, though (p95 264 ms in one
        run, 300-345 ms in others on the same machine); three times keeps a margin (p95 234 ms where four times
        took 300-345). Larger tables and hands make every playout longer, and Буркозёл's base already wins 71.8%
        against the easy player (BENCHMARKS.md)."""
        base = cls(seed=seed, horizon=1 if fits(variant, players) else 0)
        return base.scaled(3) if players == 2 and variant.hand_size == 3 else base

    def scaled(self, factor: int) -> Budget:
        """``factor`` times the work: as many more simulated moves, worlds per move and endgame worlds (the
        ladder's hard×4)."""
        return replace(
            self,
            samples=self.samples * factor,
            first_pass=self.first_pass * factor,
            race=self.race * factor,
            endgame_worlds=self.endgame_worlds * factor,
        )


def position_key(view: SeatView) -> str:
    """A name for the moment of the deal ``view`` shows, from the view alone (it seeds a decision's dice)."""
    table = view.table
    trick = table.trick
    played = -1 if trick is None else len(trick.plays)
    hand = "".join(card.code for card in view.hand)
    return f"{table.deal_number}/{view.seat}/{table.phase.value}/{len(table.history)}/{played}/{table.stock}/{hand}"


def known_points(deal: Deal, seat: int) -> int:
    """The points of ``seat``'s side pile that the seat may know: open cards and its own face-down ones."""
    return sum(e.card.points for e in deal.piles[deal.side_of[seat]] if not e.face_down or e.played_by == seat)


def rollout_choice(
    deal: Deal, legal: Sequence[Action], rng: random.Random, epsilon: float, habits: Habits = EASY
) -> Action:
    """A quick policy for simulations: heuristic ``habits``, with a random move now and then."""
    seat = legal[0].seat
    threshold = deal.threshold
    others = [a for a in legal if not isinstance(a, Claim)]
    if threshold is not None and len(others) < len(legal):
        points: float = known_points(deal, seat)
        if habits.unseen:
            pile = deal.piles[deal.side_of[seat]]
            points += habits.unseen * sum(1 for e in pile if e.face_down and e.played_by != seat)
        if points >= threshold:
            return next(a for a in legal if isinstance(a, Claim))
        if deal.phase is Phase.FINAL_CLAIM:
            return others[0]
    if len(others) == 1:
        return others[0]
    if rng.random() < epsilon:
        return rng.choice(others)
    trump = deal.trump
    if deal.phase is Phase.LEAD:
        for action in others:
            if isinstance(action, DeclareCombo):
                return action
        leads = [a for a in others if isinstance(a, Lead)]
        shokha = deal.variant.shokha
        return min(leads, key=lambda a: easy_lead_key(a.cards, trump, habits.spread, shokha)) if leads else others[0]
    trick = deal.trick
    assert trick is not None
    # What the easy player would count: the open cards of the trick (and its own, of which it has none yet).
    value = sum(card.points for card in trick.lead) + sum(
        c.points for p in trick.plays if not p.face_down for c in p.cards
    )
    answers = [a for a in others if isinstance(a, RespondOpen | RespondFaceDown)]
    return easy_answer(answers, trick.best, value, trump, habits.cheap, deal.variant.shokha)


def value(deal: Deal, side: int) -> float:
    """The result of a finished deal for ``side``: +1 won, -1 lost, between for points."""
    outcome = deal.outcome
    assert outcome is not None
    if outcome.kind is OutcomeKind.VOID:
        return 0.0
    if outcome.kind is OutcomeKind.PLAYED_OUT and deal.variant.end_of_deal is EndOfDeal.PENALTY_TABLE:
        mine = outcome.points[side]
        others = [outcome.points[s] for s in deal.active_sides if s != side]
        return (mine - max(others)) / 60.0 + (0.5 if side in outcome.winners else -0.5)
    if side in outcome.winners:
        return 1.0 / len(outcome.winners)
    if outcome.kind is OutcomeKind.FALSE_CLAIM and outcome.seat is not None and deal.side_of[outcome.seat] == side:
        return -1.0
    return -1.0 if outcome.winners or outcome.kind is OutcomeKind.WIN else 0.0


def play_out(
    deal: Deal, rng: random.Random, epsilon: float, side: int, others: float, habits: Habits, limit: int = 400
) -> int:
    """Play ``deal`` to its end: ``side`` by ``habits`` with ``epsilon`` random moves, the other sides by the
    easy player's habits with ``others``. Returns the number of moves played."""
    steps = 0
    while not deal.over and steps < limit:
        seat = deal.to_act()
        assert seat is not None
        if deal.side_of[seat] == side:
            action = rollout_choice(deal, deal.legal_actions(seat), rng, epsilon, habits)
        else:
            action = rollout_choice(deal, deal.legal_actions(seat), rng, others)
        deal.apply(action)
        steps += 1
    return steps


def close_to_best(alive: list[int], results: Sequence[Sequence[float]], margin: float) -> list[int]:
    """The moves of ``alive`` whose results are within ``margin`` standard errors of the best one's, world by
    world (every alive move met the same worlds, so the paired difference cancels the luck of the world); of
    moves that did the same in every world, the first."""
    n = len(results[alive[0]])
    best = max(alive, key=lambda i: (sum(results[i]), -i))
    kept = []
    for index in alive:
        if index == best:
            kept.append(index)
            continue
        diffs = [b - r for b, r in zip(results[best], results[index], strict=True)]
        mean = sum(diffs) / n
        spread = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
        if spread and mean <= margin * (spread / n) ** 0.5:
            kept.append(index)  # a move that did the same as the best in every world is no better: out
    return kept


def undominated(moves: list[Action], view: SeatView) -> list[Action]:
    """The moves less the open answers that do not beat when the same cards may go face down: they cannot take
    the trick either way, and face up they tell the taker the points it won (and when it may claim)."""
    trick = view.table.trick
    if trick is None:
        return moves
    best = current_best(trick)
    trump = view.table.trump
    shokha = view.table.shokha
    hidden = {a.cards for a in moves if isinstance(a, RespondFaceDown)}
    return [
        a
        for a in moves
        if not (isinstance(a, RespondOpen) and a.cards in hidden and not set_beats_fast(a.cards, best, trump, shokha))
    ]


class HardPlayer:
    """Determinized Monte Carlo over the engine with inference (see the module docstring); its work per decision
    is ``budget`` (the bot's: :meth:`Budget.default`)."""

    def __init__(
        self,
        variant: Variant,
        budget: Budget,
        epsilon: float = 0.1,
        miss: float = 0.1,
        others_epsilon: float | None = None,
        prune: bool = True,
        bura: bool = True,
        habits: Habits = EASY,
    ) -> None:
        """``epsilon``: the share of random moves in the playouts; ``miss``: the weight of a past move that breaks
        the easy player's habits. ``prune``: no open answer that cannot beat when the same cards may go face down
        (a no-op where such answers must go face down, as in Буркозёл). ``bura``: no world in which another seat
        held a bura it did not show (an instant win, RULES §9.2: such a world cannot be). Options measured and left
        off (BENCHMARKS.md): ``others_epsilon``, the random moves of the other sides in the playouts (default:
        ``epsilon``); ``habits``, the own side's playout habits (SHARP won as many of 200 duplicate Бура deal
        pairs as the easy habits)."""
        self.variant = variant
        self.budget = budget
        self.rng = random.Random(self.budget.seed)
        self.epsilon = epsilon
        self.others_epsilon = epsilon if others_epsilon is None else others_epsilon
        self.miss = miss
        self.prune = prune
        self.bura = bura
        self.habits = habits
        self._value: Value | None = None  # the learned value of the decision under way, if it uses one

    def _samples_for(self, view: SeatView, candidates: int) -> tuple[int, int]:
        """The worlds of the first pass over ``candidates`` moves, and the rounds of as many worlds that the
        racing work may pay for."""
        # A playout costs about one move per remaining card over the usual answer size: bound the total work.
        remaining = sum(size for _, size in view.table.hand_sizes) + view.table.stock
        per_playout = max(1, remaining * 2 // 3)
        budget = self.budget
        count = max(2, min(budget.samples, budget.first_pass // (candidates * per_playout)))
        return count, 1 + budget.race // (count * per_playout)

    def choose(self, view: SeatView) -> Action:
        legal = list(view.legal)
        if not legal:
            raise ValueError("no legal action")
        if len(legal) == 1:
            return legal[0]
        # The dice of a decision come from the seed and the position alone: the same view, the same decision,
        # whatever this player was asked before.
        self.rng = random.Random(f"{self.budget.seed}/{position_key(view)}")
        claim = next((action for action in legal if isinstance(action, Claim)), None)
        moves = [action for action in legal if action is not claim]
        if self.prune:
            moves = undominated(moves, view)
        unseen = unseen_cards(view, self.variant)
        if unplaced(unseen):
            # The last cards were taken unopposed (RULES §7.4) and the view does not say whose pile they went to,
            # so no world can be laid out; nothing is left to play but the final claim: judge it on the points
            # the seat knows its side has, as the easy player does.
            return EasyPlayer(self.variant).choose(view)
        cards = sum(size for _, size in view.table.hand_sizes)
        if self.budget.exact and view.table.stock == 0 and cards <= self.budget.exact and supported(self.variant):
            chosen = self._endgame(view, moves, claim, unseen)
            if chosen is not None:
                return chosen
        count, rounds = self._samples_for(view, len(moves))
        seeds, claim_odds = self._worlds(view, count, unseen, rounds)
        side = view.side
        self._value = shipped() if self.budget.horizon and fits(self.variant, len(view.table.seats)) else None
        # results[i]: move i's result in each world it met, in the order of ``seeds``.
        results: list[list[float]] = [[] for _ in moves]
        alive = list(range(len(moves)))
        spent = 0
        at = 0
        simulated = supported(self.variant)
        while True:
            for world_seed in seeds[at : at + count]:
                rollout_seed = self.rng.random()
                base, world = self._world(view, world_seed, unseen, simulated)
                for index in alive:
                    # Common random numbers: every candidate meets the same sampled world and the same dice.
                    move = moves[index]
                    if world is None and (base is None or as_move(move) is None):
                        world = determinize(view, self.variant, random.Random(world_seed), unseen)
                    steps, result = self._play(world, base, move, random.Random(rollout_seed), side)
                    spent += steps
                    results[index].append(result)
            at += count
            alive = close_to_best(alive, results, self.budget.margin)
            if len(alive) == 1 or at >= len(seeds) or spent >= self.budget.first_pass + self.budget.race:
                break
        best = max(alive, key=lambda i: (sum(results[i]) / len(results[i]), -i))
        mean = sum(results[best]) / len(results[best])
        # A claim ends the deal at once: won if the pile holds enough, lost if not (RULES §8.4 LOSE_DEAL). Its
        # odds come from all the weighed worlds, not only the few played out.
        if claim is not None and 2 * claim_odds - 1 >= mean:
            return claim
        return moves[best]

    def _endgame(self, view: SeatView, moves: list[Action], claim: Action | None, unseen: Unseen) -> Action | None:
        """The move with the best exact value over sampled worlds (None if a world is too big to search, or a
        move is one the exact search does not play)."""
        plays = [as_move(move) for move in moves]
        seeds, claim_odds = self._worlds(view, self.budget.endgame_worlds, unseen)
        side = view.side
        totals = [0.0] * len(moves)
        for world_seed in seeds:
            base, _world = self._world(view, world_seed, unseen, True)
            if base is None:
                return None
            for index, play in enumerate(plays):
                if play is None:
                    return None
                sim = base.copy()
                sim.apply(play)
                try:
                    totals[index] += solve(sim, side, self.budget.exact_nodes)
                except Exhausted:
                    return None
        best = max(range(len(moves)), key=lambda i: (totals[i], -i))
        if claim is not None and 2 * claim_odds - 1 >= totals[best] / len(seeds):
            return claim
        return moves[best]

    def _world(
        self, view: SeatView, world_seed: float, unseen: Unseen, simulated: bool
    ) -> tuple[Sim | None, Deal | None]:
        """The world of ``world_seed`` as a :class:`Sim` when one can stand for it (built from the view when it can
        be, else from the deal), and as a ``Deal`` when it had to be built."""
        if not simulated:
            return None, determinize(view, self.variant, random.Random(world_seed), unseen)
        base = from_view(view, self.variant, unseen, random.Random(world_seed))
        if base is not None:
            return base, None
        world = determinize(view, self.variant, random.Random(world_seed), unseen)
        return (from_deal(world) if convertible(world) else None), world

    def _play(
        self, world: Deal | None, base: Sim | None, move: Action, rng: random.Random, side: int
    ) -> tuple[int, float]:
        """Play ``move`` in ``world`` (``base``: the same world as a :class:`Sim`, when it can stand for it) and the
        rest of the deal by the playout habits: the simulated moves and the result for ``side``."""
        first = as_move(move) if base is not None else None
        if base is not None and first is not None:
            sim = base.copy()
            judge = self._value
            if judge is not None:
                mover = sim.to_act()
                until = sum(sim.tricks) + self.budget.horizon
                sim.apply(first)
                steps = 1 + playout.play_out(
                    sim, rng, self.epsilon, side, self.others_epsilon, self.habits, tricks=until
                )
                return steps, sim.value(side) if sim.over else judge(sim, mover)
            sim.apply(first)
        else:
            assert world is not None
            deal = clone(world)
            deal.apply(move)
            steps = 1
            # a move of the pre-lead window: play on the deal until a sim can take over (and to the end: the
            # learned value judges only playouts that start on a sim)
            while not deal.over and not (supported(self.variant) and convertible(deal)) and steps < 400:
                seat = deal.to_act()
                assert seat is not None
                habits = self.habits if deal.side_of[seat] == side else EASY
                epsilon = self.epsilon if deal.side_of[seat] == side else self.others_epsilon
                deal.apply(rollout_choice(deal, deal.legal_actions(seat), rng, epsilon, habits))
                steps += 1
            if deal.over or not supported(self.variant):
                steps += play_out(deal, rng, self.epsilon, side, self.others_epsilon, self.habits)
                return steps, value(deal, side) if deal.over else 0.0
            sim = from_deal(deal)
            steps += playout.play_out(sim, rng, self.epsilon, side, self.others_epsilon, self.habits)
            return steps, sim.value(side) if sim.over else 0.0
        steps = 1 + playout.play_out(sim, rng, self.epsilon, side, self.others_epsilon, self.habits)
        return steps, sim.value(side) if sim.over else 0.0

    def _worlds(
        self, view: SeatView, count: int, unseen: Unseen | None = None, rounds: int = 1
    ) -> tuple[list[float], float]:
        """Seeds of ``count`` sampled worlds for each of ``rounds``, drawn in proportion to how plausible each
        makes the others' past moves, and the odds that the side's pile reaches the claim threshold (over every
        world weighed)."""
        limit = threshold(self.variant, view)
        weighed = self.budget.weighed
        seeds = [self.rng.random() for _ in range(count * (weighed if weighed > 1 else rounds))]
        weights: list[float] = []
        reached: list[bool] = []
        if unseen is None:
            unseen = unseen_cards(view, self.variant)
        inference = Inference(view, determinize(view, self.variant, random.Random(0), unseen), self.miss, self.bura)
        for seed in seeds:
            rng = random.Random(seed)
            hands, hidden = deal_unseen(view, unseen, rng)
            weight = inference.weigh(hands, hidden, rng) if weighed > 1 else 1.0
            weights.append(weight)
            reached.append(limit is not None and inference.points(hidden) >= limit)
        if not any(weights):
            weights = [1.0] * len(seeds)  # no world fits the model: weigh none above another
        odds = sum(w for w, enough in zip(weights, reached, strict=True) if enough) / sum(weights)
        if weighed <= 1:
            return seeds, odds
        first = self.rng.choices(seeds, weights, k=count)
        # The worlds of the later rounds of a close decision, drawn alike.
        return first + self.rng.choices(seeds, weights, k=count * (rounds - 1)), odds
