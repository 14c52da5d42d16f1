"""What a Buraco hand button plays: the marked cards as a selection, and the engine's atomic moves they make.

A selection travels in the button (the keyboard is stateless): the hand's order (by suit, or by rank) and a
bitmask of the marked places in it, in base64url. A button that lays or adds several cards plays a plan: the
atomic moves the engine lists (a run of three, then one card at a time: RULES §17.7a-9), checked in full on a copy
of the deal before any of it is played, so a tap plays all of it or nothing. Where the same cards can make
different runs (where a substitute stands, §17.7a-10, or where it moves, §17.7a-9), each is a plan of its own.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass

from engine.buraco import melds
from engine.buraco.actions import Action, AddToRun, NewRun
from engine.buraco.cards import BY_INDEX, Card
from engine.buraco.deal import Deal
from engine.buraco.errors import Reason
from engine.buraco.melds import Meld, arrangements, plan_new
from engine.core.cards import Suit

BY_SUIT = "s"
BY_RANK = "r"


def by_rank(card: Card) -> tuple[int, int]:
    return (99 if card.is_joker else card.rank, card.index)


def display(hand: Sequence[Card], order: str) -> list[Card]:
    """The hand as its buttons show it: suit by suit, ace to king, jokers last; or rank by rank."""
    return sorted(hand, key=by_rank if order == BY_RANK else BY_INDEX)


@dataclass(frozen=True, slots=True)
class Selection:
    order: str = BY_SUIT
    marked: frozenset[int] = frozenset()  # places in the displayed hand

    def pack(self) -> str:
        mask = sum(1 << place for place in self.marked)
        raw = mask.to_bytes((mask.bit_length() + 7) // 8, "big") if mask else b""
        return self.order + base64.urlsafe_b64encode(raw).decode().rstrip("=")

    @classmethod
    def unpack(cls, text: str, size: int) -> Selection:
        """The inverse of :meth:`pack` for a hand of ``size`` cards; ``ValueError`` for what no button carries."""
        if not text:
            return cls()
        order, body = text[0], text[1:]
        if order not in (BY_SUIT, BY_RANK) or len(body) > 24:
            raise ValueError("not a selection")
        try:  # strictly: binascii would drop characters outside the alphabet and read garbled data as a button
            raw = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_", validate=True) if body else b""
        except binascii.Error as error:
            raise ValueError("not a selection") from error
        mask = int.from_bytes(raw, "big")
        if mask >> size:
            raise ValueError("marks beyond the hand")
        return cls(order, frozenset(place for place in range(size) if mask >> place & 1))

    def toggled(self, place: int) -> Selection:
        return Selection(self.order, self.marked ^ {place})

    def cards(self, hand: Sequence[Card]) -> list[Card]:
        shown = display(hand, self.order)
        return [shown[place] for place in sorted(self.marked)]


def checked(deal: Deal, plan: Sequence[Action]) -> Reason | None:
    """Would ``plan`` play through, move by move? None if so, else the engine's reason for the first that
    would be refused."""
    trial = deal.copy()
    for action in plan:
        if action not in trial.legal_actions(action.seat):
            return trial.diagnose(action)
        trial.apply(action)
    return None


Plans = list[tuple[Meld, list[Action]]]
"""Each run a button may make, with the engine's moves that make it, the default first."""


def _playable(deal: Deal, candidates: Sequence[tuple[Meld, list[Action]]], fallback: Reason) -> Plans | Reason:
    """The candidates whose moves the engine would take in turn (see :func:`checked`); if none, the first
    refusal's reason."""
    plans: Plans = []
    reason: Reason | None = None
    for meld, plan in candidates:
        refused = checked(deal, plan)
        if refused is None:
            plans.append((meld, plan))
        else:
            reason = reason or refused
    return plans if plans else (reason or fallback)


def new_run_plans(deal: Deal, seat: int, marked: Sequence[Card]) -> Plans | Reason:
    """Each way the marked cards make a new run (the default first, RULES §17.7a-10), as the moves that lay it;
    or why they make none."""
    found = arrangements(marked)
    if isinstance(found, Reason):
        return found
    side = deal.side_of(seat)
    number = len(deal.runs[side])
    candidates: list[tuple[Meld, list[Action]]] = []
    for meld in found:
        first, low, steps = plan_new(meld)
        plan: list[Action] = [NewRun(seat, meld.suit, low, first)]
        plan += [AddToRun(seat, side, number, step.card, step.at, step.moved_to) for step in steps]
        candidates.append((meld, plan))
    return _playable(deal, candidates, Reason.BAD_ARRANGEMENT)


def addition_plans(deal: Deal, seat: int, number: int, marked: Sequence[Card]) -> Plans | Reason:
    """Each run the marked cards make added to the pair's run ``number`` one by one, as the moves that add them:
    the default first, then every other place a substitute may end up (RULES §17.7a-9, the player's choice as
    with one card); or why they cannot be added."""
    side = deal.side_of(seat)
    if not 0 <= number < len(deal.runs[side]):
        return Reason.NO_SUCH_MELD
    found = melds.addition_plans(deal.runs[side][number], marked)
    if isinstance(found, Reason):
        return found
    candidates: list[tuple[Meld, list[Action]]] = [
        (plan.meld, [AddToRun(seat, side, number, s.card, s.at, s.moved_to) for s in plan.steps]) for plan in found
    ]
    return _playable(deal, candidates, Reason.NOT_ADJACENT)


def _natural(card: Card, position: int) -> bool:
    """Can ``card`` stand in its own right at ``position`` of a run of its suit (14: the ace above the king)?"""
    return card.rank == (1 if position == 14 else position)


def _filled(suit: Suit, positions: range, marked: Sequence[Card], rest: Sequence[Card]) -> list[Card] | None:
    """The marked cards with, for each position of ``positions`` no marked card stands at in its own right, a
    card of the hand's rest that does; one gap at most, filled by a substitute of the rest if no marked one is;
    None where the hand cannot fill them."""
    if not all(card.may_be_wild or any(_natural(card, at) for at in positions) for card in marked):
        return None  # a marked card out of these places: not this run
    spare = list(rest)
    chosen = list(marked)
    gaps = 0
    for position in positions:
        if any(card.suit is suit and _natural(card, position) for card in marked):
            continue
        found = next((card for card in spare if card.suit is suit and _natural(card, position)), None)
        if found is None:
            gaps += 1
            continue
        spare.remove(found)
        chosen.append(found)
    if gaps > 1:
        return None
    if gaps and not any(card.may_be_wild for card in marked):
        wild = next((card for card in spare if card.may_be_wild), None)
        if wild is None:
            return None
        chosen.append(wild)
    return chosen


def may_grow(hand: Sequence[Card], marked: Sequence[Card], runs: Sequence[Meld]) -> bool:
    """Could marking more of the hand's cards make the marked ones a new run, or an addition to one of ``runs``
    (the pair's)? Then a hint that they make no move would come too early (issue 37): a run is built card by
    card. An estimate by the engine's own judgement of the cards the hand could add, not a search of them all."""
    suits = {card.suit for card in marked if not card.may_be_wild and card.suit is not None}
    if len(suits) > 1:
        return False  # RULES §17.4: one suit a run, whatever is added
    rest = list(hand)
    for card in marked:
        rest.remove(card)
    for suit in suits or {card.suit for card in hand if card.suit is not None}:
        for low in range(1, 13):
            for high in range(low + 2, min(low + 13, 14) + 1):
                chosen = _filled(suit, range(low, high + 1), marked, rest)
                if chosen is not None and not isinstance(melds.arrangements(chosen), Reason):
                    return True
        for run in runs:
            if run.suit is not suit:
                continue
            for low in range(1, run.low):
                chosen = _filled(suit, range(low, run.low), marked, rest)
                if chosen is not None and not isinstance(melds.addition_plans(run, chosen), Reason):
                    return True
            for high in range(run.high + 1, 15):
                chosen = _filled(suit, range(run.high + 1, high + 1), marked, rest)
                if chosen is not None and not isinstance(melds.addition_plans(run, chosen), Reason):
                    return True
    return False
