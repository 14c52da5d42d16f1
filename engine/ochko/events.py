"""What happened, for the bot to announce (RULES §20.11). Events carry only what everyone at the table may see:
a player's own cards are never in an event (the bot shows them from his view, ``engine.ochko.views``), a dark
card is named only when the hand is settled, and every settled hand is shown (Ruling 10).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.ochko.cards import Card
from engine.ochko.hands import Case


class BankEnd(Enum):
    """Why a bank ended (§20.6 item 5)."""

    BROKEN = "broken"  # a player won what was left: the banker gets nothing back
    KNOCK = "knock"  # the «стук» round is over: the bank goes to the banker
    LEFT = "left"  # the banker left: the bank goes to him
    NO_PLAYERS = "no_players"  # nobody can bet against it: the bank goes to the banker


class LastRoundWhy(Enum):
    """Why a round is the bank's last (§20.6 item 4, §20.14 item 8)."""

    KNOCKED = "knocked"  # the banker knocked
    FORCED = "forced"  # [O08] FORCED_10X
    BANKER_LEFT = "banker_left"


class SkipWhy(Enum):
    """Why a player dealt in does not play his hand (§20.14 items 3, 5, 7)."""

    CANNOT_AFFORD = "cannot_afford"  # his chips are below lo (Ruling 11)
    NO_COVER = "no_cover"  # SHOWDOWN: the uncovered bank is 0 (§20.12)
    LEFT = "left"  # he left before his bet
    BANK_BROKEN = "bank_broken"  # the round stopped (Ruling 16)


@dataclass(frozen=True, slots=True)
class CutCard:
    """§20.5: a volunteer turned up a card in the cut for the bank."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class BankerChosen:
    """§20.5: the cut's winner is the first banker."""

    seat: int


@dataclass(frozen=True, slots=True)
class BankStaked:
    banker: int
    amount: int  # B₀


@dataclass(frozen=True, slots=True)
class KnockOffered:
    """§20.6 item 4: the banker is asked whether this round is his last."""

    banker: int
    bank: int


@dataclass(frozen=True, slots=True)
class LastRound:
    banker: int
    why: LastRoundWhy


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """§20.7: a fresh pack was shuffled (fair deal ``shuffle``) and dealt: one card to each seat in ``seats``
    (in deal order, unseen by the others), the banker's face up, and the marker («зарез») face up."""

    number: int
    banker: int
    bank: int
    seats: tuple[int, ...]
    banker_card: Card
    marker: Card | None
    shuffle: int


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """§20.7 item 8: the fresh cards ran out; the returned pile and the marker are the new pack."""

    cards: int
    shuffle: int


@dataclass(frozen=True, slots=True)
class DuelStarted:
    """§20.8: ``seat`` is asked for his bet; ``low``..``high`` are the legal amounts against ``cover``."""

    seat: int
    cover: int
    low: int
    high: int


@dataclass(frozen=True, slots=True)
class BetPlaced:
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class PlayerDrew:
    """A card to a player: seen by him alone, or by nobody when ``dark`` (the card is in his view, not here)."""

    seat: int
    cards: int  # how many he holds now
    dark: bool = False


@dataclass(frozen=True, slots=True)
class Stood:
    """The player's hand is over: he stood, went dark, reached 21 by itself, or left on his turn."""

    seat: int
    dark: bool


@dataclass(frozen=True, slots=True)
class BankerDrew:
    """A card to the banker: always face up (§20.8 item 4)."""

    card: Card
    value: int


@dataclass(frozen=True, slots=True)
class BankerStood:
    value: int


@dataclass(frozen=True, slots=True)
class BankerBusted:
    value: int


@dataclass(frozen=True, slots=True)
class PlayerBusted:
    """«Перебор»: the player's open hand went over 21 (§20.8 item 2); its ``Settled`` follows, cards shown."""

    seat: int
    value: int


@dataclass(frozen=True, slots=True)
class Skipped:
    """A player dealt in gives his card back unplayed."""

    seat: int
    why: SkipWhy


@dataclass(frozen=True, slots=True)
class Settled:
    """One hand settled by §20.10 (row ``case``): ``amount`` moves from the bank to the player or back. The hand
    is shown to the table, a dark card included (Ruling 10)."""

    seat: int
    player_won: bool
    amount: int
    case: Case
    cards: tuple[Card, ...]
    dark: bool
    value: int
    banker_cards: tuple[Card, ...]  # empty when the banker drew nothing against this hand
    bank: int  # after the payment
    chips: int  # the player's, after the payment


@dataclass(frozen=True, slots=True)
class RoundEnded:
    number: int
    bank: int


@dataclass(frozen=True, slots=True)
class BankClosed:
    """The bank ended (§20.6 item 5): ``paid`` chips went to the banker; ``breaker`` broke it."""

    banker: int
    why: BankEnd
    paid: int
    breaker: int | None
    banks_held: int


@dataclass(frozen=True, slots=True)
class BankPassed:
    """§20.6 item 6: ``seat`` is to stake the next bank."""

    seat: int


@dataclass(frozen=True, slots=True)
class SeatLeft:
    seat: int


@dataclass(frozen=True, slots=True)
class SessionEnded:
    """Ruling 17: the session is over; the standings are the chips (left seats' included)."""

    chips: tuple[int, ...]


Event = (
    CutCard
    | BankerChosen
    | BankStaked
    | KnockOffered
    | LastRound
    | RoundStarted
    | Reshuffled
    | DuelStarted
    | BetPlaced
    | PlayerDrew
    | Stood
    | BankerDrew
    | BankerStood
    | BankerBusted
    | PlayerBusted
    | Skipped
    | Settled
    | RoundEnded
    | BankClosed
    | BankPassed
    | SeatLeft
    | SessionEnded
)
