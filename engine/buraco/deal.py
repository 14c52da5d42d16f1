"""One deal of Buraco Aberto: the cards, the turn's phases, legality, and what each move does (RULES §17).

``legal_actions(seat)`` is the one truth: ``apply`` plays an action only if it is in that list, and
``diagnose`` finds the reason for one that is not. Legality includes the dead-end guards the rules imply:
no meld may leave the turn without a legal way to end it (seed L41, §17.7a-12), so ``legal_actions`` is never
empty for the seat to act while the deal goes on.

Layout of a deal from its 108 cards in shuffled order (an engine decision, RULES §17.2 gives no order):
the mortos are ``deck[0:11]`` and ``deck[11:22]``; ``deck[22 + i]`` goes to seat ``(dealer + 1 + i) % 4``;
the stock is ``deck[66:]`` with its top at ``deck[66]``.

The stock runs out when a draw needs a card and finds none (RULES §17.7a-15): only then does the first
untouched morto become the stock. A deal made with ``renew_at_discard`` keeps the timing of matches stored
before that ruling (the morto became the stock at the discard that left the stock empty), so their action logs
replay to the state they were played in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import Enum

from engine.buraco.actions import (
    Action,
    AddToRun,
    CancelDraft,
    Discard,
    DrawStock,
    KeepDrawn,
    NewRun,
    RejectDrawn,
    TakePile,
)
from engine.buraco.cards import BY_INDEX, Card, deck
from engine.buraco.errors import IllegalAction, Reason
from engine.buraco.events import (
    Discarded,
    Drew,
    Event,
    MortoTaken,
    Opened,
    Rejected,
    RunExtended,
    RunLaid,
    SideScore,
    StockRenewed,
    TookPile,
)
from engine.buraco.melds import Addition, Meld, add, additions, arrange, is_natural, natural, new_runs
from engine.core.cards import Suit
from engine.core.seats import Seating

HAND: int = 11  # §17.2: 11 cards each, two mortos of 11, a stock of 42
OPENING_MINIMUM: int = 75  # §17.5
SEATING = Seating(4, partners=True)
_DECK = sorted(deck(), key=BY_INDEX)


class Phase(Enum):
    DRAW = "draw"  # take the stock's top card or the whole pile
    FIRST_CHOICE = "first_choice"  # the deal's first turn: keep the card drawn, or refuse it (§17.3)
    MELD = "meld"  # lay runs, add to them, and end the turn with a discard
    OVER = "over"


def _count(cards: Iterable[Card]) -> dict[Card, int]:
    counts: dict[Card, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return counts


class Deal:
    """The state of one deal. Mutable; :meth:`apply` checks an action before it changes anything."""

    def __init__(
        self,
        dealer: int,
        order: Sequence[Card],
        vulnerable: tuple[bool, bool] = (False, False),
        *,
        renew_at_discard: bool = False,
    ) -> None:
        if len(order) != 108:
            raise ValueError("a Buraco deal needs the 108 cards")
        self.dealer = dealer
        self.order = tuple(order)
        self.vulnerable = vulnerable
        self.mortos: list[list[Card]] = [list(order[0:HAND]), list(order[HAND : 2 * HAND])]
        self.hands: list[list[Card]] = [[] for _ in range(4)]
        for index, card in enumerate(order[2 * HAND : 6 * HAND]):
            self.hands[(dealer + 1 + index) % 4].append(card)
        self.stock: list[Card] = list(reversed(order[6 * HAND :]))  # the top is the last element
        self.pile: list[Card] = []
        self.runs: tuple[list[Meld], list[Meld]] = ([], [])
        self.opened = [False, False]
        self.morto_taken: list[tuple[int, bool] | None] = [None, None]  # (seat, direta) per side
        self.unplayed_morto: list[int | None] = [None, None]  # an indireta's taker who has not drawn since
        self.turn = SEATING.next_seat(dealer)  # §17.3: the dealer's left plays first
        self.first = self.turn
        self.phase = Phase.DRAW
        self.first_turn = True  # §17.7a-2: the special draw is the deal's first turn only
        self.drawn: Card | None = None
        self.fresh: Card | None = None  # the card the seat to act drew from the stock this turn (his alone to see)
        self.forbidden: Card | None = None  # §17.7a-5: a lone pile card taken may not be given back
        self.closer: int | None = None
        self.scores: tuple[SideScore, SideScore] | None = None
        self.renew_at_discard = renew_at_discard  # the old timing of stored matches (see the module's docstring)
        self._legal: list[Action] | None = None

    def copy(self) -> Deal:
        """An independent copy (cards and runs are immutable, so only the containers are new)."""
        twin = object.__new__(Deal)
        twin.__dict__.update(self.__dict__)
        twin.mortos = [list(morto) for morto in self.mortos]
        twin.hands = [list(hand) for hand in self.hands]
        twin.stock = list(self.stock)
        twin.pile = list(self.pile)
        twin.runs = (list(self.runs[0]), list(self.runs[1]))
        twin.opened = list(self.opened)
        twin.morto_taken = list(self.morto_taken)
        twin.unplayed_morto = list(self.unplayed_morto)
        twin._legal = None
        return twin

    @classmethod
    def from_position(
        cls,
        *,
        dealer: int,
        vulnerable: tuple[bool, bool],
        hands: Sequence[Sequence[Card]],
        stock: Sequence[Card],
        pile: Sequence[Card],
        mortos: Sequence[Sequence[Card]],
        runs: tuple[Sequence[Meld], Sequence[Meld]],
        opened: tuple[bool, bool],
        morto_taken: tuple[tuple[int, bool] | None, tuple[int, bool] | None],
        unplayed_morto: tuple[int | None, int | None],
        turn: int,
        phase: Phase,
        first_turn: bool = False,
        drawn: Card | None = None,
        forbidden: Card | None = None,
    ) -> Deal:
        """A deal in the middle of play, from where every card lies: how a computer player builds a world it
        may search, the cards it cannot see dealt by its own guess (engine.buraco.ai.worlds).

        ``stock`` has its top last; ``runs`` holds each side's runs, a draft of an opening included. The
        position's 108 cards must be the whole deck (``ValueError`` if not); ``order``, which only a fresh deal
        reads, is then those cards in a fixed order, not a shuffle.
        """
        everything = [card for hand in hands for card in hand] + list(stock) + list(pile)
        everything += [card for morto in mortos for card in morto]
        everything += [card for side in runs for meld in side for card in meld.cards]
        if sorted(everything, key=BY_INDEX) != _DECK:
            raise ValueError("a position needs exactly the 108 cards of the deck")
        if len(hands) != 4 or not 0 <= turn < 4 or not 0 <= dealer < 4:
            raise ValueError("a position has four hands and a seat to act")
        deal = object.__new__(cls)
        deal.dealer = dealer
        deal.order = tuple(everything)
        deal.vulnerable = vulnerable
        deal.mortos = [list(morto) for morto in mortos]
        deal.hands = [list(hand) for hand in hands]
        deal.stock = list(stock)
        deal.pile = list(pile)
        deal.runs = (list(runs[0]), list(runs[1]))
        deal.opened = list(opened)
        deal.morto_taken = list(morto_taken)
        deal.unplayed_morto = list(unplayed_morto)
        deal.turn = turn
        deal.first = SEATING.next_seat(dealer)
        deal.phase = phase
        deal.first_turn = first_turn
        deal.drawn = drawn
        deal.forbidden = forbidden
        deal.closer = None
        deal.scores = None
        deal.renew_at_discard = False
        deal._legal = None
        return deal

    # -- reading the state --------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def to_act(self) -> int | None:
        return None if self.over else self.turn

    def side_of(self, seat: int) -> int:
        return SEATING.side[seat]

    def drafting(self, side: int) -> bool:
        """A vulnerable pair that has not opened lays its runs into a draft first (§17.5)."""
        return self.vulnerable[side] and not self.opened[side]

    def draft_points(self, side: int) -> int:
        return sum(meld.value for meld in self.runs[side]) if self.drafting(side) else 0

    def table_runs(self, side: int) -> list[Meld]:
        """The runs everyone sees: a draft is not on the table until the opening is made."""
        return [] if self.drafting(side) else list(self.runs[side])

    def has_clean_canastra(self, side: int) -> bool:
        return any(meld.clean_canastra for meld in self.runs[side])

    def cards_in_play(self) -> list[Card]:
        """Every card of the deal wherever it is (the 108 are always all here)."""
        everything = [card for hand in self.hands for card in hand] + self.stock + self.pile
        everything += [card for morto in self.mortos for card in morto]
        everything += [card for side in self.runs for meld in side for card in meld.cards]
        return everything

    # -- legality -----------------------------------------------------------------------------------------

    def _may_empty(self, side: int, clean_canastra: bool) -> bool:
        """May a seat of ``side`` discard his last card? To take a morto (indireta), or to go out (§17.6)."""
        if self.morto_taken[side] is None:
            return bool(self.mortos)
        return clean_canastra

    def _finishable(
        self,
        side: int,
        left: dict[Card, int],
        size: int,
        draft: int,
        clean: bool,
        runs: Callable[[], Sequence[Meld]],
    ) -> Reason | None:
        """Does a meld that leaves ``left`` (``size`` cards) still allow the turn to end? (seed L41, §17.7a-12);
        ``runs`` gives the pair's runs after it (asked only when the lone pile card's copies are all that is left)."""
        if size == 0:  # the hand empties by melding: only a first morto taken at once (direta) allows it
            if self.morto_taken[side] is not None:
                return Reason.LAST_CARD_MUST_BE_DISCARDED
            if not self.mortos:
                return Reason.NO_MORTO_AVAILABLE
            if self.drafting(side) and draft < OPENING_MINIMUM:
                return Reason.OPENING_BELOW_MINIMUM
            return None
        if size == 1 and not self._may_empty(side, clean):
            return Reason.NO_LEGAL_DISCARD_LEFT
        forbidden = self.forbidden
        # §17.7a-16: no copy of the lone pile card may be discarded (§17.7a-5), but melding every one of them to
        # empty the hand and take a morto still ends the turn.
        if (
            forbidden is not None
            and left.get(forbidden, 0) == size
            and not self._melds_away(side, runs(), forbidden, size, draft)
        ):
            return Reason.NO_LEGAL_DISCARD_LEFT
        return None

    def _melds_away(self, side: int, runs: Sequence[Meld], card: Card, copies: int, draft: int) -> bool:
        """RULES §17.7a-16: can a hand of ``copies`` of ``card`` alone (the lone pile card taken, none of which may
        be discarded) be added card by card to the pair's ``runs``, emptying the hand to take a first morto at
        once (§17.6 direta; then the morto's cards give the discard)? ``draft`` is a draft's points so far."""
        if self.morto_taken[side] is not None or not self.mortos:
            return False
        if self.drafting(side) and draft + copies * card.value < OPENING_MINIMUM:
            return False
        return _adds_all(tuple(runs), card, copies, set())

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, in a fixed order (empty when it is not his to act)."""
        if seat != self.turn or self.over:
            return []
        if self._legal is None:
            self._legal = self._enumerate()
        return list(self._legal)

    def _enumerate(self) -> list[Action]:
        seat = self.turn
        if self.phase is Phase.FIRST_CHOICE:
            return [KeepDrawn(seat), RejectDrawn(seat)]
        if self.phase is Phase.DRAW:
            # §17.7a-15: an empty stock is renewed from a morto by the draw; with neither the deal is over
            found: list[Action] = [DrawStock(seat)] if self.stock or self.mortos else []
            if self.pile and not self._pile_blocks(seat):
                found.append(TakePile(seat))
            return found
        side = self.side_of(seat)
        hand = self.hands[seat]
        counts = _count(hand)
        size = len(hand)
        drafting = self.drafting(side)
        draft = self.draft_points(side)
        clean = self.has_clean_canastra(side)
        found = []
        for suit, low, laid in new_runs(counts):
            left = dict(counts)
            for card in laid:
                left[card] -= 1
            points = draft + sum(card.value for card in laid) if drafting else 0
            if self._finishable(side, left, size - 3, points, clean, _laid(self.runs[side], suit, low, laid)) is None:
                found.append(NewRun(seat, suit, low, laid))
        runs = self.runs[side]
        for number, meld in enumerate(runs):
            for step in additions(meld, counts):
                left = dict(counts)
                left[step.card] -= 1
                grown = add(meld, step)
                points = draft + step.card.value if drafting else 0
                # a substitute added to the pair's only clean canastra makes it dirty
                after = grown.clean_canastra or any(m.clean_canastra for i, m in enumerate(runs) if i != number)
                if self._finishable(side, left, size - 1, points, after, _grown(runs, number, grown)) is None:
                    found.append(AddToRun(seat, side, number, step.card, step.at, step.moved_to))
        if drafting and self.runs[side]:
            found.append(CancelDraft(seat))
        # §17.5: the 75 is a minimum for an opening laid, not a duty to open: with no draft, discard freely
        if not drafting or not self.runs[side] or draft >= OPENING_MINIMUM:
            for card in sorted(counts, key=BY_INDEX):
                if card is self.forbidden:
                    continue
                if size == 1 and not self._may_empty(side, clean):
                    continue
                found.append(Discard(seat, card))
        return found

    def _pile_blocks(self, seat: int) -> bool:
        """§17.7a-5 and the dead-end guard: a lone pile card may not be taken into a hand holding only its twin
        (nothing could be discarded after it), unless every copy can be melded to take a morto (§17.7a-16)."""
        if len(self.pile) != 1:
            return False
        lone = self.pile[0]
        hand = self.hands[seat]
        if any(card is not lone for card in hand):
            return False
        side = self.side_of(seat)
        return not self._melds_away(side, self.runs[side], lone, len(hand) + 1, self.draft_points(side))

    def diagnose(self, action: Action) -> Reason:
        """Why ``action`` is not legal now (asked only of an action that is not in ``legal_actions``)."""
        seat = action.seat
        if not 0 <= seat < 4:
            return Reason.NOT_SEATED
        if self.over:
            return Reason.WRONG_PHASE
        if seat != self.turn:
            return Reason.NOT_YOUR_TURN
        if isinstance(action, (KeepDrawn, RejectDrawn)):
            return Reason.WRONG_PHASE
        if isinstance(action, (DrawStock, TakePile)):
            if self.phase is not Phase.DRAW or isinstance(action, DrawStock):
                return Reason.WRONG_PHASE  # a draw from nothing: the stock and the mortos are used (§17.6)
            return Reason.PILE_EMPTY if not self.pile else Reason.PILE_TAKE_BLOCKS_DISCARD
        if self.phase is not Phase.MELD:
            return Reason.WRONG_PHASE
        side = self.side_of(seat)
        counts = _count(self.hands[seat])
        if isinstance(action, CancelDraft):
            return Reason.NOTHING_TO_CANCEL
        if isinstance(action, Discard):
            if not counts.get(action.card):
                return Reason.CARD_NOT_IN_HAND
            if action.card is self.forbidden:
                return Reason.CANNOT_DISCARD_PILE_CARD
            if self.drafting(side) and self.runs[side] and self.draft_points(side) < OPENING_MINIMUM:
                return Reason.OPENING_BELOW_MINIMUM
            if self.morto_taken[side] is None:
                return Reason.NO_MORTO_AVAILABLE
            return Reason.NO_CLEAN_CANASTRA
        if isinstance(action, NewRun):
            needed = _count(action.laid)
            if any(counts.get(card, 0) < n for card, n in needed.items()):
                return Reason.CARD_NOT_IN_HAND
            shaped = arrange(action.suit, action.low, action.laid)
            if isinstance(shaped, Reason):
                return shaped
            left = {card: counts[card] - needed.get(card, 0) for card in counts}
            points = self.draft_points(side) + shaped.value
            size = len(self.hands[seat]) - 3
            laid = _laid(self.runs[side], action.suit, action.low, action.laid)
            reason = self._finishable(side, left, size, points, self.has_clean_canastra(side), laid)
            return reason or Reason.BAD_ARRANGEMENT
        if isinstance(action, AddToRun):
            if not 0 <= action.side < 2 or not 0 <= action.run < len(self.runs[action.side]):
                return Reason.NO_SUCH_MELD
            if action.side != side:
                return Reason.NOT_OWN_MELD
            if not counts.get(action.card):
                return Reason.CARD_NOT_IN_HAND
            meld = self.runs[side][action.run]
            step = Addition(action.card, action.at, action.moved_to)
            if step not in additions(meld, counts):
                return _why_not_added(meld, step)
            left = dict(counts)
            left[action.card] -= 1
            grown = add(meld, step)
            points = self.draft_points(side) + action.card.value
            runs = self.runs[side]
            clean = grown.clean_canastra or any(m.clean_canastra for i, m in enumerate(runs) if i != action.run)
            after = _grown(runs, action.run, grown)
            reason = self._finishable(side, left, len(self.hands[seat]) - 1, points, clean, after)
            return reason or Reason.NOT_ADJACENT
        return Reason.UNKNOWN_ACTION

    # -- moves --------------------------------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Play ``action`` if it is legal now, else raise :class:`IllegalAction` and change nothing."""
        if action not in self.legal_actions(action.seat):
            raise IllegalAction(self.diagnose(action))
        self._legal = None
        seat = action.seat
        side = self.side_of(seat)
        hand = self.hands[seat]
        if isinstance(action, DrawStock):
            renewed = [] if self.stock else self._renew_stock()  # §17.7a-15: the draw finds the stock empty
            card = self.stock.pop()
            hand.append(card)
            self._drew(seat)
            self.fresh = card
            if self.first_turn:
                self.drawn = card
                self.phase = Phase.FIRST_CHOICE
            else:
                self.phase = Phase.MELD
            return [*renewed, Drew(seat)]
        if isinstance(action, TakePile):
            taken = tuple(self.pile)
            hand.extend(taken)
            self.pile.clear()
            self.forbidden = taken[0] if len(taken) == 1 else None
            self._drew(seat)
            self.phase = Phase.MELD
            return [TookPile(seat, taken)]
        if isinstance(action, KeepDrawn):
            self.drawn = None
            self.first_turn = False
            self.phase = Phase.MELD
            return []
        if isinstance(action, RejectDrawn):
            refused = self.drawn
            assert refused is not None
            hand.remove(refused)
            self.pile.append(refused)  # §17.7a-3: face up on the pile
            hand.append(self.stock.pop())
            self.fresh = hand[-1]
            self.drawn = None
            self.first_turn = False
            self.phase = Phase.MELD
            return [Rejected(seat, refused), Drew(seat)]
        if isinstance(action, NewRun):
            for card in action.laid:
                hand.remove(card)
            meld = arrange(action.suit, action.low, action.laid)
            assert isinstance(meld, Meld)
            self.runs[side].append(meld)
            events: list[Event] = []
            if not self.drafting(side):
                self.opened[side] = True
                events.append(RunLaid(seat, side, len(self.runs[side]) - 1, meld))
            return events + self._after_meld(seat)
        if isinstance(action, AddToRun):
            hand.remove(action.card)
            meld = add(self.runs[side][action.run], Addition(action.card, action.at, action.moved_to))
            self.runs[side][action.run] = meld
            events = []
            if not self.drafting(side):
                events.append(RunExtended(seat, side, action.run, action.card, meld))
            return events + self._after_meld(seat)
        if isinstance(action, CancelDraft):
            for meld in self.runs[side]:
                hand.extend(meld.cards)
            self.runs[side].clear()
            return []
        assert isinstance(action, Discard)
        return self._discard(seat, action.card)

    def _drew(self, seat: int) -> None:
        side = self.side_of(seat)
        if self.unplayed_morto[side] == seat:
            self.unplayed_morto[side] = None  # §17.7a-8: the morto has been played from

    def _open(self, seat: int) -> list[Event]:
        side = self.side_of(seat)
        if not self.drafting(side) or not self.runs[side]:
            return []  # nothing laid this turn: the pair has not opened
        points = self.draft_points(side)
        self.opened[side] = True
        return [Opened(seat, side, tuple(self.runs[side]), points)]

    def _take_morto(self, seat: int, direta: bool) -> list[Event]:
        side = self.side_of(seat)
        self.hands[seat].extend(self.mortos.pop(0))
        self.morto_taken[side] = (seat, direta)
        if not direta:
            self.unplayed_morto[side] = seat
        return [MortoTaken(seat, side, direta)]

    def _after_meld(self, seat: int) -> list[Event]:
        if self.hands[seat]:
            return []
        # §17.6: the last card melded takes the pair's first morto, and the same turn goes on (direta).
        return self._open(seat) + self._take_morto(seat, direta=True)

    def _discard(self, seat: int, card: Card) -> list[Event]:
        side = self.side_of(seat)
        events = self._open(seat)
        self.hands[seat].remove(card)
        self.pile.append(card)
        self.forbidden = None
        self.fresh = None
        events.append(Discarded(seat, card))
        if not self.hands[seat]:
            if self.morto_taken[side] is not None:
                self.closer = side  # §17.6: batida, the deal ends
                return events + self._end()
            events += self._take_morto(seat, direta=False)
        if not self.stock:
            if not self.mortos:
                # §17.6, §17.7a-15: no card is left for a draw, so the last to draw has finished and the deal ends
                return events + self._end()
            if self.renew_at_discard:
                events += self._renew_stock()
        self.turn = SEATING.next_seat(seat)
        self.phase = Phase.DRAW
        return events

    def _renew_stock(self) -> list[Event]:
        """§17.6 and §17.7a-15: the first untouched morto set aside at the deal becomes the stock, its first card
        on top; it is nobody's morto (§17.7a-6)."""
        self.stock = list(reversed(self.mortos.pop(0)))
        return [StockRenewed(len(self.stock))]

    def _end(self) -> list[Event]:
        from engine.buraco.scoring import score_deal  # scoring reads the finished deal

        self.phase = Phase.OVER
        self.scores = score_deal(self)
        return []


def _laid(runs: Sequence[Meld], suit: Suit, low: int, laid: Sequence[Card]) -> Callable[[], list[Meld]]:
    """The pair's runs after a new run (worked out only when asked: the guard rarely needs them)."""

    def after() -> list[Meld]:
        meld = arrange(suit, low, laid)
        return [*runs, meld] if isinstance(meld, Meld) else list(runs)

    return after


def _grown(runs: Sequence[Meld], number: int, grown: Meld) -> Callable[[], list[Meld]]:
    """The pair's runs after run ``number`` became ``grown``."""
    return lambda: [grown if index == number else meld for index, meld in enumerate(runs)]


def _adds_all(runs: tuple[Meld, ...], card: Card, copies: int, seen: set[tuple[Meld, ...]]) -> bool:
    """Can ``copies`` of ``card`` all be added to ``runs``, one at a time? (a search over where each goes:
    at most 4 copies, a joker's, and each run takes at most one substitute; ``seen`` holds dead ends)"""
    if not copies:
        return True
    if runs in seen:
        return False
    hand = {card: copies}
    for number, meld in enumerate(runs):
        for step in additions(meld, hand):
            grown = (*runs[:number], add(meld, step), *runs[number + 1 :])
            if _adds_all(grown, card, copies - 1, seen):
                return True
    seen.add(runs)
    return False


def _why_not_added(meld: Meld, step: Addition) -> Reason:
    card, suit = step.card, meld.suit
    if not card.may_be_wild and card.suit is not suit:
        return Reason.NOT_SAME_SUIT
    ends = (meld.low - 1, meld.high + 1)
    if step.at in ends and not is_natural(card, suit, step.at) and card.may_be_wild and meld.wild_at is not None:
        return Reason.TWO_SUBSTITUTES
    if meld.wild_at is not None and step.at == meld.wild_at and card is natural(suit, step.at):
        if len(meld.cards) == 14:
            return Reason.NO_PLACE_FOR_SUBSTITUTE
        return Reason.BAD_ARRANGEMENT
    if len(meld.cards) == 14:
        return Reason.MELD_TOO_LONG
    return Reason.NOT_ADJACENT
