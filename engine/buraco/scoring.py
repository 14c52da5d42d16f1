"""A finished deal's score per pair, term by term (RULES §17.7; seed L47, L49)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.buraco.cards import value
from engine.buraco.events import SideScore

if TYPE_CHECKING:
    from engine.buraco.deal import Deal

GOING_OUT: int = 100
MORTO_PENALTY: int = 100
UNPLAYED_MORTO: int = 100


def score_deal(deal: Deal) -> tuple[SideScore, SideScore]:
    """Cards melded + each canastra's highest bonus + 100 for going out, less the cards left in hand and
    100 for a pair that took no morto when the other did (§17.7a-7). A morto taken by discarding and not yet
    played from counts 100 instead of its cards when the opponents go out (§17.7a-8)."""
    scores = []
    for side in (0, 1):
        other = 1 - side
        runs = deal.runs[side]
        in_hands = 0
        for seat in (side, side + 2):
            if deal.unplayed_morto[side] == seat and deal.closer == other:
                in_hands += UNPLAYED_MORTO
            else:
                in_hands += value(deal.hands[seat])
        penalty = MORTO_PENALTY if deal.morto_taken[side] is None and deal.morto_taken[other] is not None else 0
        scores.append(
            SideScore(
                melded=sum(meld.value for meld in runs),
                bonuses=sum(meld.bonus for meld in runs),
                going_out=GOING_OUT if deal.closer == side else 0,
                in_hands=in_hands,
                morto_penalty=penalty,
            )
        )
    return scores[0], scores[1]
