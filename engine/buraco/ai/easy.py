"""The easy computer player: sensible greedy Buraco from what its seat sees.

Each call returns one atomic action; the plan behind it is worked out afresh from the position, so the
player needs no memory between calls (the bot asks again after every move):

* the deal's first card (RULES §17.3): kept when it joins the hand (a substitute, or a card of a suit within
  two places of one held), else refused;
* the draw: the whole pile (there are no conditions on taking it, §17.3) when it lets the turn lay more cards
  and the hand is worth ``Habits.pile`` more with it, else the stock;
* melding (engine.buraco.ai.plan): naturals onto the pair's runs, new clean runs, substitutes only where they
  bring naturals along, and never a hand left where the turn could not end;
* a vulnerable pair's opening (§17.5): laid only when the whole plan reaches 75 this turn; a draft that is not
  the start of that plan is taken back (and then the plan is laid, or nothing), so lay and take back cannot
  alternate for ever;
* the discard: the card the hand needs least and the next player, an opponent, can use least (an end of his
  pair's runs, a substitute, a neighbour of a card he took with the pile);
* going out (§17.6) whenever the plan can: its last card is discarded once the pair has its morto and a clean
  canastra.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.buraco.actions import Action, CancelDraft, Discard, DrawStock, KeepDrawn, RejectDrawn, TakePile
from engine.buraco.cards import ACE, Card
from engine.buraco.deal import OPENING_MINIMUM, Phase
from engine.buraco.melds import CANASTRA, HIGH, Meld, add, additions, arrange
from engine.buraco.views import SeatView

from .plan import Ending, Grow, Lay, Plan, count, ending, fit, plan, shape, to_action, worth
from .position import Position


@dataclass(frozen=True, slots=True)
class Habits:
    """How the heuristic plays; the easy player's habits by default."""

    wild_gain: int = 2  # a substitute is used only with this many naturals along
    pile: float = 12.0  # take the pile when it is worth this much more than the hand alone
    late: int = 10  # a stock this small (and no morto left to renew it) is the deal's end game
    go_out: bool = True  # go out whenever the plan can (the hard player weighs it instead)


EASY = Habits()


class EasyPlayer:
    """A sensible greedy player (issue #14): lays what it can, takes a useful pile, discards safely."""

    def __init__(self, habits: Habits = EASY) -> None:
        self.habits = habits

    def choose(self, view: SeatView) -> Action:
        return decide(Position.from_view(view), self.habits)


def decide(pos: Position, habits: Habits = EASY) -> Action:
    """The easy player's action for ``pos`` (also the hard player's model of everyone in its simulations)."""
    legal = pos.legal
    if not legal:
        raise ValueError("no legal action")
    if len(legal) == 1:
        return legal[0]
    if pos.phase is Phase.FIRST_CHOICE:
        return _first_card(pos)
    if pos.phase is Phase.DRAW:
        take = next((a for a in legal if isinstance(a, TakePile)), None)
        if take is not None and pile_gain(pos, habits) >= habits.pile:
            return take
        return next(a for a in legal if isinstance(a, DrawStock))
    return meld_or_discard(pos, habits)


def _first_card(pos: Position) -> Action:
    card = pos.drawn
    seat = pos.seat
    if card is None or card.may_be_wild or card.suit is None:
        return KeepDrawn(seat)
    others = list(pos.hand)
    others.remove(card)
    if any(_near(card, other) <= 2 for other in others):
        return KeepDrawn(seat)
    return RejectDrawn(seat)


def _near(card: Card, other: Card) -> int:
    """How many places apart two naturals of one suit are (99: another suit or a substitute)."""
    if other.suit is not card.suit or other.may_be_wild or card.may_be_wild:
        return 99
    a, b = card.rank, other.rank
    gap = abs(a - b)
    if ACE in (a, b):
        gap = min(gap, abs((HIGH if a == ACE else a) - (HIGH if b == ACE else b)))
    return gap


# -- the draw ------------------------------------------------------------------------------------------------


def late(pos: Position, habits: Habits = EASY) -> bool:
    return pos.mortos == 0 and pos.stock <= habits.late


def dirty_ok(pos: Position, habits: Habits = EASY) -> bool:
    """A substitute may make a run of six a canastra once the pair has a clean one (the key to going out,
    §17.6), or in the end game, when there is no time left to find the natural card."""
    return pos.clean_canastra or late(pos, habits)


def potential(cards: Sequence[Card], pos: Position, habits: Habits = EASY) -> float:
    """What ``cards`` are worth to ``pos``'s pair as a hand to meld from now."""
    return hand_worth(cards, pos.runs, pos.drafting, dirty_ok(pos, habits), habits.wild_gain)


def hand_worth(cards: Sequence[Card], runs: Sequence[Meld], drafting: bool, dirty: bool, wild_gain: int = 2) -> float:
    """What ``cards`` are worth as a hand to meld from now, beside the pair's ``runs`` (its draft if
    ``drafting``)."""
    if drafting:
        cards = [*cards, *(card for meld in runs for card in meld.cards)]
        runs = ()
    result = plan(cards, runs, wild_gain=wild_gain, dirty_canastra=dirty)
    if drafting and result.laid < OPENING_MINIMUM:
        # §17.5: below 75 nothing may be laid; the runs only promise an opening later
        return 0.4 * result.laid + shape(cards, [])
    return worth(result, runs)


def pile_gain(pos: Position, habits: Habits = EASY) -> float:
    """How much more the hand is worth with the pile; nothing unless the pile lets it lay more cards this turn
    (so that every pile taken moves the deal on: a pile passed round unused could go on for ever)."""
    if not lays_more(pos, habits):
        return float("-inf")
    hand = pos.hand
    return potential([*hand, *pos.pile], pos, habits) - potential(hand, pos, habits)


def lays_more(pos: Position, habits: Habits = EASY) -> bool:
    """Whether the pile lets this turn's plan lay more cards than the hand alone."""
    end = ending(pos.has_morto, pos.mortos, None)
    dirty = dirty_ok(pos, habits)
    hand: list[Card] = list(pos.hand)
    runs: Sequence[Meld] = pos.runs
    if pos.drafting:
        hand += [card for meld in pos.runs for card in meld.cards]
        runs = ()
    with_pile = fit([*hand, *pos.pile], runs, end, wild_gain=habits.wild_gain, dirty_canastra=dirty)
    if pos.drafting and with_pile.laid < OPENING_MINIMUM:
        return False
    alone = fit(hand, runs, end, wild_gain=habits.wild_gain, dirty_canastra=dirty)
    return with_pile.placed > alone.placed


# -- melding and the discard -----------------------------------------------------------------------------------


def turn_plan(pos: Position, habits: Habits = EASY, go_out: bool | None = None) -> Plan:
    """The plan for the rest of the turn, kept legal to the end (:func:`engine.buraco.ai.plan.fit`)."""
    end = ending(pos.has_morto, pos.mortos, pos.forbidden)
    if go_out is False and end.one is None:
        end = Ending(empty=False, one=False, forbidden=end.forbidden)  # keep two: one to discard, one to hold
    hand: Sequence[Card] = pos.hand
    runs: Sequence[Meld] = pos.runs
    if pos.drafting:
        hand = [*pos.hand, *(card for meld in pos.runs for card in meld.cards)]
        runs = ()
    return fit(hand, runs, end, wild_gain=habits.wild_gain, dirty_canastra=dirty_ok(pos, habits))


def meld_or_discard(pos: Position, habits: Habits = EASY, go_out: bool | None = None) -> Action:
    legal = set(pos.legal)
    chosen = turn_plan(pos, habits, habits.go_out if go_out is None else go_out)
    if pos.drafting:
        step = _opening_step(pos, chosen)
        if step is not None and step in legal:
            return step
        if pos.runs and pos.draft_points < OPENING_MINIMUM:
            return CancelDraft(pos.seat)
    else:
        for move in chosen.moves:
            action = to_action(move, pos.seat)
            if action in legal:
                return action
    return best_discard(pos, chosen.left)


def _opening_step(pos: Position, chosen: Plan) -> Action | None:
    """The next move of a vulnerable pair's opening (§17.5): the plan is made from the hand and the draft
    together, so it is the same plan at every step of the turn; the draft must be a start of it."""
    if chosen.laid < OPENING_MINIMUM or not _valid(chosen, [*pos.hand, *(c for m in pos.runs for c in m.cards)]):
        return None
    laid: list[Meld] = []
    target = list(pos.runs)
    for move in chosen.moves:
        if laid == target:
            return to_action(move, pos.seat)
        if isinstance(move, Lay):
            meld = arrange(move.suit, move.low, move.laid)
            assert isinstance(meld, Meld)
            laid.append(meld)
        else:
            laid[move.run] = add(laid[move.run], move.step)
    return None  # all laid (then discard) or a draft that is not this plan's (then take it back)


def _valid(chosen: Plan, hand: Sequence[Card]) -> bool:
    """Every move of an opening plan is a legal run or addition by the rules of melds (§17.4), so that laying
    it cannot stop half way for a reason the plan did not see."""
    counts = count(hand)
    laid: list[Meld] = []
    for move in chosen.moves:
        if isinstance(move, Lay):
            meld = arrange(move.suit, move.low, move.laid)
            need = count(move.laid)
            if not isinstance(meld, Meld) or any(counts.get(c, 0) < n for c, n in need.items()):
                return False
            for card in move.laid:
                counts[card] -= 1
            laid.append(meld)
        else:
            assert isinstance(move, Grow)
            if move.run >= len(laid) or move.step not in additions(laid[move.run], counts):
                return False
            counts[move.step.card] -= 1
            laid[move.run] = add(laid[move.run], move.step)
    return True


def best_discard(pos: Position, left: Sequence[Card] = ()) -> Action:
    discards = [a for a in pos.legal if isinstance(a, Discard)]
    if not discards:
        return pos.legal[0]  # nothing to discard: the engine's guard leaves a meld to make
    hand = list(pos.hand)
    return min(discards, key=lambda a: (discard_cost(a.card, hand, pos), a.card.index))


def discard_cost(card: Card, hand: Sequence[Card], pos: Position) -> float:
    """How much discarding ``card`` hurts: what the hand loses plus what the next player may gain."""
    others = list(hand)
    others.remove(card)
    return keep_value(card, others, pos.runs) + feed(card, pos) - 0.05 * card.value


def keep_value(card: Card, others: Sequence[Card], runs: Sequence[Meld]) -> float:
    if card.may_be_wild or card.suit is None:
        return 40.0
    value = 0.0
    near = {(_near(card, other), other) for other in others if other is not card}
    for gap, _ in near:
        if gap == 1:
            value += 10.0
        elif gap == 2:
            value += 5.0
    for meld in runs:
        if meld.suit is not card.suit:
            continue
        for position in _positions(card):
            if position in (meld.low - 1, meld.high + 1) or position == meld.wild_at:
                value += 30.0
            elif position in (meld.low - 2, meld.high + 2):
                value += 5.0
    return value


def feed(card: Card, pos: Position) -> float:
    """What ``card`` on the pile offers the next player (always an opponent): an end of his pair's runs, the
    place of one of their substitutes, a neighbour of the cards he is known to hold."""
    if card.may_be_wild or card.suit is None:
        return 30.0
    danger = 0.0
    for meld in pos.theirs:
        if meld.suit is not card.suit:
            continue
        for position in _positions(card):
            if position in (meld.low - 1, meld.high + 1) and len(meld.cards) < HIGH:
                danger += 25.0
                if meld.clean and len(meld.cards) == CANASTRA - 1:
                    danger += 40.0  # it would make their clean canastra
            elif position == meld.wild_at:
                danger += 15.0
            elif position in (meld.low - 2, meld.high + 2):
                danger += 3.0
    for other in pos.seen[pos.next_seat]:
        gap = _near(card, other)
        danger += 8.0 if gap == 1 else 4.0 if gap == 2 else 0.0
    return danger


def _positions(card: Card) -> tuple[int, ...]:
    return (1, HIGH) if card.rank == ACE else (card.rank,)
