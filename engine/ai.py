"""Computer players that play fair: they decide from their seat's view alone (``engine.views.SeatView``).

* ``EasyPlayer``: a sensible heuristic. It keeps trumps, beats cheaply when the trick is worth it, dumps
  low cards (face down where allowed), and claims when the points it remembers reach the threshold.
* ``HardPlayer``: determinized Monte Carlo. It samples the hidden cards consistently with everything the seat
  has seen (:func:`determinize`), plays each candidate move out to the end of the deal many times, and picks
  the move with the best mean result.

Both remember points as a player would: the open cards of their side's pile they know; face-down cards they
captured they may not look at (RULES §6.7 strict mode), so a claim under uncertainty is a real decision.
Nothing here reads a ``Match`` or a real ``Deal``: the only input is the view, so the decision cannot depend on
a card the seat may not see (tests/engine/test_ai.py shuffles the unseen cards to prove it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action, Claim, DeclareCombo, Lead, Pass, RespondFaceDown, RespondOpen
from engine.cards import BY_INDEX, Card, Suit, deck, set_beats
from engine.combos import Held, combo_rules
from engine.deal import Deal, Phase, Play, Trick
from engine.events import OutcomeKind, PileCard
from engine.variant import EndOfDeal, TrumpCard, Variant
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
        # Lead cheap cards, several at once when they are all cheap: it empties the hand of junk.
        def key(lead: Lead) -> tuple[float, int]:
            cost = sum(_card_cost(card, trump) for card in lead.cards)
            return (cost / len(lead.cards) - 0.5 * len(lead.cards), cost)

        return min(leads, key=key)

    def _answer(self, answers: list[RespondOpen | RespondFaceDown], view: SeatView) -> Action:
        trick = view.table.trick
        assert trick is not None
        trump = view.table.trump
        best = current_best(trick)
        value = sum(card.points for card in trick.lead) + sum(c.points for p in trick.plays for c in p.cards)
        beating = [a for a in answers if isinstance(a, RespondOpen) and set_beats(a.cards, best, trump)]
        if beating:
            cheapest = min(beating, key=lambda a: sum(_card_cost(card, trump) for card in a.cards))
            cost = sum(_card_cost(card, trump) for card in cheapest.cards)
            gain = value + sum(card.points for card in cheapest.cards)
            if gain >= 10 or cost <= 12 * len(cheapest.cards):
                return cheapest
        discards = [a for a in answers if not (isinstance(a, RespondOpen) and set_beats(a.cards, best, trump))]
        pool = discards or answers
        face_down: list[RespondOpen | RespondFaceDown] = [a for a in pool if isinstance(a, RespondFaceDown)]
        return min(face_down or pool, key=lambda a: sum(_card_cost(card, trump) for card in a.cards))


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


# -- the hard player ---------------------------------------------------------------------------------------------


def _rollout_choice(deal: Deal, legal: Sequence[Action], rng: random.Random) -> Action:
    """A quick policy for simulations: random moves, but claims only when they are true (in the sample)."""
    threshold = deal.variant.threshold(len(deal.seats))
    claims = [a for a in legal if isinstance(a, Claim)]
    if claims and threshold is not None and deal.pile_points(deal.side_of[claims[0].seat]) >= threshold:
        return claims[0]
    others = [a for a in legal if not isinstance(a, Claim)]
    return rng.choice(others or list(legal))


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


def _play_out(deal: Deal, rng: random.Random, limit: int = 400) -> None:
    steps = 0
    while not deal.over and steps < limit:
        seat = deal.to_act()
        assert seat is not None
        deal.apply(_rollout_choice(deal, deal.legal_actions(seat), rng))
        steps += 1


class HardPlayer:
    """Determinized flat Monte Carlo over the engine: ``samples`` sampled worlds for each candidate move."""

    def __init__(self, variant: Variant, seed: int | str = 0, samples: int = 32, budget: int = 3000) -> None:
        """``samples`` worlds per candidate at most, within ``budget`` simulated moves per decision."""
        self.variant = variant
        self.rng = random.Random(seed)
        self.samples = samples
        self.budget = budget

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
        side = view.side
        totals = [0.0] * len(legal)
        for _ in range(self._samples_for(view, len(legal))):
            world_seed = self.rng.random()
            for index, action in enumerate(legal):
                # Common random numbers: every candidate meets the same sampled world and the same dice.
                rng = random.Random(world_seed)
                world = determinize(view, self.variant, rng)
                world.apply(action)
                _play_out(world, rng)
                totals[index] += _value(world, side) if world.over else 0.0
        best = max(range(len(legal)), key=lambda i: (totals[i], -i))
        return legal[best]


__all__ = ["EasyPlayer", "HardPlayer", "current_best", "determinize", "remembered_points"]
