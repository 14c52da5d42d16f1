"""Buraco's table as the Mini App draws it (issue 40, ``bot/games/board.py``).

Everything shown comes from the viewer's view (``engine.buraco.views``): a seat's ``HandView``, a spectator's
``TableView``. So the board names the cards of the seat's own hand, the pile, both pairs' runs, his opening's
draft and the first card he drew (RULES §17.7a-3), and no other: hands, the stock and the mortos are counts
(§17.2), and a draw from the stock is never named. The match's deal is asked only which moves the engine would
take now, as the hand keyboard asks it (``bot/games/buraco/hand.py``).

The hand's cards and the moves are the keyboard's own buttons, made by the same functions (``card_buttons``,
``moment``, ``sort_button``): a tap on the page sends exactly what the keyboard's button sends. Texts are plain.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Final

from bot.games.board import Action, Board, Face, HandCard, Pile, SeatBox, Section, suit_code
from bot.games.buraco.cards import WILD_MARK, rank_label, rank_text
from bot.games.buraco.hand import Buttons, card_buttons, moment, sort_button
from bot.games.buraco.moves import Selection
from bot.games.buraco.table import score_lines
from bot.i18n import Translator
from bot.render.common import name_of, plain, side_name
from bot.render.reasons import reason_text
from engine.buraco.cards import Card
from engine.buraco.deal import HAND
from engine.buraco.match import Match
from engine.buraco.melds import Meld
from engine.buraco.views import HandView, TableView, hand_view, table_view

GAME: Final = "buraco"
PAIRS: Final = (0, 1)
SEATS: Final = 4
MORTO: Final = HAND  # RULES §17.2: two mortos of 11


def face(card: Card, tr: Translator, *, wild: bool = False, note: str | None = None) -> Face:
    """A card face up: its engine code, its rank as the viewer's language writes it, its suit's letter."""
    return Face(card.code, rank_label(card, tr), suit_code(card.suit), wild, note)


def run_faces(meld: Meld, tr: Translator) -> tuple[Face, ...]:
    """A run low to high; its substitute (a joker, or a 2 out of its place) wild, noted with the rank it stands
    for (``→5``), as the table's line marks it."""
    faces = []
    for position, card in enumerate(meld.cards, start=meld.low):
        if position == meld.wild_at:
            faces.append(face(card, tr, wild=True, note=WILD_MARK + rank_text(position, tr)))
        else:
            faces.append(face(card, tr))
    return tuple(faces)


def board(
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
    """The table for ``seat`` (None: a spectator). Buraco asks no move to be confirmed: ``confirm`` changes
    nothing."""
    view = hand_view(match, seat) if seat is not None else None
    table = view.table if view is not None else table_view(match)
    hand: tuple[HandCard, ...] = ()
    actions: tuple[Action, ...] = ()
    if view is not None:
        try:
            chosen = Selection.unpack(selection, len(view.hand))
        except ValueError:
            chosen = Selection()
        make = Buttons(table_id, move)
        said, rows = moment(view, match.deal, names, tr, make, chosen, paused=paused, refusal=refusal)
        status = [plain(line) for line in said if line]
        if not paused:
            hand = tuple(
                HandCard(face(each.card, tr), each.marked, each.button["callback_data"])
                for each in card_buttons(view.hand, chosen, tr, make)
            )
            moves = [*(each for row in rows for each in row), sort_button(chosen, tr, make)]
            actions = tuple(Action(each["text"], each["callback_data"]) for each in moves)
    else:
        status = [plain(tr.t("hand-paused"))] if paused else []
        if not table.finished and table.turn is not None and not paused:
            status.append(plain(tr.t("buraco-turn", name=name_of(table.turn, names, tr))))
    if refusal is not None:
        said_why = plain(tr.t("buraco-refused", reason=reason_text(refusal, tr)))
        if said_why not in status:  # the marks' line says it in the meld phase; said at any other moment too
            status.append(said_why)
    if table.finished:
        winner = table.winner if table.winner is not None else 0
        status.append(plain(tr.t("buraco-match-won", side=side_name(winner, True, names, tr))))
    return Board(
        game=GAME,
        title=tr.t("buraco-web-title", game=tr.t("game-buraco"), deal=table.deal_number),
        seats=_seats(table, seat, names, tr),
        sections=(_middle(table, view, names, tr), *_runs(table, view, names, tr)),
        hand=hand,
        actions=actions,
        status=tuple(status),
        score=tuple(plain(line) for line in score_lines(table.deal_number, table.totals, table.turn, names, tr)),
    )


def _seats(table: TableView, viewer: int | None, names: Mapping[int, str], tr: Translator) -> tuple[SeatBox, ...]:
    boxes = []
    for seat in range(SEATS):
        side = seat % 2
        points = "buraco-web-points-vulnerable" if table.vulnerable[side] else "buraco-web-points"
        lines = [
            plain(tr.t("buraco-web-partner", name=name_of((seat + 2) % SEATS, names, tr))),
            tr.t(points, points=table.totals[side]),
        ]
        if table.morto_taken[side]:
            lines.append(tr.t("buraco-morto-taken"))
        if seat == table.dealer:
            lines.append(tr.t("buraco-web-dealer"))
        boxes.append(
            SeatBox(
                seat=seat,
                name=plain(name_of(seat, names, tr)),
                you=seat == viewer,
                acting=not table.finished and table.turn == seat,
                cards=table.hand_sizes[seat],
                lines=tuple(lines),
            )
        )
    return tuple(boxes)


def _middle(table: TableView, view: HandView | None, names: Mapping[int, str], tr: Translator) -> Section:
    """The stock (a count), the whole pile bottom first (RULES §17.3: spread, every card seen), the first card
    drawn (to the one who drew it: §17.7a-1), and each pair's morto (a count)."""
    piles = [
        Pile("stock", tr.t("buraco-web-stock"), layout="stack", count=table.stock),
        Pile("pile", tr.t("buraco-web-pile"), tuple(face(card, tr) for card in table.pile), layout="fan"),
    ]
    if view is not None and view.drawn is not None:
        piles.append(Pile("drawn", tr.t("buraco-web-drawn"), (face(view.drawn, tr),)))
    waiting = [side for side in PAIRS if not table.morto_taken[side]]
    for side in PAIRS:
        title = plain(tr.t("buraco-web-morto", pair=side_name(side, True, names, tr)))
        taker = table.morto_takers[side]
        count = 0
        if table.morto_taken[side]:
            who = name_of(taker, names, tr) if taker is not None else side_name(side, True, names, tr)
            note = plain(tr.t("buraco-web-morto-taken", name=who))
        elif table.mortos >= len(waiting):
            count, note = MORTO, tr.t("buraco-web-morto-waiting")
        elif table.mortos:  # RULES §17.7a-6: one left, and whichever pair empties a hand first takes it
            count, note = MORTO, tr.t("buraco-web-morto-shared")
        else:  # taken by the other pair, or gone into the stock (§17.6)
            note = tr.t("buraco-web-morto-none")
        piles.append(Pile(f"morto-{side}", title, layout="stack", count=count, note=note))
    return Section("table", tr.t("buraco-web-table"), tuple(piles))


def _runs(table: TableView, view: HandView | None, names: Mapping[int, str], tr: Translator) -> tuple[Section, ...]:
    """Each pair's runs, the viewer's pair first, numbered as the table numbers them (a pile's key counts from
    0, as the add buttons do); a seat's opening draft (RULES §17.5) in his pair's, for him alone."""
    order = PAIRS if view is None else (view.side, 1 - view.side)
    sections = []
    for side in order:
        draft = view is not None and side == view.side and bool(view.draft)
        runs = view.draft if view is not None and draft else table.runs[side]
        piles = []
        for number, meld in enumerate(runs):
            if draft:
                note: str | None = tr.t("buraco-web-draft")
            elif meld.canastra:
                kind = tr.t("buraco-canastra-clean" if meld.clean else "buraco-canastra-dirty")
                note = tr.t("buraco-web-canastra", kind=kind, points=meld.bonus)
            else:
                note = None
            title = tr.t("buraco-web-run", number=number + 1)
            piles.append(Pile(f"run-{side}-{number}", title, run_faces(meld, tr), layout="run", note=note))
        sections.append(Section(f"runs-{side}", plain(side_name(side, True, names, tr)), tuple(piles)))
    return tuple(sections)
