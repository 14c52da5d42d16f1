"""«Как это было» (issue 38): a finished Bura deal replayed as one seat saw it, never more than his views showed
and the deal's end revealed (RULES §6.6, §6.7)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.bura.actions import Claim, Lead, RespondFaceDown
from engine.bura.cards import Card, cards
from engine.bura.deal import Deal
from engine.bura.events import Claimed, ComboShown, DealEnded, DealStarted, OutcomeKind, ScoreChanged
from engine.bura.match import Match
from engine.bura.players import random_step
from engine.bura.replay import DealReplay, SeenCalls, SeenTrick, replay_deal
from engine.bura.variant import PROFILES, Variant
from engine.bura.views import SeatView, view
from tests.engine.bura.stack import StackedRandom, deck_order

STANDARD = PROFILES["BURA_STANDARD"]


def stacked(variant: Variant, hands: dict[int, str], trump: str, stock: str) -> Match:
    """A two-seat match whose first deal is stacked (seat 1 deals, seat 0 leads); later deals by a seed."""
    order = deck_order(variant, (0, 1), 1, hands, trump, stock)
    return Match(
        variant,
        2,
        "replay",
        shuffler=lambda index: StackedRandom(order) if index == 0 else random.Random(f"replay/{index}"),
        first_dealer=1,
    )


def claimed_after_a_face_down_answer() -> Match:
    """Seat 0 leads Т♥ 10♥ (21), seat 1 answers Т♠ 6♣ face down (RULES §6.6), seat 0 draws and claims 31 (§8)."""
    match = stacked(STANDARD, {0: "AH TH 6S", 1: "TS 6C 7S"}, "8D", "KH QH 9C 9S")
    match.apply(Lead(0, cards("AH TH")))
    match.apply(RespondFaceDown(1, cards("TS 6C")))
    match.apply(Claim(0))
    return match


def test_the_claimant_sees_the_face_down_answer_only_as_the_claim_turns_it_over() -> None:
    record = replay_deal(claimed_after_a_face_down_answer(), 1, 0)
    assert record is not None
    assert (record.deal, record.seat, record.dealer, record.leader) == (1, 0, 1, 0)
    assert record.trump_card == Card.parse("8D")
    assert record.hand == cards("6S TH AH")
    trick, calls = record.steps
    assert isinstance(trick, SeenTrick) and isinstance(calls, SeenCalls)
    assert trick.trick.lead == cards("AH TH")
    (answer,) = trick.trick.plays
    assert (answer.seat, answer.cards, answer.count, answer.face_down) == (1, (), 2, True)  # hidden in play
    assert trick.revealed == (cards("TS 6C"),)  # turned over by the claim and the deal's end
    assert trick.drawn == cards("9C KH")
    (claim,) = calls.events
    assert isinstance(claim, Claimed) and (claim.seat, claim.points, claim.success) == (0, 31, True)
    assert record.kept == cards("6S 9C KH")
    assert record.outcome.kind is OutcomeKind.WIN and record.outcome.winners == (0,)
    assert (record.scores_before, record.scores) == ((0, 0), (1, 0))
    assert not record.cards() & set(cards("7S 9S QH"))  # seat 1's hand at the end: never shown


def test_the_one_who_played_face_down_sees_his_own_cards_and_draws() -> None:
    record = replay_deal(claimed_after_a_face_down_answer(), 1, 1)
    assert record is not None
    assert record.hand == cards("7S TS 6C")
    trick = record.steps[0]
    assert isinstance(trick, SeenTrick)
    assert trick.trick.plays[0].cards == cards("TS 6C")  # his own, seen all along
    assert trick.revealed == ((),)
    assert trick.drawn == cards("9S QH")
    assert record.kept == cards("7S 9S QH")
    assert not record.cards() & set(cards("6S 9C KH"))


def test_none_for_a_deal_not_over_deal_zero_and_a_seat_not_at_the_table() -> None:
    match = claimed_after_a_face_down_answer()
    assert match.deal_number == 2
    assert replay_deal(match, 2, 0) is None  # being played
    assert replay_deal(match, 3, 0) is None
    assert replay_deal(match, 0, 0) is None
    assert replay_deal(match, 1, 2) is None
    assert replay_deal(match, 1, -1) is None


# -- every profile: the replay never names a card its seat did not see ---------------------------------------


class Dealing(Match):
    """A match that keeps every deal it deals: a deal a dealt combination ends at once (RULES §9.6) is never on
    the table after a move, so no view shows it; its seats saw their own hands."""

    def __init__(self, variant: Variant, players: int, seed: str) -> None:
        self.dealt: list[Deal] = []
        super().__init__(variant, players, seed)

    @property
    def deal(self) -> Deal:
        return self.dealt[-1]

    @deal.setter
    def deal(self, deal: Deal) -> None:
        self.dealt.append(deal)


class Watch:
    """What each seat saw of each deal while the match was played: the cards of its views (and his own hand as
    the deal ended, which no view shows once the next deal is dealt in the same move), and the cards the deal's
    events showed everyone (a combination, a claim's pile, the piles turned over at the end)."""

    def __init__(self, match: Dealing) -> None:
        self.match = match
        self.seen: dict[tuple[int, int], set[Card]] = {}
        self.hidden: dict[tuple[int, int], set[Card]] = {}  # face-down answers of others, unseen in play
        self.revealed: dict[int, set[Card]] = {}

    def look(self) -> None:
        match = self.match
        for deal in match.dealt:
            if deal.over and deal is not match.deal:  # his hand as the move that ended the deal left it
                for seat in deal.seats:
                    self.seen.setdefault((deal.number, seat), set()).update({*deal.hands[seat], deal.trump_card})
        for seat in range(match.players):
            seen = self.seen.setdefault((match.deal_number, seat), set())
            shown = view(match, seat)
            seen.update(_cards_of(shown))
            hidden = self.hidden.setdefault((match.deal_number, seat), set())
            deal = match.deal
            for trick in [*deal.history, *([deal.trick] if deal.trick is not None else [])]:
                for play in trick.plays:
                    if play.face_down and play.seat != seat:
                        hidden.update(play.cards)

    def heard(self, events: list[Any], playing: int) -> None:
        number = playing
        for event in events:
            if isinstance(event, DealStarted):
                number = event.deal_number
            elif isinstance(event, ComboShown):
                self.revealed.setdefault(number, set()).update(event.cards)
            elif isinstance(event, Claimed):
                self.revealed.setdefault(number, set()).update(entry.card for entry in event.pile)
            elif isinstance(event, DealEnded):
                piles = {entry.card for pile in event.piles for entry in pile}
                self.revealed.setdefault(number, set()).update(piles)


def _cards_of(shown: SeatView) -> set[Card]:
    table = shown.table
    named = {*shown.hand, table.trump_card}
    for trick in [*table.history, *([table.trick] if table.trick is not None else [])]:
        named.update(trick.lead)
        named.update(card for play in trick.plays for card in play.cards)
    named.update(card for combo in table.shown for card in combo.cards)
    return named


VARIANTS = {
    **PROFILES,
    # RULES §6.6 [V10]: the taker looks at the face-down cards of the trick he took until the next lead.
    "BURA_PEEKS": STANDARD.with_options(taker_peeks=True),
    "BURKOZEL_PEEKS": PROFILES["BURKOZEL"].with_options(taker_peeks=True),
}
CASES = [
    (name, players)
    for name, variant in VARIANTS.items()
    for players in range(variant.min_players, variant.max_players + 1)
]


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{name}-{n}" for name, n in CASES])
@pytest.mark.parametrize("seed", range(3))
def test_a_replay_names_only_what_its_seat_saw(name: str, players: int, seed: int) -> None:
    """For every deal over and every seat: each card the replay names is one the seat's views showed him (his
    hand, a face-up card, the trump card, a face-down card of his own or one he peeked at) or one the deal's
    events showed everyone (a combination, a claim's pile, the piles at the end); a face-down answer of
    another seat is shown in play only to a taker who peeks; and the replay is the same asked at once or later."""
    variant = VARIANTS[name]
    rng = random.Random(seed)
    match = Dealing(variant, players, f"leak/{seed}")
    watch = Watch(match)
    watch.heard(match.start_events, 0)
    watch.look()
    first: dict[tuple[int, int], DealReplay | None] = {}
    while not match.finished and match.deal_number <= 3:
        playing = match.deal_number
        events = match.apply(random_step(match, rng))
        watch.heard(events, playing)
        if match.deal_number != playing or match.finished:
            for deal in range(1, match.deal_number + (1 if match.finished else 0)):
                for seat in range(players):
                    first.setdefault((deal, seat), replay_deal(match, deal, seat))
        watch.look()
    last = match.deal_number if match.finished else match.deal_number - 1
    assert replay_deal(match, last + 1, 0) is None
    assert replay_deal(match, 0, 0) is None
    assert replay_deal(match, 1, players) is None
    for (deal, seat), record in first.items():
        assert replay_deal(match, deal, seat) == record  # the same asked at once or later
        if record is None:
            continue  # the seat was out of the match by then
        allowed = watch.seen.get((deal, seat), set()) | watch.revealed.get(deal, set())
        named = record.cards()
        assert named <= allowed, f"deal {deal}, seat {seat} is shown {named - allowed}"
        for step in record.steps:
            if isinstance(step, SeenTrick):
                for play in step.trick.plays:
                    if play.face_down and play.cards and play.seat != seat:
                        assert variant.taker_peeks and step.trick.owner == seat  # RULES §6.6 [V10]
        drew_trump = [
            step.trump_to for step in record.steps if isinstance(step, SeenTrick) and step.trump_to is not None
        ]
        assert drew_trump == ([record.trump_card_holder] if record.trump_card_holder is not None else [])
        in_play = {card for s in record.steps if isinstance(s, SeenTrick) for p in s.trick.plays for card in p.cards}
        assert not in_play & watch.hidden.get((deal, seat), set()) - watch.seen.get((deal, seat), set())


def test_a_replay_after_the_match_is_over() -> None:
    rng = random.Random(5)
    match = Match(PROFILES["BURA_5"], 2, "over")
    while not match.finished:
        match.apply(random_step(match, rng))
    record = replay_deal(match, match.deal_number, 0)
    assert record is not None
    assert any(isinstance(event, ScoreChanged) for event in record.end)


def test_a_forfeit_mid_trick_leaves_the_trick_cut_short_out() -> None:
    """A table's ruling ends the deal with a trick on the table: no one took it, so it is not told (its cards
    went to no pile), and the piles' cards still map onto the tricks taken."""
    match = stacked(STANDARD, {0: "AH TH 6S", 1: "TS 6C 7S"}, "8D", "KH QH 9C 9S")
    match.apply(Lead(0, cards("AH TH")))
    match.apply(RespondFaceDown(1, cards("TS 6C")))
    match.apply(Lead(0, cards("6S")))
    match.forfeit(1)
    record = replay_deal(match, 1, 0)
    assert record is not None
    (trick,) = record.steps
    assert isinstance(trick, SeenTrick) and trick.revealed == (cards("TS 6C"),)
    assert record.outcome.kind is OutcomeKind.FORFEIT
