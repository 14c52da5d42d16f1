"""Computer players that play fair: they decide from their seat's view alone (``engine.views.SeatView``).

* ``EasyPlayer``: a sensible heuristic. It keeps trumps, beats cheaply when the trick is worth it, dumps
  low cards (face down where allowed), and claims when the points it remembers reach the threshold.
* ``HardPlayer``: determinized Monte Carlo with inference. It samples the hidden cards consistently with
  everything the seat has seen (:func:`determinize`), weighs each sampled world by how plausible it makes the
  others' past moves if they play by the easy player's habits (:func:`_plausibility`: an opponent who led a
  king while holding a seven is unlikely; one who kept declining to spend trumps probably holds them, the makings
  of a bura), resamples the worlds by those weights, plays each candidate move out to the end of the deal in
  every world with everybody following the easy player's habits and a random move now and then
  (:func:`_rollout_choice`), and picks the move with the best mean result. A claim is judged by its odds over
  all the weighed worlds: won if the pile holds enough, lost if not.

Both remember points as a player would: the open cards of their side's pile they know; face-down cards they
captured they may not look at (RULES §6.7 strict mode), so a claim under uncertainty is a real decision.
Nothing here reads a ``Match`` or a real ``Deal``: the only input is the view, so the decision cannot depend on
a card the seat may not see (tests/engine/test_ai.py shuffles the unseen cards to prove it). Randomness comes
from the player's own seeded ``random.Random`` and the work per decision is counted in simulated moves, never
in time, so a decision is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from itertools import combinations

from engine.actions import Action, Claim, DeclareCombo, Lead, Pass, RespondFaceDown, RespondOpen
from engine.cards import BY_INDEX, Card, Suit, deck, set_beats
from engine.combos import Held, combo_rules
from engine.deal import Deal, Phase, Play, Trick
from engine.events import OutcomeKind, PileCard
from engine.variant import Discards, EndOfDeal, FollowSuit, TrumpCard, Variant
from engine.views import SeatView, TrickView


def current_best(trick: TrickView) -> tuple[Card, ...]:
    """The set a responder must beat: the last beating answer, or the lead (RULES §6.5)."""
    best = trick.lead
    for play in trick.plays:
        if play.beats:
            best = play.cards
    return best


def remembered_points(view: SeatView) -> int:
    """The points of the side's pile that the seat knows (open cards and its own face-down ones)."""
    return sum(card.points for card in view.known_pile)


def _threshold(variant: Variant, view: SeatView) -> int | None:
    return variant.threshold(len(view.table.seats))


# -- the easy player -----------------------------------------------------------------------------------------


def _card_cost(card: Card, trump: Suit) -> int:
    """How much giving up a card hurts: trumps and point cards are worth keeping."""
    return card.points + (12 + card.strength if card.suit is trump else card.strength // 3)


def _easy_lead_key(cards: Sequence[Card], trump: Suit) -> tuple[float, int]:
    # Lead cheap cards, several at once when they are all cheap: it empties the hand of junk.
    cost = sum(_card_cost(card, trump) for card in cards)
    return (cost / len(cards) - 0.5 * len(cards), cost)


def _easy_answer(
    answers: Sequence[RespondOpen | RespondFaceDown], best: Sequence[Card], value: int, trump: Suit
) -> RespondOpen | RespondFaceDown:
    """The easy player's answer: beat with the cheapest set when the trick is worth it or the set is cheap,
    else dump the cheapest cards, face down where allowed. ``value``: the points seen in the trick so far."""
    beating = [a for a in answers if isinstance(a, RespondOpen) and set_beats(a.cards, best, trump)]
    if beating:
        cheapest = min(beating, key=lambda a: sum(_card_cost(card, trump) for card in a.cards))
        cost = sum(_card_cost(card, trump) for card in cheapest.cards)
        gain = value + sum(card.points for card in cheapest.cards)
        if gain >= 10 or cost <= 12 * len(cheapest.cards):
            return cheapest
    pool = [a for a in answers if a not in beating] or list(answers)
    face_down = [a for a in pool if isinstance(a, RespondFaceDown)]
    return min(face_down or pool, key=lambda a: sum(_card_cost(card, trump) for card in a.cards))


class EasyPlayer:
    """A sensible heuristic player (issue: keeps trumps, beats cheaply, dumps zero-point cards face down)."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("no legal action")
        threshold = _threshold(self.variant, view)
        claim = next((a for a in legal if isinstance(a, Claim)), None)
        if claim is not None and threshold is not None and remembered_points(view) >= threshold:
            return claim
        declare = next((a for a in legal if isinstance(a, DeclareCombo)), None)
        if declare is not None:
            return declare  # seizing the lead is worth it more often than not
        leads = [a for a in legal if isinstance(a, Lead)]
        if leads:
            return self._lead(leads, view.table.trump)
        answers = [a for a in legal if isinstance(a, RespondOpen | RespondFaceDown)]
        if answers:
            return self._answer(answers, view)
        return next((a for a in legal if isinstance(a, Pass)), legal[0])

    def _lead(self, leads: list[Lead], trump: Suit) -> Lead:
        return min(leads, key=lambda lead: _easy_lead_key(lead.cards, trump))

    def _answer(self, answers: list[RespondOpen | RespondFaceDown], view: SeatView) -> Action:
        trick = view.table.trick
        assert trick is not None
        value = sum(card.points for card in trick.lead) + sum(c.points for p in trick.plays for c in p.cards)
        return _easy_answer(answers, current_best(trick), value, view.table.trump)


# -- determinization --------------------------------------------------------------------------------------------


def determinize(view: SeatView, variant: Variant, rng: random.Random) -> Deal:
    """A complete deal consistent with everything ``view`` shows, the hidden cards dealt at random.

    Only the view is read: the unseen cards are taken in deck order and shuffled by ``rng``, then laid in the
    hidden places (other hands, the stock, dead cards, others' face-down answers) in a fixed order.
    """
    table = view.table
    seat = view.seat
    sizes = dict(table.hand_sizes)
    tricks = [*table.history, *([table.trick] if table.trick is not None else [])]
    placed: set[Card] = set(view.hand)
    for trick in tricks:
        placed.update(trick.lead)
        for play in trick.plays:
            placed.update(play.cards)  # open ones, and face-down ones this seat may see
    pinned: dict[int, list[Card]] = {}  # public cards known to sit in a hand: the drawn trump card, shown combos
    trump_card = table.trump_card
    holder = table.trump_card_holder
    stock_trump = dead_trump = False
    if trump_card not in placed:
        if holder is None and table.stock:
            stock_trump = True
        elif holder is None and table.dead:
            dead_trump = True
        elif holder is not None and holder != seat and sizes[holder]:
            pinned[holder] = [trump_card]
        if stock_trump or dead_trump or holder in pinned:
            placed.add(trump_card)
    for shown in table.shown:
        room = sizes[shown.seat] - len(pinned.get(shown.seat, []))
        extra = [c for c in shown.cards if c not in placed][: max(room, 0)]
        if shown.seat != seat and extra:
            pinned.setdefault(shown.seat, []).extend(extra)
            placed.update(extra)
    pool = [card for card in deck(variant.deck_size) if card not in placed]
    rng.shuffle(pool)

    def take(count: int) -> list[Card]:
        taken = pool[:count]
        del pool[:count]
        return taken

    det = Deal(variant, table.players, table.seats, table.dealer, random.Random(0), table.deal_number)
    det.deck_order = ()
    det.trump_card = trump_card
    det.trump = table.trump
    det.trump_card_holder = holder
    det.hands = {}
    for s in table.seats:
        if s == seat:
            det.hands[s] = list(view.hand)
        else:
            fixed = pinned.get(s, [])
            det.hands[s] = fixed + take(sizes[s] - len(fixed))
        det.hands[s].sort(key=BY_INDEX)
    if stock_trump:
        rest = take(table.stock - 1)
        det.stock = [trump_card, *rest] if variant.trump_card is TrumpCard.UNDER_STOCK else [*rest, trump_card]
    else:
        det.stock = take(table.stock)
    det.dead = [trump_card, *take(table.dead - 1)] if dead_trump else take(table.dead)

    def rebuild(trick: TrickView) -> Trick:
        plays = [
            Play(p.seat, p.cards if len(p.cards) == p.count else tuple(take(p.count)), p.face_down, p.beats)
            for p in trick.plays
        ]
        best = trick.lead
        for play in plays:
            if play.beats:
                best = play.cards
        return Trick(trick.number, trick.leader, trick.lead, plays, best, trick.owner)

    det.history = [rebuild(t) for t in table.history]
    det.trick = rebuild(table.trick) if table.trick is not None else None
    det.piles = [[] for _ in range(det.sides)]
    for taken in det.history:
        pile = det.piles[det.side_of[taken.owner]]
        pile.extend(PileCard(card, False, taken.leader) for card in taken.lead)
        for answer in taken.plays:
            pile.extend(PileCard(card, answer.face_down, answer.seat) for card in answer.cards)
    det.tricks_won = list(table.tricks_won)
    det.last_trick_winner = det.history[-1].owner if det.history else None
    det.phase = table.phase
    det.rightful = table.rightful
    det.leader = table.leader
    det.forced_lead = table.forced_lead
    rules = {rule.combo: rule for rule in combo_rules(variant)}
    det.shown = [Held(s.seat, rules[s.combo], s.cards) for s in table.shown if s.combo in rules]
    det.standing = det.shown[-1] if det.shown else None
    if det.trick is not None:
        played = {p.seat for p in det.trick.plays}
        det.responders = [s for s in det.clockwise_from(det.trick.leader)[1:] if s not in played and det.hands[s]]
    if det.phase is Phase.LEAD:
        det._find_seizers(det.clockwise_from(det.rightful))
    det._legal_cache = {}
    return det


# -- inference: how plausible a sampled world makes the others' past moves ---------------------------------


def _lead_was_sensible(hand: Sequence[Card], led: Sequence[Card], variant: Variant, cap: int, trump: Suit) -> bool:
    """Whether the easy player's habits (lead the cheapest cards) would have led what was led from ``hand``."""
    sizes = [k for k in variant.lead_sizes if k <= cap]
    best = _easy_lead_key(led, trump)
    for suit in {card.suit for card in hand}:
        suited = [card for card in hand if card.suit is suit]
        for k in sizes:
            for chosen in combinations(suited, k):
                if _easy_lead_key(chosen, trump) < best:
                    return False
    return True


def _answer_was_sensible(
    hand: Sequence[Card],
    played: Sequence[Card],
    face_down: bool,
    trick_best: Sequence[Card],
    value: int,
    variant: Variant,
    trump: Suit,
) -> bool:
    """Whether the easy player's habits (beat cheaply when worth it, else dump the cheapest cards face down)
    would have answered as ``played`` did from ``hand``."""
    k = len(played)
    if k != len(trick_best) or len(hand) < k:
        return True  # a short answer: no model
    cost_of = {card: _card_cost(card, trump) for card in hand}
    combos = list(combinations(sorted(hand, key=BY_INDEX), k))  # in the order of the legal moves
    beating = [c for c in combos if set_beats(c, trick_best, trump)]
    cost = sum(cost_of[card] for card in played)
    if beating:
        cheapest = min(beating, key=lambda c: sum(cost_of[card] for card in c))
        least = sum(cost_of[card] for card in cheapest)
        if value + sum(card.points for card in cheapest) >= 10 or least <= 12 * k:
            return not face_down and cost == least and set_beats(played, trick_best, trump)
    if variant.discards is Discards.OPEN:
        pool = [c for c in combos if not set_beats(c, trick_best, trump)] or combos
        return cost == min(sum(cost_of[card] for card in c) for c in pool)
    return face_down and cost == min(sum(cost_of[card] for card in c) for c in combos)


def _decision(
    trick: Trick, seat: int, sizes: dict[int, int], variant: Variant, trump: Suit, size: int
) -> tuple[tuple[Card, ...], Callable[[list[Card]], bool] | None]:
    """The cards ``seat`` played to ``trick``, and a test of whether the easy player's habits would have played
    them from a given hand (None when the seat did not play to it)."""
    if trick.leader == seat:
        cap = min((n for s, n in sizes.items() if s != seat and n), default=size)
        return trick.lead, partial(_lead_was_sensible, led=trick.lead, variant=variant, cap=cap, trump=trump)
    best = trick.lead
    value = sum(card.points for card in trick.lead)
    for play in trick.plays:
        if play.seat == seat:
            sensible = partial(
                _answer_was_sensible,
                played=play.cards,
                face_down=play.face_down,
                trick_best=best,
                value=value,
                variant=variant,
                trump=trump,
            )
            return play.cards, sensible
        if play.beats:
            best = play.cards
        if not play.face_down:
            value += sum(card.points for card in play.cards)
    return (), None


def _plausibility(world: Deal, view: SeatView, rng: random.Random, miss: float) -> float:
    """``miss`` to the power of the others' past moves that the easy player's habits would not have made, had
    the sampled world been true: a world where the opponent led a king while holding a seven is unlikely.

    The hands the others held at each trick are rebuilt backwards from the sampled hands. Which of the later
    cards were drawn after a trick (their count follows from the drawing rules) is unknown, so every choice is
    weighed and one is followed in proportion (sequential importance sampling): the weight is an estimate of the
    likelihood of the moves seen. The model is the easy player's, so it fits a sensible player, not a random
    one; ``miss`` keeps a world that breaks the habit possible."""
    variant = world.variant
    if variant.follow_suit is not FollowSuit.NEVER:
        return 1.0
    table = view.table
    seats = table.seats
    size = variant.hand_size
    tricks = [*world.history, *([world.trick] if world.trick is not None else [])]
    # Forward: hand sizes at each trick and the cards each seat drew after it.
    sizes = dict.fromkeys(seats, size)
    stock = variant.deck_size - size * len(seats)
    before: list[dict[int, int]] = []
    drawn: list[dict[int, int]] = []
    for trick in world.history:
        before.append(dict(sizes))
        sizes[trick.leader] -= len(trick.lead)
        for play in trick.plays:
            sizes[play.seat] -= len(play.cards)
        order = [s for s in world.clockwise_from(trick.owner) if sizes[s] < size]
        need = [size - sizes[s] for s in order]
        counts = world._draw_counts(need, stock) if stock and order else [0] * len(order)
        got = dict.fromkeys(seats, 0)
        for seat, count in zip(order, counts, strict=True):
            got[seat] = count
            sizes[seat] += count
        stock -= sum(counts)
        if any(c < n for c, n in zip(counts, need, strict=True)):
            stock = 0
        drawn.append(got)
    if world.trick is not None:
        before.append(dict(sizes))
    if any(sizes[s] != n for s, n in table.hand_sizes if s in sizes) and world.trick is None:
        return 1.0  # the drawing did not follow the plain rules (a combo lead, a short hand): no model
    weight = 1.0
    trump = world.trump
    for seat in seats:
        if world.side_of[seat] == view.side:
            continue
        hand = list(world.hands[seat])
        for number in range(len(tricks) - 1, -1, -1):
            trick = tricks[number]
            played, sensible = _decision(trick, seat, before[number], variant, trump, size)
            if number < len(world.history) and drawn[number][seat]:
                # Which of the later cards were drawn after this trick is unknown: weigh every choice, then go
                # on with one of them in proportion (sequential importance sampling).
                options = [
                    [card for card in hand if card not in chosen]
                    for chosen in combinations(hand, min(drawn[number][seat], len(hand)))
                ]
            else:
                options = [hand]
            if sensible is None:
                hand = [*rng.choice(options), *played]
                continue
            likelihoods = [1.0 if sensible([*option, *played]) else miss for option in options]
            weight *= sum(likelihoods) / len(likelihoods)
            hand = [*rng.choices(options, likelihoods)[0], *played]
    return weight


# -- the hard player ---------------------------------------------------------------------------------------------


def _known_points(deal: Deal, seat: int) -> int:
    """The points of ``seat``'s side pile that the seat may know: open cards and its own face-down ones."""
    return sum(e.card.points for e in deal.piles[deal.side_of[seat]] if not e.face_down or e.played_by == seat)


def _rollout_choice(deal: Deal, legal: Sequence[Action], rng: random.Random, epsilon: float) -> Action:
    """A quick policy for simulations: the easy player's habits, with a random move now and then."""
    seat = legal[0].seat
    threshold = deal.threshold
    others = [a for a in legal if not isinstance(a, Claim)]
    if threshold is not None and len(others) < len(legal):
        if _known_points(deal, seat) >= threshold:
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
        return min(leads, key=lambda a: _easy_lead_key(a.cards, trump)) if leads else others[0]
    trick = deal.trick
    assert trick is not None
    # What the easy player would count: the open cards of the trick (and its own, of which it has none yet).
    value = sum(card.points for card in trick.lead) + sum(
        c.points for p in trick.plays if not p.face_down for c in p.cards
    )
    answers = [a for a in others if isinstance(a, RespondOpen | RespondFaceDown)]
    return _easy_answer(answers, trick.best, value, trump)


def _value(deal: Deal, side: int) -> float:
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


def _play_out(deal: Deal, rng: random.Random, epsilon: float, limit: int = 400) -> None:
    steps = 0
    while not deal.over and steps < limit:
        seat = deal.to_act()
        assert seat is not None
        deal.apply(_rollout_choice(deal, deal.legal_actions(seat), rng, epsilon))
        steps += 1


class HardPlayer:
    """Determinized Monte Carlo over the engine with inference: ``samples`` sampled worlds for each candidate
    move, drawn from ``candidates`` times as many worlds weighed by plausibility (see the module docstring)."""

    def __init__(
        self,
        variant: Variant,
        seed: int | str = 0,
        samples: int = 32,
        budget: int | None = None,
        candidates: int | None = None,
        epsilon: float = 0.1,
        miss: float = 0.1,
    ) -> None:
        """``samples`` worlds per candidate move at most, within ``budget`` simulated moves per decision;
        ``candidates`` worlds weighed for each one kept (1: no inference); ``epsilon`` the share of random moves
        in the playouts; ``miss`` the weight of a past move that breaks the easy player's habits.

        The defaults keep a decision near 100-200 ms on one core (BENCHMARKS.md): 3-card deals are short, so the
        work goes into inference; in games of 4-card hands a simulated move costs about twice as much (more
        answers to weigh, four seats), so the budget and the weighing are smaller."""
        short = variant.hand_size <= 3
        self.variant = variant
        self.rng = random.Random(seed)
        self.samples = samples
        self.budget = budget if budget is not None else (3000 if short else 1500)
        self.candidates = candidates if candidates is not None else (8 if short else 2)
        self.epsilon = epsilon
        self.miss = miss

    def _samples_for(self, view: SeatView, candidates: int) -> int:
        # A playout costs about one move per remaining card over the usual answer size: bound the total work.
        remaining = sum(size for _, size in view.table.hand_sizes) + view.table.stock
        per_playout = max(1, remaining * 2 // 3)
        return max(2, min(self.samples, self.budget // (candidates * per_playout)))

    def choose(self, view: SeatView) -> Action:
        legal = list(view.legal)
        if not legal:
            raise ValueError("no legal action")
        if len(legal) == 1:
            return legal[0]
        claim = next((action for action in legal if isinstance(action, Claim)), None)
        moves = [action for action in legal if action is not claim]
        count = self._samples_for(view, len(moves))
        seeds, claim_odds = self._worlds(view, count)
        side = view.side
        totals = [0.0] * len(moves)
        for world_seed in seeds:
            rollout_seed = self.rng.random()
            for index, action in enumerate(moves):
                # Common random numbers: every candidate meets the same sampled world and the same dice.
                world = determinize(view, self.variant, random.Random(world_seed))
                world.apply(action)
                _play_out(world, random.Random(rollout_seed), self.epsilon)
                totals[index] += _value(world, side) if world.over else 0.0
        best = max(range(len(moves)), key=lambda i: (totals[i], -i))
        # A claim ends the deal at once: won if the pile holds enough, lost if not (RULES §8.4 LOSE_DEAL). Its
        # odds come from all the weighed worlds, not only the few played out.
        if claim is not None and (2 * claim_odds - 1) * len(seeds) >= totals[best]:
            return claim
        return moves[best]

    def _worlds(self, view: SeatView, count: int) -> tuple[list[float], float]:
        """Seeds of ``count`` sampled worlds, drawn in proportion to how plausible each makes the others' past
        moves, and the odds that the side's pile reaches the claim threshold (over every world weighed)."""
        threshold = _threshold(self.variant, view)
        seeds = [self.rng.random() for _ in range(count * max(1, self.candidates))]
        weights: list[float] = []
        enough = 0.0
        for seed in seeds:
            rng = random.Random(seed)
            world = determinize(view, self.variant, rng)
            weight = _plausibility(world, view, rng, self.miss) if self.candidates > 1 else 1.0
            weights.append(weight)
            if threshold is not None and world.pile_points(view.side) >= threshold:
                enough += weight
        odds = enough / sum(weights)
        if self.candidates <= 1:
            return seeds, odds
        return self.rng.choices(seeds, weights, k=count), odds


__all__ = ["EasyPlayer", "HardPlayer", "current_best", "determinize", "remembered_points"]
