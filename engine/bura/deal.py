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

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations

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


class Phase(Enum):
    """Where a deal stands."""

    LEAD = "lead"  # the pre-lead window and the lead (RULES §10)
    RESPOND = "respond"  # responders answer one by one, clockwise from the leader (§6.2)
    FINAL_CLAIM = "final_claim"  # after the last trick: the last trick winner may claim (§8.2)
    OVER = "over"


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


def _trick_pile(trick: Trick) -> list[PileCard]:
    """What a taken trick adds to its winner's pile: the lead face up, each answer as it was played."""
    new = tuple.__new__  # PileCard's C-level constructor: a trick makes several (hot path)
    leader = trick.leader
    pile = [new(PileCard, (card, False, leader)) for card in trick.lead]
    for play in trick.plays:
        hidden = play.face_down
        seat = play.seat
        pile.extend([new(PileCard, (card, hidden, seat)) for card in play.cards])
    return pile


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
        rng.shuffle(cards)
        self.deck_order: tuple[Card, ...] = tuple(cards)
        hands: dict[int, list[Card]] = {seat: [] for seat in seats}
        # RULES §5.3: one card at a time, clockwise from the dealer's left, the dealer last.
        order = self.clockwise_from(self.next_seat(dealer))
        position = 0
        for _ in range(variant.hand_size):
            for seat in order:
                hands[seat].append(cards[position])
                position += 1
        trump_card = cards[position]
        # The stock is kept top-last so that drawing is list.pop().
        if variant.trump_card is TrumpCard.UNDER_STOCK:  # [V06] the turned-up card is the last to draw
            stock = [trump_card, *reversed(cards[position + 1 :])]
        else:  # SHOWN_RETURNED: back on top, drawn first
            stock = list(reversed(cards[position:]))
        self._place(trump_card, hands, stock, [], None)
        self._play([], None, None, None, Phase.LEAD, self._first_leader(previous_last_trick), None)
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
        if phase is Phase.OVER or (phase is Phase.RESPOND) != (trick is not None):
            raise ValueError("a position is one of play, with a trick on the table exactly while it is answered")
        taken = [deal._copy_trick(done) for done in history]
        if piles is None:
            built: list[list[PileCard]] = [[] for _ in range(deal.sides)]
            for done in taken:
                built[deal.side_of[done.owner]].extend(_trick_pile(done))
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
        self.variant = variant
        self._instant_rules, self._seize_rules = split_rules(variant)
        self.seats = seats
        self.threshold = variant.threshold(len(seats))  # [V17] claim threshold, None when claims are off
        self._orders = {seat: seats[i:] + seats[:i] for i, seat in enumerate(seats)}
        self.number = number
        self.dealer = dealer
        self.players = players
        self.teams = variant.teams(players)
        # In 2x2 play seats 0+2 and 1+3 are partners (RULES §4); otherwise every seat is its own side.
        self.sides = 2 if self.teams else players
        self.side_of = {seat: (seat % 2 if self.teams else seat) for seat in seats}
        self.active_sides = tuple(sorted(set(self.side_of.values())))
        self._shokha = variant.shokha  # [B08]
        self._legal_cache: dict[int, list[Action]] = {}  # emptied by every change of state
        self._single_leads: dict[Card, Lead] = {}  # one-card leads are values: build each once (hot path)

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
        self.piles: list[list[PileCard]] = [[] for _ in range(self.sides)]
        self.tricks_won = [0] * self.sides

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
        if self.phase is not Phase.LEAD:
            return
        order = self._combo_holders(self.rightful)
        instants = self._instants(order)
        if instants:
            winner = self._instant_winner(instants)
            if self.variant.pre_lead_priority is PreLeadPriority.CLAIM_FIRST and winner.seat != self.rightful:
                self.pending_instant = winner
        self._find_seizers(order)
        if any(held.seat == self.rightful for held in self.shown):
            self._rightful_combo = None  # shown to keep the lead: no longer his to answer with

    @staticmethod
    def _copy_trick(trick: Trick) -> Trick:
        plays = [Play(play.seat, play.cards, play.face_down, play.beats) for play in trick.plays]
        return Trick(trick.number, trick.leader, trick.lead, plays, trick.best, trick.owner)

    # -- seating -------------------------------------------------------------------------------------------

    def next_seat(self, seat: int) -> int:
        seats = self.seats
        return seats[(seats.index(seat) + 1) % len(seats)]

    def clockwise_from(self, seat: int) -> tuple[int, ...]:
        """All active seats, clockwise, starting with ``seat``."""
        return self._orders[seat]

    def _first_leader(self, previous_last_trick: int | None) -> int:
        rule = self.variant.first_leader  # [V05]
        if rule is FirstLeader.RIGHT_OF_DEALER and len(self.seats) > 2:
            return self.clockwise_from(self.dealer)[-1]
        if rule is FirstLeader.LAST_TRICK_WINNER and previous_last_trick in self.seats:
            assert previous_last_trick is not None
            return previous_last_trick
        return self.next_seat(self.dealer)

    # -- the start ------------------------------------------------------------------------------------------

    def redeal_combo(self) -> Held | None:
        """[V18] REDEAL: the first dealt combo that forces a redeal, or None."""
        for seat in self.clockwise_from(self.rightful):
            for rules in (self._instant_rules, self._seize_rules):
                held = best_held(seat, self.hands[seat], self.trump, self.variant, rules)
                if held is not None and held.rule.combo in _REDEAL_COMBOS:
                    return held
        return None

    def begin(self) -> list[Event]:
        """Announce the deal and open the first pre-lead window (RULES §9.6 COUNT: dealt combos count)."""
        self._legal_cache = {}
        events: list[Event] = [
            DealStarted(self.number, self.dealer, self.seats, self.trump_card, self.rightful, len(self.stock))
        ]
        self._open_window(self.rightful, events)
        return events

    # -- queries --------------------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def to_act(self) -> int | None:
        """The seat whose move the game waits for (others may have optional moves: see legal_actions)."""
        if self.phase is Phase.LEAD or self.phase is Phase.FINAL_CLAIM:
            return self.leader
        if self.phase is Phase.RESPOND:
            return self.responders[0]
        return None

    def claims_allowed(self) -> bool:
        return self.threshold is not None

    def pile_points(self, side: int) -> int:
        return sum(entry.card.points for entry in self.piles[side])

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
        if seat not in self.hands:
            return []
        phase = self.phase
        if phase is Phase.RESPOND:
            return self._legal_responses(seat) if seat == self.responders[0] else []
        if phase is Phase.FINAL_CLAIM:
            return [Claim(seat), Pass(seat)] if seat == self.leader else []
        if phase is not Phase.LEAD:
            return []
        actions: list[Action] = []
        if self._may_claim(seat):
            actions.append(Claim(seat))
        if seat == self.leader:
            actions.extend(self._legal_leads(seat))
        held = self._seizer_option(seat)
        if held is not None:
            actions.append(DeclareCombo(seat, held.rule.combo))
            actions.append(Pass(seat))
        return actions

    def _may_claim(self, seat: int) -> bool:
        """RULES §8.2: R before he leads; the seizer too (★ engine decision)."""
        if not self.claims_allowed():
            return False
        if seat == self.rightful:
            return True
        return seat == self.leader and self.variant.seizer_may_claim

    def _legal_leads(self, seat: int) -> list[Action]:
        if self.forced_lead is not None:
            return [Lead(seat, self.forced_lead)]
        hand = self.hands[seat]
        cap = self.lead_cap()
        sizes = [k for k in self.variant.lead_sizes if k <= cap]
        leads: list[Action] = []
        start = 0
        end = len(hand)
        while start < end:  # the hand is sorted suit by suit: walk each suit's run
            suit = hand[start].suit
            stop = start + 1
            while stop < end and hand[stop].suit is suit:
                stop += 1
            suited = hand[start:stop]
            for k in sizes:
                if k > len(suited):
                    break
                if k == 1:
                    singles = self._single_leads
                    for card in suited:
                        lead = singles.get(card)
                        if lead is None or lead.seat != seat:
                            lead = singles[card] = Lead(seat, (card,))
                        leads.append(lead)
                else:
                    leads.extend(Lead(seat, chosen) for chosen in combinations(suited, k))
            start = stop
        if self._shokha and SHOKHA in hand:
            leads.extend(self._shokha_leads(seat, hand, sizes))
        return leads

    @staticmethod
    def _shokha_leads(seat: int, hand: list[Card], sizes: list[int]) -> list[Lead]:
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
        rule = self.variant.follow_suit
        assert self.trick is not None
        lead = self.trick.lead
        if rule is FollowSuit.NEVER:
            return None
        if rule is FollowSuit.SINGLE_LEAD and len(lead) != 1:
            return None
        if rule is FollowSuit.AFTER_STOCK_EXHAUSTED and self.stock:
            return None
        # The shokha joined to a lead takes its suit [B08]; in the answer it is the spade it is (engine decision).
        suited = [card for card in lead if card is not SHOKHA] if self._shokha else lead
        suit = (suited or lead)[0].suit
        if any(card.suit is not suit for card in suited):
            return None  # a mixed lead (small Moscow) names no suit to follow: engine decision
        held = sum(1 for card in self.hands[seat] if card.suit is suit)
        # RULES §15.29: as many led-suit cards as he can, up to k.
        return suit, min(held, self._response_size(seat))

    def _legal_responses(self, seat: int) -> list[Action]:
        assert self.trick is not None
        hand = self.hands[seat]
        k = self._response_size(seat)
        short = k < len(self.trick.lead)  # [V14] PLAY_ALL_CANNOT_BEAT
        follow = self._follow_count(seat)
        discards = self.variant.discards
        best = self.trick.best
        trump = self.trump
        shokha = self._shokha
        actions: list[Action] = []
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
        if self.variant.short_hand is not ShortHand.CAP_LEAD:
            return self.variant.hand_size
        cap = 0
        for other, hand in self.hands.items():
            if other != seat and hand and (cap == 0 or len(hand) < cap):
                cap = len(hand)
        return cap

    def _seize_key(self, held: Held) -> tuple[int, ...]:
        """Lower wins: combo rank, then [V20] turn order from R or the higher cards."""
        distance = self.clockwise_from(self.rightful).index(held.seat)
        if self.variant.same_combo_tie is SameComboTie.HIGHER_CARDS:
            return (held.rule.rank, *(-s for s in strength_key(held, self._shokha)), distance)
        return (held.rule.rank, distance)

    # -- legality: legal_actions is the one truth ------------------------------------------------------------

    def _listed(self, action: object) -> Action | None:
        """The action of ``legal_actions(action.seat)`` that is the same move as ``action``, or None.

        A move's cards are a set (RULES §6.4: the order in which they are put down does not matter), so
        ``Lead(0, (QS, 7S))`` is the listed ``Lead(0, (7S, QS))``. Actions are hashable values: the listed object
        itself, or an equal one, is found at once; only cards named in another order need the slower look.
        """
        seat = getattr(action, "seat", None)
        if type(seat) is not int or seat not in self.hands:
            return None
        listed = self._legal_cache.get(seat)
        if listed is None:
            listed = self._legal_cache[seat] = self._generate_legal(seat)
        if action in listed:
            return action  # equal to a listed action
        if not isinstance(action, Lead | RespondOpen | RespondFaceDown) or not isinstance(action.cards, tuple):
            return None
        played = action.cards
        chosen = set(played)
        for legal in listed:
            if (
                type(legal) is type(action)
                and isinstance(legal, Lead | RespondOpen | RespondFaceDown)
                and len(legal.cards) == len(played)
                and chosen.issuperset(legal.cards)
            ):
                return legal
        return None

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalAction` unless ``action`` is one of ``legal_actions(action.seat)``; change nothing.

        The reason comes from :meth:`diagnose`, asked only once the action is refused."""
        if self._listed(action) is None:
            raise IllegalAction(self.diagnose(action))

    def diagnose(self, action: object) -> Reason:
        """Why ``action``, which ``legal_actions`` does not list, is refused: the first rule it breaks.

        Never decides legality (that is :meth:`legal_actions` alone). Should no specific rule be found, the
        answer is ``Reason.NOT_LEGAL``; the property tests show that every refused action gets a specific one.
        """
        return self._reason(action) or Reason.NOT_LEGAL

    def _reason(self, action: object) -> Reason | None:
        if self.phase is Phase.OVER:
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
        if self.phase is Phase.FINAL_CLAIM and seat == self.leader:
            return None
        if self.phase is not Phase.LEAD or not self._may_claim(seat):
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
        if self.phase is not Phase.LEAD:
            return Reason.WRONG_PHASE
        if seat != self.leader:
            return Reason.NOT_YOUR_TURN
        reason = self._cards_reason(seat, action.cards)
        if reason is not None:
            return reason
        if self.forced_lead is not None:
            return Reason.MUST_LEAD_COMBO if set(action.cards) != set(self.forced_lead) else None
        suited = [card for card in action.cards if card is not SHOKHA] if self._shokha else action.cards
        if suited and any(card.suit is not suited[0].suit for card in suited):
            return Reason.MIXED_SUITS  # the shokha may join a set of any suit [B08]
        if len(action.cards) not in self.variant.lead_sizes:
            return Reason.LEAD_SIZE_NOT_ALLOWED
        if len(action.cards) > self.lead_cap():
            return Reason.LEAD_TOO_LARGE
        return None

    def _response_reason(self, action: RespondOpen | RespondFaceDown) -> Reason | None:
        seat = action.seat
        if self.phase is not Phase.RESPOND:
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
        discards = self.variant.discards
        if isinstance(action, RespondFaceDown):
            if discards is Discards.OPEN:
                return Reason.FACE_DOWN_NOT_ALLOWED
        elif discards is Discards.FACE_DOWN_MANDATORY and (
            k < len(self.trick.lead) or not set_beats(action.cards, self.trick.best, self.trump, self._shokha)
        ):
            return Reason.MUST_PLAY_FACE_DOWN
        return None

    def _declaration_reason(self, action: DeclareCombo) -> Reason | None:
        if self.phase is not Phase.LEAD:
            return Reason.WRONG_PHASE
        held = self._seizers.get(action.seat)
        if held is None or held.rule.combo is not action.combo or action.seat in self.passed:
            return Reason.NO_SUCH_COMBO
        if self._seizer_option(action.seat) is None:
            return Reason.COMBO_OUTRANKED
        return None

    def _pass_reason(self, seat: int) -> Reason | None:
        if self.phase is Phase.FINAL_CLAIM and seat == self.leader:
            return None
        if self.phase is not Phase.LEAD or self._seizer_option(seat) is None:
            return Reason.NOTHING_TO_PASS
        return None

    # -- applying ---------------------------------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Play ``action`` if ``legal_actions`` lists it (else raise :class:`IllegalAction`, changing nothing);
        returns the public events, in order. The cards are played in the order the action names them."""
        if self._listed(action) is None:
            raise IllegalAction(self.diagnose(action))
        self._legal_cache = {}
        events: list[Event] = []
        if isinstance(action, Claim):
            self._claim(action.seat, events)
        elif isinstance(action, Lead):
            if self.pending_instant is not None:
                # [V25] CLAIM_FIRST: R chose to lead rather than claim, so the waiting combo now wins.
                self._instant_win(self.pending_instant, events)
            else:
                self._lead(action.seat, action.cards, events)
        elif isinstance(action, RespondOpen | RespondFaceDown):
            self._respond(action.seat, action.cards, isinstance(action, RespondFaceDown), events)
        elif isinstance(action, DeclareCombo):
            self._declare(action.seat, events)
        else:
            events.append(Passed(action.seat))
            if self.phase is Phase.FINAL_CLAIM:
                self._settle(events)
            else:
                self.passed.add(action.seat)
        return events

    def _open_window(self, rightful: int, events: list[Event]) -> None:
        """RULES §10: instant combos (step 1), then the claim and lead seizure race (steps 2-5)."""
        self.phase = Phase.LEAD
        self.rightful = self.leader = rightful
        self.forced_lead = None
        self.standing = None
        if self.shown:
            self.shown = []
        if self.passed:
            self.passed = set()
        self.pending_instant = None
        self._seizers = {}
        self._rightful_combo = None
        order = self._combo_holders(rightful)
        if not order:
            return
        instants = self._instants(order)
        if instants:
            winner = self._instant_winner(instants)
            if self.variant.pre_lead_priority is PreLeadPriority.CLAIM_FIRST and winner.seat != rightful:
                self.pending_instant = winner
            else:
                self._instant_win(winner, events)
                return
        self._find_seizers(order)

    def _combo_holders(self, rightful: int) -> list[int]:
        """The seats, in turn order from R, whose full hands may hold a combo (RULES §9.1)."""
        size = self.variant.hand_size
        hands = self.hands
        shokha = self._shokha
        return [s for s in self.clockwise_from(rightful) if len(hands[s]) == size and may_hold_combo(hands[s], shokha)]

    def _instants(self, order: list[int]) -> list[Held]:
        """The instant-win combos held, in turn order from R (RULES §10 step 1)."""
        instants: list[Held] = []
        for seat in order:
            held = best_held(seat, self.hands[seat], self.trump, self.variant, self._instant_rules)
            if held is not None:
                instants.append(held)
        return instants

    def _find_seizers(self, order: Iterable[int]) -> None:
        """Who holds a lead-seizing combo in this window: R's is implicit, the others may say «Стоп!»."""
        self._seizers = {}
        self._rightful_combo = None
        for seat in order:
            held = best_held(seat, self.hands[seat], self.trump, self.variant, self._seize_rules)
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
        if self.variant.bura_vs_bura is _BuraVsBura.TOP_CARD:
            return max(tied, key=lambda held: strength_key(held, self._shokha))
        best = tied[0]  # TRICK_COMPARE: a later bura wins only if it beats the best so far
        for held in tied[1:]:
            if set_beats(held.cards, best.cards, self.trump, self._shokha):
                best = held
        return best

    def _instant_win(self, held: Held, events: list[Event]) -> None:
        events.append(ComboShown(held.seat, held.rule.combo, held.cards))
        side = self.side_of[held.seat]
        self._end(OutcomeKind.WIN, (side,), held.seat, held.rule.combo, events)

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
        self.responders = [s for s in self.clockwise_from(seat)[1:] if self.hands[s]]
        self.phase = Phase.RESPOND
        self.shown = []
        events.append(Led(seat, played))

    def _respond(self, seat: int, played: tuple[Card, ...], face_down: bool, events: list[Event]) -> None:
        trick = self.trick
        assert trick is not None
        beats = (
            not face_down and len(played) == len(trick.lead) and set_beats(played, trick.best, self.trump, self._shokha)
        )
        hand = self.hands[seat]
        for card in played:
            hand.remove(card)
        trick.plays.append(Play(seat, played, face_down, beats))
        if beats:  # RULES §6.5: the next responder must beat this set
            trick.best = played
            trick.owner = seat
        events.append(Responded(seat, () if face_down else played, len(played), face_down, beats))
        self.responders.pop(0)
        if not self.responders:
            self._take_trick(trick, events)

    def _take_trick(self, trick: Trick, events: list[Event]) -> None:
        owner = trick.owner
        side = self.side_of[owner]
        self.piles[side].extend(_trick_pile(trick))
        open_cards = list(trick.lead)
        face_down = 0
        for play in trick.plays:
            if play.face_down:
                face_down += len(play.cards)
            else:
                open_cards.extend(play.cards)
        self.tricks_won[side] += 1
        self.history.append(trick)
        self.trick = None
        self.last_trick_winner = owner
        events.append(TrickTaken(trick.number, owner, side, tuple(open_cards), face_down))
        self._draw(owner, events)
        holders = [s for s in self.clockwise_from(owner) if self.hands[s]]
        if len(holders) == 1:
            # RULES §7.4: the only player with cards takes them as an unopposed last trick.
            last = holders[0]
            cards_left = self.hands[last]
            self.piles[self.side_of[last]].extend(PileCard(card, True, last) for card in cards_left)
            events.append(LastCardsTaken(last, len(cards_left)))
            self.hands[last] = []
            holders = []
        if not holders:
            if self.claims_allowed() and self.variant.final_claim_window:
                self.phase = Phase.FINAL_CLAIM  # RULES §8.2 final window
                self.leader = self.rightful = owner
                return
            self._settle(events)
            return
        # The trick winner leads; if his hand is empty (unequal hands), the next holder (engine decision).
        self._open_window(holders[0], events)

    def _draw(self, winner: int, events: list[Event]) -> None:
        """RULES §7: draw from the winner clockwise; the short-stock option [V13] decides who gets what."""
        stock = self.stock
        if not stock:
            return
        size = self.variant.hand_size
        hands = self.hands
        order = [s for s in self.clockwise_from(winner) if len(hands[s]) < size]
        need = [size - len(hands[s]) for s in order]
        if self._draw_everything(order, need, events):
            return
        counts = self._draw_counts(need, len(stock))
        if self.variant.draw_order is DrawOrder.BLOCK:  # [V12]
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

    def _draw_everything(self, order: list[int], need: list[int], events: list[Event]) -> bool:
        """The common case of a full stock and alternate drawing, done without bookkeeping (hot path)."""
        stock = self.stock
        if self.variant.draw_order is not DrawOrder.ALTERNATE or sum(need) > len(stock) or min(need) != max(need):
            return False
        hands = self.hands
        pop = stock.pop
        trump_card = self.trump_card
        for _ in range(need[0]):
            for seat in order:
                card = pop()
                hands[seat].append(card)
                if card is trump_card:
                    self.trump_card_holder = seat
        for seat in order:
            hands[seat].sort(key=BY_INDEX)
        events.append(CardsDrawn(tuple((seat, need[0]) for seat in order), len(stock), self.trump_card_holder))
        return True

    def _draw_counts(self, need: list[int], available: int) -> list[int]:
        """How many cards each needer draws under [V13], needers in drawing order."""
        if sum(need) <= available:
            return need  # enough for everyone: every option fills every hand
        rule = self.variant.stock_short
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
        side = self.side_of[seat]
        threshold = self.threshold
        assert threshold is not None
        points = self.pile_points(side)
        success = points >= threshold  # RULES §8.1: exactly the threshold counts
        pile = tuple(self.piles[side])
        events.append(Claimed(seat, side, pile, points, threshold, success))
        if success:
            self._end(OutcomeKind.WIN, (side,), seat, None, events)
        else:
            others = tuple(s for s in self.active_sides if s != side)
            winners = others if len(others) == 1 else ()
            self._end(OutcomeKind.FALSE_CLAIM, winners, seat, None, events)

    def forfeit(self, seat: int) -> list[Event]:
        """The seat's side loses the deal by a ruling of the table, not by a move (a player who let his move
        timer run out three times in a row). Scored like a lost deal (RULES §8.4 LOSE_DEAL)."""
        if self.phase is Phase.OVER:
            raise IllegalAction(Reason.DEAL_OVER)
        if seat not in self.hands:
            raise IllegalAction(Reason.NOT_SEATED)
        side = self.side_of[seat]
        others = tuple(s for s in self.active_sides if s != side)
        events: list[Event] = []
        self._legal_cache = {}
        self._end(OutcomeKind.FORFEIT, others if len(others) == 1 else (), seat, None, events)
        return events

    def _settle(self, events: list[Event]) -> None:
        """RULES §11: a deal nobody claimed ends void (Bura) or is settled by its points."""
        if self.variant.end_of_deal is EndOfDeal.VOID:
            self._end(OutcomeKind.VOID, (), None, None, events)
            return
        points = {side: self.pile_points(side) for side in self.active_sides}
        top = max(points.values())
        winners = tuple(side for side in self.active_sides if points[side] == top)
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
        self.phase = Phase.OVER
        self.trick = None
        self.responders = []
        self.pending_instant = None
        self.outcome = DealOutcome(
            kind,
            winners,
            seat,
            combo,
            tuple(self.pile_points(side) for side in range(self.sides)),
            tuple(self.tricks_won),
            self.seats,
        )
        piles = tuple(tuple(pile) for pile in self.piles)
        events.append(DealEnded(self.outcome, piles))
