"""What an Очко move tells the group as a new message (which is sure to arrive, unlike an edit of the table):
one message a commit at most. A settlement (who won, the hands shown, the amount and the bank after), «Стук!»,
the bank broken or closed and passed, the first banker's cut, a new bank and the session's end ring; a player
leaving, a player skipped and a reshuffle are quiet news. Bets, cards and the banker's draws show in the table,
which is edited silently.

Events carry only what the whole table may see (engine/ochko/events.py): nothing here can name a hidden card."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.games.base import Quiet
from bot.games.ochko.cards import card_text, cards_text
from bot.games.ochko.table import standings_text
from bot.i18n import Translator
from bot.render.common import name_of
from engine.ochko.events import (
    BankClosed,
    BankEnd,
    BankerChosen,
    BankPassed,
    BankStaked,
    CutCard,
    Event,
    LastRound,
    LastRoundWhy,
    Reshuffled,
    SeatLeft,
    SessionEnded,
    Settled,
    Skipped,
    SkipWhy,
)
from engine.ochko.hands import value
from engine.ochko.variant import Options


def settled_line(event: Settled, banker: int, options: Options, names: Mapping[int, str], tr: Translator) -> str:
    """One settlement (RULES §20.10): who won and how much, the hand shown (a dark card too), the banker's hand
    where he drew against it, and the bank after."""
    player = name_of(event.seat, names, tr)
    hand = tr.t("ochko-cards-worth", cards=cards_text(event.cards, tr), total=event.value)
    if event.dark:
        hand = tr.t("ochko-hand-dark", hand=hand)
    key = "ochko-settled-won" if event.player_won else "ochko-settled-lost"
    line = tr.t(key, name=player, amount=event.amount, hand=hand, case=tr.t(f"ochko-case-{event.case.value}"))
    if event.banker_cards:
        banker_hand = tr.t(
            "ochko-cards-worth", cards=cards_text(event.banker_cards, tr), total=value(event.banker_cards, options)
        )
        line += "\n" + tr.t("ochko-settled-banker", name=name_of(banker, names, tr), hand=banker_hand)
    line += "\n" + tr.t("ochko-settled-after", bank=event.bank, name=player, chips=event.chips)
    return line


def render_announcements(
    events: Sequence[Event], banker: int, options: Options, names: Mapping[int, str], tr: Translator
) -> list[str]:
    """The commit's one message for the group, or none. ``banker`` is the seat that banked when the move began
    (a closing bank passes it on in the same move)."""
    lines: list[str] = []
    rings = False
    cut: list[str] = []
    for event in events:
        if isinstance(event, CutCard):
            cut.append(tr.t("ochko-cut-card", name=name_of(event.seat, names, tr), card=card_text(event.card, tr)))
        elif isinstance(event, BankerChosen):
            rings = True
            if cut:
                lines.append(tr.t("ochko-cut", cards=tr.t("tally-separator").join(cut)))
            lines.append(tr.t("ochko-banker-chosen", name=name_of(event.seat, names, tr)))
            banker = event.seat
        elif isinstance(event, BankStaked):
            rings = True
            banker = event.banker
            lines.append(tr.t("ochko-staked", name=name_of(event.banker, names, tr), amount=event.amount))
        elif isinstance(event, LastRound):
            rings = rings or event.why is not LastRoundWhy.BANKER_LEFT
            lines.append(tr.t(f"ochko-last-{event.why.value}", name=name_of(event.banker, names, tr)))
        elif isinstance(event, Settled):
            rings = True
            lines.append(settled_line(event, banker, options, names, tr))
        elif isinstance(event, Skipped) and event.why is not SkipWhy.BANK_BROKEN:
            lines.append(tr.t(f"ochko-skipped-{event.why.value}", name=name_of(event.seat, names, tr)))
        elif isinstance(event, Reshuffled):
            lines.append(tr.t("ochko-reshuffled", count=event.cards))
        elif isinstance(event, BankClosed):
            rings = True
            lines.append(closed_line(event, names, tr))
        elif isinstance(event, BankPassed):
            rings = True
            banker = event.seat
            lines.append(tr.t("ochko-bank-passed", name=name_of(event.seat, names, tr)))
        elif isinstance(event, SeatLeft):
            lines.append(tr.t("ochko-left", name=name_of(event.seat, names, tr)))
        elif isinstance(event, SessionEnded):
            rings = True
            lines.append(tr.t("ochko-session-ended"))
            lines.append(standings_text(event.chips, names, tr))
    if not lines:
        return []
    text = "\n".join(lines)
    return [text if rings else Quiet(text)]


def closed_line(event: BankClosed, names: Mapping[int, str], tr: Translator) -> str:
    """Why the bank ended (RULES §20.6 item 5) and what went to its banker."""
    banker = name_of(event.banker, names, tr)
    if event.why is BankEnd.BROKEN:
        breaker = name_of(event.breaker, names, tr) if event.breaker is not None else banker
        return tr.t("ochko-closed-broken", name=banker, breaker=breaker)
    return tr.t(f"ochko-closed-{event.why.value}", name=banker, paid=event.paid)


def story_lines(events: Sequence[Event], names: Mapping[int, str], tr: Translator) -> list[str]:
    """What a private hand tells of a move in a group game: a bank's end and the session's. Not each settlement:
    a hand the move did not change is not edited (issue 35), and the group has the settlement anyway."""
    told: list[str] = []
    for event in events:
        if isinstance(event, BankClosed):
            told.append(closed_line(event, names, tr))
        elif isinstance(event, BankPassed):
            told.append(tr.t("ochko-bank-passed", name=name_of(event.seat, names, tr)))
        elif isinstance(event, SessionEnded):
            told += [tr.t("ochko-session-ended"), standings_text(event.chips, names, tr)]
    return told
