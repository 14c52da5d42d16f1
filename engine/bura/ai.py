"""Computer players that play fair: they decide from their seat's view alone (``engine.bura.views.SeatView``).

* ``EasyPlayer``: a sensible heuristic. It keeps trumps, beats cheaply when the trick is worth it, dumps
  low cards (face down where allowed), and claims when the points it remembers reach the threshold.
* ``HardPlayer``: determinized Monte Carlo with inference. It samples the hidden cards consistently with
  everything the seat has seen (:func:`determinize`), weighs each sampled world by how plausible it makes the
  others' past moves if they play by the easy player's habits (:class:`_Inference`: an opponent who led a
  king while holding a seven is unlikely; one who kept declining to spend trumps probably holds them, the makings
  of a bura), resamples the worlds by those weights, plays each candidate move out to the end of the deal in
  every world with everybody following the easy player's habits and a random move now and then
  (:func:`_rollout_choice`), and picks the move with the best mean result. The moves still close to the best
  after that pass race on over fresh worlds while the work allows (:func:`_close_to_best`): a close decision
  gets the work a clear one does not need. Dominated moves are not tried: an open answer that cannot beat,
  when the same cards may go face down (:func:`_undominated`). A claim is judged by its odds over all the
  weighed worlds: won if the pile holds enough, lost if not.

Both remember points as a player would: the open cards of their side's pile they know; face-down cards they
captured they may not look at (RULES §6.7 strict mode), so a claim under uncertainty is a real decision.
Nothing here reads a ``Match`` or a real ``Deal``: the only input is the view, so the decision cannot depend on
a card the seat may not see (tests/engine/bura/test_ai.py shuffles the unseen cards to prove it). Randomness comes
from the player's own seeded ``random.Random`` and the work per decision is counted in simulated moves, never
in time, so a decision is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import combinations

from engine.bura.actions import Action, Claim, DeclareCombo, Lead, Pass, RespondFaceDown, RespondOpen
from engine.bura.cards import BY_INDEX, Card, deck, set_beats
from engine.bura.combos import Held, combo_rules
from engine.bura.deal import Deal, Phase, Play, Trick
from engine.bura.events import OutcomeKind, PileCard
from engine.bura.variant import BuraCombo, Discards, EndOfDeal, FollowSuit, TrumpCard, Variant
from engine.bura.views import SeatView, TrickView, current_best
from engine.core.cards import Suit


def remembered_points(view: SeatView) -> int:
    """The points of the side's pile that the seat knows (open cards and its own face-down ones)."""
    return sum(card.points for card in view.known_pile)


def _threshold(variant: Variant, view: SeatView) -> int | None:
    return variant.threshold(len(view.table.seats))


# -- the easy player -----------------------------------------------------------------------------------------


def _card_cost(card: Card, trump: Suit) -> int:
    """How much giving up a card hurts: trumps and point cards are worth keeping."""
    return card.points + (12 + card.strength if card.suit is trump else card.strength // 3)


@dataclass(frozen=True, slots=True)
class Habits:
    """How a heuristic player plays: the easy player's habits by default (see :class:`EasyPlayer`)."""

    spread: float = 0.5  # the bonus per card of a lead: several cheap cards at once empty the hand of junk
    cheap: int = 12  # beat whenever the cheapest beating set costs no more than this per card
    unseen: float = 0.0  # the points a claim counts for each face-down card of the pile the seat may not see


EASY = Habits()
# Sharper habits for the hard player's own side in its simulations. Played alone against the easy player they
# win about 57% of 2-player Бура deals (3,000 deals; the easy habits 50%): many-card leads make the other side
# answer with as many cards, so a hoarder gives up trumps face down; a claim counts face-down cards it captured.
SHARP = Habits(spread=8.0, cheap=10, unseen=1.5)


def _easy_lead_key(cards: Sequence[Card], trump: Suit, spread: float = 0.5) -> tuple[float, int]:
    # Lead cheap cards, several at once when they are all cheap: it empties the hand of junk.
    cost = sum(_card_cost(card, trump) for card in cards)
    return (cost / len(cards) - spread * len(cards), cost)


def _easy_answer(
    answers: Sequence[RespondOpen | RespondFaceDown], best: Sequence[Card], value: int, trump: Suit, cheap: int = 12
) -> RespondOpen | RespondFaceDown:
    """The easy player's answer: beat with the cheapest set when the trick is worth it or the set is cheap,
    else dump the cheapest cards, face down where allowed. ``value``: the points seen in the trick so far."""
    beating = [a for a in answers if isinstance(a, RespondOpen) and set_beats(a.cards, best, trump)]
    if beating:
        cheapest = min(beating, key=lambda a: sum(_card_cost(card, trump) for card in a.cards))
        cost = sum(_card_cost(card, trump) for card in cheapest.cards)
        gain = value + sum(card.points for card in cheapest.cards)
        if gain >= 10 or cost <= cheap * len(cheapest.cards):
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


@dataclass(slots=True)
class _Unseen:
    """The cards a seat cannot see, in deck order, and the public facts that pin some of them to a place."""

    pool: list[Card]
    pinned: dict[int, list[Card]]  # public cards known to sit in a hand: the drawn trump card, shown combos
    stock_trump: bool  # the turned-up trump card still lies in the stock
    dead_trump: bool  # ... or among the dead cards


def _unseen(view: SeatView, variant: Variant) -> _Unseen:
    table = view.table
    seat = view.seat
    sizes = dict(table.hand_sizes)
    tricks = [*table.history, *([table.trick] if table.trick is not None else [])]
    placed: set[Card] = set(view.hand)
    for trick in tricks:
        placed.update(trick.lead)
        for play in trick.plays:
            placed.update(play.cards)  # open ones, and face-down ones this seat may see
    pinned: dict[int, list[Card]] = {}
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
    return _Unseen(pool, pinned, stock_trump, dead_trump)


def _deal_unseen(
    view: SeatView, unseen: _Unseen, rng: random.Random
) -> tuple[dict[int, list[Card]], list[tuple[Card, ...]]]:
    """The others' hands and the hidden face-down answers (in trick order) of one shuffle of the unseen cards,
    dealt as :func:`determinize` deals them, without building the deal."""
    table = view.table
    pool = list(unseen.pool)
    rng.shuffle(pool)
    at = 0
    hands: dict[int, list[Card]] = {}
    sizes = dict(table.hand_sizes)
    for s in table.seats:
        if s != view.seat:
            fixed = unseen.pinned.get(s, [])
            count = max(0, sizes[s] - len(fixed))
            hands[s] = sorted([*fixed, *pool[at : at + count]], key=BY_INDEX)
            at += count
    at += max(0, table.stock - 1 if unseen.stock_trump else table.stock)
    at += max(0, table.dead - 1 if unseen.dead_trump else table.dead)
    hidden: list[tuple[Card, ...]] = []
    for trick in [*table.history, *([table.trick] if table.trick is not None else [])]:
        for play in trick.plays:
            if len(play.cards) != play.count:
                hidden.append(tuple(pool[at : at + play.count]))
                at += play.count
    return hands, hidden


def determinize(view: SeatView, variant: Variant, rng: random.Random, unseen: _Unseen | None = None) -> Deal:
    """A complete deal consistent with everything ``view`` shows, the hidden cards dealt at random.

    Only the view is read: the unseen cards are taken in deck order and shuffled by ``rng``, then laid in the
    hidden places (other hands, the stock, dead cards, others' face-down answers) in a fixed order.
    """
    table = view.table
    seat = view.seat
    sizes = dict(table.hand_sizes)
    if unseen is None:
        unseen = _unseen(view, variant)
    pinned = unseen.pinned
    stock_trump = unseen.stock_trump
    dead_trump = unseen.dead_trump
    trump_card = table.trump_card
    holder = table.trump_card_holder
    pool = list(unseen.pool)
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


Test = Callable[[list[Card], tuple[Card, ...]], bool]  # (hand, cards played from it): would the habits play them


def _decision(
    trick: TrickView, seat: int, sizes: dict[int, int], variant: Variant, trump: Suit, size: int
) -> tuple[tuple[Card, ...], Test | None]:
    """The cards ``seat`` played to ``trick`` (none when they lie face down out of sight), and a test of whether
    the easy player's habits would have played them from a given hand (None when the seat did not play to it)."""
    if trick.leader == seat:
        cap = min((n for s, n in sizes.items() if s != seat and n), default=size)
        return trick.lead, partial(_lead_was_sensible, variant=variant, cap=cap, trump=trump)
    best = trick.lead
    value = sum(card.points for card in trick.lead)
    for play in trick.plays:
        if play.seat == seat:
            sensible = partial(
                _answer_was_sensible,
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


def _is_bura(hand: Sequence[Card], size: int, trump: Suit) -> bool:
    return len(hand) == size and all(card.suit is trump for card in hand)


class _Inference:
    """How plausible a sampled world makes the others' past moves: ``miss`` to the power of the moves that the
    easy player's habits would not have made, had the world been true (an opponent who led a king while holding
    a seven is unlikely).

    The hands the others held at each trick are rebuilt backwards from the sampled hands. Which of the later
    cards were drawn after a trick (their count follows from the drawing rules) is unknown, so every choice is
    weighed and one is followed in proportion (sequential importance sampling): the weight is an estimate of the
    likelihood of the moves seen. The model is the easy player's, so it fits a sensible player, not a random
    one; ``miss`` keeps a world that breaks the habit possible.

    Everything that follows from the view alone (hand sizes and draws at each trick, what each move was tested
    against) is worked out once per decision; a world is then only the others' hands and their hidden face-down
    answers (:func:`_deal_unseen`), so many worlds can be weighed for the cost of one played out."""

    def __init__(self, view: SeatView, template: Deal, miss: float, bura: bool = False) -> None:
        """``bura``: also use that nobody has shown a bura (RULES §9.2, an instant win): no hand the others held
        at the start of a trick, nor now, was all trumps."""
        self.miss = miss
        self.bura = bura and template.variant.bura is BuraCombo.INSTANT_WIN
        self.size = template.variant.hand_size
        self.trump = view.table.trump
        self.between_tricks = view.table.trick is None
        self.steps: list[tuple[int, list[tuple[int, int, tuple[Card, ...], int | None, Test | None]]]] = []
        self.known: dict[tuple[int, int, frozenset[Card], tuple[Card, ...]], bool] = {}
        table = view.table
        tricks = [*table.history, *([table.trick] if table.trick is not None else [])]
        slots: dict[tuple[int, int], int] = {}
        self.pile = 0  # the side's pile: the points it may see, and the hidden answers in it
        self.pile_slots: list[int] = []
        for number, trick in enumerate(tricks):
            mine = number < len(table.history) and template.side_of[trick.owner] == view.side
            if mine:
                self.pile += sum(card.points for card in trick.lead)
            for play in trick.plays:
                if len(play.cards) != play.count:
                    slots[(number, play.seat)] = len(slots)
                    if mine:
                        self.pile_slots.append(slots[(number, play.seat)])
                elif mine:
                    self.pile += sum(card.points for card in play.cards)
        variant = template.variant
        if variant.follow_suit is not FollowSuit.NEVER:
            return
        seats = table.seats
        size = variant.hand_size
        # Forward: hand sizes at each trick and the cards each seat drew after it.
        sizes = dict.fromkeys(seats, size)
        stock = variant.deck_size - size * len(seats)
        before: list[dict[int, int]] = []
        drawn: list[dict[int, int]] = []
        for trick in table.history:
            before.append(dict(sizes))
            sizes[trick.leader] -= len(trick.lead)
            for play in trick.plays:
                sizes[play.seat] -= play.count
            order = [s for s in template.clockwise_from(trick.owner) if sizes[s] < size]
            need = [size - sizes[s] for s in order]
            counts = template._draw_counts(need, stock) if stock and order else [0] * len(order)
            got = dict.fromkeys(seats, 0)
            for seat, count in zip(order, counts, strict=True):
                got[seat] = count
                sizes[seat] += count
            stock -= sum(counts)
            if any(c < n for c, n in zip(counts, need, strict=True)):
                stock = 0
            drawn.append(got)
        if table.trick is not None:
            before.append(dict(sizes))
        if any(sizes[s] != n for s, n in table.hand_sizes if s in sizes) and table.trick is None:
            return  # the drawing did not follow the plain rules (a combo lead, a short hand): no model
        trump = table.trump
        for seat in seats:
            if template.side_of[seat] == view.side:
                continue
            steps = []
            for number in range(len(tricks) - 1, -1, -1):
                played, sensible = _decision(tricks[number], seat, before[number], variant, trump, size)
                draws = drawn[number][seat] if number < len(table.history) else 0
                steps.append((number, draws, played, slots.get((number, seat)), sensible))
            self.steps.append((seat, steps))

    def points(self, hidden: Sequence[tuple[Card, ...]]) -> int:
        """The points of the side's pile in a world whose hidden face-down answers are ``hidden``."""
        return self.pile + sum(card.points for slot in self.pile_slots for card in hidden[slot])

    def weigh(self, hands: dict[int, list[Card]], hidden: Sequence[tuple[Card, ...]], rng: random.Random) -> float:
        weight = 1.0
        miss = self.miss
        known = self.known
        size = self.size
        trump = self.trump
        for seat, steps in self.steps:
            hand = list(hands[seat])
            if self.bura and self.between_tricks and _is_bura(hand, size, trump):
                return 0.0
            for number, draws, shown, slot, sensible in steps:
                played = shown if slot is None else hidden[slot]
                if draws:
                    # Which of the later cards were drawn after this trick is unknown: weigh every choice, then
                    # go on with one of them in proportion (sequential importance sampling).
                    options = [
                        [card for card in hand if card not in chosen]
                        for chosen in combinations(hand, min(draws, len(hand)))
                    ]
                else:
                    options = [hand]
                if sensible is None:
                    hand = [*rng.choice(options), *played]
                    continue
                likelihoods = []
                for option in options:
                    key = (seat, number, frozenset(option), played)
                    fits = known.get(key)
                    if fits is None:
                        fits = known[key] = sensible([*option, *played], played)
                    if self.bura and _is_bura([*option, *played], size, trump):
                        likelihoods.append(0.0)
                    else:
                        likelihoods.append(1.0 if fits else miss)
                if not any(likelihoods):
                    return 0.0
                weight *= sum(likelihoods) / len(likelihoods)
                hand = [*rng.choices(options, likelihoods)[0], *played]
        return weight


# -- the hard player ---------------------------------------------------------------------------------------------


def _known_points(deal: Deal, seat: int) -> int:
    """The points of ``seat``'s side pile that the seat may know: open cards and its own face-down ones."""
    return sum(e.card.points for e in deal.piles[deal.side_of[seat]] if not e.face_down or e.played_by == seat)


def _rollout_choice(
    deal: Deal, legal: Sequence[Action], rng: random.Random, epsilon: float, habits: Habits = EASY
) -> Action:
    """A quick policy for simulations: heuristic ``habits``, with a random move now and then."""
    seat = legal[0].seat
    threshold = deal.threshold
    others = [a for a in legal if not isinstance(a, Claim)]
    if threshold is not None and len(others) < len(legal):
        points: float = _known_points(deal, seat)
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
        return min(leads, key=lambda a: _easy_lead_key(a.cards, trump, habits.spread)) if leads else others[0]
    trick = deal.trick
    assert trick is not None
    # What the easy player would count: the open cards of the trick (and its own, of which it has none yet).
    value = sum(card.points for card in trick.lead) + sum(
        c.points for p in trick.plays if not p.face_down for c in p.cards
    )
    answers = [a for a in others if isinstance(a, RespondOpen | RespondFaceDown)]
    return _easy_answer(answers, trick.best, value, trump, habits.cheap)


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


def _play_out(
    deal: Deal, rng: random.Random, epsilon: float, side: int, others: float, habits: Habits, limit: int = 400
) -> int:
    """Play ``deal`` to its end: ``side`` by ``habits`` with ``epsilon`` random moves, the other sides by the
    easy player's habits with ``others``. Returns the number of moves played."""
    steps = 0
    while not deal.over and steps < limit:
        seat = deal.to_act()
        assert seat is not None
        if deal.side_of[seat] == side:
            action = _rollout_choice(deal, deal.legal_actions(seat), rng, epsilon, habits)
        else:
            action = _rollout_choice(deal, deal.legal_actions(seat), rng, others)
        deal.apply(action)
        steps += 1
    return steps


def _close_to_best(alive: list[int], results: Sequence[Sequence[float]], margin: float) -> list[int]:
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


def _undominated(moves: list[Action], view: SeatView) -> list[Action]:
    """The moves less the open answers that do not beat when the same cards may go face down: they cannot take
    the trick either way, and face up they tell the taker the points it won (and when it may claim)."""
    trick = view.table.trick
    if trick is None:
        return moves
    best = current_best(trick)
    trump = view.table.trump
    hidden = {a.cards for a in moves if isinstance(a, RespondFaceDown)}
    return [
        a
        for a in moves
        if not (isinstance(a, RespondOpen) and a.cards in hidden and not set_beats(a.cards, best, trump))
    ]


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
        others_epsilon: float | None = None,
        prune: bool = True,
        bura: bool = False,
        habits: Habits = EASY,
        race: int | None = None,
        margin: float = 1.5,
    ) -> None:
        """``samples`` worlds per candidate move at most in a first pass, within ``budget`` simulated moves;
        ``candidates`` worlds weighed for each one kept (1: no inference); ``epsilon`` the share of random moves
        in the playouts; ``miss`` the weight of a past move that breaks the easy player's habits.
        ``prune``: no open answer that cannot beat when the same cards may go face down (a no-op where such
        answers must go face down, as in Буркозёл). Options measured in 2-player Бура and left off
        (BENCHMARKS.md): ``others_epsilon``, the random moves of the other sides in the playouts (default:
        ``epsilon``); ``bura``, no world where another seat held an unshown bura; ``habits``, the own side's
        playout habits.

        The defaults keep a decision under 300 ms at p95 on one core (BENCHMARKS.md): 3-card deals are short,
        so the work goes into inference and racing; in games of 4-card hands a simulated move costs about twice
        as much (more answers to weigh, four seats), so the budget and the weighing are smaller.

        ``race``: simulated moves to spend after the first pass on the moves still within ``margin`` standard
        errors of the best one, in rounds of fresh worlds, until one stands out or the work is spent: most
        decisions are clear after the first pass, a close one gets the work (BENCHMARKS.md). Off (0) in games
        of 4-card hands, where a decision already costs more."""
        short = variant.hand_size <= 3
        self.variant = variant
        self.rng = random.Random(seed)
        self.samples = samples
        self.budget = budget if budget is not None else (2000 if short else 1500)
        self.candidates = candidates if candidates is not None else (8 if short else 2)
        self.epsilon = epsilon
        self.others_epsilon = epsilon if others_epsilon is None else others_epsilon
        self.miss = miss
        self.prune = prune
        self.bura = bura
        self.habits = habits
        self.race = race if race is not None else (3000 if short else 0)
        self.margin = margin

    def _samples_for(self, view: SeatView, candidates: int) -> tuple[int, int]:
        """The worlds of the first pass over ``candidates`` moves, and the rounds of as many worlds that the
        racing work may pay for."""
        # A playout costs about one move per remaining card over the usual answer size: bound the total work.
        remaining = sum(size for _, size in view.table.hand_sizes) + view.table.stock
        per_playout = max(1, remaining * 2 // 3)
        count = max(2, min(self.samples, self.budget // (candidates * per_playout)))
        return count, 1 + self.race // (count * per_playout)

    def choose(self, view: SeatView) -> Action:
        legal = list(view.legal)
        if not legal:
            raise ValueError("no legal action")
        if len(legal) == 1:
            return legal[0]
        claim = next((action for action in legal if isinstance(action, Claim)), None)
        moves = [action for action in legal if action is not claim]
        if self.prune:
            moves = _undominated(moves, view)
        count, rounds = self._samples_for(view, len(moves))
        unseen = _unseen(view, self.variant)
        seeds, claim_odds = self._worlds(view, count, unseen, rounds)
        side = view.side
        # results[i]: move i's result in each world it met, in the order of ``seeds``.
        results: list[list[float]] = [[] for _ in moves]
        alive = list(range(len(moves)))
        spent = 0
        at = 0
        while True:
            for world_seed in seeds[at : at + count]:
                rollout_seed = self.rng.random()
                for index in alive:
                    # Common random numbers: every candidate meets the same sampled world and the same dice.
                    world = determinize(view, self.variant, random.Random(world_seed), unseen)
                    world.apply(moves[index])
                    spent += 1 + _play_out(
                        world, random.Random(rollout_seed), self.epsilon, side, self.others_epsilon, self.habits
                    )
                    results[index].append(_value(world, side) if world.over else 0.0)
            at += count
            alive = _close_to_best(alive, results, self.margin)
            if len(alive) == 1 or at >= len(seeds) or spent >= self.budget + self.race:
                break
        best = max(alive, key=lambda i: (sum(results[i]) / len(results[i]), -i))
        mean = sum(results[best]) / len(results[best])
        # A claim ends the deal at once: won if the pile holds enough, lost if not (RULES §8.4 LOSE_DEAL). Its
        # odds come from all the weighed worlds, not only the few played out.
        if claim is not None and 2 * claim_odds - 1 >= mean:
            return claim
        return moves[best]

    def _worlds(
        self, view: SeatView, count: int, unseen: _Unseen | None = None, rounds: int = 1
    ) -> tuple[list[float], float]:
        """Seeds of ``count`` sampled worlds for each of ``rounds``, drawn in proportion to how plausible each
        makes the others' past moves, and the odds that the side's pile reaches the claim threshold (over every
        world weighed)."""
        threshold = _threshold(self.variant, view)
        seeds = [self.rng.random() for _ in range(count * (self.candidates if self.candidates > 1 else rounds))]
        weights: list[float] = []
        reached: list[bool] = []
        if unseen is None:
            unseen = _unseen(view, self.variant)
        inference = _Inference(view, determinize(view, self.variant, random.Random(0), unseen), self.miss, self.bura)
        for seed in seeds:
            rng = random.Random(seed)
            hands, hidden = _deal_unseen(view, unseen, rng)
            weight = inference.weigh(hands, hidden, rng) if self.candidates > 1 else 1.0
            weights.append(weight)
            reached.append(threshold is not None and inference.points(hidden) >= threshold)
        if not any(weights):
            weights = [1.0] * len(seeds)  # no world fits the model: weigh none above another
        odds = sum(w for w, enough in zip(weights, reached, strict=True) if enough) / sum(weights)
        if self.candidates <= 1:
            return seeds, odds
        first = self.rng.choices(seeds, weights, k=count)
        # The worlds of the later rounds of a close decision, drawn alike.
        return first + self.rng.choices(seeds, weights, k=count * (rounds - 1)), odds


__all__ = ["EasyPlayer", "HardPlayer", "current_best", "determinize", "remembered_points"]
