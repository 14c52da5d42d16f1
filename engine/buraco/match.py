"""A match of Buraco Aberto: deals until a pair has 3,000, the higher total winning (RULES §17.7).

``Match`` is what the bot stores: ``to_json`` keeps the seed and the action log; ``from_json`` replays them
and gives the same state. Each deal is shuffled by its own ``random.Random`` derived from the seed and the
deal's number, so replay needs no saved random state.

A match stored before RULES §17.7a-15 moved the stock's renewal from the discard to the draw has no
``"stock_renewal"`` key: it replays with the old timing (``renew_at_discard``), which its log was played under;
a log may diverge from the new timing (the player after the last stock card takes the pile and his pair takes
a morto that had become the stock), so it is never replayed under it.

A match made with a :class:`~engine.core.fair.FairShuffle` (issue 38, docs/fairness.md) deals instead by the
verifiable shuffle: deal k (``deal_number`` k - 1 while it is played) is shuffled from the server seed s_k and the
players' seeds, and the first dealer is drawn from deal 1's stream. ``to_json`` keeps the shuffle under
``"fair"`` (it holds the master secret: never show it); a stored match without it replays by its seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.buraco.actions import Action, AddToRun, CancelDraft, NewRun, action_from_json, action_to_json
from engine.buraco.cards import BY_INDEX, codes, deck
from engine.buraco.deal import SEATING, Deal
from engine.buraco.errors import IllegalAction, Reason
from engine.buraco.events import (
    DealScored,
    DealStarted,
    Discarded,
    Drew,
    Event,
    MatchEnded,
    MortoTaken,
    Rejected,
    SideScore,
    StockRenewed,
    TookPile,
)
from engine.core.fair import DealWitness, FairShuffle, codes_of, export
from engine.core.shuffle import shuffle

TARGET: int = 3000  # §17.7: a match to 3,000
VULNERABLE_FROM: int = 1500  # §17.5: from 1,500 a pair's first melds must make 75


class Match:
    """The whole state of a table's Buraco game. Mutable; :meth:`apply` checks before it changes anything."""

    players = 4
    seating = SEATING

    def __init__(
        self,
        seed: int | str,
        shuffler: Callable[[int], random.Random] | None = None,
        first_dealer: int | None = None,
        target: int = TARGET,
        *,
        renew_at_discard: bool = False,
        fair: FairShuffle | None = None,
    ) -> None:
        """``shuffler(deal_number)`` and ``first_dealer`` override the seed (stacked decks in tests);
        ``renew_at_discard`` is the old timing of the stock's renewal, for matches stored before §17.7a-15;
        ``fair`` deals and draws the first dealer by the verifiable shuffle instead (docs/fairness.md)."""
        self.seed = seed
        self.fair = fair
        self.target = target
        self.renew_at_discard = renew_at_discard
        self.actions: list[Action] = []
        self.totals = [0, 0]
        self.history: list[tuple[SideScore, SideScore]] = []
        self.finished = False
        self.winner: int | None = None
        self.deal_number = 0
        if fair is not None:
            if len(fair.player_seeds) != 4:
                raise ValueError("the fair shuffle needs one player's seed per seat")
            shuffler = shuffler or (lambda number: fair.rng(number + 1))  # fair deals are numbered from 1
            if first_dealer is None:
                first_dealer = fair.first_dealer(4)
        self.shuffler = shuffler or (lambda number: random.Random(f"{seed}/{number}"))
        if first_dealer is None:
            first_dealer = random.Random(f"{seed}/dealer").randrange(4)  # §17.2: the first dealer at random
        self.dealer = first_dealer
        self.deal = self._new_deal()
        self.start_events: list[Event] = [self._started()]
        self.reading: object | None = None
        """What engine.buraco.turns has read of the current deal so far (a memo: never part of the state)."""

    @property
    def fair_deal(self) -> int:
        """The fair number k of the deal on the table: its commitment is ``fair.commitment(k)``, its seed
        ``fair.seed(k)`` once it is over."""
        return self.deal_number + 1 if not self.finished else self.deal_number

    def _new_deal(self) -> Deal:
        order = deck()
        shuffle(order, self.shuffler(self.deal_number))
        # §17.5: vulnerability is fixed before the deal, from the totals so far.
        vulnerable = (self.totals[0] >= VULNERABLE_FROM, self.totals[1] >= VULNERABLE_FROM)
        return Deal(self.dealer, order, vulnerable, renew_at_discard=self.renew_at_discard)

    def _started(self) -> DealStarted:
        return DealStarted(self.deal_number + 1, self.dealer, self.deal.first, self.deal.vulnerable)

    # -- moves ------------------------------------------------------------------------------------------

    def side_of(self, seat: int) -> int:
        return SEATING.side[seat]

    def to_act(self) -> int | None:
        return None if self.finished else self.deal.to_act()

    def legal_actions(self, seat: int) -> list[Action]:
        return [] if self.finished else self.deal.legal_actions(seat)

    def diagnose(self, action: Action) -> Reason:
        if self.finished:
            return Reason.MATCH_OVER
        return self.deal.diagnose(action)

    def apply(self, action: Action) -> list[Event]:
        """Play ``action``; a finished deal is scored and the next one dealt at once."""
        if self.finished:
            raise IllegalAction(Reason.MATCH_OVER)
        events = self.deal.apply(action)
        self.actions.append(action)
        if self.deal.over:
            events.extend(self._after_deal())
        return events

    def _after_deal(self) -> list[Event]:
        scores = self.deal.scores
        assert scores is not None
        self.history.append(scores)
        for side in (0, 1):
            self.totals[side] += scores[side].total
        self.deal_number += 1
        totals = (self.totals[0], self.totals[1])
        events: list[Event] = [DealScored(self.deal_number, self.deal.closer, scores, totals)]
        # §17.7: once a pair has 3,000 the higher total wins; equal totals play another deal.
        if max(totals) >= self.target and totals[0] != totals[1]:
            self.finished = True
            self.winner = 0 if totals[0] > totals[1] else 1
            events.append(MatchEnded(self.winner, totals))
            return events
        self.dealer = SEATING.next_seat(self.dealer)  # §17.1: the deal passes clockwise
        self.deal = self._new_deal()
        events.append(self._started())
        return events

    # -- persistence ------------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Seed (+ the fair shuffle) + action log: everything needed to rebuild this exact state."""
        data: dict[str, Any] = {
            "game": "buraco",
            "seed": self.seed,
            "target": self.target,
            "stock_renewal": "discard" if self.renew_at_discard else "draw",
            "actions": [action_to_json(action) for action in self.actions],
        }
        if self.fair is not None:
            data["fair"] = self.fair.to_json()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        """Replay a match from :meth:`to_json`; every action is checked again on the way. Without
        ``"stock_renewal"`` (stored before §17.7a-15) the stock is renewed at the discard, as it was played."""
        timing = data.get("stock_renewal", "discard")
        if timing not in ("draw", "discard"):
            raise ValueError(f"unknown stock renewal {timing!r}")
        fair = FairShuffle.from_json(data["fair"]) if "fair" in data else None
        match = cls(
            data["seed"],
            target=int(data.get("target", TARGET)),
            renew_at_discard=timing == "discard",
            fair=fair,
        )
        for item in data["actions"]:
            match.apply(action_from_json(item))
        return match

    def fair_export(self, through: int | None = None) -> dict[str, Any]:
        """The match in the verifier's format (docs/fairness.md, ``python -m engine.verify``): every deal's
        commitment, order, layout and moves, with the seeds of deals 1..``through`` (default: every deal that is
        over). Rebuilt by replaying :meth:`to_json`, watching each shuffle and each move's cards."""
        fair = self.fair
        if fair is None:
            raise ValueError("only a match dealt by the fair shuffle can be verified")
        witness = DealWitness()
        deals: dict[int, dict[str, Any]] = {}
        replica = Match(
            self.seed,
            lambda number: fair.rng(number + 1, witness),
            fair.first_dealer(4),
            self.target,
            renew_at_discard=self.renew_at_discard,
            fair=fair,
        )

        def observe() -> None:
            deal = replica.deal
            if replica.fair_deal not in deals:
                deals[replica.fair_deal] = {
                    "dealer": deal.dealer,
                    "layout": {
                        "hands": {str(seat): codes_of(hand) for seat, hand in enumerate(deal.hands)},
                        "mortos": [codes_of(morto) for morto in deal.mortos],
                        "stock": codes_of(reversed(deal.stock)),  # top first
                    },
                    "moves": [],
                }

        observe()
        for action in self.actions:
            deal, moves = replica.deal, deals[replica.fair_deal]["moves"]
            seat = action.seat
            mortos = [list(morto) for morto in deal.mortos]
            runs = [card for meld in deal.runs[SEATING.side[seat]] for card in meld.cards]
            events = replica.apply(action)
            if isinstance(action, NewRun):
                moves.append(["play", seat, codes_of(action.laid)])
            elif isinstance(action, AddToRun):
                moves.append(["play", seat, [action.card.code]])
            elif isinstance(action, CancelDraft):
                moves.append(["back", seat, codes_of(runs)])
            for event in events:
                if isinstance(event, Drew):
                    assert deal.fresh is not None
                    moves.append(["draw", seat, deal.fresh.code])
                elif isinstance(event, Rejected | Discarded):
                    moves.append(["discard", seat, event.card.code])
                elif isinstance(event, TookPile):
                    moves.append(["take_pile", seat, codes_of(event.cards)])
                elif isinstance(event, MortoTaken):
                    moves.append(["morto", seat, codes_of(mortos.pop(0))])
                elif isinstance(event, StockRenewed):
                    mortos.pop(0)
                    moves.append(["renew"])
            observe()
        over = self.fair_deal if self.finished else self.fair_deal - 1
        header = {"game": "buraco", "pack": "buraco-108", "players": 4}
        return export(fair, header, witness, deals, over if through is None else through)

    def snapshot(self) -> dict[str, Any]:
        """Every field of the state as plain data: two states are the same iff their snapshots are equal."""
        deal = self.deal
        return {
            "finished": self.finished,
            "winner": self.winner,
            "totals": list(self.totals),
            "history": [repr(scores) for scores in self.history],
            "dealer": self.dealer,
            "deal_number": self.deal_number,
            "renew_at_discard": self.renew_at_discard,
            "deal": {
                "order": codes(deal.order),
                "phase": deal.phase.value,
                "turn": deal.turn,
                "first_turn": deal.first_turn,
                "drawn": deal.drawn.code if deal.drawn else None,
                "forbidden": deal.forbidden.code if deal.forbidden else None,
                "hands": [codes(sorted(hand, key=BY_INDEX)) for hand in deal.hands],
                "stock": codes(deal.stock),
                "pile": codes(deal.pile),
                "mortos": [codes(morto) for morto in deal.mortos],
                "runs": [[repr(meld) for meld in side] for side in deal.runs],
                "opened": list(deal.opened),
                "vulnerable": list(deal.vulnerable),
                "morto_taken": list(deal.morto_taken),
                "unplayed_morto": list(deal.unplayed_morto),
                "closer": deal.closer,
            },
        }
