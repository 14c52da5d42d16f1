"""The hard computer player: the easy player's melding, with the draw, the discard and going out weighed
over worlds sampled from what the seat sees.

* **The draw.** The pile (RULES §17.3: the whole of it, no conditions) against a card from the stock: what the
  hand is worth with the pile, against its mean worth with each world's top stock card less what the next player
  is expected to make of the pile left to him (a pile taken is a pile denied). A pile is taken only if it lets
  the turn lay more cards or holds two cards at least, so a deal always moves on: a lone card taken and given
  on unused could go round for ever.
* **The discard.** The few discards the easy player likes best, each weighed by what the hand loses and by
  what the next player, in each world, would gain by taking the pile with it.
* **Going out** (§17.6). Only when the pair then wins the deal on the expected count (the hidden hands at the
  average unseen card): behind, it keeps two cards and plays on.
* **First card** (§17.3). Kept when the hand is worth more with it than with a card from the stock, less the
  pile of one it would give the next player.

Every decision reads the seat's view alone. The worlds come from a ``random.Random`` seeded by the
:class:`Budget`'s seed and the view itself, so the same view always gives the same decision, whatever was
asked before; the work is a number of worlds and candidates, never a time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.buraco.actions import Action, Discard, DrawStock, KeepDrawn, RejectDrawn, TakePile
from engine.buraco.cards import Card, codes
from engine.buraco.deal import Phase
from engine.buraco.scoring import GOING_OUT, MORTO_PENALTY
from engine.buraco.views import SeatView

from .easy import EASY, Habits, dirty_ok, discard_cost, keep_value, lays_more, meld_or_discard, potential, turn_plan
from .position import Position
from .search import draw_worth, hand_values, pile_threat, threat
from .worlds import World, sample, unseen


@dataclass(frozen=True, slots=True)
class Budget:
    """The hard player's work per decision, in iterations: sampled ``worlds``, and the ``discards`` weighed in
    each; ``seed`` seeds the sampling (with the view, so a decision is reproducible)."""

    worlds: int = 12
    discards: int = 6
    seed: int | str = 0


class HardPlayer:
    """Determinized look-ahead over sampled worlds (see the module docstring)."""

    def __init__(self, budget: Budget | None = None, habits: Habits = EASY, deny: float = 2.0) -> None:
        """``deny``: how much a point the next player gains from the pile counts against a decision. Against
        the easy player (400 duplicate deals, BENCHMARKS.md) 0 lost (47% of deals), 1 won 77%, 1.5 to 3 about
        80%: what a discard gives away matters twice as much as what the hand keeps."""
        self.budget = budget or Budget()
        self.habits = habits
        self.deny = deny

    def choose(self, view: SeatView) -> Action:
        pos = Position.from_view(view)
        legal = pos.legal
        if not legal:
            raise ValueError("no legal action")
        if len(legal) == 1:
            return legal[0]
        rng = random.Random(f"{self.budget.seed}/{_key(view)}")
        if pos.phase is Phase.FIRST_CHOICE:
            return self._first_card(view, pos, rng)
        if pos.phase is Phase.DRAW:
            return self._draw(view, pos, rng)
        go_out = self._go_out(view, pos)
        action = meld_or_discard(pos, self.habits, go_out)
        if not isinstance(action, Discard):
            return action
        return self._discard(view, pos, rng)

    # -- the decisions ----------------------------------------------------------------------------------------

    def _worlds(self, view: SeatView, rng: random.Random) -> list[World]:
        hidden = unseen(view)
        return [sample(view, hidden, rng) for _ in range(self.budget.worlds)]

    def _their_threat(self, view: SeatView, pos: Position, worlds: list[World], pile: list[Card]) -> float:
        table = view.table
        other = 1 - pos.side
        drafting = table.vulnerable[other] and not table.opened[other]
        dirty = any(meld.clean_canastra for meld in pos.theirs)
        return pile_threat(pile, worlds, pos.next_seat, pos.theirs, drafting, dirty)

    def _first_card(self, view: SeatView, pos: Position, rng: random.Random) -> Action:
        card = pos.drawn
        assert card is not None
        worlds = self._worlds(view, rng)
        others = list(pos.hand)
        others.remove(card)
        dirty = dirty_ok(pos, self.habits)
        keep = potential(pos.hand, pos, self.habits)
        # refused, the card goes face up on the pile and the next stock card comes instead (§17.3, §17.7a-3)
        instead = draw_worth(others, worlds, pos.runs, pos.drafting, dirty)
        instead -= self.deny * self._their_threat(view, pos, worlds, [card])
        return KeepDrawn(pos.seat) if keep >= instead else RejectDrawn(pos.seat)

    def _draw(self, view: SeatView, pos: Position, rng: random.Random) -> Action:
        take = next((a for a in pos.legal if isinstance(a, TakePile)), None)
        draw = next(a for a in pos.legal if isinstance(a, DrawStock))
        if take is None or (len(pos.pile) < 2 and not lays_more(pos, self.habits)):
            return draw
        worlds = self._worlds(view, rng)
        dirty = dirty_ok(pos, self.habits)
        with_pile = potential([*pos.hand, *pos.pile], pos, self.habits)
        drawn = draw_worth(pos.hand, worlds, pos.runs, pos.drafting, dirty)
        drawn -= self.deny * self._their_threat(view, pos, worlds, list(pos.pile))
        return take if with_pile > drawn else draw

    def _go_out(self, view: SeatView, pos: Position) -> bool:
        """Go out (§17.6) only when the pair then wins the deal on the expected count (§17.7)."""
        if not pos.has_morto:
            return True  # nothing to decide: a last card discarded takes the morto (indireta)
        chosen = turn_plan(pos, self.habits, go_out=True)
        if len(chosen.left) != 1 or not any(meld.clean_canastra for meld in chosen.melds):
            return True  # the plan cannot go out this turn anyway
        table = view.table
        side = pos.side
        values = hand_values(unseen(view), view.seen)
        ours = sum(m.value + m.bonus for m in chosen.melds) + GOING_OUT - values[(pos.seat + 2) % 4]
        theirs: float = sum(m.value + m.bonus for m in table.runs[1 - side])
        theirs -= values[(pos.seat + 1) % 4] + values[(pos.seat + 3) % 4]
        if not table.morto_taken[1 - side]:
            theirs -= MORTO_PENALTY  # §17.7a-7: we took one, they did not
        return ours > theirs

    def _discard(self, view: SeatView, pos: Position, rng: random.Random) -> Action:
        discards = {a.card: a for a in pos.legal if isinstance(a, Discard)}
        hand = list(pos.hand)
        ranked = sorted(discards, key=lambda card: (discard_cost(card, hand, pos), card.index))
        candidates = ranked[: self.budget.discards]
        if len(candidates) == 1:
            return discards[candidates[0]]
        worlds = self._worlds(view, rng)
        table = view.table
        other = 1 - pos.side
        drafting = table.vulnerable[other] and not table.opened[other]
        dirty = any(meld.clean_canastra for meld in pos.theirs)
        danger = threat(candidates, pos.pile, worlds, pos.next_seat, pos.theirs, drafting, dirty)
        costs = []
        for card, risk in zip(candidates, danger, strict=True):
            others = list(hand)
            others.remove(card)
            costs.append((keep_value(card, others, pos.runs) + self.deny * risk - 0.05 * card.value, card.index))
        best = min(range(len(candidates)), key=lambda i: costs[i])
        return discards[candidates[best]]


def _key(view: SeatView) -> str:
    """What the decision depends on, as text: the view's cards and counts (never anything hidden)."""
    table = view.table
    runs = "|".join(codes(meld.cards) for side in table.runs for meld in side)
    draft = "|".join(codes(meld.cards) for meld in view.draft)
    seen = "|".join(codes(cards) for cards in view.seen)
    return (
        f"{table.deal_number}/{view.seat}/{table.phase.value}/{codes(view.hand)}/{codes(table.pile)}/{runs}/"
        f"{draft}/{table.hand_sizes}/{table.stock}/{table.mortos}/{seen}"
    )
