"""The move the timer makes for a Bura player who let it run out (issue 37: "the timer's move is the one a
sensible player would make: beat when it can; otherwise the cheapest discard")."""

from __future__ import annotations

import random

import pytest

from bot.games.bura.moves import auto_action
from engine.bura.actions import Claim, Lead, RespondFaceDown, RespondOpen
from engine.bura.cards import points, set_beats
from engine.bura.deal import Phase
from engine.bura.match import Match
from engine.bura.players import random_step
from engine.bura.variant import BURA_STANDARD, BURKOZEL, KOZEL_TVALADZE, Variant


@pytest.mark.parametrize(
    ("variant", "players"), [(BURA_STANDARD, 2), (BURA_STANDARD, 3), (BURKOZEL, 4), (KOZEL_TVALADZE, 2)]
)
def test_the_timer_takes_the_trick_when_it_can_else_gives_away_the_least(variant: Variant, players: int) -> None:
    """RULES §6.3-§6.4: an answer takes the trick when its cards beat the best so far, one by one. Where one does,
    the timer plays the one that beats with the fewest trumps and the weakest cards; where none does, it gives
    away the fewest points (face down where the rules allow). It never claims. Random states of random games."""
    answered = beaten = 0
    for number in range(60):
        match = Match(variant, players, f"timer-{number}")
        rng = random.Random(number)
        while not match.finished:
            seat = match.to_act()
            if seat is not None and match.deal.phase is Phase.RESPOND:
                action = auto_action(match, seat)
                legal = match.legal_actions(seat)
                assert action in legal and not isinstance(action, Claim)
                trick, trump = match.deal.trick, match.deal.trump
                assert trick is not None
                beating = [
                    a
                    for a in legal
                    if isinstance(a, RespondOpen) and set_beats(a.cards, trick.best, trump, variant.shokha)
                ]
                answered += 1
                if beating:
                    beaten += 1
                    assert action in beating, (number, action, beating)
                    fewest = min(sum(card.suit is trump for card in a.cards) for a in beating)
                    assert isinstance(action, RespondOpen)
                    assert sum(card.suit is trump for card in action.cards) == fewest
                else:
                    assert isinstance(action, RespondOpen | RespondFaceDown)
                    face_down: list[RespondOpen | RespondFaceDown] = [
                        a for a in legal if isinstance(a, RespondFaceDown)
                    ]
                    if face_down:
                        assert isinstance(action, RespondFaceDown)
                    options = face_down or [a for a in legal if isinstance(a, RespondOpen)]
                    assert points(action.cards) == min(points(a.cards) for a in options)
            elif seat is not None and any(isinstance(a, Lead) for a in match.legal_actions(seat)):
                lead = auto_action(match, seat)
                assert isinstance(lead, Lead)
                assert points(lead.cards) == min(
                    points(a.cards) for a in match.legal_actions(seat) if isinstance(a, Lead)
                )
            match.apply(random_step(match, rng))
    assert beaten > 20 and answered - beaten > 20, (answered, beaten)  # both kinds of answer were met
