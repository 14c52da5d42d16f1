"""The easy computer player, and the habits it plays by: the hard player's model of the others and its playouts.

``EasyPlayer`` keeps trumps, beats cheaply when the trick is worth it, dumps low cards (face down where
allowed), and claims when the points it remembers reach the threshold. It remembers points as a player would:
the open cards of its side's pile it knows; face-down cards it captured it may not look at (RULES §6.7 strict
mode).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.bura.actions import Action, Claim, DeclareCombo, Lead, Pass, RespondFaceDown, RespondOpen
from engine.bura.cards import SHOKHA, Card, set_beats
from engine.bura.variant import Variant
from engine.bura.views import SeatView, current_best
from engine.core.cards import Suit

_BEATS: dict[tuple[tuple[Card, ...], tuple[Card, ...], Suit], bool] = {}


def set_beats_fast(played: tuple[Card, ...], best: tuple[Card, ...], trump: Suit, shokha: bool = False) -> bool:
    """``cards.set_beats``, remembered for sets of several cards (the playouts and the inference ask about the
    same few sets again and again; a set of k cards costs up to k! assignments). With the shokha [B08] it is
    ``set_beats`` itself."""
    if shokha:
        return set_beats(played, best, trump, True)
    if len(played) == 1:
        if len(best) != 1:
            return False
        x, y = played[0], best[0]
        return x.strength > y.strength if x.suit is y.suit else x.suit is trump
    key = (played, best, trump)
    hit = _BEATS.get(key)
    if hit is None:
        if len(_BEATS) > 200_000:
            _BEATS.clear()
        hit = _BEATS[key] = set_beats(played, best, trump)
    return hit


def remembered_points(view: SeatView) -> int:
    """The points of the side's pile that the seat knows (open cards and its own face-down ones)."""
    return sum(card.points for card in view.known_pile)


def threshold(variant: Variant, view: SeatView) -> int | None:
    """The claim threshold at the view's table (None: no claims)."""
    return variant.threshold(len(view.table.seats))


def card_cost(card: Card, trump: Suit, keep: int = 12, shokha: bool = False) -> int:
    """How much giving up a card hurts: trumps and point cards are worth keeping; the shokha [B08], which beats
    everything, most of all."""
    if shokha and card is SHOKHA:
        return keep + 20
    return card.points + (keep + card.strength if card.suit is trump else card.strength // 3)


@dataclass(frozen=True, slots=True)
class Habits:
    """How a heuristic player plays: the easy player's habits by default (see :class:`EasyPlayer`)."""

    spread: float = 0.5  # the bonus per card of a lead: several cheap cards at once empty the hand of junk
    cheap: int = 12  # beat whenever the cheapest beating set costs no more than this per card
    unseen: float = 0.0  # the points a claim counts for each face-down card of the pile the seat may not see
    gain: int = 10  # beat when the trick and the beating cards are worth this many points
    keep: int = 12  # what keeping a trump is worth beyond its strength (card_cost)


EASY = Habits()
# Sharper habits for the hard player's own side in its simulations. Played alone against the easy player they
# win about 57% of 2-player Бура deals (3,000 deals; the easy habits 50%): many-card leads make the other side
# answer with as many cards, so a hoarder gives up trumps face down; a claim counts face-down cards it captured.
SHARP = Habits(spread=8.0, cheap=10, unseen=1.5)


def easy_lead_key(cards: Sequence[Card], trump: Suit, spread: float = 0.5, shokha: bool = False) -> tuple[float, int]:
    """Lower leads first: cheap cards, several at once when they are all cheap (it empties the hand of junk)."""
    cost = sum(card_cost(card, trump, shokha=shokha) for card in cards)
    return (cost / len(cards) - spread * len(cards), cost)


def easy_answer(
    answers: Sequence[RespondOpen | RespondFaceDown],
    best: tuple[Card, ...],
    value: int,
    trump: Suit,
    cheap: int = 12,
    shokha: bool = False,
) -> RespondOpen | RespondFaceDown:
    """The easy player's answer: beat with the cheapest set when the trick is worth it or the set is cheap,
    else dump the cheapest cards, face down where allowed. ``value``: the points seen in the trick so far."""
    beating = [a for a in answers if isinstance(a, RespondOpen) and set_beats_fast(a.cards, best, trump, shokha)]

    def cost_of(answer: RespondOpen | RespondFaceDown) -> int:
        return sum(card_cost(card, trump, shokha=shokha) for card in answer.cards)

    if beating:
        cheapest = min(beating, key=cost_of)
        cost = cost_of(cheapest)
        gain = value + sum(card.points for card in cheapest.cards)
        if gain >= 10 or cost <= cheap * len(cheapest.cards):
            return cheapest
    pool = [a for a in answers if a not in beating] or list(answers)
    face_down = [a for a in pool if isinstance(a, RespondFaceDown)]
    return min(face_down or pool, key=cost_of)


class EasyPlayer:
    """A sensible heuristic player (issue: keeps trumps, beats cheaply, dumps zero-point cards face down)."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("no legal action")
        limit = threshold(self.variant, view)
        claim = next((a for a in legal if isinstance(a, Claim)), None)
        if claim is not None and limit is not None and remembered_points(view) >= limit:
            return claim
        declare = next((a for a in legal if isinstance(a, DeclareCombo)), None)
        if declare is not None:
            return declare  # seizing the lead is worth it more often than not
        leads = [a for a in legal if isinstance(a, Lead)]
        if leads:
            return min(leads, key=lambda lead: easy_lead_key(lead.cards, view.table.trump, shokha=view.table.shokha))
        answers = [a for a in legal if isinstance(a, RespondOpen | RespondFaceDown)]
        if answers:
            return self._answer(answers, view)
        return next((a for a in legal if isinstance(a, Pass)), legal[0])

    def _answer(self, answers: list[RespondOpen | RespondFaceDown], view: SeatView) -> Action:
        trick = view.table.trick
        assert trick is not None
        value = sum(card.points for card in trick.lead) + sum(c.points for p in trick.plays for c in p.cards)
        return easy_answer(answers, current_best(trick), value, view.table.trump, shokha=view.table.shokha)
