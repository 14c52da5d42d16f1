"""The table as the Mini App draws it (issue 40): plain data every game's adapter fills from a seat's view.

A ``Board`` is one game-agnostic picture: the seats around the table, the table's piles in sections (Bura's
trump and stock and trick, Buraco's pile and each pair's runs, Очко's bank), the viewer's hand with what a tap on
each card sends, the moves he may make now as buttons, and lines of what is going on. The page
(``bot/webapp/static/``) draws any game from it, so a new game writes its ``board`` and nothing on the page.

One truth: a board is built from the engine's view of its seat (a spectator's: the public view), so it names no
card that seat may not see; a card's and a button's ``data`` are the very ``HandCb`` data the private hand's
keyboard carries at this move (``POST /webapp/api/tap`` runs them through the same service as a button tap), so
the moves on the page are the keyboard's, and the refusals the engine's, in the viewer's language. Texts are
plain (no HTML): the page sets them as text, so a name is never markup.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final, Literal

from engine.core.cards import Suit

Layout = Literal["row", "fan", "stack", "run"]
"""How a pile is laid out: ``row`` cards side by side (a trick, a hand of Очко), ``fan`` overlapping (the discard
pile, the trick history), ``stack`` face down with its ``count`` (the stock, a morto), ``run`` a meld (Buraco)."""

SuitCode = Literal["S", "H", "D", "C", ""]
"""The engine's suit letter; "" for a joker (and a face-down card)."""


SUIT_CODES: Final[dict[Suit, SuitCode]] = {Suit.SPADES: "S", Suit.CLUBS: "C", Suit.HEARTS: "H", Suit.DIAMONDS: "D"}


def suit_code(suit: Suit | None) -> SuitCode:
    """A suit as a face carries it ("" for a joker's none)."""
    return "" if suit is None else SUIT_CODES[suit]


@dataclass(frozen=True, slots=True)
class Face:
    """One card as the page draws it. ``code`` is the engine's (``"QS"``, ``"TD"``, ``"JK"``), None face down;
    ``rank`` the rank as the viewer's language names it (``"Д"``, ``"10"``, ``"Q"``), ``suit`` the suit's letter
    (the page draws ♠♣ dark and ♥♦ red), ``wild`` a Buraco wild card standing in a run for another, ``note`` a
    short label under it (who played it)."""

    code: str | None
    rank: str = ""
    suit: SuitCode = ""
    wild: bool = False
    note: str | None = None


DOWN = Face(None)
"""A card whose face the viewer may not see."""


@dataclass(frozen=True, slots=True)
class Pile:
    """Cards lying together on the table. ``key`` names it for the page and the tests (``"trump"``, ``"stock"``,
    ``"trick"``, ``"pile"``, ``"run-0-2"``, ``"morto-1"``, ``"drawn"``, ``"trick-3"``); ``count`` the size of
    a face-down stack (its cards then are empty or its top card); ``note`` a line under it («ведёт Анна»,
    «чистая канастра», «+200»)."""

    key: str
    title: str
    cards: tuple[Face, ...] = ()
    layout: Layout = "row"
    count: int | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Section:
    """A titled part of the table: ``"table"`` (the middle), ``"runs-0"`` (a pair's runs), ``"history"`` (the
    deal's tricks so far), ``"bank"``; the page draws them in order."""

    key: str
    title: str
    piles: tuple[Pile, ...]


@dataclass(frozen=True, slots=True)
class SeatBox:
    """A seat around the table: who, whether it is the viewer, whether he is to act, the cards he holds (face down,
    a count; None where the game does not show it) and short lines (score, «сдаёт», «банкир», a bet)."""

    seat: int
    name: str
    you: bool
    acting: bool
    cards: int | None
    lines: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HandCard:
    """A card of the viewer's hand: its face, whether he marked it, and the data a tap on it sends (the hand
    keyboard's mark button for it; None when it cannot be marked now)."""

    face: Face
    marked: bool
    data: str | None


@dataclass(frozen=True, slots=True)
class Action:
    """A move button: its text and the ``HandCb`` data it sends, as the hand keyboard has it at this move."""

    text: str
    data: str


@dataclass(frozen=True, slots=True)
class Board:
    """The table for one viewer. ``title`` the game and the deal («Бура · сдача 3»); ``status`` lines of what
    happens now (whose turn, what the marks lack, the engine's reason for marks that make no move); ``score``
    lines of the match («Матч до 11: Анна 4 · Борис 7»); ``hand`` and ``actions`` empty for a spectator and while
    he waits. (How many deals are over, whose replays the page offers, is the services' count: the API adds it.)"""

    game: str
    title: str
    seats: tuple[SeatBox, ...]
    sections: tuple[Section, ...]
    hand: tuple[HandCard, ...] = ()
    actions: tuple[Action, ...] = ()
    status: tuple[str, ...] = ()
    score: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
