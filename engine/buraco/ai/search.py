"""The hard player's look-ahead: each candidate decision weighed over sampled worlds.

A world (engine.buraco.ai.worlds) deals the cards the seat cannot see; in it the next player, an opponent,
holds a known hand, and what he would make of the pile (the whole pile, RULES §17.3) is the plan a sensible
player would make of it (engine.buraco.ai.plan). The functions here average that over the worlds:

* :func:`threat`: how much each candidate discard lets the next player gain by taking the pile with it, beyond
  what a card from the stock would bring him;
* :func:`draw_worth`: what the hand is worth after a card from the stock, the card being each world's top;
* :func:`hand_values`: what the hidden hands are expected to lose at the end (for going out).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.buraco.cards import Card
from engine.buraco.melds import Meld

from .easy import hand_worth
from .worlds import Unseen, World

DRAW_WORTH: float = 6.0  # what a card from the stock is worth to a hand, about, against the pile


def threat(
    candidates: Sequence[Card],
    pile: Sequence[Card],
    worlds: Sequence[World],
    seat: int,
    runs: Sequence[Meld],
    drafting: bool,
    dirty: bool,
) -> list[float]:
    """Per candidate, the mean over ``worlds`` of what ``seat`` (the next player) would gain by taking the pile
    with that card on top: nothing when he would rather draw."""
    totals = [0.0] * len(candidates)
    for world in worlds:
        hand = world.hands[seat]
        alone = hand_worth(hand, runs, drafting, dirty)
        for index, card in enumerate(candidates):
            gain = hand_worth([*hand, *pile, card], runs, drafting, dirty) - alone - DRAW_WORTH
            if gain > 0:
                totals[index] += gain
    return [total / len(worlds) for total in totals] if worlds else totals


def pile_threat(
    pile: Sequence[Card], worlds: Sequence[World], seat: int, runs: Sequence[Meld], drafting: bool, dirty: bool
) -> float:
    """The mean gain of ``seat`` taking ``pile`` as it is (the card to come on top not counted)."""
    total = 0.0
    for world in worlds:
        hand = world.hands[seat]
        gain = hand_worth([*hand, *pile], runs, drafting, dirty) - hand_worth(hand, runs, drafting, dirty)
        total += max(0.0, gain - DRAW_WORTH)
    return total / len(worlds) if worlds else 0.0


def draw_worth(
    hand: Sequence[Card], worlds: Sequence[World], runs: Sequence[Meld], drafting: bool, dirty: bool
) -> float:
    """The mean worth of ``hand`` with the card a draw gives in each world: the stock's top, or with the stock
    empty the first card of the morto that the draw makes the stock (RULES §17.7a-15)."""
    total = 0.0
    counted = 0
    for world in worlds:
        top = world.stock[-1] if world.stock else world.mortos[0][0] if world.mortos else None
        if top is not None:
            total += hand_worth([*hand, top], runs, drafting, dirty)
            counted += 1
    return total / counted if counted else hand_worth(hand, runs, drafting, dirty)


def hand_values(hidden: Unseen, seen: Sequence[Sequence[Card]]) -> list[float]:
    """Per seat, the expected value of the cards in that hand (the seat's own counts 0 here: it knows it):
    the cards seen going in, and the average unseen card for the rest (RULES §17.7)."""
    mean = hidden.mean_value
    return [
        0.0 if seat == hidden.seat else sum(card.value for card in seen[seat]) + mean * hidden.hidden[seat]
        for seat in range(4)
    ]
