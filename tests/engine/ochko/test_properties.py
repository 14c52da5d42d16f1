"""Properties over thousands of random Очко sessions with random options (STYLE.md; RULES §20.3, §20.18's
"property checks"): chips conserved, every card accounted for, refusals change nothing, replay and JSON give
the same state, views show only what their seat may see, and every session ends."""

from __future__ import annotations

import json
import random

import pytest

from engine.ochko import ai
from engine.ochko.actions import Action, Bet, Dark, Deal, Hit, Knock, Leave, StakeBank, Stand
from engine.ochko.cards import Card, codes, deck
from engine.ochko.errors import IllegalAction
from engine.ochko.hands import BLACKJACK, value
from engine.ochko.match import Match
from engine.ochko.variant import BankerDraw, Immediate, KnockRule, NextBanker, Options, Structure, TwoAces
from engine.ochko.views import table_view, view

SESSIONS = 2000
PACKS = {size: sorted(card.index for card in deck(size)) for size in (36, 32)}
MAX_STEPS = 20_000


def random_options(rng: random.Random) -> Options:
    bank_min = rng.choice([1, 5, 10])
    return Options(
        structure=rng.choice(list(Structure)),
        ace=rng.choice([11, 1]),
        two_aces=rng.choice(list(TwoAces)),
        five_pictures=rng.random() < 0.5,
        immediate=rng.choice(list(Immediate)),
        dark=rng.random() < 0.7,
        banker_draw=rng.choice(list(BankerDraw)),
        knock=rng.choice(list(KnockRule)),
        knock_multiple=rng.choice([2, 3, 10]),
        next_banker=rng.choice(list(NextBanker)),
        pack=rng.choice([36, 32]),
        stack=rng.choice([20, 50, 100]),
        bank_min=bank_min,
        min_bet=rng.randint(1, bank_min),
        max_banks=rng.choice([None, None, 1, 4, 0]),
    )


def in_play(match: Match) -> list[Card]:
    """§20.18: pack + returned + marker + hands (the banker's included)."""
    held = [card for hand in match.hands.values() for card in hand]
    return match.pack + match.returned + ([match.marker] if match.marker else []) + held + match.banker_hand


def allowed(match: Match, seat: int | None) -> set[Card]:
    """What a seat (None: a spectator) may see: the banker's cards, the marker, the hands settled this round,
    and his own unsettled cards but a dark one."""
    seen = set(match.banker_hand) | {card for hand in match.shown.values() for card in hand}
    if match.marker is not None:
        seen.add(match.marker)
    if seat is not None:
        own = match.hands.get(seat, [])
        seen |= set(own[:-1] if seat in match.dark else own)
    return seen


def check_views(match: Match) -> None:
    public = table_view(match)
    table_cards = {*public.banker_cards, *(card for hand in public.shown for card in hand or ())}
    if public.marker is not None:
        table_cards.add(public.marker)
    assert table_cards <= allowed(match, None)
    for seat in range(match.players):
        seat_view = view(match, seat)
        assert set(seat_view.seen) | table_cards <= allowed(match, seat)
        assert seat_view.legal == tuple(match.legal_actions(seat))
        if seat in match.dark and seat in match.hands:
            assert seat_view.hand[-1] is None and match.hands[seat][-1] not in seat_view.seen


def illegal_tries(match: Match, rng: random.Random) -> list[Action]:
    seat = match.to_act()
    assert seat is not None
    other = (seat + rng.randrange(1, match.players)) % match.players
    tries: list[Action] = [
        Hit(other),
        Stand(other),
        Bet(seat, -1),
        Bet(seat, match.bank + 1),
        StakeBank(seat, 0),
        StakeBank(seat, match.chips[seat] + 1),
        Knock(seat),
        Deal(seat),
        Dark(seat),
        Hit(seat),
        Stand(seat),
        Leave(match.players),
    ]
    tries += [Leave(gone) for gone in range(match.players) if not match.present[gone]]
    legal = match.legal_actions(seat)
    return [action for action in tries if action not in legal]


def choose(match: Match, rng: random.Random) -> Action:
    seat = match.to_act()
    assert seat is not None
    legal = match.legal_actions(seat)
    assert legal, "a seat to act always has a legal action"
    roll = rng.random()
    if roll < 0.01:
        return Leave(rng.choice([s for s in range(match.players) if match.present[s]]))
    if roll < 0.2:
        chosen = ai.easy(view(match, seat))
    elif roll < 0.4:
        chosen = ai.odds(view(match, seat))
    else:
        chosen = rng.choice(legal)
    assert chosen in legal
    return chosen


def play_one(seed: int, checked: bool = True) -> Match:
    """One random session; every step keeps the cheap invariants, and when ``checked`` every ninth step also
    tries refusals and looks at every view."""
    rng = random.Random(seed)
    options = random_options(rng)
    match = Match(options, rng.randint(2, 8), seed)
    total = sum(match.chips)
    steps = 0
    while not match.finished:
        steps += 1
        assert steps < MAX_STEPS, "the session ends"
        if checked and steps % 9 == 0:
            before = match.snapshot()
            for action in illegal_tries(match, rng):
                with pytest.raises(IllegalAction):
                    match.apply(action)
                assert match.snapshot() == before, ("a refusal changed the state", action)
            check_views(match)
        match.apply(choose(match, rng))
        assert sum(match.chips) + match.bank == total, "chips are conserved"
        assert min(match.chips) >= 0 and match.bank >= 0
        if match.in_round:
            places = sorted(card.index for card in in_play(match))
            assert places == PACKS[options.pack], "every card is accounted for"
            for seat in match.waiting:  # no open bust ever waits for the banker
                assert seat in match.dark or value(match.hands[seat], options) <= BLACKJACK
    assert match.to_act() is None
    assert all(match.legal_actions(seat) == [] for seat in range(match.players))
    return match


def test_random_sessions_keep_every_invariant() -> None:
    for seed in range(SESSIONS):
        match = play_one(seed, checked=seed % 2 == 0)
        if seed % 10 == 0:
            data = json.loads(json.dumps(match.to_json()))
            assert Match.from_json(data).snapshot() == match.snapshot(), "replay gives the same state"


def test_replay_mid_session_gives_the_same_state() -> None:
    for seed in range(40):
        rng = random.Random(seed)
        match = Match(random_options(rng), rng.randint(2, 8), f"mid/{seed}")
        for _ in range(rng.randrange(1, 120)):
            if match.finished:
                break
            match.apply(choose(match, rng))
        replayed = Match.from_json(json.loads(json.dumps(match.to_json())))
        assert replayed.snapshot() == match.snapshot()
        assert codes(replayed.pack) == codes(match.pack)


def test_the_same_seed_deals_the_same_session() -> None:
    first, second = play_one(7), play_one(7)
    assert first.snapshot() == second.snapshot()
    assert first.trace == second.trace
