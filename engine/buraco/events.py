"""What happened, for the bot to announce. Events carry only what everyone at the table may see, except
where a field says it is for one seat (the bot shows those to that seat alone)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.buraco.cards import Card
from engine.buraco.melds import Meld


@dataclass(frozen=True, slots=True)
class DealStarted:
    number: int
    dealer: int
    first: int
    vulnerable: tuple[bool, bool]  # §17.5, fixed before the deal


@dataclass(frozen=True, slots=True)
class Drew:
    seat: int  # from the stock; the card is the drawer's alone


@dataclass(frozen=True, slots=True)
class Rejected:
    seat: int
    card: Card  # the deal's first card, shown and put face up on the pile (§17.3)


@dataclass(frozen=True, slots=True)
class TookPile:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class RunLaid:
    seat: int
    side: int
    run: int
    meld: Meld


@dataclass(frozen=True, slots=True)
class RunExtended:
    seat: int
    side: int
    run: int
    card: Card
    meld: Meld  # as it is now


@dataclass(frozen=True, slots=True)
class Opened:
    """A vulnerable pair's opening of 75 or more, laid at once (§17.5)."""

    seat: int
    side: int
    melds: tuple[Meld, ...]
    points: int


@dataclass(frozen=True, slots=True)
class Discarded:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class MortoTaken:
    seat: int
    side: int
    direta: bool  # direta: by melding, play goes on; indireta: by discarding, from the next turn (§17.6)


@dataclass(frozen=True, slots=True)
class StockRenewed:
    """A draw found the stock empty and the first untouched morto became the stock (§17.6, §17.7a-15); the draw
    that follows takes its top card. ``size`` is the new stock's before that draw (a morto's 11)."""

    size: int


@dataclass(frozen=True, slots=True)
class SideScore:
    """One pair's deal score, term by term (RULES §17.7)."""

    melded: int
    bonuses: int
    going_out: int
    in_hands: int  # subtracted
    morto_penalty: int  # subtracted

    @property
    def total(self) -> int:
        return self.melded + self.bonuses + self.going_out - self.in_hands - self.morto_penalty


@dataclass(frozen=True, slots=True)
class DealScored:
    number: int
    closer: int | None  # the pair that went out (batida), None when the stock and mortos ran out
    scores: tuple[SideScore, SideScore]
    totals: tuple[int, int]


@dataclass(frozen=True, slots=True)
class MatchEnded:
    winner: int
    totals: tuple[int, int]


Event = (
    DealStarted
    | Drew
    | Rejected
    | TookPile
    | RunLaid
    | RunExtended
    | Opened
    | Discarded
    | MortoTaken
    | StockRenewed
    | DealScored
    | MatchEnded
)
