"""Exact search of the rest of a deal with every card known: the hard player's endgame, once the stock is empty.

:func:`solve` is a minimax over the :class:`~engine.bura.ai.sim.Sim` moves with alpha-beta pruning: the seats of
``side`` play for its result (``Sim.value``), every other seat against it (a 3-player table is searched as two
against one, the usual paranoid reduction). A world sampled from a seat's view is such a deal; the hard player
averages a move's exact value over the worlds it samples (perfect-information Monte Carlo, as bridge and Skat
programs play their endgames).

The search is kept small without changing its value:

* equivalent cards: two cards of one hand, of one suit and the same points, with no card between them left in
  any hand, do the same in every trick (RULES §6.3 compares strength only within a suit and against trumps), so
  only one of them is tried;
* an answer that cannot beat does the same face up or face down once every card is known (a claim is judged on
  the true pile here), so only one of the two is tried;
* positions at the start of a trick are remembered (a transposition table).

The work is counted in nodes; :class:`Exhausted` is raised when ``limit`` is spent, and the caller falls back
to playouts.
"""

from __future__ import annotations

import math
import random

from engine.bura.cards import BY_INDEX, Card

from .easy import set_beats_fast
from .playout import habit_move
from .sim import DOWN, LEAD_PHASE, OPEN, OVER_PHASE, RESPOND_PHASE, Move, Sim

_NO_DICE = random.Random(0)  # the habit move with no random moves never rolls it


class Exhausted(Exception):
    """The node budget ran out before the search finished."""


def _representatives(hand: list[Card], in_play: set[Card]) -> dict[Card, Card]:
    """Each card of ``hand`` mapped to the lowest card of the hand it is equivalent to (see the module docstring):
    the same suit and points, and no card of that suit between them still in play."""
    rep: dict[Card, Card] = {}
    previous: Card | None = None
    for card in hand:  # sorted suit by suit, weakest first
        if (
            previous is not None
            and previous.suit is card.suit
            and previous.points == card.points
            and not any(
                other.suit is card.suit and previous.strength < other.strength < card.strength for other in in_play
            )
        ):
            rep[card] = rep[previous]
        else:
            rep[card] = card
        previous = card
    return rep


def moves(sim: Sim) -> list[Move]:
    """The moves of the seat to act that the search tries (see the module docstring), in the order of the legal
    ones."""
    legal = sim.legal()
    if len(legal) <= 1:
        return legal
    seat = sim.to_act()
    in_play = {card for hand in sim.hands.values() for card in hand}
    in_play.update(sim.lead)
    for _seat, played, _down in sim.plays:
        in_play.update(played)
    rep = _representatives(sim.hands[seat], in_play)
    kept: list[Move] = []
    seen: set[tuple[int, tuple[Card, ...]]] = set()
    best = sim.best
    trump = sim.trump
    responding = sim.phase == RESPOND_PHASE
    full = len(sim.lead) if responding else 0
    for move in legal:
        kind, cards = move
        if responding and not (kind == OPEN and len(cards) == full and set_beats_fast(cards, best, trump)):
            kind = DOWN  # the same cards, open or face down, that do not beat: one is enough
        key = (kind, tuple(sorted((rep.get(card, card) for card in cards), key=BY_INDEX)))
        if key in seen:
            continue
        seen.add(key)
        kept.append(move)
    return kept


def solve(sim: Sim, side: int, limit: int = 20000) -> float:
    """The value of ``sim`` for ``side`` under best play by everyone (see the module docstring)."""
    search = _Search(side, limit)
    return search.value(sim, -math.inf, math.inf)


class _Search:
    def __init__(self, side: int, limit: int) -> None:
        self.side = side
        self.left = limit
        self.table: dict[tuple[object, ...], tuple[float, int]] = {}

    def value(self, sim: Sim, alpha: float, beta: float) -> float:
        if sim.phase == OVER_PHASE:
            return sim.value(self.side)
        self.left -= 1
        if self.left < 0:
            raise Exhausted
        key: tuple[object, ...] | None = None
        if sim.phase == LEAD_PHASE:
            key = (
                sim.leader,
                sim.rightful,
                sim.forced,
                tuple(tuple(sim.hands[seat]) for seat in sim.seats),
                tuple(sim.points),
                tuple(sim.stock),
            )
            hit = self.table.get(key)
            if hit is not None:
                stored, bound = hit
                if bound == 0 or (bound > 0 and stored >= beta) or (bound < 0 and stored <= alpha):
                    return stored
        maximizing = sim.side_of[sim.to_act()] == self.side
        start_alpha, start_beta = alpha, beta
        best = -math.inf if maximizing else math.inf
        options = moves(sim)
        if len(options) > 2:
            first = habit_move(sim, _NO_DICE, 0.0)
            if first in options:
                options.remove(first)
                options.insert(0, first)
        for move in options:
            child = sim.copy()
            child.apply(move)
            score = self.value(child, alpha, beta)
            if maximizing:
                if score > best:
                    best = score
                alpha = max(alpha, score)
            else:
                if score < best:
                    best = score
                beta = min(beta, score)
            if alpha >= beta:
                break
        if key is not None:
            if best <= start_alpha:
                self.table[key] = (best, -1)  # an upper bound
            elif best >= start_beta:
                self.table[key] = (best, 1)  # a lower bound
            else:
                self.table[key] = (best, 0)
        return best
