"""Stacked packs for Очко's scenario tests (RULES §20.18 "how to read them"): name the cards that matter, the rest
of the pack fills in between, and a script of moves plays them."""

from __future__ import annotations

import random
from collections.abc import Callable, MutableSequence, Sequence
from typing import Any

from engine.ochko.actions import Action, Bet, Dark, Deal, Hit, Knock, Leave, StakeBank, Stand
from engine.ochko.cards import Card, canonical, cards, deck
from engine.ochko.events import Event
from engine.ochko.match import Match
from engine.ochko.variant import OCHKO_STANDARD, Options

Order = list[Card] | Callable[[list[Card]], list[Card]]


def pack(deal: str, draws: str = "", marker: str | None = None, size: int = 36) -> list[Card]:
    """A pack, top first: ``deal`` in deal order (the banker last), then the cards nobody names, then ``draws``
    so that the first of them is drawn first from the bottom, and ``marker`` the bottom card."""
    dealt, drawn = list(cards(deal)), list(cards(draws))
    bottom = [Card.parse(marker)] if marker else []
    named = dealt + drawn + bottom
    assert len(set(named)) == len(named), "a card named twice"
    rest = [card for card in deck(size) if card not in named]
    if not bottom:
        bottom = [rest.pop()]
    return dealt + rest + drawn[::-1] + bottom


class Stacked(random.Random):
    """A ``Random`` whose shuffle lays a chosen order (a list, or a function of the cards shuffled)."""

    def __init__(self, order: Order) -> None:
        super().__init__(0)
        self.order = order

    def shuffle(self, x: MutableSequence[Any]) -> None:
        laid = self.order(list(x)) if callable(self.order) else list(self.order)
        assert sorted(laid, key=lambda c: c.index) == canonical(list(x)), "a stacked order of other cards"
        x[:] = laid


def shuffler(*orders: Order) -> Callable[[int], random.Random]:
    """Shuffle number n lays ``orders[n]``; past the last, the last again ("every round the same pack")."""
    return lambda number: Stacked(orders[min(number, len(orders) - 1)])


def pile_in_canonical_order(pile: list[Card]) -> list[Card]:
    """V18's injected reshuffle: the pile in canonical order, the first of it drawn first (from the bottom)."""
    return canonical(pile)[::-1]


def table(
    *orders: Order,
    players: int = 3,
    options: Options = OCHKO_STANDARD,
    stacks: Sequence[int] | None = None,
    banker: int = 0,
) -> Match:
    """A table whose banker is ``banker`` (seat 0, as in §20.18) and whose shuffles lay ``orders``."""
    return Match(options, players, 0, shuffler=shuffler(*orders), first_banker=banker, stacks=stacks)


def move(match: Match, word: str) -> Action:
    """One scripted move for whoever acts: ``stake n``, ``knock``, ``deal``, ``bet n``, ``hit``, ``stand``,
    ``dark``, ``leave s``."""
    name, *arg = word.split()
    if name == "leave":
        return Leave(int(arg[0]))
    seat = match.to_act()
    assert seat is not None, f"nobody is to act for {word!r}"
    if name == "stake":
        return StakeBank(seat, int(arg[0]))
    if name == "bet":
        return Bet(seat, int(arg[0]))
    simple: dict[str, Callable[[int], Action]] = {
        "knock": Knock,
        "deal": Deal,
        "hit": Hit,
        "stand": Stand,
        "dark": Dark,
    }
    return simple[name](seat)


def play(match: Match, script: str) -> list[Event]:
    """Play ``script`` ("stake 10; bet 5; hit; stand"), returning every event on the way."""
    events: list[Event] = []
    for word in script.split(";"):
        if word.strip():
            events += match.apply(move(match, word.strip()))
    return events
