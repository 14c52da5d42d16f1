"""Two tiny computer policies for Очко, each a pure function of a ``SeatView`` (never of the match).

* ``easy``: a fixed threshold. Bets the minimum, hits below 17 and stands otherwise, never goes dark; as the
  banker stakes the minimum, knocks whenever he is asked and the bank holds ``knock_multiple`` × B₀, and draws
  by the same threshold within his draw rule [O07] (the legal actions already say what [O07] allows).
* ``odds``: hits while the chance that the next card busts the hand is below one half, that chance counted
  over the cards it has not seen (its own, the banker's, the marker and the hands shown this round are seen);
  otherwise as ``easy``.

Both answer an action from ``view.legal`` and nothing else: a policy cannot make an illegal move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.ochko.actions import Action, Bet, Deal, Hit, Knock, StakeBank, Stand
from engine.ochko.cards import Card, deck
from engine.ochko.hands import BLACKJACK, value
from engine.ochko.match import Phase
from engine.ochko.views import SeatView

THRESHOLD: Final = 17
RISK: Final = 0.5


def _pick(legal: Sequence[Action], kind: type[Action]) -> Action | None:
    return next((action for action in legal if isinstance(action, kind)), None)


def _own(view: SeatView) -> tuple[Card, ...]:
    """The hand the seat plays now: the banker's cards when he acts as banker, else his own seen cards."""
    if view.table.phase is Phase.BANKER:
        return view.table.banker_cards
    return view.seen


def _base(view: SeatView) -> Action | None:
    """What both policies do outside the hit-or-stand choice (None: that choice is to be made)."""
    legal = view.legal
    if not legal:
        return None
    first = legal[0]
    if isinstance(first, StakeBank | Bet):
        return first  # the minimum stake or bet: legal actions list amounts from the lowest
    if isinstance(first, Knock):
        table = view.table
        wants = table.bank >= table.options.knock_multiple * table.initial_stake
        return first if wants else _pick(legal, Deal)
    return None


def _threshold(view: SeatView, hit_below: int) -> Action:
    hit, stand = _pick(view.legal, Hit), _pick(view.legal, Stand)
    total = value(_own(view), view.table.options)
    if hit is not None and (total < hit_below or stand is None):
        return hit
    if stand is not None:
        return stand
    return view.legal[0]


def easy(view: SeatView) -> Action | None:
    """The fixed threshold policy; None when the seat has nothing to do."""
    decided = _base(view)
    if decided is not None or not view.legal:
        return decided
    return _threshold(view, THRESHOLD)


def bust_chance(view: SeatView) -> float:
    """The chance that one more card busts the hand, over the cards the seat has not seen."""
    table = view.table
    options = table.options
    seen = set(view.seen) | set(table.banker_cards)
    if table.marker is not None:
        seen.add(table.marker)
    for hand in table.shown:
        seen |= set(hand or ())
    unseen = [card for card in deck(options.pack) if card not in seen]
    if not unseen:
        return 1.0
    hand = _own(view)
    busts = sum(1 for card in unseen if value((*hand, card), options) > BLACKJACK)
    return busts / len(unseen)


def odds(view: SeatView) -> Action | None:
    """Hit while the bust chance is below ``RISK`` (and the hand is under 21); otherwise stand."""
    decided = _base(view)
    if decided is not None or not view.legal:
        return decided
    hit, stand = _pick(view.legal, Hit), _pick(view.legal, Stand)
    if hit is None or stand is None:
        return hit or stand or view.legal[0]
    if value(_own(view), view.table.options) >= BLACKJACK:
        return stand
    return hit if bust_chance(view) < RISK else stand


__all__ = ["bust_chance", "easy", "odds"]
