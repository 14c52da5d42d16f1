"""What happened: typed events returned by applying an action, for announcements.

Events are plain slotted records, fresh for every call and never shared, so they are not frozen: frozen
dataclasses cost three times as much to build, and play builds several per trick (see BENCHMARKS.md).

Every event is public: it holds nothing that any player may not see at that moment (a face-down card appears
only in the events of a claim or of the end of the deal, when the rules reveal it). What a single seat may see
besides comes from ``engine.bura.views``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from engine.bura.cards import Card
from engine.bura.combos import Combo


@dataclass(slots=True)
class DealStarted:
    deal_number: int
    dealer: int
    seats: tuple[int, ...]
    trump_card: Card
    leader: int
    stock: int


@dataclass(slots=True)
class Redealt:
    """[V18] REDEAL: a combo was dealt, the same dealer deals again."""

    dealer: int
    seat: int
    combo: Combo


@dataclass(slots=True)
class ComboShown:
    """A combination shown to the table: an instant win, a seizure, or the rightful leader keeping the lead."""

    seat: int
    combo: Combo
    cards: tuple[Card, ...]


@dataclass(slots=True)
class LeadSeized:
    """«Стоп!» succeeded: ``seat`` leads instead of ``previous``."""

    seat: int
    previous: int
    combo: Combo


@dataclass(slots=True)
class SeizureFailed:
    """«Стоп!» was answered by a combo that ranks higher: ``holder`` keeps the lead."""

    seat: int
    combo: Combo
    holder: int


@dataclass(slots=True)
class Led:
    seat: int
    cards: tuple[Card, ...]


@dataclass(slots=True)
class Responded:
    """An answer to the trick. ``cards`` is empty for a face-down answer (only ``count`` is public)."""

    seat: int
    cards: tuple[Card, ...]
    count: int
    face_down: bool
    beats: bool


@dataclass(slots=True)
class TrickTaken:
    trick_number: int
    seat: int
    side: int
    open_cards: tuple[Card, ...]
    face_down: int


@dataclass(slots=True)
class CardsDrawn:
    draws: tuple[tuple[int, int], ...]  # (seat, how many) in drawing order
    stock: int  # cards left in the stock
    trump_card_to: int | None  # the seat that drew the turned-up trump card, a public fact


@dataclass(slots=True)
class StockDead:
    """RULES §7.2: the cards left in the stock will never be drawn."""

    count: int


@dataclass(slots=True)
class LastCardsTaken:
    """RULES §7.4: the only player who still holds cards takes them as an unopposed last trick."""

    seat: int
    count: int


@dataclass(slots=True)
class Passed:
    seat: int


class PileCard(NamedTuple):
    """A card of a won pile. ``face_down`` cards stay hidden from all but ``played_by`` until revealed."""

    card: Card
    face_down: bool
    played_by: int


@dataclass(slots=True)
class Claimed:
    """«Вскрываюсь!»: the claimant's side pile is revealed and counted (RULES §8.4)."""

    seat: int
    side: int
    pile: tuple[PileCard, ...]
    points: int
    threshold: int
    success: bool


class OutcomeKind(Enum):
    WIN = "win"  # a combo or a correct claim
    FALSE_CLAIM = "false_claim"
    VOID = "void"  # nobody won (RULES §11.1)
    PLAYED_OUT = "played_out"  # settled by points (§11.2-§11.4); a full tie names every side
    FORFEIT = "forfeit"  # a table ruling (the bot's move timer): the seat's side loses the deal


@dataclass(slots=True)
class DealOutcome:
    """How a deal ended, in the abstract terms that match models score (RULES §12)."""

    kind: OutcomeKind
    winners: tuple[int, ...]  # winning sides (several on a split pot)
    seat: int | None  # the claimant, the combo holder, or None
    combo: Combo | None
    points: tuple[int, ...]  # captured points per side
    tricks: tuple[int, ...]  # tricks taken per side
    seats: tuple[int, ...]  # the seats that played the deal


@dataclass(slots=True)
class DealEnded:
    outcome: DealOutcome
    piles: tuple[tuple[PileCard, ...], ...]  # every side's pile, revealed at the end of the deal


@dataclass(slots=True)
class ScoreChanged:
    """The match score after a deal (meaning depends on the match model: wins, penalties or chips)."""

    scores: tuple[int, ...]
    wins: tuple[int, ...]  # the tally of won deals per side
    pot: int
    doubled_next: bool


@dataclass(slots=True)
class Eliminated:
    seat: int


@dataclass(slots=True)
class MatchEnded:
    winners: tuple[int, ...]  # sides
    losers: tuple[int, ...]  # sides


Event = (
    DealStarted
    | Redealt
    | ComboShown
    | LeadSeized
    | SeizureFailed
    | Led
    | Responded
    | TrickTaken
    | CardsDrawn
    | StockDead
    | LastCardsTaken
    | Passed
    | Claimed
    | DealEnded
    | ScoreChanged
    | Eliminated
    | MatchEnded
)
