"""A deal with nothing hidden, reduced to what play changes: the hard player's playouts and exact search.

``engine.bura.deal.Deal`` is the truth of the rules, and it builds what a table needs (events, the piles card by
card, a legality check per action). A sampled world needs none of that: :class:`Sim` plays the same rules on
plain lists and counters, about five times as fast, for the thousands of moves a decision plays out.

What it keeps of a pile is what play and scoring read: the points of each side, the tricks each side took, and,
for a claim by the easy player's habits, the points each seat may know (open cards and its own face-down ones)
and the face-down cards it may not look at. The pre-lead window (RULES §10) is resolved at once when it opens:
an instant combo wins; otherwise every seat holding a lead-seizing combo declares it (the easy player always
does), the best of them against the rightful leader's own takes the lead, and the leader then claims or leads.
A rightful leader whose lead is seized does not claim in that window: a simplification of the race in
``Deal`` (a seat may claim while others may still say «Стоп!») that only playouts see.

Variants with a duty to follow suit [V08], the CLAIM_FIRST priority [V25], the shokha [B08] or Tvaladze's
combinations (RULES §13) are not played here
(:func:`supported`): the hard player plays those out on ``Deal`` itself. tests/engine/bura/test_ai_sim.py plays
the same games on both and compares them move by move.
"""

from __future__ import annotations

import random
from itertools import combinations

from engine.bura.actions import Action, Claim, Lead, RespondFaceDown, RespondOpen
from engine.bura.cards import BY_INDEX, Card
from engine.bura.combos import Combo, Effect, Held, best_held, may_hold_combo, split_rules, strength_key
from engine.bura.deal import Deal, Phase
from engine.bura.variant import (
    BuraVsBura,
    Discards,
    DrawOrder,
    EndOfDeal,
    FollowSuit,
    PreLeadPriority,
    SameComboTie,
    ShortHand,
    StockShort,
    Variant,
)
from engine.bura.views import SeatView
from engine.core.cards import Suit

from .easy import set_beats_fast
from .worlds import Unseen, lay_out

# Phases and the kinds of move. A move is (kind, cards): (CLAIM, ()), (LEAD, cards), (OPEN, cards), (DOWN,
# cards) for an answer face up or face down, (PASS, ()) in the final claim window.
LEAD_PHASE, RESPOND_PHASE, FINAL_PHASE, OVER_PHASE = range(4)
CLAIM, LEAD, OPEN, DOWN, PASS = range(5)
# How a deal ended.
WIN, FALSE_CLAIM, VOID, PLAYED_OUT = range(4)

Move = tuple[int, tuple[Card, ...]]
# A deal settled by points (Буркозёл): its value is the point margin over this scale plus or minus this step.
MARGIN_SCALE = 60.0
WIN_STEP = 0.5
CLAIM_MOVE: Move = (CLAIM, ())
PASS_MOVE: Move = (PASS, ())


def supported(variant: Variant) -> bool:
    """Whether :class:`Sim` plays ``variant``'s rules (see the module docstring)."""
    return (
        variant.follow_suit is FollowSuit.NEVER
        and variant.pre_lead_priority is PreLeadPriority.COMBOS_FIRST
        and not variant.shokha
        and not variant.tvaladze_combos
    )


class Rules:
    """What the variant says about play, read once per variant."""

    __slots__ = (
        "block",
        "cap_lead",
        "discards",
        "end",
        "final_window",
        "higher_cards",
        "instant",
        "lead_sizes",
        "seize",
        "seizer_may_claim",
        "size",
        "stock_short",
        "top_card",
        "variant",
    )

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.size = variant.hand_size
        self.lead_sizes = variant.lead_sizes
        self.discards = variant.discards
        self.block = variant.draw_order is DrawOrder.BLOCK
        self.stock_short = variant.stock_short
        self.cap_lead = variant.short_hand is ShortHand.CAP_LEAD
        self.final_window = variant.final_claim_window
        self.seizer_may_claim = variant.seizer_may_claim
        self.end = variant.end_of_deal
        self.instant, self.seize = split_rules(variant)
        self.top_card = variant.bura_vs_bura is BuraVsBura.TOP_CARD
        self.higher_cards = variant.same_combo_tie is SameComboTie.HIGHER_CARDS


_RULES: dict[int, Rules] = {}


def rules_of(variant: Variant) -> Rules:
    hit = _RULES.get(id(variant))
    if hit is None or hit.variant is not variant:
        if len(_RULES) >= 64:
            _RULES.clear()
        hit = _RULES[id(variant)] = Rules(variant)
    return hit


class Sim:
    """One deal with every card known (see the module docstring). Build one with :func:`from_deal`."""

    __slots__ = (
        "active_sides",
        "best",
        "claimant",
        "dead",
        "forced",
        "hands",
        "kind",
        "known",
        "lead",
        "leader",
        "open_value",
        "order",
        "owner",
        "phase",
        "plays",
        "points",
        "responders",
        "rightful",
        "rules",
        "seats",
        "side_of",
        "sides",
        "stock",
        "threshold",
        "tricks",
        "trump",
        "unseen",
        "winners",
    )

    rules: Rules
    seats: tuple[int, ...]
    order: dict[int, tuple[int, ...]]
    side_of: dict[int, int]
    sides: int
    active_sides: tuple[int, ...]
    threshold: int | None
    trump: Suit
    hands: dict[int, list[Card]]
    stock: list[Card]
    dead: int
    points: list[int]
    tricks: list[int]
    known: dict[int, int]
    unseen: dict[int, int]
    phase: int
    leader: int
    rightful: int
    forced: tuple[Card, ...] | None
    lead: tuple[Card, ...]
    best: tuple[Card, ...]
    owner: int
    responders: list[int]
    plays: list[tuple[int, tuple[Card, ...], bool]]
    open_value: int
    kind: int
    winners: tuple[int, ...]
    claimant: int | None

    def copy(self) -> Sim:
        twin = Sim.__new__(Sim)
        twin.rules = self.rules
        twin.seats = self.seats
        twin.order = self.order
        twin.side_of = self.side_of
        twin.sides = self.sides
        twin.active_sides = self.active_sides
        twin.threshold = self.threshold
        twin.trump = self.trump
        twin.hands = {seat: list(hand) for seat, hand in self.hands.items()}
        twin.stock = list(self.stock)
        twin.dead = self.dead
        twin.points = list(self.points)
        twin.tricks = list(self.tricks)
        twin.known = dict(self.known)
        twin.unseen = dict(self.unseen)
        twin.phase = self.phase
        twin.leader = self.leader
        twin.rightful = self.rightful
        twin.forced = self.forced
        twin.lead = self.lead
        twin.best = self.best
        twin.owner = self.owner
        twin.responders = list(self.responders)
        twin.plays = list(self.plays)
        twin.open_value = self.open_value
        twin.kind = self.kind
        twin.winners = self.winners
        twin.claimant = self.claimant
        return twin

    # -- queries ----------------------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == OVER_PHASE

    def to_act(self) -> int:
        return self.responders[0] if self.phase == RESPOND_PHASE else self.leader

    def may_claim(self) -> bool:
        """Whether the seat to act may claim now (RULES §8.2: R before he leads, a seizer if allowed)."""
        if self.threshold is None:
            return False
        if self.phase == FINAL_PHASE:
            return True
        if self.phase != LEAD_PHASE:
            return False
        return self.leader == self.rightful or self.rules.seizer_may_claim

    def cap(self, seat: int) -> int:
        """[V14] CAP_LEAD: no more cards than the smallest other hand that still holds cards."""
        if not self.rules.cap_lead:
            return self.rules.size
        cap = 0
        for other, hand in self.hands.items():
            if other != seat and hand and (cap == 0 or len(hand) < cap):
                cap = len(hand)
        return cap

    def leads(self) -> list[tuple[Card, ...]]:
        """The leader's legal leads, in the order of ``Deal.legal_actions``."""
        if self.forced is not None:
            return [self.forced]
        hand = self.hands[self.leader]
        sizes = self.lead_sizes()
        leads: list[tuple[Card, ...]] = []
        for start, stop in suit_runs(hand):
            suited = hand[start:stop]
            for k in sizes:
                if k > len(suited):
                    break
                if k == 1:
                    leads.extend((card,) for card in suited)
                else:
                    leads.extend(combinations(suited, k))
        return leads

    def lead_sizes(self) -> list[int]:
        """How many cards the leader may lead, smallest first (the variant's sizes up to the cap)."""
        cap = self.cap(self.leader)
        return [k for k in self.rules.lead_sizes if k <= cap]

    def answers(self) -> list[Move]:
        """The answers of the seat to act, in the order of ``Deal.legal_actions``."""
        seat = self.responders[0]
        hand = self.hands[seat]
        k = min(len(self.lead), len(hand))
        short = k < len(self.lead)
        discards = self.rules.discards
        best = self.best
        trump = self.trump
        moves: list[Move] = []
        for chosen in combinations(hand, k):
            if discards is Discards.FACE_DOWN_MANDATORY:
                if not short and set_beats_fast(chosen, best, trump):
                    moves.append((OPEN, chosen))
            else:
                moves.append((OPEN, chosen))
            if discards is not Discards.OPEN:
                moves.append((DOWN, chosen))
        return moves

    def legal(self) -> list[Move]:
        """Every move of the seat to act (the claim first, as ``Deal`` lists it)."""
        phase = self.phase
        if phase == RESPOND_PHASE:
            return self.answers()
        if phase == FINAL_PHASE:
            return [CLAIM_MOVE, PASS_MOVE]
        if phase == OVER_PHASE:
            return []
        moves: list[Move] = [CLAIM_MOVE] if self.may_claim() else []
        moves.extend((LEAD, cards) for cards in self.leads())
        return moves

    # -- play -----------------------------------------------------------------------------------------------

    def apply(self, move: Move) -> None:
        """Play ``move`` for the seat to act (one of :meth:`legal`; not checked)."""
        kind, cards = move
        if kind == LEAD:
            seat = self.leader
            hand = self.hands[seat]
            for card in cards:
                hand.remove(card)
            self.lead = self.best = cards
            self.owner = seat
            self.plays = []
            self.open_value = sum(card.points for card in cards)
            hands = self.hands
            self.responders = [s for s in self.order[seat][1:] if hands[s]]
            self.phase = RESPOND_PHASE
            self.forced = None
        elif kind in (OPEN, DOWN):
            seat = self.responders.pop(0)
            hand = self.hands[seat]
            for card in cards:
                hand.remove(card)
            down = kind == DOWN
            self.plays.append((seat, cards, down))
            if not down:
                self.open_value += sum(card.points for card in cards)
                if len(cards) == len(self.lead) and set_beats_fast(cards, self.best, self.trump):
                    self.best = cards
                    self.owner = seat
            if not self.responders:
                self._take()
        elif kind == CLAIM:
            self._claim(self.leader)
        else:  # PASS in the final window
            self._settle()

    def _take(self) -> None:
        owner = self.owner
        side_of = self.side_of
        side = side_of[owner]
        seen = 0  # open cards: every seat of the side knows them
        for card in self.lead:
            seen += card.points
        hidden_points = 0
        hidden_count = 0
        plays = self.plays
        for _seat, cards, down in plays:
            for card in cards:
                if down:
                    hidden_points += card.points
                    hidden_count += 1
                else:
                    seen += card.points
        self.points[side] += seen + hidden_points
        self.tricks[side] += 1
        known = self.known
        unseen = self.unseen
        for seat in self.seats:
            if side_of[seat] == side:
                known[seat] += seen
                unseen[seat] += hidden_count
        if hidden_count:
            # a seat knows its own face-down cards: they count as known to it, not unseen
            for seat, cards, down in plays:
                if down and side_of[seat] == side:
                    known[seat] += sum(card.points for card in cards)
                    unseen[seat] -= len(cards)
        self.plays = []
        if self.stock:
            self._draw(owner)
        hands = self.hands
        holders = [s for s in self.order[owner] if hands[s]]
        if len(holders) == 1:
            # RULES §7.4: the only player with cards takes them as an unopposed last trick, face down.
            last = holders[0]
            worth = sum(card.points for card in hands[last])
            last_side = side_of[last]
            self.points[last_side] += worth
            count = len(hands[last])
            for seat in self.seats:
                if side_of[seat] == last_side:
                    if seat == last:
                        known[seat] += worth
                    else:
                        unseen[seat] += count
            hands[last] = []
            holders = []
        if not holders:
            if self.threshold is not None and self.rules.final_window:
                self.phase = FINAL_PHASE
                self.leader = self.rightful = owner
                return
            self._settle()
            return
        self._open_window(holders[0])

    def _draw(self, winner: int) -> None:
        """RULES §7, as ``Deal._draw``."""
        stock = self.stock
        rules = self.rules
        size = rules.size
        hands = self.hands
        order = [s for s in self.order[winner] if len(hands[s]) < size]
        if not order:
            return
        need = [size - len(hands[s]) for s in order]
        pop = stock.pop
        if not rules.block and sum(need) <= len(stock) and min(need) == max(need):
            # the common case: enough for all, one card at a time (as Deal._draw_everything)
            for _ in range(need[0]):
                for seat in order:
                    hands[seat].append(pop())
            for seat in order:
                hands[seat].sort(key=BY_INDEX)
            return
        if sum(need) <= len(stock):
            counts = need
        elif rules.stock_short is StockShort.ALL_OR_NOTHING:
            counts = [0] * len(need)
        else:
            counts = [0] * len(need)
            available = len(stock)
            while available:
                short = [i for i, wanted in enumerate(need) if counts[i] < wanted]
                if not short or (rules.stock_short is StockShort.ROUND_COMPLETE and len(short) > available):
                    break
                for i in short[:available]:
                    counts[i] += 1
                available -= min(available, len(short))
        if rules.block:
            sequence = [s for s, count in zip(order, counts, strict=True) for _ in range(count)]
        else:
            pairs = list(zip(order, counts, strict=True))
            sequence = [s for round_ in range(max(counts, default=0)) for s, count in pairs if count > round_]
        for seat in sequence:
            hands[seat].append(pop())
        for seat, count in zip(order, counts, strict=True):
            if count:
                hands[seat].sort(key=BY_INDEX)
        if stock and any(count < wanted for count, wanted in zip(counts, need, strict=True)):
            self.dead += len(stock)
            stock.clear()

    def _open_window(self, rightful: int) -> None:
        """RULES §10, resolved at once (see the module docstring)."""
        self.phase = LEAD_PHASE
        self.rightful = self.leader = rightful
        self.forced = None
        rules = self.rules
        size = rules.size
        hands = self.hands
        order = [s for s in self.order[rightful] if len(hands[s]) == size and may_hold_combo(hands[s])]
        if not order:
            return
        variant = rules.variant
        trump = self.trump
        if rules.instant:
            instants = [held for seat in order if (held := best_held(seat, hands[seat], trump, variant, rules.instant))]
            if instants:
                winner = self._instant_winner(instants)
                self._end(WIN, (self.side_of[winner.seat],), winner.seat)
                return
        if not rules.seize:
            return
        standing: Held | None = None
        for seat in order:
            held = best_held(seat, hands[seat], trump, variant, rules.seize)
            if held is None:
                continue
            if seat != rightful and held.rule.effect is Effect.SEIZE_PLAY_ALL and len(held.cards) > self.cap(seat):
                continue
            if standing is None or self._seize_key(held) < self._seize_key(standing):
                standing = held
        if standing is not None and standing.seat != rightful:
            self.leader = standing.seat
            if standing.rule.effect is Effect.SEIZE_PLAY_ALL:
                self.forced = standing.cards

    def _seize_key(self, held: Held) -> tuple[int, ...]:
        distance = self.order[self.rightful].index(held.seat)
        if self.rules.higher_cards:
            return (held.rule.rank, *(-s for s in strength_key(held)), distance)
        return (held.rule.rank, distance)

    def _instant_winner(self, instants: list[Held]) -> Held:
        top = min(held.rule.rank for held in instants)
        tied = [held for held in instants if held.rule.rank == top]
        if len(tied) == 1 or tied[0].rule.combo is not Combo.BURA:
            return tied[0]
        if self.rules.top_card:
            return max(tied, key=strength_key)
        best = tied[0]
        for held in tied[1:]:
            if set_beats_fast(held.cards, best.cards, self.trump):
                best = held
        return best

    def _claim(self, seat: int) -> None:
        side = self.side_of[seat]
        assert self.threshold is not None
        if self.points[side] >= self.threshold:
            self._end(WIN, (side,), seat)
        else:
            others = tuple(s for s in self.active_sides if s != side)
            self._end(FALSE_CLAIM, others if len(others) == 1 else (), seat)

    def _settle(self) -> None:
        if self.rules.end is EndOfDeal.VOID:
            self._end(VOID, (), None)
            return
        top = max(self.points[side] for side in self.active_sides)
        self._end(PLAYED_OUT, tuple(side for side in self.active_sides if self.points[side] == top), None)

    def _end(self, kind: int, winners: tuple[int, ...], seat: int | None) -> None:
        self.phase = OVER_PHASE
        self.kind = kind
        self.winners = winners
        self.claimant = seat
        self.responders = []

    # -- the result -----------------------------------------------------------------------------------------

    def value(self, side: int) -> float:
        """The result of the finished deal for ``side``: +1 won, -1 lost, between for points (as
        ``search.value`` reads a finished ``Deal``)."""
        kind = self.kind
        if kind == VOID:
            return 0.0
        if kind == PLAYED_OUT and self.rules.end is EndOfDeal.PENALTY_TABLE:
            mine = self.points[side]
            others = [self.points[s] for s in self.active_sides if s != side]
            return (mine - max(others)) / MARGIN_SCALE + (WIN_STEP if side in self.winners else -WIN_STEP)
        if side in self.winners:
            return 1.0 / len(self.winners)
        if kind == FALSE_CLAIM and self.claimant is not None and self.side_of[self.claimant] == side:
            return -1.0
        return -1.0 if self.winners or kind == WIN else 0.0


def suit_runs(hand: list[Card]) -> list[tuple[int, int]]:
    """The runs of one suit in a hand sorted by suit: (start, stop) of each, in order."""
    runs: list[tuple[int, int]] = []
    start = 0
    end = len(hand)
    while start < end:
        suit = hand[start].suit
        stop = start + 1
        while stop < end and hand[stop].suit is suit:
            stop += 1
        runs.append((start, stop))
        start = stop
    return runs


def as_move(action: Action) -> Move | None:
    """The :class:`Sim` move of a lead, an answer or a claim; None for a move of the pre-lead window."""
    if isinstance(action, Lead):
        return (LEAD, action.cards)
    if isinstance(action, RespondOpen):
        return (OPEN, action.cards)
    if isinstance(action, RespondFaceDown):
        return (DOWN, action.cards)
    if isinstance(action, Claim):
        return CLAIM_MOVE
    return None


def convertible(deal: Deal) -> bool:
    """Whether ``deal`` stands where :class:`Sim` can take over: mid-trick, over, in the final window, or at a
    lead with no «Стоп!» pending and no instant combo waiting for a claim."""
    phase = deal.phase
    if phase is not Phase.LEAD:
        return True
    if deal.pending_instant is not None:
        return False
    leader = deal.leader
    return not any(deal._seizer_option(seat) is not None for seat in deal.seats if seat != leader)


def from_view(view: SeatView, variant: Variant, unseen: Unseen, rng: random.Random) -> Sim | None:
    """The :class:`Sim` of the world ``worlds.determinize`` builds from the same ``rng``, built straight from the
    view (no ``Deal``), or None when that world would not be :func:`convertible`: a pre-lead window in which
    another seat might say «Стоп!» (then build the deal)."""
    table = view.table
    hands, stock, hidden = lay_out(view, variant, unseen, rng)
    hands[view.seat] = list(view.hand)
    rules = rules_of(variant)
    phase = {Phase.LEAD: LEAD_PHASE, Phase.RESPOND: RESPOND_PHASE, Phase.FINAL_CLAIM: FINAL_PHASE}.get(
        table.phase, OVER_PHASE
    )
    if phase == LEAD_PHASE and rules.seize:
        size = rules.size
        if any(seat != table.leader and len(hand) == size and may_hold_combo(hand) for seat, hand in hands.items()):
            return None
    seats = table.seats
    teams = table.teams
    side_of = {seat: (seat % 2 if teams else seat) for seat in seats}
    sides = 2 if teams else table.players
    sim = Sim.__new__(Sim)
    sim.rules = rules
    sim.seats = seats
    sim.order = {seat: seats[i:] + seats[:i] for i, seat in enumerate(seats)}
    sim.side_of = side_of
    sim.sides = sides
    sim.active_sides = tuple(sorted(set(side_of.values())))
    sim.threshold = variant.threshold(len(seats))
    sim.trump = table.trump
    sim.hands = hands
    sim.stock = stock
    sim.dead = table.dead
    sim.points = [0] * sides
    sim.tricks = list(table.tricks_won)
    sim.known = dict.fromkeys(seats, 0)
    sim.unseen = dict.fromkeys(seats, 0)
    slot = 0
    for taken in table.history:
        side = side_of[taken.owner]
        seen = sum(card.points for card in taken.lead)
        down_points: dict[int, int] = {}
        down_count: dict[int, int] = {}
        for play in taken.plays:
            cards = play.cards
            if len(cards) != play.count:
                cards = hidden[slot]
                slot += 1
            worth = sum(card.points for card in cards)
            if play.face_down:
                down_points[play.seat] = down_points.get(play.seat, 0) + worth
                down_count[play.seat] = down_count.get(play.seat, 0) + len(cards)
            else:
                seen += worth
        sim.points[side] += seen + sum(down_points.values())
        for seat in seats:
            if side_of[seat] == side:
                sim.known[seat] += seen + down_points.get(seat, 0)
                sim.unseen[seat] += sum(down_count.values()) - down_count.get(seat, 0)
    sim.phase = phase
    sim.leader = table.leader
    sim.rightful = table.rightful
    sim.forced = table.forced_lead
    trick = table.trick
    if trick is not None:
        plays = []
        best = trick.lead
        open_value = sum(card.points for card in trick.lead)
        for play in trick.plays:
            cards = play.cards
            if len(cards) != play.count:
                cards = hidden[slot]
                slot += 1
            plays.append((play.seat, cards, play.face_down))
            if play.beats:
                best = cards
            if not play.face_down:
                open_value += sum(card.points for card in cards)
        played = {play.seat for play in trick.plays}
        sim.lead = trick.lead
        sim.best = best
        sim.owner = trick.owner
        sim.plays = plays
        sim.open_value = open_value
        sim.responders = [s for s in sim.order[trick.leader][1:] if s not in played and hands[s]]
    else:
        sim.lead = sim.best = ()
        sim.owner = table.leader
        sim.plays = []
        sim.open_value = 0
        sim.responders = []
    sim.kind = VOID
    sim.winners = ()
    sim.claimant = None
    return sim


def from_deal(deal: Deal) -> Sim:
    """The :class:`Sim` of ``deal`` (which must be :func:`convertible`): every card as it lies."""
    sim = Sim.__new__(Sim)
    rules = rules_of(deal.variant)
    sim.rules = rules
    sim.seats = deal.seats
    sim.order = {seat: deal.clockwise_from(seat) for seat in deal.seats}
    sim.side_of = deal.side_of
    sim.sides = deal.sides
    sim.active_sides = deal.active_sides
    sim.threshold = deal.threshold
    sim.trump = deal.trump
    sim.hands = {seat: list(hand) for seat, hand in deal.hands.items()}
    sim.stock = list(deal.stock)
    sim.dead = len(deal.dead)
    sim.points = [deal.pile_points(side) for side in range(deal.sides)]
    sim.tricks = list(deal.tricks_won)
    sim.known = {}
    sim.unseen = {}
    for seat in deal.seats:
        pile = deal.piles[deal.side_of[seat]]
        sim.known[seat] = sum(e.card.points for e in pile if not e.face_down or e.played_by == seat)
        sim.unseen[seat] = sum(1 for e in pile if e.face_down and e.played_by != seat)
    sim.phase = {Phase.LEAD: LEAD_PHASE, Phase.RESPOND: RESPOND_PHASE, Phase.FINAL_CLAIM: FINAL_PHASE}.get(
        deal.phase, OVER_PHASE
    )
    sim.leader = deal.leader
    sim.rightful = deal.rightful
    sim.forced = deal.forced_lead
    trick = deal.trick
    if trick is not None:
        sim.lead = trick.lead
        sim.best = trick.best
        sim.owner = trick.owner
        sim.plays = [(p.seat, p.cards, p.face_down) for p in trick.plays]
        sim.open_value = sum(c.points for c in trick.lead) + sum(
            c.points for p in trick.plays if not p.face_down for c in p.cards
        )
    else:
        sim.lead = sim.best = ()
        sim.owner = deal.leader
        sim.plays = []
        sim.open_value = 0
    sim.responders = list(deal.responders) if trick is not None else []
    sim.kind = VOID
    sim.winners = ()
    sim.claimant = None
    outcome = deal.outcome
    if outcome is not None:
        sim.kind = {"win": WIN, "false_claim": FALSE_CLAIM, "void": VOID}.get(outcome.kind.value, PLAYED_OUT)
        sim.winners = outcome.winners
        sim.claimant = outcome.seat
    return sim


__all__ = [
    "CLAIM",
    "DOWN",
    "LEAD",
    "OPEN",
    "PASS",
    "Move",
    "Sim",
    "as_move",
    "convertible",
    "from_deal",
    "from_view",
    "rules_of",
    "supported",
]
