"""What a computer player's decision reads: one seat's position, built from its view or from a sampled world.

A real decision starts from ``SeatView`` alone (:meth:`Position.from_view`). The hard player's simulations play
inside worlds it has sampled itself from that view (engine.buraco.ai.worlds), so a position can also be read off
such a ``Deal`` (:meth:`Position.from_deal`): every card of it is the player's own guess, nothing is the real
deal's secret.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.buraco.actions import Action
from engine.buraco.cards import BY_INDEX, Card
from engine.buraco.deal import Deal, Phase
from engine.buraco.melds import Meld
from engine.buraco.views import SeatView


@dataclass(frozen=True, slots=True)
class Position:
    """One seat's turn as a player sees it."""

    seat: int
    phase: Phase
    hand: tuple[Card, ...]  # sorted; a draft's cards are not in it
    runs: tuple[Meld, ...]  # the runs this seat may add to: its pair's table runs, or its opening's draft
    drafting: bool  # the pair is vulnerable and has not opened (§17.5): its runs are a draft
    theirs: tuple[Meld, ...]  # the opponents' runs on the table
    pile: tuple[Card, ...]
    legal: tuple[Action, ...]
    morto_taken: tuple[bool, bool]
    mortos: int  # untouched mortos left
    stock: int
    forbidden: Card | None
    drawn: Card | None
    hand_sizes: tuple[int, int, int, int]
    seen: tuple[tuple[Card, ...], ...]  # per seat, cards known to be in that hand (taken with a pile)

    @property
    def side(self) -> int:
        return self.seat % 2

    @property
    def next_seat(self) -> int:
        return (self.seat + 1) % 4

    @property
    def draft_points(self) -> int:
        return sum(meld.value for meld in self.runs) if self.drafting else 0

    @property
    def has_morto(self) -> bool:
        return self.morto_taken[self.side]

    @property
    def clean_canastra(self) -> bool:
        return any(meld.clean_canastra for meld in self.runs)

    @staticmethod
    def from_view(view: SeatView) -> Position:
        table = view.table
        side = view.side
        drafting = table.vulnerable[side] and not table.opened[side]
        runs = view.draft if drafting else table.runs[side]
        return Position(
            seat=view.seat,
            phase=table.phase,
            hand=view.hand,
            runs=tuple(runs),
            drafting=drafting,
            theirs=table.runs[1 - side],
            pile=table.pile,
            legal=view.legal,
            morto_taken=table.morto_taken,
            mortos=table.mortos,
            stock=table.stock,
            forbidden=view.forbidden,
            drawn=view.drawn,
            hand_sizes=table.hand_sizes,
            seen=view.seen,
        )

    @staticmethod
    def from_deal(deal: Deal, seat: int) -> Position:
        """The position of ``seat`` in a world the player sampled (never the real deal: see the docstring)."""
        side = deal.side_of(seat)
        sizes = [len(hand) for hand in deal.hands]
        return Position(
            seat=seat,
            phase=deal.phase,
            hand=tuple(sorted(deal.hands[seat], key=BY_INDEX)),
            runs=tuple(deal.runs[side]),
            drafting=deal.drafting(side),
            theirs=tuple(deal.table_runs(1 - side)),
            pile=tuple(deal.pile),
            legal=tuple(deal.legal_actions(seat)),
            morto_taken=(deal.morto_taken[0] is not None, deal.morto_taken[1] is not None),
            mortos=len(deal.mortos),
            stock=len(deal.stock),
            forbidden=deal.forbidden if seat == deal.turn else None,
            drawn=deal.drawn if seat == deal.turn else None,
            hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3]),
            seen=((), (), (), ()),
        )
