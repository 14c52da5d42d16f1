"""A match: a sequence of deals scored by a match model (RULES §12), rebuilt from config + seed + actions.

``Match`` is what the bot stores: ``Match.to_json()`` keeps the variant, the number of players, the seed
and the action log; ``Match.from_json`` replays them and gives the same state. Each deal is shuffled by its
own ``random.Random`` derived from the seed and the deal's index, so replay needs no saved RNG state.

A match made with a :class:`~engine.core.fair.FairShuffle` (issue 38, docs/fairness.md) deals instead by the
verifiable shuffle: deal k (``deal_index`` k - 1, redeals counted) is shuffled from the server seed s_k and the
players' seeds, and the first dealer is drawn from deal 1's stream; the seed then plays no part. ``to_json`` keeps
the shuffle under ``"fair"`` (it holds the master secret: never show it); a stored match without that key replays
by its seed exactly as before.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.bura.actions import Action, Forfeit, LoggedAction, action_from_json, action_to_json
from engine.bura.cards import BY_INDEX, Card, codes
from engine.bura.combos import Combo
from engine.bura.deal import Deal
from engine.bura.errors import IllegalAction, Reason
from engine.bura.events import (
    DealOutcome,
    Eliminated,
    Event,
    MatchEnded,
    OutcomeKind,
    Redealt,
    ScoreChanged,
)
from engine.bura.variant import (
    ComboAtDeal,
    FalseClaim,
    FullTie,
    MatchKind,
    NextDealer,
    ThreePlayerEnd,
    TrumpCard,
    Variant,
)
from engine.core.fair import DealWitness, FairShuffle, codes_of, export


class Match:
    """The whole state of a table's game. Mutable; :meth:`apply` verifies before it changes anything."""

    def __init__(
        self,
        variant: Variant,
        players: int,
        seed: int | str,
        shuffler: Callable[[int], random.Random] | None = None,
        first_dealer: int | None = None,
        *,
        fair: FairShuffle | None = None,
    ) -> None:
        """``shuffler(deal_index)`` and ``first_dealer`` override the seed (stacked decks in tests); ``fair``
        deals every deal and draws the first dealer by the verifiable shuffle instead (docs/fairness.md)."""
        if not variant.min_players <= players <= variant.max_players:
            raise ValueError(f"{variant.name} is for {variant.min_players}-{variant.max_players} players")
        self.variant = variant
        self.players = players
        self.seed = seed
        self.fair = fair
        self.teams = variant.teams(players)
        self.sides = 2 if self.teams else players
        self.actions: list[LoggedAction] = []
        self.active: list[int] = list(range(players))
        self.scores = [0] * self.sides  # wins (robber), penalty points, or chips (pot)
        self.wins = [0] * self.sides  # the tally of won deals
        self.pot = 0
        self.doubled_next = False  # [B04] EGG_DOUBLE
        self.outcomes: list[DealOutcome] = []
        self.eliminated: list[int] = []  # sides, in order of elimination
        self.finished = False
        self.winners: tuple[int, ...] = ()
        self.losers: tuple[int, ...] = ()
        self.deal_index = 0  # deals dealt, redeals included: names each deal's random stream
        self.deal_number = 0  # deals played
        # RULES §5.1: the first dealer is drawn by lot.
        if fair is not None:
            if len(fair.player_seeds) != players:
                raise ValueError("the fair shuffle needs one player's seed per seat")
            shuffler = shuffler or (lambda index: fair.rng(index + 1))  # fair deals are numbered from 1
            if first_dealer is None:
                first_dealer = fair.first_dealer(players)
        self.shuffler = shuffler or (lambda index: random.Random(f"{seed}/{index}"))
        if first_dealer is None:
            first_dealer = random.Random(f"{seed}/dealer").randrange(players)
        self.dealer = first_dealer
        self.start_events = self._next_deal(None)

    @property
    def fair_deal(self) -> int:
        """The fair number k of the deal on the table (redeals counted): its commitment is
        ``fair.commitment(k)``, its seed ``fair.seed(k)`` once it is over."""
        return self.deal_index

    # -- sides ----------------------------------------------------------------------------------------------

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    def active_sides(self) -> list[int]:
        return sorted({self.side_of(seat) for seat in self.active})

    def seats_of(self, side: int) -> list[int]:
        return [seat for seat in range(self.players) if self.side_of(seat) == side]

    # -- moves ----------------------------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        if self.finished:
            return []
        return self.deal.legal_actions(seat)

    def to_act(self) -> int | None:
        return None if self.finished else self.deal.to_act()

    def _verify_seat(self, action: Action) -> None:
        if self.finished:
            raise IllegalAction(Reason.MATCH_OVER)
        if not 0 <= action.seat < self.players:
            raise IllegalAction(Reason.NOT_SEATED)

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalAction` with the reason unless ``legal_actions`` lists ``action``; change nothing."""
        self._verify_seat(action)
        self.deal.verify(action)

    def diagnose(self, action: Action) -> Reason:
        """Why ``action`` is refused (see ``Deal.diagnose``): asked only of an action that is not legal."""
        if self.finished:
            return Reason.MATCH_OVER
        if not 0 <= action.seat < self.players:
            return Reason.NOT_SEATED
        return self.deal.diagnose(action)

    def apply(self, action: Action) -> list[Event]:
        """Verify and play ``action``; a finished deal is scored and the next one dealt at once."""
        self._verify_seat(action)
        events = self.deal.apply(action)  # plays only what legal_actions lists; else nothing changes
        self.actions.append(action)
        if self.deal.over:
            events.extend(self._after_deal(self.deal))
        return events

    def forfeit(self, seat: int) -> list[Event]:
        """A table's ruling: ``seat`` loses the current deal (see ``Deal.forfeit``); logged for replay."""
        if self.finished:
            raise IllegalAction(Reason.MATCH_OVER)
        events = self.deal.forfeit(seat)
        self.actions.append(Forfeit(seat))
        events.extend(self._after_deal(self.deal))
        return events

    def replay(self, logged: LoggedAction) -> list[Event]:
        """Play one entry of an action log: a move, or a table's ruling (a forfeit)."""
        if isinstance(logged, Forfeit):
            return self.forfeit(logged.seat)
        return self.apply(logged)

    # -- deals ----------------------------------------------------------------------------------------------

    def _next_deal(self, previous: Deal | None) -> list[Event]:
        events: list[Event] = []
        while True:
            rng = self.shuffler(self.deal_index)
            self.deal_index += 1
            last_trick = previous.last_trick_winner if previous is not None else None
            deal = Deal(
                self.variant,
                self.players,
                tuple(self.active),
                self.dealer,
                rng,
                self.deal_number + 1,
                last_trick,
            )
            self.deal = deal
            if self.variant.combo_at_deal is ComboAtDeal.REDEAL:
                held = deal.redeal_combo()
                if held is not None:  # [V18] REDEAL: no score, the same dealer deals again
                    events.append(Redealt(self.dealer, held.seat, held.rule.combo))
                    continue
            self.deal_number += 1
            if self.variant.match.kind is MatchKind.POT:  # RULES §12.1: everyone antes
                ante = self.variant.match.ante
                for side in self.active_sides():
                    self.scores[side] -= ante
                    self.pot += ante
            events.extend(deal.begin())
            if not deal.over:
                return events
            # A dealt instant combo ended the deal at once (RULES §9.6 COUNT).
            events.extend(self._score(deal.outcome))
            if self.finished:
                return events
            self.dealer = self._dealer_after(deal)
            previous = deal

    def _after_deal(self, deal: Deal) -> list[Event]:
        events = self._score(deal.outcome)
        if self.finished:
            return events
        self.dealer = self._dealer_after(deal)
        events.extend(self._next_deal(deal))
        return events

    def _dealer_after(self, deal: Deal) -> int:
        """[V04]: the winner deals (the same dealer after a void), or the deal rotates."""
        outcome = deal.outcome
        assert outcome is not None
        dealer = deal.dealer
        if self.variant.next_dealer is NextDealer.ROTATE:
            dealer = deal.next_seat(dealer)
        elif self._false_claim_voids(outcome):
            pass  # RULES §15.22: a void deal is dealt again by the same dealer
        elif outcome.kind is OutcomeKind.WIN and outcome.seat is not None:
            dealer = outcome.seat
        elif len(outcome.winners) == 1:
            # The first seat of the winning side clockwise from the dealer (the opponent after a false claim).
            dealer = next(s for s in deal.clockwise_from(dealer) if deal.side_of[s] == outcome.winners[0])
        return self._active_from(dealer)

    def _active_from(self, seat: int) -> int:
        for step in range(self.players):
            candidate = (seat + step) % self.players
            if candidate in self.active:
                return candidate
        raise AssertionError("no active seat")

    # -- scoring (RULES §12) -----------------------------------------------------------------------------------

    def _score(self, outcome: DealOutcome | None) -> list[Event]:
        assert outcome is not None
        self.outcomes.append(outcome)
        events: list[Event] = []
        kind = self.variant.match.kind
        sides = self.active_sides()
        full_tie = outcome.kind is OutcomeKind.PLAYED_OUT and len(outcome.winners) == len(sides)
        if outcome.kind is OutcomeKind.WIN or (outcome.kind is OutcomeKind.PLAYED_OUT and not full_tie):
            for side in outcome.winners:
                self.wins[side] += 1
        elif self._loss_rule(outcome) not in (None, FalseClaim.ELIMINATED) and not self._false_claim_voids(outcome):
            for side in sides:
                if side != self._claimant_side(outcome):
                    self.wins[side] += 1
        eliminated: list[int] = []
        if self._loss_rule(outcome) is FalseClaim.ELIMINATED:
            eliminated.append(self._claimant_side(outcome))  # [V16] ELIMINATED
        elif kind is MatchKind.POT:
            self._score_pot(outcome, sides)
        elif self._false_claim_voids(outcome):
            pass  # [V16] DOUBLE_POT outside the pot model: only the void deal remains, nothing is recorded
        elif kind is MatchKind.ROBBER:
            self._score_robber(outcome, sides, full_tie)
        elif kind is MatchKind.PENALTY_12:
            self._score_penalty(outcome, sides, full_tie)
        elif kind is MatchKind.BURKOZEL:
            self._score_burkozel(outcome, sides, full_tie)
        events.append(ScoreChanged(tuple(self.scores), tuple(self.wins), self.pot, self.doubled_next))
        events.extend(self._check_end(outcome, eliminated))
        return events

    def _loss_rule(self, outcome: DealOutcome) -> FalseClaim | None:
        """How a deal lost by one's own doing is charged: a false claim by [V16], a forfeit as LOSE_DEAL."""
        if outcome.kind is OutcomeKind.FORFEIT:
            return FalseClaim.LOSE_DEAL
        if outcome.kind is OutcomeKind.FALSE_CLAIM:
            return self.variant.false_claim
        return None

    def _false_claim_voids(self, outcome: DealOutcome) -> bool:
        """RULES §8.4 DOUBLE_POT (and §12.1: LOSE_DEAL with 3+ in the pot model): the deal is void."""
        rule = self._loss_rule(outcome)
        if rule is None:
            return False
        if rule is FalseClaim.DOUBLE_POT:
            return True
        pot = self.variant.match.kind is MatchKind.POT
        return pot and rule is not FalseClaim.ELIMINATED and len(self.active_sides()) > 2

    def _claimant_side(self, outcome: DealOutcome) -> int:
        assert outcome.seat is not None
        return self.side_of(outcome.seat)

    def _score_robber(self, outcome: DealOutcome, sides: list[int], full_tie: bool) -> None:
        if outcome.kind is OutcomeKind.WIN or (outcome.kind is OutcomeKind.PLAYED_OUT and not full_tie):
            for side in outcome.winners:
                self.scores[side] += 1
        elif self._loss_rule(outcome) is not None:
            # RULES §12.2: LOSE_DEAL gives the others +1, LOSE_DOUBLE +2 (n >= 3: every other player).
            gain = 2 if self._loss_rule(outcome) is FalseClaim.LOSE_DOUBLE else 1
            for side in sides:
                if side != self._claimant_side(outcome):
                    self.scores[side] += gain

    def _score_penalty(self, outcome: DealOutcome, sides: list[int], full_tie: bool) -> None:
        if outcome.kind is OutcomeKind.WIN or (outcome.kind is OutcomeKind.PLAYED_OUT and not full_tie):
            for side in sides:  # RULES §12.3: every loser of the deal gets 2
                if side not in outcome.winners:
                    self.scores[side] += 2
        elif self._loss_rule(outcome) is not None:
            gain = 4 if self._loss_rule(outcome) is FalseClaim.LOSE_DOUBLE else 2
            self.scores[self._claimant_side(outcome)] += gain

    def _score_pot(self, outcome: DealOutcome, sides: list[int]) -> None:
        if self._loss_rule(outcome) is not None:
            claimant = self._claimant_side(outcome)
            others = [side for side in sides if side != claimant]
            if self._false_claim_voids(outcome):
                # RULES §12.1: the claimant matches the pot and the deal is void (also LOSE_DEAL with n >= 3).
                self.scores[claimant] -= self.pot
                self.pot *= 2
                return
            winners: tuple[int, ...] = (others[0],)
        elif outcome.kind is OutcomeKind.VOID:
            return  # the pot carries over
        else:
            winners = outcome.winners
        share, rest = divmod(self.pot, len(winners))  # RULES §11.3: tied top totals split the pot
        for side in winners:
            self.scores[side] += share
        self.pot = rest

    def _score_burkozel(self, outcome: DealOutcome, sides: list[int], full_tie: bool) -> None:
        variant = self.variant
        factor = 2 if self.doubled_next else 1
        self.doubled_next = False  # [B04] the doubling does not compound
        penalties: dict[int, int] = {}
        if outcome.kind is OutcomeKind.WIN and outcome.combo is not None:
            # RULES §12.4: a bura win costs each opponent 2, a Москва (four aces) 6.
            cost = variant.moscow_penalty if outcome.combo is Combo.MOSCOW else variant.bura_penalty
            penalties = {side: cost for side in sides if side not in outcome.winners}
        elif self._loss_rule(outcome) is not None:
            claimant = self._claimant_side(outcome)
            double = 2 if self._loss_rule(outcome) is FalseClaim.LOSE_DOUBLE else 1
            penalties = {claimant: variant.penalty_no_tricks * double}
        elif full_tie:
            if variant.full_tie is FullTie.EGG_DOUBLE:
                self.doubled_next = True
            else:
                penalties = dict.fromkeys(sides, 2)
        elif outcome.kind in (OutcomeKind.WIN, OutcomeKind.PLAYED_OUT):
            threshold = variant.penalty_threshold_three if len(sides) == 3 else variant.penalty_threshold
            for side in sides:
                if side in outcome.winners:
                    continue
                points, tricks = outcome.points[side], outcome.tricks[side]
                if tricks == 0:
                    penalties[side] = variant.penalty_no_tricks
                elif points == 0:
                    penalties[side] = variant.penalty_zero_points  # [B03]
                elif points >= threshold:
                    penalties[side] = variant.penalty_good
                else:
                    penalties[side] = variant.penalty_below
        for side, penalty in penalties.items():
            self.scores[side] += penalty * factor

    def _check_end(self, outcome: DealOutcome, eliminated: list[int]) -> list[Event]:
        model = self.variant.match
        sides = self.active_sides()
        events: list[Event] = []
        if model.kind in (MatchKind.PENALTY_12, MatchKind.BURKOZEL):
            over = [side for side in sides if self.scores[side] >= model.limit]  # RULES §15.27: >=
            if over:
                continues = (
                    model.kind is MatchKind.BURKOZEL
                    and len(sides) >= 3
                    and model.three_player_end is ThreePlayerEnd.ELIMINATION_CONTINUES
                )
                if continues:
                    # The higher total goes first; equal totals go together (engine decision).
                    eliminated.extend(sorted(over, key=lambda side: -self.scores[side]))
                else:
                    return self._finish(tuple(s for s in sides if s not in over), tuple(over), events)
        for side in eliminated:
            for seat in self.seats_of(side):
                if seat in self.active:
                    self.active.remove(seat)
                    events.append(Eliminated(seat))
            self.eliminated.append(side)
        sides = self.active_sides()
        if len(sides) < 2:
            return self._finish(tuple(sides), tuple(self.eliminated), events)
        if model.kind is MatchKind.ROBBER:
            leader = max(sides, key=lambda side: self.scores[side])
            top = self.scores[leader]
            rest = max(self.scores[side] for side in sides if side != leader)
            if top >= model.target and top - rest >= model.margin:  # RULES §12.2
                return self._finish((leader,), tuple(s for s in sides if s != leader), events)
        elif model.kind is MatchKind.SINGLE_DEAL:
            winners = outcome.winners if len(outcome.winners) < len(sides) else ()
            if self._loss_rule(outcome) is not None:
                winners = tuple(s for s in sides if s != self._claimant_side(outcome))
            return self._finish(winners, tuple(s for s in sides if winners and s not in winners), events)
        elif model.kind is MatchKind.POT and model.max_deals is not None and self.deal_number >= model.max_deals:
            best = max(self.scores[side] for side in sides)
            winners = tuple(side for side in sides if self.scores[side] == best)
            return self._finish(winners, tuple(s for s in sides if s not in winners), events)
        return events

    def _finish(self, winners: tuple[int, ...], losers: tuple[int, ...], events: list[Event]) -> list[Event]:
        self.finished = True
        self.winners = winners
        self.losers = losers
        events.append(MatchEnded(winners, losers))
        return events

    # -- persistence ------------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Config + seed (+ the fair shuffle) + action log: everything needed to rebuild this exact state."""
        data: dict[str, Any] = {
            "variant": self.variant.model_dump(mode="json"),
            "players": self.players,
            "seed": self.seed,
            "actions": [action_to_json(action) for action in self.actions],
        }
        if self.fair is not None:
            data["fair"] = self.fair.to_json()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        """Replay a match from :meth:`to_json`; every action is verified again on the way. Without ``"fair"``
        (every match stored before issue 38) the deals come from the seed, as they were played."""
        fair = FairShuffle.from_json(data["fair"]) if "fair" in data else None
        match = cls(Variant.model_validate(data["variant"]), int(data["players"]), data["seed"], fair=fair)
        for item in data["actions"]:
            match.replay(action_from_json(item))
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
            self.variant,
            self.players,
            self.seed,
            lambda index: fair.rng(index + 1, witness),
            fair.first_dealer(self.players),
            fair=fair,
        )

        def observe(deal: Deal, number: int) -> None:
            if number not in deals:
                deals[number] = {
                    "dealer": deal.dealer,
                    "seats": list(deal.seats),
                    "layout": {
                        "hands": {str(seat): codes_of(hand) for seat, hand in deal.hands.items()},
                        "trump": deal.trump_card.code,
                        "stock": codes_of(reversed(deal.stock)),  # top first
                    },
                    "moves": [],
                }

        observe(replica.deal, replica.deal_index)
        for logged in self.actions:
            deal, number = replica.deal, replica.deal_index
            hands = {seat: set(hand) for seat, hand in deal.hands.items()}
            stock = list(reversed(deal.stock))
            replica.replay(logged)
            moves = deals[number]["moves"]
            drawn: dict[Card, int] = {}
            for seat, before in hands.items():
                after = set(deal.hands[seat])
                if before - after:
                    moves.append(["play", seat, codes_of(sorted(before - after, key=BY_INDEX))])
                drawn.update(dict.fromkeys(after - before, seat))
            moves.extend(["draw", drawn[card], card.code] for card in stock[: len(drawn)])
            observe(replica.deal, replica.deal_index)
        over = replica.deal_index if replica.finished else replica.deal_index - 1
        header = {
            "game": "bura",
            "pack": f"bura-{self.variant.deck_size}",
            "players": self.players,
            "rules": {
                "hand_size": self.variant.hand_size,
                "trump_under_stock": self.variant.trump_card is TrumpCard.UNDER_STOCK,
            },
        }
        return export(fair, header, witness, deals, over if through is None else through)

    def snapshot(self) -> dict[str, Any]:
        """Every field of the state as plain data: two states are the same iff their snapshots are equal."""
        deal = self.deal
        trick = deal.trick
        return {
            "finished": self.finished,
            "winners": list(self.winners),
            "losers": list(self.losers),
            "scores": list(self.scores),
            "wins": list(self.wins),
            "pot": self.pot,
            "doubled_next": self.doubled_next,
            "active": list(self.active),
            "eliminated": list(self.eliminated),
            "dealer": self.dealer,
            "deal_index": self.deal_index,
            "deal_number": self.deal_number,
            "outcomes": [repr(outcome) for outcome in self.outcomes],
            "deal": {
                "deck": codes(deal.deck_order),
                "dealer": deal.dealer,
                "phase": deal.phase.value,
                "rightful": deal.rightful,
                "leader": deal.leader,
                "hands": {str(seat): codes(hand) for seat, hand in deal.hands.items()},
                "stock": codes(deal.stock),
                "dead": codes(deal.dead),
                "piles": [[(e.card.code, e.face_down, e.played_by) for e in pile] for pile in deal.piles],
                "tricks_won": list(deal.tricks_won),
                "history": [repr(t) for t in deal.history],
                "trick": repr(trick),
                "responders": list(deal.responders),
                "forced_lead": codes(deal.forced_lead or ()),
                "standing": repr(deal.standing),
                "passed": sorted(deal.passed),
                "pending_instant": repr(deal.pending_instant),
                "trump_card_holder": deal.trump_card_holder,
                "outcome": repr(deal.outcome),
            },
        }
