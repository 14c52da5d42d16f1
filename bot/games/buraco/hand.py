"""A Buraco player's private hand: the cards as toggle buttons (at most six a row, marked ones checked) and the
actions that fit the moment, each a button only when the engine would take it (RULES §17.3-§17.6).

Marks that make no move are said in the text with the engine's reason, once no more marks could make one (a
run is built card by card). A vulnerable pair's opening is shown to the one laying it as a draft with its points
against the 75 it needs (§17.5), and the discard it waits for is said there, not refused tap after tap.

In a group game the table is a message among many in another chat, so the hand carries what a turn needs of it
(issue 37), on the player's turn: the pile's top cards, both pairs' runs, the card just drawn; add buttons name
the run by its cards.

The Mini App's board (``bot/games/buraco/web.py``) shows the same hand and moves: it makes them with this module's
``card_buttons``, ``moment`` and ``sort_button``, so a tap on the page sends what the keyboard's button sends.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from bot.games.base import HandStory
from bot.games.buraco.buttons import HandButton, Op
from bot.games.buraco.cards import card_text, cards_text, meld_ends, meld_text
from bot.games.buraco.moves import BY_RANK, BY_SUIT, Selection, addition_plans, display, may_grow, new_run_plans
from bot.games.buraco.table import run_line
from bot.i18n import Translator
from bot.render.common import clip, name_of, side_name
from bot.render.keyboard import Button, Keyboard, button, keyboard
from bot.render.reasons import reason_text
from bot.telegram.callbacks import HandCb, PlayCb
from engine.buraco.actions import CancelDraft, Discard, TakePile
from engine.buraco.cards import Card
from engine.buraco.deal import OPENING_MINIMUM, Deal, Phase
from engine.buraco.errors import Reason
from engine.buraco.views import HandView

CARDS_A_ROW = 6
ADDS_A_ROW = 2  # an add button names its run («К ряду 3♥️–9♥️»): two fit a phone's row
PILE_SHOWN = 12  # the pile's top cards a hand shows (all of a short pile): a line a phone wraps once


class Buttons:
    """Makes a hand's buttons: a ``HandButton`` with its text, as ``HandCb`` data naming the table and the move.
    The keyboard and the Mini App's board (``bot/games/buraco/web.py``) both make theirs with it."""

    def __init__(self, table_id: int, move: int) -> None:
        self.table_id = table_id
        self.move = move

    def __call__(self, text: str, tapped: HandButton) -> Button:
        return button(text, HandCb.data(self.table_id, self.move, tapped.op, tapped.payload()))


@dataclass(frozen=True, slots=True)
class CardButton:
    """A card of the hand as its button: the card, whether it is marked, and the button that marks or unmarks it."""

    card: Card
    marked: bool
    button: Button


def render_hand(
    view: HandView,
    deal: Deal,
    names: Mapping[int, str],
    tr: Translator,
    *,
    table_id: int,
    move: int,
    title: str,
    selection: Selection,
    paused: bool = False,
    story: HandStory | None = None,
) -> tuple[str, Keyboard]:
    """The hand message: what the moment asks, the hand, an opening's draft; its cards and actions as buttons.

    ``deal`` is asked only which of the marked cards' moves the engine would take (never for anything to show).
    """
    story = story or HandStory()
    make = Buttons(table_id, move)
    table = view.table
    lines = [*story.notes]
    if story.table_text is not None:
        lines += [story.table_text, ""]
    head = tr.t("buraco-hand-title", title=html.escape(title)) if title else tr.t("game-buraco")
    lines.append(f"<b>{head}</b>")
    if story.table_text is None and table.turn == view.seat and not table.finished and not paused:
        # A group game: the table is in another chat, among its messages. Shown for his turn only: a waiting
        # hand that followed every move of the others would be edited at every commit (issue 35).
        lines += table_context(view, names, tr)
    if table.finished and story.table_text is not None:
        # a game against the computer is over: its last word, and a new game (/play with the chat's settings)
        lines += draft_lines(view, tr)
        return clip("\n".join(lines)), keyboard([[button(tr.t("play-again"), PlayCb().pack())]])
    said, rows = moment(view, deal, names, tr, make, selection, paused=paused, refusal=story.refusal)
    lines += said
    lines.append(tr.t("buraco-your-hand", count=len(view.hand)))
    card_row = [each.button for each in card_buttons(view.hand, selection, tr, make)]
    keys = [card_row[i : i + CARDS_A_ROW] for i in range(0, len(card_row), CARDS_A_ROW)]
    tools = [sort_button(selection, tr, make), make(tr.t("hand-button-refresh"), HandButton(Op.REFRESH, selection))]
    return clip("\n".join(lines)), keyboard([*keys, *rows, tools])


def card_buttons(hand: Sequence[Card], selection: Selection, tr: Translator, make: Buttons) -> list[CardButton]:
    """The hand's cards in the order the selection shows them, each with the button that toggles its mark (the
    selection after the tap): the keyboard's card buttons and the board's hand alike."""
    marks: list[CardButton] = []
    for place, card in enumerate(display(hand, selection.order)):
        marked = place in selection.marked
        label = card_text(card, tr)
        if marked:
            label = tr.t("card-selected", card=label)
        marks.append(CardButton(card, marked, make(label, HandButton(Op.TOGGLE, selection.toggled(place)))))
    return marks


def sort_button(selection: Selection, tr: Translator, make: Buttons) -> Button:
    """Show the hand in the other order (marks dropped: they are places in the order shown)."""
    other = BY_RANK if selection.order == BY_SUIT else BY_SUIT
    key = "buraco-button-sort-rank" if other == BY_RANK else "buraco-button-sort-suit"
    return make(tr.t(key), HandButton(Op.SORT, Selection(other)))


def draft_lines(view: HandView, tr: Translator) -> list[str]:
    """An opening being laid (RULES §17.5): its points against the minimum, and its runs."""
    if not view.draft:
        return []
    points = sum(meld.value for meld in view.draft)
    lines = [tr.t("buraco-draft", points=points, needed=OPENING_MINIMUM)]
    lines.extend(run_line(number, meld, tr) for number, meld in enumerate(view.draft, start=1))
    return lines


def moment(
    view: HandView,
    deal: Deal,
    names: Mapping[int, str],
    tr: Translator,
    make: Buttons,
    selection: Selection,
    *,
    paused: bool,
    refusal: Enum | None,
) -> tuple[list[str], list[list[Button]]]:
    """What the moment asks of the seat and the moves it may make: lines of text (HTML) and rows of the move
    buttons (neither the cards' nor the sort and refresh buttons). The keyboard and the board share it."""
    seat = view.seat
    table = view.table
    lines = draft_lines(view, tr)
    rows: list[list[Button]] = []
    mine = table.turn == seat and not table.finished and not paused
    if paused:
        lines.append(tr.t("hand-paused"))
    elif table.finished or table.turn is None:
        lines.append(tr.t("hand-over"))
    elif not mine:
        lines.append(tr.t("hand-waiting", name=name_of(table.turn, names, tr)))
    elif table.phase is Phase.FIRST_CHOICE and view.drawn is not None:
        lines.append(tr.t("buraco-first-choice", card=card_text(view.drawn, tr)))
        rows.append(
            [
                make(tr.t("buraco-button-keep", card=card_text(view.drawn, tr)), HandButton(Op.KEEP)),
                make(tr.t("buraco-button-reject"), HandButton(Op.REJECT)),
            ]
        )
    elif table.phase is Phase.DRAW:
        legal = deal.legal_actions(seat)
        # RULES §17.7a-15: an empty stock is renewed from a morto only by a draw; taking the pile leaves it a morto
        lines.append(tr.t("buraco-your-draw" if table.stock else "buraco-your-draw-morto"))
        row = [make(tr.t("buraco-button-stock"), HandButton(Op.STOCK))]
        if TakePile(seat) in legal:
            row.append(make(tr.t("buraco-button-pile", count=len(table.pile)), HandButton(Op.PILE)))
        rows.append(row)
    else:
        if view.fresh is not None:
            lines.append(tr.t("buraco-fresh", card=card_text(view.fresh, tr)))
        points = sum(meld.value for meld in view.draft)
        short = bool(view.draft) and points < OPENING_MINIMUM  # RULES §17.5: no discard until the opening is made
        lines.append(tr.t("buraco-your-melds-draft" if short else "buraco-your-melds", needed=OPENING_MINIMUM))
        if view.forbidden is not None:
            lines.append(tr.t("buraco-forbidden", card=card_text(view.forbidden, tr)))
        rows += _meld_rows(view, deal, selection.cards(view.hand), selection, tr, make, lines, refusal)
    return lines, rows


class Hint(Enum):
    """Why marks make no move, where no refusal of the engine says it: not a move they were refused, but none
    they could make."""

    NO_RUN_FOR_MARKS = "no_run_for_marks"  # one or two cards, no run of the pair's they join


def table_context(view: HandView, names: Mapping[int, str], tr: Translator) -> list[str]:
    """What a turn needs of the table: the pile (its top cards; a long one's count), both pairs' runs, numbered
    as the table numbers them, the seat's pair first (RULES §17.2: all of it open)."""
    table = view.table
    pile = table.pile
    if not pile:
        lines = [tr.t("buraco-pile-empty")]
    elif len(pile) <= PILE_SHOWN:
        lines = [tr.t("buraco-hand-pile", count=len(pile), cards=cards_text(pile, tr))]
    else:
        lines = [tr.t("buraco-hand-pile-top", count=len(pile), cards=cards_text(pile[-PILE_SHOWN:], tr))]
    for side, key in ((view.side, "buraco-hand-our-runs"), (1 - view.side, "buraco-hand-their-runs")):
        runs = table.runs[side]
        pair = side_name(side, True, names, tr)
        lines.append(tr.t(key, pair=pair, count=len(runs)))
        lines.extend(run_line(number, meld, tr) for number, meld in enumerate(runs, start=1))
    lines.append("")
    return lines


def _no_fit(deal: Deal, seat: int, marked: Sequence[Card]) -> Enum:
    """Why marks that neither lay a run, join one of the pair's nor go to the discard make no move."""
    turn = deal.diagnose(Discard(seat, marked[0]))
    if turn in (Reason.NOT_YOUR_TURN, Reason.WRONG_PHASE, Reason.MATCH_OVER):
        return turn  # nothing is laid before the draw, nor out of turn
    if len({card.suit for card in marked if not card.may_be_wild}) > 1:
        return Reason.NOT_SAME_SUIT  # RULES §17.4: runs of one suit only
    if len(marked) < 3:
        return Hint.NO_RUN_FOR_MARKS  # too few for a run of their own, and no run of the pair's takes them
    return Reason.NOT_ADJACENT


# Reasons no further marks change: said at once, however many cards more the hand could mark.
_NOT_YET: frozenset[Enum] = frozenset({Reason.NOT_YOUR_TURN, Reason.WRONG_PHASE, Reason.MATCH_OVER})


def _meld_rows(
    view: HandView,
    deal: Deal,
    marked: Sequence[Card],
    selection: Selection,
    tr: Translator,
    make: Buttons,
    lines: list[str],
    refusal: Enum | None,
) -> list[list[Button]]:
    seat = view.seat
    legal = deal.legal_actions(seat)
    rows: list[list[Button]] = []
    why: Enum | None = refusal
    if marked:
        reasons: list[Enum] = []  # why the marks make no move, the likeliest meaning first
        plans = new_run_plans(deal, seat, marked) if len(marked) >= 3 else Reason.MELD_TOO_SHORT
        meld_row: list[Button] = []
        if isinstance(plans, Reason):
            if len(marked) >= 3:
                reasons.append(plans)
        else:
            for index, (meld, _plan) in enumerate(plans):
                key = "buraco-button-meld" if len(plans) == 1 else "buraco-button-meld-as"
                label = tr.t(key, cards=meld_text(meld, tr))
                meld_row.append(make(label, HandButton(Op.MELD, selection, plan=index)))
        side = deal.side_of(seat)
        suits = {card.suit for card in marked if not card.may_be_wild}
        add_row: list[Button] = []
        add_as: list[list[Button]] = []  # a run the cards can grow into several ways: one button a row, named
        for number, run in enumerate(deal.runs[side]):
            grown = addition_plans(deal, seat, number, marked)
            if isinstance(grown, Reason):
                if run.suit in suits:  # a run of their suit: they were marked for it, unless they make a run
                    if len(marked) < 3:
                        reasons.insert(0, grown)
                    else:
                        reasons.append(grown)
            elif len(grown) == 1:
                label = tr.t("buraco-button-add", run=meld_ends(run, tr))
                add_row.append(make(label, HandButton(Op.ADD, selection, run=number)))
            else:  # RULES §17.7a-9: where the substitute ends up is the player's choice
                for index, (meld, _plan) in enumerate(grown):
                    label = tr.t("buraco-button-add-as", cards=meld_text(meld, tr))
                    add_as.append([make(label, HandButton(Op.ADD, selection, run=number, plan=index))])
        explained = False  # the hand's text already says why the marks make no move
        if len(marked) == 1:
            card = marked[0]
            if Discard(seat, card) in legal:
                rows.append(
                    [make(tr.t("buraco-button-discard", card=card_text(card, tr)), HandButton(Op.DISCARD, selection))]
                )
            else:
                discard = deal.diagnose(Discard(seat, card))
                # the draft's line says it already (RULES §17.5): not again on every tap
                explained = discard is Reason.OPENING_BELOW_MINIMUM
                reasons.insert(0, discard)  # one card marked: to discard, likeliest
        if meld_row:
            rows.append(meld_row)
        rows.extend(add_row[i : i + ADDS_A_ROW] for i in range(0, len(add_row), ADDS_A_ROW))
        rows.extend(add_as)
        if not rows and not reasons:
            reasons.append(_no_fit(deal, seat, marked))
        if not rows and not explained:
            if reasons[0] not in _NOT_YET and may_grow(view.hand, marked, deal.runs[side]):
                lines.append(tr.t("buraco-mark-more"))  # a run being built: no refusal while more marks may make it
            else:
                why = why or reasons[0]
    if why is not None:
        lines.append(tr.t("buraco-refused", reason=reason_text(why, tr)))
    if CancelDraft(seat) in legal:
        rows.append([make(tr.t("buraco-button-cancel"), HandButton(Op.CANCEL))])
    return rows
