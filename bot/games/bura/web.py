"""The Bura family's table as the Mini App draws it (issue 40, ``bot/games/board.py``).

Built from the engine's view of the seat (a spectator's: the public view) and nothing else, so it names no card
that seat may not see: a face-down answer he may not look at is a card with no face. The hand's cards and the
moves are the private hand's own buttons (``card_buttons``, ``action_rows``, ``claim_confirm_rows`` of
``bot/games/bura/hand.py``): a tap on the page sends what the same tap on the keyboard sends. The lines are the
hand's and the group table's, made plain text (the page sets them as text).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Final

from bot.games.board import DOWN, Action, Board, Face, HandCard, Pile, SeatBox, Section, suit_code
from bot.games.bura.buttons import unpack_cards
from bot.games.bura.cards import rank_text, suit_name
from bot.games.bura.common import match_goal, sorted_selection
from bot.games.bura.hand import (
    Buttons,
    action_rows,
    card_buttons,
    claim_confirm_rows,
    display_order,
    may_claim,
    moment_lines,
    tricks_taken,
    waiting_lines,
)
from bot.games.bura.settings import profile_of_variant
from bot.games.bura.table import score_lines
from bot.i18n import Translator
from bot.render.common import name_of, plain, separator, side_of, signed_number
from engine.bura.cards import Card
from engine.bura.deal import Phase
from engine.bura.errors import Reason
from engine.bura.match import Match
from engine.bura.variant import MatchKind, MatchModel
from engine.bura.views import PublicView, SeatView, TrickView, public_view, view

_TO_ACT: Final = {Phase.RESPOND: "table-to-answer", Phase.FINAL_CLAIM: "table-to-claim"}  # else "table-to-lead"


def bura_board(
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
    """The table for ``seat`` (None: a spectator): its hand and moves as ``render_hand`` draws them with the same
    arguments (the same ``HandCb`` data), none while the table is paused."""
    seat_view = view(match, seat) if seat is not None else None
    table = seat_view.table if seat_view is not None else public_view(match)
    model = match.variant.match
    game = tr.t(f"game-name-{profile_of_variant(match.variant).value}")
    hand: tuple[HandCard, ...] = ()
    actions: tuple[Action, ...] = ()
    if seat_view is None:
        status = waiting_lines(table, names, tr)
    elif paused:
        status = [tr.t("hand-paused")]
    else:
        hand, actions, status = _moves(seat_view, names, tr, table_id, move, selection, confirm, refusal)
    if table.finished:
        status = [tr.t("table-over")]
    sections = [Section("table", tr.t("bura-board-table"), _table_piles(table, names, tr))]
    if table.history:
        sections.append(Section("history", tr.t("bura-board-history"), _history_piles(table, names, tr)))
    return Board(
        game="bura",
        title=tr.t("bura-board-title", game=game, deal=table.deal_number, match=match_goal(model, tr)),
        seats=_seats(table, seat, names, tr, model),
        sections=tuple(sections),
        hand=hand,
        actions=actions,
        status=tuple(plain(line) for line in status if line),
        score=tuple(plain(line) for line in score_lines(table, names, tr, model)),
    )


def _moves(
    seat_view: SeatView,
    names: Mapping[int, str],
    tr: Translator,
    table_id: int,
    move: int,
    selection: str,
    confirm: bool,
    refusal: Enum | None,
) -> tuple[tuple[HandCard, ...], tuple[Action, ...], list[str]]:
    """The hand (each card with its mark button's data), the move buttons and the moment's lines, as the private
    hand has them: a claim asked once more offers only its two answers, and a forced lead no card to mark."""
    order = display_order(seat_view)
    selected = sorted_selection(order, unpack_cards(selection))
    make = Buttons(table_id, move)
    claimable = may_claim(seat_view)
    if confirm and claimable:
        taps: dict[Card, str] = {}
        rows = claim_confirm_rows(tr, make, selected)
        status = [tr.t("hand-claim-confirm", count=tricks_taken(seat_view))]
    else:
        taps = {card: tap["callback_data"] for card, tap in card_buttons(seat_view, tr, make, selected)}
        rows = action_rows(seat_view, tr, make, selected, claimable, refresh=False)
        reason = refusal if isinstance(refusal, Reason) else None
        status = moment_lines(seat_view, names, tr, selected, reason, claimable)
    hand = tuple(HandCard(face(card, tr), card in selected, taps.get(card)) for card in order)
    actions = tuple(Action(each["text"], each["callback_data"]) for row in rows for each in row)
    return hand, actions, status


def face(card: Card, tr: Translator, note: str | None = None) -> Face:
    """A card as the page draws it: its code, its rank in the viewer's language, its suit's letter."""
    return Face(card.code, rank_text(card, tr), suit_code(card.suit), note=note)


def _name(seat: int, names: Mapping[int, str], tr: Translator) -> str:
    return plain(name_of(seat, names, tr))


def _seats(
    table: PublicView, viewer: int | None, names: Mapping[int, str], tr: Translator, model: MatchModel
) -> tuple[SeatBox, ...]:
    """Every seat of the match: the cards he holds, whether he deals, his side's tricks (and points, where shown)
    this deal and its match score; a seat out of the match is marked so."""
    held = dict(table.hand_sizes)
    boxes = []
    for seat in range(table.players):
        side = side_of(seat, table.teams)
        lines = []
        if seat == table.dealer:
            lines.append(tr.t("bura-board-dealer"))
        if seat in held and side < len(table.tricks_won):
            key = "bura-board-tricks-pair" if table.teams else "bura-board-tricks"
            lines.append(tr.t(key, count=table.tricks_won[side]))
            if table.points is not None and side < len(table.points):  # casual mode only (RULES §6.7)
                lines.append(tr.t("bura-board-points", count=table.points[side]))
        if side < len(table.scores):
            lines.extend(_seat_score(model, table.scores[side], tr))
        if seat not in table.active:
            lines.append(tr.t("bura-board-out"))
        boxes.append(
            SeatBox(
                seat=seat,
                name=_name(seat, names, tr),
                you=seat == viewer,
                acting=seat == table.to_act,
                cards=held.get(seat),
                lines=tuple(plain(line) for line in lines),
            )
        )
    return tuple(boxes)


def _seat_score(model: MatchModel, score: int, tr: Translator) -> list[str]:
    """A side's match score as its model counts it; nothing in a match of one deal."""
    if model.kind is MatchKind.ROBBER:
        return [tr.t("bura-board-score", count=score)]
    if model.kind in (MatchKind.PENALTY_12, MatchKind.BURKOZEL):
        return [tr.t("bura-board-penalty", count=score)]
    if model.kind is MatchKind.POT:
        return [tr.t("bura-board-chips", chips=signed_number(score))]
    return []


def _table_piles(table: PublicView, names: Mapping[int, str], tr: Translator) -> tuple[Pile, ...]:
    """The turned-up trump card (and who drew it), the stock, the trick on the table and the combos shown."""
    holder = table.trump_card_holder
    piles = [
        Pile(
            "trump",
            plain(tr.t("bura-board-trump", suit=suit_name(table.trump, tr))),
            (face(table.trump_card, tr),),
            note=plain(tr.t("bura-board-trump-held", name=name_of(holder, names, tr))) if holder is not None else None,
        )
    ]
    stock_notes = [] if table.stock else [tr.t("bura-board-stock-empty")]
    if table.dead:
        stock_notes.append(tr.t("table-dead", count=table.dead))
    piles.append(
        Pile(
            "stock",
            tr.t("bura-board-stock"),
            layout="stack",
            count=table.stock,
            note=plain(separator(tr).join(stock_notes)) if stock_notes else None,
        )
    )
    trick = table.trick
    if trick is not None:
        notes = [tr.t("bura-board-trick-owner", name=name_of(trick.owner, names, tr))]
        if table.to_act is not None and not table.finished:
            key = _TO_ACT.get(table.phase, "table-to-lead")
            notes.insert(0, tr.t(key, name=name_of(table.to_act, names, tr)))
        piles.append(
            Pile(
                "trick",
                plain(tr.t("table-trick", number=trick.number)),
                _trick_faces(trick, names, tr),
                note=plain(separator(tr).join(notes)),
            )
        )
    for shown in table.shown:
        piles.append(
            Pile(
                f"shown-{shown.seat}",
                plain(tr.t("bura-board-shown", combo=tr.t(f"combo-{shown.combo.value}"))),
                tuple(face(card, tr) for card in shown.cards),
                note=_name(shown.seat, names, tr),
            )
        )
    return tuple(piles)


def _history_piles(table: PublicView, names: Mapping[int, str], tr: Translator) -> tuple[Pile, ...]:
    """The deal's tricks taken so far, oldest first, each with who took it (face-down cards as the view hides
    them)."""
    return tuple(
        Pile(
            f"trick-{trick.number}",
            plain(tr.t("table-trick", number=trick.number)),
            _trick_faces(trick, names, tr),
            note=plain(tr.t("bura-board-taken", name=name_of(trick.owner, names, tr))),
        )
        for trick in table.history
    )


def _trick_faces(trick: TrickView, names: Mapping[int, str], tr: Translator) -> tuple[Face, ...]:
    """The lead and every answer, each card with who played it: a face-down answer the view hides is a card with
    no face, one the viewer may see (his own, the taker's peek) says it went face down."""
    leader = _name(trick.leader, names, tr)
    faces = [face(card, tr, leader) for card in trick.lead]
    for play in trick.plays:
        who = _name(play.seat, names, tr)
        if play.cards:
            note = plain(tr.t("bura-board-face-down", name=name_of(play.seat, names, tr))) if play.face_down else who
            faces.extend(face(card, tr, note) for card in play.cards)
        else:
            faces.extend(Face(DOWN.code, note=who) for _ in range(play.count))
    return tuple(faces)
