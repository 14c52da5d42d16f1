"""Очко's table as the Mini App draws it (issue 40, ``bot/games/board.py``): every seat with its chips, bet and
the number of cards it holds; the bank (its amount, B₀, the round), the pack and its marker; the banker's cards
(always face up); every hand settled this round (shown to all, a dark card too: Ruling 10); and for a seat his
own cards, a dark one face down (nobody sees it, not he either, until it is settled: RULES §20.8 item 3).

Read from the seat's view only (a spectator's: the public view, ``engine.ochko.views``), so the board names no
card its viewer may not see. The moves are the hand keyboard's own buttons (``hand.move_rows``, without 🔄), the
status lines the hand's (``hand.moment_lines``): the page and the keyboard cannot tell two stories. Очко marks
no card: a card of the hand sends nothing."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum

from bot.games.board import DOWN, Action, Board, Face, HandCard, Pile, SeatBox, Section, suit_code
from bot.games.ochko.buttons import read_selection
from bot.games.ochko.hand import moment_lines, move_rows
from bot.games.ochko.table import session_line, standings_text, turn_line
from bot.i18n import Translator
from bot.render.common import name_of, plain
from engine.ochko.cards import Card
from engine.ochko.hands import value
from engine.ochko.match import Match, Phase
from engine.ochko.views import SeatView, TableView, table_view, view


def face(card: Card | None, tr: Translator) -> Face:
    """A card as the page draws it; None (a dark card) face down."""
    if card is None:
        return DOWN
    return Face(card.code, tr.t(f"card-rank-{card.rank.value}"), suit_code(card.suit))


def _faces(cards: tuple[Card | None, ...], tr: Translator) -> tuple[Face, ...]:
    return tuple(face(card, tr) for card in cards)


def _points(cards: tuple[Card, ...], table: TableView, tr: Translator) -> str:
    return tr.t("ochko-web-points", total=value(cards, table.options))


def _seat_box(table: TableView, seat: int, viewer: int | None, names: Mapping[int, str], tr: Translator) -> SeatBox:
    banker = seat == table.banker and table.phase is not Phase.OVER
    lines = [tr.t("ochko-web-chips", chips=table.chips[seat])]
    if banker:
        lines.append(tr.t("ochko-web-banker"))
    if not table.present[seat]:
        lines.append(tr.t("ochko-seat-left"))
    bet = table.bets[seat]
    if bet is not None:
        lines.append(tr.t("ochko-web-bet", bet=bet))
    shown = table.shown[seat]
    if shown is not None:
        lines.append(tr.t("ochko-web-settled", points=_points(shown, table, tr)))
    elif seat in table.waiting:
        lines.append(tr.t("ochko-seat-waiting"))
    held = len(table.banker_cards) if banker else table.hand_sizes[seat]
    return SeatBox(
        seat=seat,
        name=plain(name_of(seat, names, tr)),
        you=seat == viewer,
        acting=table.to_act == seat,
        cards=held,
        lines=tuple(plain(line) for line in lines),
    )


def _sections(table: TableView, names: Mapping[int, str], tr: Translator) -> tuple[Section, ...]:
    if table.initial_stake:
        note = tr.t("ochko-web-bank-note", bank=table.bank, initial=table.initial_stake, round=table.round_no)
    elif table.phase is not Phase.OVER:
        note = tr.t("ochko-web-bank-to-stake", name=name_of(table.banker, names, tr))
    else:
        note = ""
    middle = [Pile("bank", tr.t("ochko-web-bank"), note=plain(note) or None)]
    if table.pack or table.marker is not None:
        middle.append(Pile("stock", tr.t("ochko-web-stock"), layout="stack", count=table.pack))
    if table.marker is not None:
        middle.append(Pile("marker", tr.t("ochko-web-marker"), (face(table.marker, tr),)))
    if table.returned:
        middle.append(Pile("returned", tr.t("ochko-web-returned"), layout="stack", count=table.returned))
    sections = [Section("bank", tr.t("ochko-web-bank-section"), tuple(middle))]
    if table.banker_cards:
        cards = table.banker_cards
        name = name_of(table.banker, names, tr)
        pile = Pile("banker", plain(name), _faces(cards, tr), note=_points(cards, table, tr))
        sections.append(Section("banker", plain(tr.t("ochko-web-banker-section", name=name)), (pile,)))
    hands = []
    for seat, shown in enumerate(table.shown):
        if shown is not None:
            note = tr.t("ochko-web-settled-note", bet=table.bets[seat] or 0, points=_points(shown, table, tr))
            hands.append(Pile(f"hand-{seat}", plain(name_of(seat, names, tr)), _faces(shown, tr), note=note))
    if hands:
        sections.append(Section("hands", tr.t("ochko-web-hands-section"), tuple(hands)))
    return tuple(sections)


def _public_status(table: TableView, names: Mapping[int, str], tr: Translator, *, paused: bool) -> list[str]:
    if paused:
        return [tr.t("hand-paused")]
    if table.finished:
        return [tr.t("ochko-hand-over")]
    turn = turn_line(table, names, tr)
    return [] if turn is None else [turn]


def ochko_board(
    match: Match,
    seat: int | None,
    names: Mapping[int, str],
    tr: Translator,
    *,
    table_id: int,
    move: int,
    selection: str,
    paused: bool,
    confirm: bool,
    refusal: Enum | None,
) -> Board:
    """``GameAdapter.board`` for Очко: the table for ``seat`` (None: a spectator), from his view alone. Очко asks
    no move to be confirmed: ``confirm`` changes nothing."""
    mine: SeatView | None = None if seat is None else view(match, seat)
    table = table_view(match) if mine is None else mine.table
    if mine is None:
        status = _public_status(table, names, tr, paused=paused)
        hand: tuple[HandCard, ...] = ()
        actions: tuple[Action, ...] = ()
    else:
        status = moment_lines(mine, names, tr, paused=paused, refusal=refusal)
        hand = tuple(HandCard(face(card, tr), False, None) for card in mine.hand)
        rows = move_rows(mine, tr, table_id=table_id, move=move, chosen=read_selection(selection), paused=paused)
        actions = tuple(Action(each["text"], each["callback_data"]) for row in rows for each in row)
    if table.last_round and table.phase is not Phase.OVER:
        status.insert(0, tr.t("ochko-last-round"))
    title = tr.t("ochko-web-title", game=tr.t("game-ochko"), session=session_line(table, tr))
    return Board(
        game="ochko",
        title=plain(title),
        seats=tuple(_seat_box(table, each, seat, names, tr) for each in range(len(table.chips))),
        sections=_sections(table, names, tr),
        hand=hand,
        actions=actions,
        status=tuple(plain(line) for line in status),
        score=(plain(tr.t("ochko-chips", standings=standings_text(table.chips, names, tr))),),
    )
