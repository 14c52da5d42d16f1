"""One deal (сдача): dealing, the pre-lead window, tricks, drawing, claims and the end of the deal.

RULES §5 (the deal), §6 (trick play), §7 (drawing), §8 (claims), §9-§10 (combos and the pre-lead window),
§11 (end of a deal). ``Deal`` is the single place that decides legality, and :meth:`Deal.legal_actions` is
its one truth: :meth:`Deal.verify` asks whether an action is listed there, :meth:`Deal.apply` plays only what is
listed (changing nothing otherwise), and :meth:`Deal.diagnose` names the rule a refused action breaks.

The pre-lead window is a race, as at a real table (§10): the rightful leader R may claim or lead at once;
until he leads, a player holding a lead-seizing combo may say «Стоп!» (``DeclareCombo``), and a higher combo
may answer it. R's options never depend on what others hold, so nobody learns of a combo from a delay.
"""

from __future__ import annotations

import copy
import random
from bisect import insort
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations
from operator import attrgetter

from engine.bura.actions import Action, Claim, DeclareCombo, Lead, Pass, RespondFaceDown, RespondOpen
from engine.bura.cards import BY_INDEX, SHOKHA, Card, deck, set_beats
from engine.bura.combos import Combo, Effect, Held, best_held, may_hold_combo, split_rules, strength_key
from engine.bura.errors import IllegalAction, Reason
from engine.bura.events import (
    CardsDrawn,
    Claimed,
    ComboShown,
    DealEnded,
    DealOutcome,
    DealStarted,
    Event,
    LastCardsTaken,
    LeadSeized,
    Led,
    OutcomeKind,
    Passed,
    PileCard,
    Responded,
    SeizureFailed,
    StockDead,
    TrickTaken,
)
from engine.bura.variant import BuraVsBura as _BuraVsBura
from engine.bura.variant import (
    Discards,
    DrawOrder,
    EndOfDeal,
    FirstLeader,
    FollowSuit,
    PreLeadPriority,
    SameComboTie,
    ShortHand,
    StockShort,
    TrumpCard,
    Variant,
)
from engine.core.cards import SUITS, Suit
from engine.core.shuffle import shuffle


class Phase(Enum):
    """Where a deal stands."""

    LEAD = "lead"  # the pre-lead window and the lead (RULES §10)
    RESPOND = "respond"  # responders answer one by one, clockwise from the leader (§6.2)
    FINAL_CLAIM = "final_claim"  # after the last trick: the last trick winner may claim (§8.2)
    OVER = "over"


# Enum members as module constants for the hot paths: in Python 3.11 reading ``Phase.LEAD`` off the class costs
# about as much as a function call, a module constant a tenth of that.
_LEAD, _RESPOND, _FINAL_CLAIM, _OVER = Phase.LEAD, Phase.RESPOND, Phase.FINAL_CLAIM, Phase.OVER
_WIN, _FALSE_CLAIM = OutcomeKind.WIN, OutcomeKind.FALSE_CLAIM
_LEFT_OF_DEALER = FirstLeader.LEFT_OF_DEALER
_CARD_POINTS = attrgetter("card.points")  # of a PileCard


@dataclass(slots=True)
class Play:
    """One answer to a trick."""

    seat: int
    cards: tuple[Card, ...]
    face_down: bool
    beats: bool


@dataclass(slots=True)
class Trick:
    """A trick on the table or taken: the lead, the answers, and the set to beat (RULES §6.5)."""

    number: int
    leader: int
    lead: tuple[Card, ...]
    plays: list[Play]
    best: tuple[Card, ...]
    owner: int


def _add_to_pile(trick: Trick, pile: list[PileCard]) -> None:
    """Put a taken trick on its winner's pile: the lead face up, each answer as it was played.

    Hot path: PileCard's C-level constructor, and plain loops (a comprehension costs more than its few cards)."""
    new = tuple.__new__
    leader = trick.leader
    for card in trick.lead:
        pile.append(new(PileCard, (card, False, leader)))
    for play in trick.plays:
        hidden = play.face_down
        seat = play.seat
        for card in play.cards:
            pile.append(new(PileCard, (card, hidden, seat)))


class _Setup:
    """What a variant and a seating fix for every deal they play, worked out once (a deal is dealt thousands of
    times a second in a computer's playouts). Shared by those deals, so never changed."""

    __slots__ = (
        "active_sides",
        "alternate_draw",
        "any_combos",
        "cap_lead",
        "draws",
        "every_answer",
        "first_leader_rule",
        "follow_never",
        "hand_size",
        "instant_rules",
        "lead_sizes",
        "orders",
        "other_sides",
        "others",
        "players",
        "seats",
        "seize_rules",
        "shokha",
        "side_of",
        "sides",
        "sizes_under",
        "teams",
        "threshold",
        "under_stock",
        "variant",
    )

    def __init__(self, variant: Variant, players: int, seats: tuple[int, ...]) -> None:
        self.variant = variant
        self.players = players
        self.seats = seats
        self.shokha = variant.shokha  # [B08]
        self.instant_rules, self.seize_rules = split_rules(variant)
        self.any_combos = bool(self.instant_rules or self.seize_rules)
        self.threshold = variant.threshold(len(seats))  # [V17] claim threshold, None when claims are off
        self.orders = {seat: seats[i:] + seats[:i] for i, seat in enumerate(seats)}
        self.others = {seat: order[1:] for seat, order in self.orders.items()}
        # CardsDrawn's draws when the trick's winner and every other hand draw ``each`` cards: draws[winner][each].
        self.draws = {
            seat: tuple(tuple((other, each) for other in order) for each in range(variant.hand_size + 1))
            for seat, order in self.orders.items()
        }
        self.teams = variant.teams(players)
        # In 2x2 play seats 0+2 and 1+3 are partners (RULES §4); otherwise every seat is its own side.
        self.sides = 2 if self.teams else players
        self.side_of = {seat: (seat % 2 if self.teams else seat) for seat in seats}
        self.active_sides = tuple(sorted(set(self.side_of.values())))
        self.other_sides = {side: tuple(s for s in self.active_sides if s != side) for side in self.active_sides}
        self.hand_size = variant.hand_size
        self.lead_sizes = variant.lead_sizes
        # The lead sizes allowed under each cap ([V14] CAP_LEAD: the smallest other hand).
        self.sizes_under = tuple(
            tuple(k for k in variant.lead_sizes if k <= cap) for cap in range(variant.hand_size + 1)
        )
        self.cap_lead = variant.short_hand is ShortHand.CAP_LEAD
        self.follow_never = variant.follow_suit is FollowSuit.NEVER
        self.alternate_draw = variant.draw_order is DrawOrder.ALTERNATE
        self.under_stock = variant.trump_card is TrumpCard.UNDER_STOCK
        # Every answer may be played face up or down: no duty to follow suit, face-down optional (★ Bura).
        self.every_answer = self.follow_never and variant.discards is Discards.FACE_DOWN_OPTIONAL
        rule = variant.first_leader  # [V05]
        if rule is FirstLeader.RIGHT_OF_DEALER and len(seats) <= 2:
            rule = FirstLeader.LEFT_OF_DEALER
        self.first_leader_rule = rule


# Keyed by the variant's identity (hashing a pydantic model costs more than a deal), checked on the way out.
_SETUPS: dict[tuple[int, int, tuple[int, ...]], _Setup] = {}


def _setup(variant: Variant, players: int, seats: tuple[int, ...]) -> _Setup:
    key = (id(variant), players, seats)
    found = _SETUPS.get(key)
    if found is None or found.variant is not variant:
        if len(_SETUPS) >= 256:
            _SETUPS.clear()
        found = _SETUPS[key] = _Setup(variant, players, seats)
    return found


# Every lead of a run of one suit's cards by a seat, by size (index k - 1: the k-card leads, in the order of
# ``combinations``). Leads are values, so the few thousand there can be are built once, not on every state.
_LEADS: dict[tuple[int, tuple[Card, ...]], tuple[tuple[Lead, ...], ...]] = {}
# Every lead of a hand (sorted suit by suit) by a seat, for the sizes allowed, after his claim if he may claim:
# a leader's whole list at once.
_HAND_LEADS: dict[tuple[int, tuple[Card, ...], tuple[int, ...], bool], tuple[Claim | Lead, ...]] = {}


def _hand_leads(seat: int, hand: tuple[Card, ...], sizes: tuple[int, ...], claim: bool) -> tuple[Claim | Lead, ...]:
    key = (seat, hand, sizes, claim)
    found = _HAND_LEADS.get(key)
    if found is not None:
        return found
    leads: list[Claim | Lead] = [_claim_of(seat)] if claim else []
    start = 0
    end = len(hand)
    while start < end:  # the hand is sorted suit by suit: walk each suit's run
        suit = hand[start].suit
        stop = start + 1
        while stop < end and hand[stop].suit is suit:
            stop += 1
        by_size = _suit_leads(seat, hand[start:stop])
        for k in sizes:
            if k > stop - start:
                break
            leads += by_size[k - 1]
        start = stop
    if len(_HAND_LEADS) >= 50_000:
        _HAND_LEADS.clear()
    found = _HAND_LEADS[key] = tuple(leads)
    return found


# A seat's two answers with one set of cards, face up and face down: built once per set, as leads are
# (by seat, then by the set: the set is the key combinations() gives, so a look-up builds nothing).
_ANSWERS: dict[int, dict[tuple[Card, ...], tuple[RespondOpen, RespondFaceDown]]] = {}
_CLAIMS: dict[int, Claim] = {}
_PASSES: dict[int, Pass] = {}


def _suit_leads(seat: int, suited: tuple[Card, ...]) -> tuple[tuple[Lead, ...], ...]:
    key = (seat, suited)
    found = _LEADS.get(key)
    if found is None:
        if len(_LEADS) >= 100_000:
            _LEADS.clear()
        found = _LEADS[key] = tuple(
            tuple(Lead(seat, chosen) for chosen in combinations(suited, k)) for k in range(1, len(suited) + 1)
        )
    return found


def _answers_of(seat: int) -> dict[tuple[Card, ...], tuple[RespondOpen, RespondFaceDown]]:
    known = _ANSWERS.get(seat)
    if known is None or len(known) >= 25_000:
        known = _ANSWERS[seat] = {}
    return known


def _claim_of(seat: int) -> Claim:
    found = _CLAIMS.get(seat)
    if found is None:
        found = _CLAIMS[seat] = Claim(seat)
    return found


def _pass_of(seat: int) -> Pass:
    found = _PASSES.get(seat)
    if found is None:
        found = _PASSES[seat] = Pass(seat)
    return found


# Combos whose presence in a dealt hand forces a redeal under [V18] REDEAL.
_REDEAL_COMBOS = frozenset({Combo.BURA, Combo.MOLODKA, Combo.MOSCOW, Combo.SMALL_MOSCOW})


class Deal:
    """The mutable state of one deal. Seats are the match's seat numbers; ``seats`` lists the active ones."""

    def __init__(
        self,
        variant: Variant,
        players: int,
        seats: tuple[int, ...],
        dealer: int,
        rng: random.Random,
        number: int = 1,
        previous_last_trick: int | None = None,
    ) -> None:
        """A new deal: ``rng`` shuffles the deck, which is dealt (RULES §5); :meth:`begin` opens the play."""
        self._seat(variant, players, seats, dealer, number)
        cards = deck(variant.deck_size)
        shuffle(cards, rng)
        self.deck_order: tuple[Card, ...] = tuple(cards)
        # RULES §5.3: one card at a time, clockwise from the dealer's left, the dealer last.
        order = self._setup.orders[self._setup.orders[dealer][1]]
        step = len(order)
        position = step * self._setup.hand_size
        hands: dict[int, list[Card]] = {}
        for seat in seats:  # a seat's cards: every step-th from its place in the dealing order
            hands[seat] = cards[order.index(seat) : position : step]
        trump_card = cards[position]
        # The stock is kept top-last so that drawing is list.pop().
        stock = cards[position:]
        stock.reverse()
        if self._setup.under_stock:  # [V06] the turned-up card is the last to draw
            stock.insert(0, stock.pop())
        self._place(trump_card, hands, stock, [], None)
        self._play([], None, None, None, _LEAD, self._first_leader(previous_last_trick), None)
        self._window(None, [], None, ())

    @classmethod
    def from_position(
        cls,
        variant: Variant,
        players: int,
        *,
        seats: tuple[int, ...],
        dealer: int,
        trump_card: Card,
        hands: Mapping[int, Sequence[Card]],
        stock: Sequence[Card],
        dead: Sequence[Card] = (),
        trump_card_holder: int | None = None,
        history: Sequence[Trick] = (),
        trick: Trick | None = None,
        piles: Sequence[Sequence[PileCard]] | None = None,
        tricks_won: Sequence[int] | None = None,
        phase: Phase = Phase.LEAD,
        rightful: int,
        leader: int | None = None,
        forced_lead: tuple[Card, ...] | None = None,
        shown: Sequence[Held] = (),
        standing: Held | None = None,
        passed: Iterable[int] = (),
        number: int = 1,
    ) -> Deal:
        """A deal standing in a given position, set up by the engine itself: how a computer player builds a world
        to search from its view, the cards it cannot see laid by its own guess.

        ``hands`` maps every seat of ``seats`` to its cards; ``stock`` has its top last (the next card drawn is
        ``stock[-1]``); ``dead`` are stock cards that will never be drawn (RULES §7.2). ``history`` holds the
        tricks taken, in order, and ``trick`` the one on the table (it is played in phase RESPOND, and only
        then); both are copied. ``piles`` (per side) default to what the taken tricks put there, and
        ``tricks_won`` to their count per side; give ``piles`` when cards went there without a trick (RULES §7.4,
        an unopposed last trick). ``rightful`` and ``leader`` are R and L of the pre-lead window (RULES §10; the
        leader defaults to R), ``forced_lead`` the combo cards the seizer must lead, ``shown`` the combos shown in
        this window in the order shown, ``standing`` the one holding the lead (by default the last shown),
        ``passed`` the seats that passed on a «Стоп!».

        What follows from these the deal works out as play would: the trump suit, the responders still to answer,
        the last trick's winner, who may still say «Стоп!» and the rightful leader's unshown combo, a [V25]
        CLAIM_FIRST instant combo waiting for R. An instant combo that would have ended the deal when the window
        opened is not played out: the position stands as given. ``deck_order``, which only a shuffle knows, is
        empty. ``ValueError`` if the cards are not the whole deck, each once, or the position is not one of play.
        """
        deal = cls.__new__(cls)
        deal._seat(variant, players, seats, dealer, number)
        if set(hands) != set(seats) or rightful not in seats or (leader is not None and leader not in seats):
            raise ValueError("a position has a hand for every seat and a seated leader")
        if phase is _OVER or (phase is _RESPOND) != (trick is not None):
            raise ValueError("a position is one of play, with a trick on the table exactly while it is answered")
        taken = [deal._copy_trick(done) for done in history]
        if piles is None:
            built: list[list[PileCard]] = [[] for _ in range(deal.sides)]
            for done in taken:
                _add_to_pile(done, built[deal.side_of[done.owner]])
            piles = built
        if tricks_won is None:
            won = [0] * deal.sides
            for done in taken:
                won[deal.side_of[done.owner]] += 1
            tricks_won = won
        current = deal._copy_trick(trick) if trick is not None else None
        everything = [card for seat in seats for card in hands[seat]] + list(stock) + list(dead)
        everything += [entry.card for pile in piles for entry in pile]
        if current is not None:
            everything += [*current.lead, *(card for play in current.plays for card in play.cards)]
        if len(piles) != deal.sides or sorted(everything, key=BY_INDEX) != deck(variant.deck_size):
            raise ValueError("a position needs every card of the deck exactly once")
        sorted_hands = {seat: sorted(hands[seat], key=BY_INDEX) for seat in seats}
        deal.deck_order = ()
        deal._place(trump_card, sorted_hands, list(stock), list(dead), trump_card_holder)
        deal.piles = [list(pile) for pile in piles]
        deal.tricks_won = list(tricks_won)
        deal._play(taken, current, None, None, phase, rightful, leader)
        deal._window(forced_lead, list(shown), standing if standing is not None or not shown else shown[-1], passed)
        deal._derive_window()
        return deal

    def _seat(self, variant: Variant, players: int, seats: tuple[int, ...], dealer: int, number: int) -> None:
        """What the table and the variant fix for the whole deal."""
        if dealer not in seats:
            raise ValueError("the dealer must be seated")
        # What the variant and seating fix lives in the shared setup, read through properties: a deal keeps at
        # most 29 attributes of its own, so that CPython 3.11 stores them inline (reading one costs a fifth less).
        self._setup = _setup(variant, players, seats)
        self.number = number
        self.dealer = dealer
        self._legal_cache: dict[int, list[Action]] = {}  # emptied by every change of state

    def _place(
        self,
        trump_card: Card,
        hands: dict[int, list[Card]],
        stock: list[Card],
        dead: list[Card],
        trump_card_holder: int | None,
    ) -> None:
        """Where the cards lie (the won piles start empty: a fresh deal's, or set by from_position)."""
        for hand in hands.values():
            hand.sort(key=BY_INDEX)
        self.hands = hands
        self.trump_card = trump_card
        self.trump: Suit = trump_card.suit
        self.stock = stock
        self.dead = dead
        self.trump_card_holder = trump_card_holder
        self.piles: list[list[PileCard]] = []
        for _ in range(self._setup.sides):
            self.piles.append([])
        self.tricks_won = [0] * self._setup.sides

    def _play(
        self,
        history: list[Trick],
        trick: Trick | None,
        outcome: DealOutcome | None,
        responders: list[int] | None,
        phase: Phase,
        rightful: int,
        leader: int | None,
    ) -> None:
        """The tricks and whose turn it is; the responders still to answer follow from the trick on the table."""
        self.history = history
        self.trick = trick
        self.outcome = outcome
        self.last_trick_winner = history[-1].owner if history else None
        if responders is None and trick is not None:
            played = {play.seat for play in trick.plays}
            responders = [s for s in self.clockwise_from(trick.leader)[1:] if s not in played and self.hands[s]]
        self.responders = responders or []
        self.phase = phase
        self.over = phase is _OVER  # whether the deal has ended: kept with the phase (read after every move)
        self.rightful = rightful
        self.leader = rightful if leader is None else leader

    def _window(
        self,
        forced_lead: tuple[Card, ...] | None,
        shown: list[Held],
        standing: Held | None,
        passed: Iterable[int],
    ) -> None:
        """The pre-lead window's public state (RULES §10); what follows from the hands is found by
        :meth:`_open_window` in play and by :meth:`_derive_window` for a position."""
        self.forced_lead = forced_lead
        self.standing = standing  # the combo that holds the lead now (a seizer's or R's shown one)
        self.shown = shown  # combos shown in this window (public)
        self.passed: set[int] = set(passed)
        self.pending_instant: Held | None = None  # [V25] CLAIM_FIRST: an instant combo waiting for R
        self._seizers: dict[int, Held] = {}
        self._rightful_combo: Held | None = None

    def _derive_window(self) -> None:
        """What a position's window holds that its hands decide: an instant combo waiting for R under [V25]
        CLAIM_FIRST, who may still say «Стоп!», and R's own combo unless he showed it (RULES §9.5)."""
        if self.phase is not _LEAD:
            return
        order = self._combo_holders(self.rightful)
        instants = self._instants(order)
        if instants:
            winner = self._instant_winner(instants)
            if self._setup.variant.pre_lead_priority is PreLeadPriority.CLAIM_FIRST and winner.seat != self.rightful:
                self.pending_instant = winner
        self._find_seizers(order)
        if any(held.seat == self.rightful for held in self.shown):
            self._rightful_combo = None  # shown to keep the lead: no longer his to answer with

    def copy(self) -> Deal:
        """A copy that plays on independently, for the cost of copying what play changes (the hands, the stock,
        the piles, the tricks' lists, the window) rather than a deep copy: cards, combos and taken tricks are
        values that play never changes, so the copy shares them (a computer copies a world for every move it
        tries)."""
        twin = copy.copy(self)
        twin.hands = {seat: list(hand) for seat, hand in self.hands.items()}
        twin.stock = list(self.stock)
        twin.dead = list(self.dead)
        twin.piles = [list(pile) for pile in self.piles]
        twin.tricks_won = list(self.tricks_won)
        twin.history = list(self.history)
        trick = self.trick
        if trick is not None:
            twin.trick = Trick(trick.number, trick.leader, trick.lead, list(trick.plays), trick.best, trick.owner)
        twin.responders = list(self.responders)
        twin.shown = list(self.shown)
        twin.passed = set(self.passed)
        twin._seizers = dict(self._seizers)
        twin._legal_cache = {}
        return twin

    @staticmethod
    def _copy_trick(trick: Trick) -> Trick:
        plays = [Play(play.seat, play.cards, play.face_down, play.beats) for play in trick.plays]
        return Trick(trick.number, trick.leader, trick.lead, plays, trick.best, trick.owner)

    # -- seating -------------------------------------------------------------------------------------------

    @property
    def variant(self) -> Variant:
        return self._setup.variant

    @property
    def players(self) -> int:
        return self._setup.players

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats playing this deal (the match's seat numbers), clockwise."""
        return self._setup.seats

    @property
    def threshold(self) -> int | None:
        """[V17] The claim threshold, None when claims are off."""
        return self._setup.threshold

    @property
    def teams(self) -> bool:
        return self._setup.teams

    @property
    def sides(self) -> int:
        return self._setup.sides

    @property
    def side_of(self) -> dict[int, int]:
        """Each seat's side (shared by every deal of this seating: read only)."""
        return self._setup.side_of

    @property
    def active_sides(self) -> tuple[int, ...]:
        return self._setup.active_sides

    def next_seat(self, seat: int) -> int:
        seats = self._setup.seats
        return seats[(seats.index(seat) + 1) % len(seats)]

    def clockwise_from(self, seat: int) -> tuple[int, ...]:
        """All active seats, clockwise, starting with ``seat``."""
        return self._setup.orders[seat]

    def _first_leader(self, previous_last_trick: int | None) -> int:
        rule = self._setup.first_leader_rule  # [V05]
        if rule is _LEFT_OF_DEALER:
            return self._setup.orders[self.dealer][1 % len(self._setup.seats)]
        if rule is FirstLeader.RIGHT_OF_DEALER:
            return self.clockwise_from(self.dealer)[-1]
        if previous_last_trick is not None and previous_last_trick in self._setup.seats:  # LAST_TRICK_WINNER
            return previous_last_trick
        return self.next_seat(self.dealer)

    # -- the start ------------------------------------------------------------------------------------------

    def redeal_combo(self) -> Held | None:
        """[V18] REDEAL: the first dealt combo that forces a redeal, or None."""
        for seat in self.clockwise_from(self.rightful):
            for rules in (self._setup.instant_rules, self._setup.seize_rules):
                held = best_held(seat, self.hands[seat], self.trump, self._setup.variant, rules)
                if held is not None and held.rule.combo in _REDEAL_COMBOS:
                    return held
        return None

    def begin(self) -> list[Event]:
        """Announce the deal and open the first pre-lead window (RULES §9.6 COUNT: dealt combos count)."""
        self._legal_cache = {}
        events: list[Event] = [
            DealStarted(self.number, self.dealer, self._setup.seats, self.trump_card, self.rightful, len(self.stock))
        ]
        self._open_window(self.rightful, events)
        return events

    # -- queries --------------------------------------------------------------------------------------------

    def to_act(self) -> int | None:
        """The seat whose move the game waits for (others may have optional moves: see legal_actions)."""
        if self.phase is _LEAD or self.phase is _FINAL_CLAIM:
            return self.leader
        if self.phase is _RESPOND:
            return self.responders[0]
        return None

    def claims_allowed(self) -> bool:
        return self._setup.threshold is not None

    def pile_points(self, side: int) -> int:
        return sum(map(_CARD_POINTS, self.piles[side]))

    def lead_cap(self) -> int:
        """[V14] CAP_LEAD: no more cards than the smallest other hand that still holds cards."""
        return self._cap_for(self.leader)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, in a deterministic order; empty if none."""
        cached = self._legal_cache.get(seat)
        if cached is None:
            cached = self._legal_cache[seat] = self._generate_legal(seat)
        return list(cached)

    def _generate_legal(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase is _RESPOND:
            return self._legal_responses(seat) if seat == self.responders[0] else []
        if phase is _LEAD:
            if seat == self.leader:
                actions = self._legal_leads(seat, self._may_claim(seat))
            elif seat in self.hands:
                actions = [_claim_of(seat)] if self._may_claim(seat) else []
            else:
                return []
            if self._seizers:
                held = self._seizer_option(seat)
                if held is not None:
                    actions.append(DeclareCombo(seat, held.rule.combo))
                    actions.append(_pass_of(seat))
            return actions
        if phase is _FINAL_CLAIM and seat == self.leader:
            return [_claim_of(seat), _pass_of(seat)]
        return []

    def _may_claim(self, seat: int) -> bool:
        """RULES §8.2: R before he leads; the seizer too (★ engine decision)."""
        if self._setup.threshold is None:
            return False
        if seat == self.rightful:
            return True
        return seat == self.leader and self._setup.variant.seizer_may_claim

    def _legal_leads(self, seat: int, claim: bool) -> list[Action]:
        """The leader's actions: a claim first if he may claim, then every lead (a fresh list)."""
        if self.forced_lead is not None:
            return [_claim_of(seat), Lead(seat, self.forced_lead)] if claim else [Lead(seat, self.forced_lead)]
        hand = self.hands[seat]
        setup = self._setup
        cap = self._cap_for(seat)
        sizes = setup.sizes_under[cap if cap < setup.hand_size else setup.hand_size]
        actions: list[Action] = list(_hand_leads(seat, tuple(hand), sizes, claim))
        if self._setup.shokha and SHOKHA in hand:
            actions += self._shokha_leads(seat, hand, sizes)
        return actions

    @staticmethod
    def _shokha_leads(seat: int, hand: list[Card], sizes: tuple[int, ...]) -> list[Lead]:
        """RULES §3.4 [B08]: the shokha may join a lead of any suit (with spades it is one of the suit already).
        Engine decision: it joins a set of at least one card of that suit, so a lead is never the shokha and
        nothing else but as the single spade it is."""
        leads: list[Lead] = []
        for suit in SUITS:
            if suit is SHOKHA.suit:
                continue
            suited = [card for card in hand if card.suit is suit]
            for k in sizes:
                if 2 <= k <= len(suited) + 1:
                    leads.extend(
                        Lead(seat, tuple(sorted((*chosen, SHOKHA), key=BY_INDEX)))
                        for chosen in combinations(suited, k - 1)
                    )
        return leads

    def _response_size(self, seat: int) -> int:
        assert self.trick is not None
        return min(len(self.trick.lead), len(self.hands[seat]))

    def _follow_count(self, seat: int) -> tuple[Suit, int] | None:
        """[V08]: (led suit, how many of it the answer must hold), when a duty to follow suit applies."""
        rule = self._setup.variant.follow_suit
        assert self.trick is not None
        lead = self.trick.lead
        if rule is FollowSuit.NEVER:
            return None
        if rule is FollowSuit.SINGLE_LEAD and len(lead) != 1:
            return None
        if rule is FollowSuit.AFTER_STOCK_EXHAUSTED and self.stock:
            return None
        # The shokha joined to a lead takes its suit [B08]; in the answer it is the spade it is (engine decision).
        suited = [card for card in lead if card is not SHOKHA] if self._setup.shokha else lead
        suit = (suited or lead)[0].suit
        if any(card.suit is not suit for card in suited):
            return None  # a mixed lead (small Moscow) names no suit to follow: engine decision
        held = sum(1 for card in self.hands[seat] if card.suit is suit)
        # RULES §15.29: as many led-suit cards as he can, up to k.
        return suit, min(held, self._response_size(seat))

    def _legal_responses(self, seat: int) -> list[Action]:
        trick = self.trick
        assert trick is not None
        hand = self.hands[seat]
        k = min(len(trick.lead), len(hand))  # [V14] PLAY_ALL_CANNOT_BEAT: a short hand answers with all it has
        actions: list[Action] = []
        if self._setup.every_answer:
            known = _answers_of(seat)
            for chosen in combinations(hand, k):  # every set, face up or down (the common case: hot path)
                pair = known.get(chosen)
                if pair is None:
                    pair = known[chosen] = (RespondOpen(seat, chosen), RespondFaceDown(seat, chosen))
                actions += pair
            return actions
        discards = self._setup.variant.discards
        short = k < len(trick.lead)  # [V14] PLAY_ALL_CANNOT_BEAT
        follow = self._follow_count(seat)
        best = trick.best
        trump = self.trump
        shokha = self._setup.shokha
        for chosen in combinations(hand, k):
            if follow is not None and sum(1 for c in chosen if c.suit is follow[0]) != follow[1]:
                continue
            if discards is Discards.FACE_DOWN_MANDATORY:
                if not short and set_beats(chosen, best, trump, shokha):
                    actions.append(RespondOpen(seat, chosen))
            else:
                actions.append(RespondOpen(seat, chosen))
            if discards is not Discards.OPEN:
                actions.append(RespondFaceDown(seat, chosen))
        return actions

    def _seizer_option(self, seat: int) -> Held | None:
        """The combo ``seat`` may still declare with «Стоп!» in this window, if any."""
        held = self._seizers.get(seat)
        if held is None or seat in self.passed or self.pending_instant is not None:
            return None
        if self.standing is not None and self._seize_key(self.standing) <= self._seize_key(held):
            return None
        if held.rule.effect is Effect.SEIZE_PLAY_ALL and len(held.cards) > self._cap_for(seat):
            return None
        return held

    def _cap_for(self, seat: int) -> int:
        setup = self._setup
        if not setup.cap_lead:
            return setup.hand_size
        hands = self.hands
        cap = 0
        for other in setup.others[seat]:
            held = len(hands[other])
            if held and (cap == 0 or held < cap):
                cap = held
        return cap

    def _seize_key(self, held: Held) -> tuple[int, ...]:
        """Lower wins: combo rank, then [V20] turn order from R or the higher cards."""
        distance = self.clockwise_from(self.rightful).index(held.seat)
        if self._setup.variant.same_combo_tie is SameComboTie.HIGHER_CARDS:
            return (held.rule.rank, *(-s for s in strength_key(held, self._setup.shokha)), distance)
        return (held.rule.rank, distance)

    # -- legality: legal_actions is the one truth ------------------------------------------------------------

    def _lists(self, action: object) -> bool:
        """Whether ``legal_actions(action.seat)`` lists ``action``.

        A move's cards are a set (RULES §6.4: the order in which they are put down does not matter), so
        ``Lead(0, (QS, 7S))`` is the listed ``Lead(0, (7S, QS))``. Actions are hashable values: the listed object
        itself (what a player picked from legal_actions) is found by identity, an equal one by equality; only
        cards named in another order need the slower look.
        """
        try:
            seat = action.seat  # type: ignore[attr-defined]  # anything may be offered; only actions have seats
            listed = self._legal_cache.get(seat)
        except (AttributeError, TypeError):  # not an action, or a seat that is no dict key
            return False
        if listed is None:
            if type(seat) is not int or seat not in self.hands:
                return False
            listed = self._legal_cache[seat] = self._generate_legal(seat)
        for legal in listed:
            if legal is action:
                return True
        if action in listed:
            return True
        if not isinstance(action, Lead | RespondOpen | RespondFaceDown) or not isinstance(action.cards, tuple):
            return False
        played = action.cards
        chosen = set(played)
        for legal in listed:
            if (
                type(legal) is type(action)
                and isinstance(legal, Lead | RespondOpen | RespondFaceDown)
                and len(legal.cards) == len(played)
                and chosen.issuperset(legal.cards)
            ):
                return True
        return False

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalAction` unless ``action`` is one of ``legal_actions(action.seat)``; change nothing.

        The reason comes from :meth:`diagnose`, asked only once the action is refused."""
        if not self._lists(action):
            raise IllegalAction(self.diagnose(action))

    def diagnose(self, action: object) -> Reason:
        """Why ``action``, which ``legal_actions`` does not list, is refused: the first rule it breaks.

        Never decides legality (that is :meth:`legal_actions` alone). Should no specific rule be found, the
        answer is ``Reason.NOT_LEGAL``; the property tests show that every refused action gets a specific one.
        """
        return self._reason(action) or Reason.NOT_LEGAL

    def _reason(self, action: object) -> Reason | None:
        if self.phase is _OVER:
            return Reason.DEAL_OVER
        seat = getattr(action, "seat", None)
        if type(seat) is not int or seat not in self.hands:
            return Reason.NOT_SEATED
        if isinstance(action, Claim):
            return self._claim_reason(seat)
        if isinstance(action, Lead):
            return self._lead_reason(action)
        if isinstance(action, RespondOpen | RespondFaceDown):
            return self._response_reason(action)
        if isinstance(action, DeclareCombo):
            return self._declaration_reason(action)
        if isinstance(action, Pass):
            return self._pass_reason(seat)
        return Reason.UNKNOWN_ACTION

    def _claim_reason(self, seat: int) -> Reason | None:
        if not self.claims_allowed():
            return Reason.CLAIMS_NOT_ALLOWED
        if self.phase is _FINAL_CLAIM and seat == self.leader:
            return None
        if self.phase is not _LEAD or not self._may_claim(seat):
            return Reason.CLAIM_NOT_NOW  # RULES §15.33: never a false claim
        return None

    def _cards_reason(self, seat: int, played: tuple[Card, ...]) -> Reason | None:
        if not played:
            return Reason.NO_CARDS
        if len(set(played)) != len(played):
            return Reason.DUPLICATE_CARD
        hand = self.hands[seat]
        if any(card not in hand for card in played):
            return Reason.CARD_NOT_IN_HAND
        return None

    def _lead_reason(self, action: Lead) -> Reason | None:
        seat = action.seat
        if self.phase is not _LEAD:
            return Reason.WRONG_PHASE
        if seat != self.leader:
            return Reason.NOT_YOUR_TURN
        reason = self._cards_reason(seat, action.cards)
        if reason is not None:
            return reason
        if self.forced_lead is not None:
            return Reason.MUST_LEAD_COMBO if set(action.cards) != set(self.forced_lead) else None
        suited = [card for card in action.cards if card is not SHOKHA] if self._setup.shokha else action.cards
        if suited and any(card.suit is not suited[0].suit for card in suited):
            return Reason.MIXED_SUITS  # the shokha may join a set of any suit [B08]
        if len(action.cards) not in self._setup.variant.lead_sizes:
            return Reason.LEAD_SIZE_NOT_ALLOWED
        if len(action.cards) > self.lead_cap():
            return Reason.LEAD_TOO_LARGE
        return None

    def _response_reason(self, action: RespondOpen | RespondFaceDown) -> Reason | None:
        seat = action.seat
        if self.phase is not _RESPOND:
            return Reason.WRONG_PHASE
        if seat != self.responders[0]:
            return Reason.NOT_YOUR_TURN
        reason = self._cards_reason(seat, action.cards)
        if reason is not None:
            return reason
        assert self.trick is not None
        k = self._response_size(seat)
        if len(action.cards) != k:
            return Reason.WRONG_CARD_COUNT
        follow = self._follow_count(seat)
        if follow is not None and sum(1 for c in action.cards if c.suit is follow[0]) != follow[1]:
            return Reason.MUST_FOLLOW_SUIT
        discards = self._setup.variant.discards
        if isinstance(action, RespondFaceDown):
            if discards is Discards.OPEN:
                return Reason.FACE_DOWN_NOT_ALLOWED
        elif discards is Discards.FACE_DOWN_MANDATORY and (
            k < len(self.trick.lead) or not set_beats(action.cards, self.trick.best, self.trump, self._setup.shokha)
        ):
            return Reason.MUST_PLAY_FACE_DOWN
        return None

    def _declaration_reason(self, action: DeclareCombo) -> Reason | None:
        if self.phase is not _LEAD:
            return Reason.WRONG_PHASE
        held = self._seizers.get(action.seat)
        if held is None or held.rule.combo is not action.combo or action.seat in self.passed:
            return Reason.NO_SUCH_COMBO
        if self._seizer_option(action.seat) is None:
            return Reason.COMBO_OUTRANKED
        return None

    def _pass_reason(self, seat: int) -> Reason | None:
        if self.phase is _FINAL_CLAIM and seat == self.leader:
            return None
        if self.phase is not _LEAD or self._seizer_option(seat) is None:
            return Reason.NOTHING_TO_PASS
        return None

    # -- applying ---------------------------------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Play ``action`` if ``legal_actions`` lists it (else raise :class:`IllegalAction`, changing nothing);
        returns the public events, in order. The cards are played in the order the action names them."""
        if not self._lists(action):
            raise IllegalAction(self.diagnose(action))
        self._legal_cache.clear()
        events: list[Event] = []
        if isinstance(action, RespondOpen):
            self._respond(action.seat, action.cards, False, events)
        elif isinstance(action, RespondFaceDown):
            self._respond(action.seat, action.cards, True, events)
        elif isinstance(action, Lead):
            if self.pending_instant is not None:
                # [V25] CLAIM_FIRST: R chose to lead rather than claim, so the waiting combo now wins.
                self._instant_win(self.pending_instant, events)
            else:
                self._lead(action.seat, action.cards, events)
        elif isinstance(action, Claim):
            self._claim(action.seat, events)
        elif isinstance(action, DeclareCombo):
            self._declare(action.seat, events)
        else:
            events.append(Passed(action.seat))
            if self.phase is _FINAL_CLAIM:
                self._settle(events)
            else:
                self.passed.add(action.seat)
        return events

    def _open_window(self, rightful: int, events: list[Event]) -> None:
        """RULES §10: instant combos (step 1), then the claim and lead seizure race (steps 2-5)."""
        self.phase = _LEAD
        self.rightful = self.leader = rightful
        self.forced_lead = None
        self.standing = None
        if self.shown:
            self.shown = []
        if self.passed:
            self.passed = set()
        self.pending_instant = None
        if self._seizers:
            self._seizers = {}
        self._rightful_combo = None
        if not self._setup.any_combos:
            return
        order = self._combo_holders(rightful)
        if not order:
            return
        instants = self._instants(order)
        if instants:
            winner = self._instant_winner(instants)
            if self._setup.variant.pre_lead_priority is PreLeadPriority.CLAIM_FIRST and winner.seat != rightful:
                self.pending_instant = winner
            else:
                self._instant_win(winner, events)
                return
        self._find_seizers(order)

    def _combo_holders(self, rightful: int) -> Sequence[int]:
        """The seats, in turn order from R, whose full hands may hold a combo (RULES §9.1): most often none, and
        then nothing is built (this runs before every lead)."""
        size = self._setup.hand_size
        hands = self.hands
        shokha = self._setup.shokha
        holders: Sequence[int] = ()
        for seat in self._setup.orders[rightful]:
            hand = hands[seat]
            if len(hand) == size and may_hold_combo(hand, shokha):
                holders = [*holders, seat]
        return holders

    def _instants(self, order: Sequence[int]) -> list[Held]:
        """The instant-win combos held, in turn order from R (RULES §10 step 1)."""
        instants: list[Held] = []
        for seat in order:
            held = best_held(seat, self.hands[seat], self.trump, self._setup.variant, self._setup.instant_rules)
            if held is not None:
                instants.append(held)
        return instants

    def _find_seizers(self, order: Iterable[int]) -> None:
        """Who holds a lead-seizing combo in this window: R's is implicit, the others may say «Стоп!»."""
        self._seizers = {}
        self._rightful_combo = None
        for seat in order:
            held = best_held(seat, self.hands[seat], self.trump, self._setup.variant, self._setup.seize_rules)
            if held is None:
                continue
            if seat == self.rightful:
                self._rightful_combo = held
            else:
                self._seizers[seat] = held

    def _instant_winner(self, instants: list[Held]) -> Held:
        """RULES §10 step 1: the best instant combo; [V19] settles bura against bura."""
        top = min(held.rule.rank for held in instants)
        tied = [held for held in instants if held.rule.rank == top]  # in turn order from R
        if len(tied) == 1 or tied[0].rule.combo is not Combo.BURA:
            return tied[0]
        if self._setup.variant.bura_vs_bura is _BuraVsBura.TOP_CARD:
            return max(tied, key=lambda held: strength_key(held, self._setup.shokha))
        best = tied[0]  # TRICK_COMPARE: a later bura wins only if it beats the best so far
        for held in tied[1:]:
            if set_beats(held.cards, best.cards, self.trump, self._setup.shokha):
                best = held
        return best

    def _instant_win(self, held: Held, events: list[Event]) -> None:
        events.append(ComboShown(held.seat, held.rule.combo, held.cards))
        side = self._setup.side_of[held.seat]
        self._end(_WIN, (side,), held.seat, held.rule.combo, events)

    def _declare(self, seat: int, events: list[Event]) -> None:
        held = self._seizers[seat]
        self.passed.add(seat)
        rightful = self._rightful_combo
        if rightful is not None and self._seize_key(rightful) < self._seize_key(held):
            # RULES §9.5: the rightful leader keeps the lead with an equal or better combo.
            events.append(ComboShown(seat, held.rule.combo, held.cards))
            events.append(ComboShown(rightful.seat, rightful.rule.combo, rightful.cards))
            events.append(SeizureFailed(seat, held.rule.combo, rightful.seat))
            self.shown.extend((held, rightful))
            self.standing = rightful
            self._rightful_combo = None
            self.leader = self.rightful
            self.forced_lead = None
            return
        events.append(ComboShown(seat, held.rule.combo, held.cards))
        events.append(LeadSeized(seat, self.leader, held.rule.combo))
        self.shown.append(held)
        self.standing = held
        self.leader = seat
        self.forced_lead = held.cards if held.rule.effect is Effect.SEIZE_PLAY_ALL else None

    def _lead(self, seat: int, played: tuple[Card, ...], events: list[Event]) -> None:
        hand = self.hands[seat]
        for card in played:
            hand.remove(card)
        self.trick = Trick(len(self.history) + 1, seat, played, [], played, seat)
        hands = self.hands
        responders = self.responders = []
        for other in self._setup.others[seat]:
            if hands[other]:
                responders.append(other)
        self.phase = _RESPOND
        if self.shown:
            self.shown = []
        events.append(Led(seat, played))

    def _respond(self, seat: int, played: tuple[Card, ...], face_down: bool, events: list[Event]) -> None:
        trick = self.trick
        assert trick is not None
        beats = (
            not face_down
            and len(played) == len(trick.lead)
            and set_beats(played, trick.best, self.trump, self._setup.shokha)
        )
        hand = self.hands[seat]
        for card in played:
            hand.remove(card)
        trick.plays.append(Play(seat, played, face_down, beats))
        if beats:  # RULES §6.5: the next responder must beat this set
            trick.best = played
            trick.owner = seat
        events.append(Responded(seat, () if face_down else played, len(played), face_down, beats))
        responders = self.responders
        del responders[0]
        if not responders:
            self._take_trick(trick, events)

    def _take_trick(self, trick: Trick, events: list[Event]) -> None:
        owner = trick.owner
        side = self._setup.side_of[owner]
        _add_to_pile(trick, self.piles[side])
        open_cards = trick.lead
        face_down = 0
        for play in trick.plays:
            if play.face_down:
                face_down += len(play.cards)
            else:
                open_cards += play.cards
        self.tricks_won[side] += 1
        self.history.append(trick)
        self.trick = None
        self.last_trick_winner = owner
        events.append(TrickTaken(trick.number, owner, side, open_cards, face_down))
        if self.stock:
            self._draw(owner, events)
        hands = self.hands
        holders = 0
        first = owner
        for seat in self._setup.orders[owner]:
            if hands[seat]:
                if not holders:
                    first = seat
                holders += 1
        if holders > 1:
            # The trick winner leads; if his hand is empty (unequal hands), the next holder (engine decision).
            self._open_window(first, events)
            return
        if holders == 1:
            # RULES §7.4: the only player with cards takes them as an unopposed last trick.
            cards_left = hands[first]
            self.piles[self._setup.side_of[first]].extend(PileCard(card, True, first) for card in cards_left)
            events.append(LastCardsTaken(first, len(cards_left)))
            hands[first] = []
        if self.claims_allowed() and self._setup.variant.final_claim_window:
            self.phase = _FINAL_CLAIM  # RULES §8.2 final window
            self.leader = self.rightful = owner
            return
        self._settle(events)

    def _draw(self, winner: int, events: list[Event]) -> None:
        """RULES §7: draw from the winner clockwise; the short-stock option [V13] decides who gets what."""
        stock = self.stock
        setup = self._setup
        size = setup.hand_size
        hands = self.hands
        everyone = self._setup.orders[winner]
        held = len(hands[winner])
        each = size - held
        count = each * len(everyone)
        alike = True
        for seat in everyone:
            if len(hands[seat]) != held:
                alike = False
        if setup.alternate_draw and alike and 0 < count <= len(stock):
            # The common case: every hand wants as many cards and the stock has them all, drawn one at a time
            # clockwise from the winner (hot path).
            pop = stock.pop
            trump_card = self.trump_card
            for _ in range(each):
                for seat in everyone:
                    card = pop()
                    insort(hands[seat], card, key=BY_INDEX)
                    if card is trump_card:
                        self.trump_card_holder = seat
            events.append(CardsDrawn(setup.draws[winner][each], len(stock), self.trump_card_holder))
            return
        order = [s for s in everyone if len(hands[s]) < size]
        need = [size - len(hands[s]) for s in order]
        counts = self._draw_counts(need, len(stock))
        if self._setup.variant.draw_order is DrawOrder.BLOCK:  # [V12]
            sequence = [s for s, count in zip(order, counts, strict=True) for _ in range(count)]
        else:  # one card at a time, clockwise from the winner, skipping those already served
            pairs = list(zip(order, counts, strict=True))
            sequence = [s for round_ in range(max(counts, default=0)) for s, count in pairs if count > round_]
        trump_card = self.trump_card
        for seat in sequence:
            card = stock.pop()
            hands[seat].append(card)
            if card is trump_card:
                self.trump_card_holder = seat
        draws = tuple((s, count) for s, count in zip(order, counts, strict=True) if count)
        for seat, _ in draws:
            hands[seat].sort(key=BY_INDEX)
        if draws:
            events.append(CardsDrawn(draws, len(stock), self.trump_card_holder))
        if stock and any(count < wanted for count, wanted in zip(counts, need, strict=True)):
            # A hand stays short: every player plays after each trick, so no later draw could complete.
            self.dead.extend(stock)
            stock.clear()
            events.append(StockDead(len(self.dead)))

    def _draw_counts(self, need: list[int], available: int) -> list[int]:
        """How many cards each needer draws under [V13], needers in drawing order."""
        if sum(need) <= available:
            return need  # enough for everyone: every option fills every hand
        rule = self._setup.variant.stock_short
        counts = [0] * len(need)
        if rule is StockShort.ALL_OR_NOTHING:
            return counts  # nobody draws
        while available:
            short = [i for i, wanted in enumerate(need) if counts[i] < wanted]
            if not short or (rule is StockShort.ROUND_COMPLETE and len(short) > available):
                break  # ROUND_COMPLETE: only whole rounds
            for i in short[:available]:
                counts[i] += 1
            available -= min(available, len(short))
        return counts

    def _claim(self, seat: int, events: list[Event]) -> None:
        side = self._setup.side_of[seat]
        threshold = self._setup.threshold
        assert threshold is not None
        points = self.pile_points(side)
        success = points >= threshold  # RULES §8.1: exactly the threshold counts
        pile = tuple(self.piles[side])
        events.append(Claimed(seat, side, pile, points, threshold, success))
        if success:
            self._end(_WIN, (side,), seat, None, events)
        else:
            others = self._others(side)
            winners = others if len(others) == 1 else ()
            self._end(_FALSE_CLAIM, winners, seat, None, events)

    def _others(self, side: int) -> tuple[int, ...]:
        """The active sides but ``side``."""
        return self._setup.other_sides[side]

    def forfeit(self, seat: int) -> list[Event]:
        """The seat's side loses the deal by a ruling of the table, not by a move (a player who let his move
        timer run out three times in a row). Scored like a lost deal (RULES §8.4 LOSE_DEAL)."""
        if self.phase is _OVER:
            raise IllegalAction(Reason.DEAL_OVER)
        if seat not in self.hands:
            raise IllegalAction(Reason.NOT_SEATED)
        side = self._setup.side_of[seat]
        others = self._others(side)
        events: list[Event] = []
        self._legal_cache = {}
        self._end(OutcomeKind.FORFEIT, others if len(others) == 1 else (), seat, None, events)
        return events

    def _settle(self, events: list[Event]) -> None:
        """RULES §11: a deal nobody claimed ends void (Bura) or is settled by its points."""
        if self._setup.variant.end_of_deal is EndOfDeal.VOID:
            self._end(OutcomeKind.VOID, (), None, None, events)
            return
        points = {side: self.pile_points(side) for side in self._setup.active_sides}
        top = max(points.values())
        winners = tuple(side for side in self._setup.active_sides if points[side] == top)
        # A full tie (60:60, 40:40:40) names every side; the match model decides what that means.
        self._end(OutcomeKind.PLAYED_OUT, winners, None, None, events)

    def _end(
        self,
        kind: OutcomeKind,
        winners: tuple[int, ...],
        seat: int | None,
        combo: Combo | None,
        events: list[Event],
    ) -> None:
        self.phase = _OVER
        self.over = True
        self.trick = None
        self.responders = []
        self.pending_instant = None
        self.outcome = DealOutcome(
            kind,
            winners,
            seat,
            combo,
            tuple(map(self.pile_points, range(self._setup.sides))),
            tuple(self.tricks_won),
            self._setup.seats,
        )
        events.append(DealEnded(self.outcome, tuple(map(tuple, self.piles))))
