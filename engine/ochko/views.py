"""What anyone may see of an Очко table (RULES §20.8 item 4, §20.11 "Views"), and what one seat sees besides.

The table (spectators and every seat): the bank and its initial stake B₀, whether the round is the last, every
stack, the bets, the banker's hand (always face up), each player's number of cards and whether his last one is
dark, every hand already settled this round (shown, a dark card included: Ruling 10), the marker, how many fresh
cards are left, who acts and what he may bet. A seat sees besides his own unsettled cards, a dark card as a back
(``None``): nobody sees it, not he either, until it is settled. Never another player's unsettled cards, never
the pack's order.

Views are frozen values that hold no reference to the match: a computer player (``engine.ochko.ai``) decides
from a ``SeatView`` alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.ochko.actions import Action
from engine.ochko.cards import Card
from engine.ochko.match import Match, Phase
from engine.ochko.variant import Options

BACK = None  # a card face down (🂠)


@dataclass(frozen=True, slots=True)
class TableView:
    options: Options
    phase: Phase
    to_act: int | None
    banker: int
    bank: int
    initial_stake: int  # B₀ (0 before a bank is staked)
    last_round: bool
    round_no: int
    banks_held: int
    max_banks: int  # 0: unlimited
    finished: bool
    chips: tuple[int, ...]
    present: tuple[bool, ...]
    dealt: tuple[int, ...]  # the players dealt in this round, in deal order
    bets: tuple[int | None, ...]  # by seat, this round
    hand_sizes: tuple[int, ...]  # by seat: cards held and not yet settled
    dark: tuple[bool, ...]  # by seat: his last card is a dark one
    waiting: tuple[int, ...]  # stood, the banker to play against them
    shown: tuple[tuple[Card, ...] | None, ...]  # by seat: the hand settled this round, shown to all
    banker_cards: tuple[Card, ...]  # his first card, then what he drew in this duel
    marker: Card | None
    pack: int  # fresh cards left below the marker
    returned: int  # cards in the returned pile
    current: int | None  # the player whose hand is being played (BET, PLAY)
    cover: int  # what a bet may win now (§20.8 item 1, §20.12)
    low: int  # the bet range of the player to bet (BET), else 0
    high: int
    buttons: tuple[int, int, int, int]  # BET: минимум, треть, половина, весь банк (Ruling 24), else zeros


@dataclass(frozen=True, slots=True)
class SeatView:
    """What ``seat`` sees: the table, his own unsettled cards (a dark one as ``BACK``) and his legal actions."""

    table: TableView
    seat: int
    hand: tuple[Card | None, ...]
    legal: tuple[Action, ...]

    @property
    def seen(self) -> tuple[Card, ...]:
        """His own cards that he has seen (a dark card excluded)."""
        return tuple(card for card in self.hand if card is not None)


def table_view(match: Match) -> TableView:
    """The public view: what a spectator sees."""
    seats = range(match.players)
    low, high = match.bet_range(match.current) if match.phase is Phase.BET and match.current is not None else (0, 0)
    return TableView(
        options=match.options,
        phase=match.phase,
        to_act=match.to_act(),
        banker=match.banker,
        bank=match.bank,
        initial_stake=match.initial_stake,
        last_round=match.last_round or match.banker_left,
        round_no=match.round_no,
        banks_held=match.banks_held,
        max_banks=match.max_banks,
        finished=match.finished,
        chips=tuple(match.chips),
        present=tuple(match.present),
        dealt=tuple(match.dealt),
        bets=tuple(match.bets.get(seat) for seat in seats),
        hand_sizes=tuple(len(match.hands.get(seat, ())) for seat in seats),
        dark=tuple(seat in match.dark and seat in match.hands for seat in seats),
        waiting=tuple(match.waiting),
        shown=tuple(match.shown.get(seat) for seat in seats),
        banker_cards=tuple(match.banker_hand),
        marker=match.marker,
        pack=len(match.pack),
        returned=len(match.returned),
        current=match.current,
        cover=match.cover() if match.in_round else 0,
        low=low,
        high=high,
        buttons=match.bet_buttons(),
    )


def public_view(match: Match) -> TableView:
    """The spectators' view (an alias of :func:`table_view`)."""
    return table_view(match)


def view(match: Match, seat: int) -> SeatView:
    """What ``seat`` may see (§20.8 item 4): the table and his own cards, the dark one face down."""
    held = match.hands.get(seat, [])
    hand = tuple(BACK if seat in match.dark and index == len(held) - 1 else card for index, card in enumerate(held))
    return SeatView(table_view(match), seat, hand, tuple(match.legal_actions(seat)))
