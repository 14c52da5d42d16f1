"""The player's private hand message and its stateless keyboard (UX.md "The private chat").

Rendered from the seat's own view. The action buttons come from ``view.legal`` only: a button is there when the
marked cards make a legal action (what is missing, or why the marks make no move, is a line of the text, not a
button). The hand also tells the story: the last trick taken, the deal just ended, a move the timer made.

A claim («Вскрываюсь!») is never offered with no trick taken (it could only be false), sits alone on the last
row, and asks once to confirm (`confirm_claim`): a wrong tap would lose the deal. «Стоп!» stays one tap: it is a
race. A forced lead after «Стоп!» is one button that plays the combination.

The card buttons and the move buttons are made apart (``card_buttons``, ``action_rows``, ``claim_confirm_rows``):
the Mini App's board (``web.py``) carries the very same taps, so a tap on the page is a tap on this keyboard.

For a game against the computer in a private chat (`table_text`), the hand message carries the table too: one
message edited in place, a turn costing one edit. Its match's end is one last word with no card to tap, and a
button for another game.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from functools import partial

from bot.games.base import HandStory
from bot.games.bura.buttons import HandOp, pack_cards
from bot.games.bura.cards import card_button, cards_text, suit_name
from bot.games.bura.common import sorted_selection, trick_lines, trick_summary
from bot.i18n import Translator
from bot.render.common import clip, name_of
from bot.render.keyboard import Button, Keyboard, button, keyboard
from bot.render.reasons import reason_text
from bot.telegram.callbacks import HandCb, PlayCb
from engine.bura.actions import Action, Claim, DeclareCombo, Lead, Pass, RespondFaceDown, RespondOpen
from engine.bura.cards import Card
from engine.bura.deal import Phase
from engine.bura.errors import Reason
from engine.bura.views import PublicView, SeatView, answer_beats

CARDS_A_ROW = 4  # a phone shows four card buttons a row legibly


def render_hand(
    view: SeatView,
    names: Mapping[int, str],
    tr: Translator,
    *,
    table_id: int,
    move: int,
    title: str,
    selection: tuple[Card, ...] = (),
    paused: bool = False,
    confirm_claim: bool = False,
    story: HandStory | None = None,
) -> tuple[str, Keyboard]:
    """The hand message: what is on the table, what the moment asks of the player; cards and actions as buttons.
    A paused table (the bot may not write in its group) shows the hand without a move to make."""
    story = story or HandStory()
    selected = sorted_selection(display_order(view), selection)
    make = Buttons(table_id, move)
    claimable = may_claim(view)
    lines = _head(view, names, tr, title, story)
    if view.table.finished and story.table_text is not None:
        # a game against the computer is over: its last word, and a new game (/play with the chat's settings)
        return clip("\n".join(lines)), keyboard([[button(tr.t("play-again"), PlayCb().pack())]])
    if paused:
        lines += ["", tr.t("hand-paused")]
        return clip("\n".join(lines)), keyboard([[make(tr.t("hand-button-refresh"), HandOp.REFRESH)]])
    if confirm_claim and claimable:
        lines += ["", tr.t("hand-claim-confirm", count=tricks_taken(view))]
        return clip("\n".join(lines)), keyboard(claim_confirm_rows(tr, make, selected))
    lines.append("")
    refusal = story.refusal if isinstance(story.refusal, Reason) else None
    lines.extend(moment_lines(view, names, tr, selected, refusal, claimable))
    lines.append(tr.t("hand-tricks-pair" if view.table.teams else "hand-tricks", count=tricks_taken(view)))
    if view.table.points is not None:  # casual mode only (RULES §6.7)
        lines.append(tr.t("hand-points", count=view.table.points[view.side]))
    return clip("\n".join(lines)), _keyboard(view, tr, make, selected, claimable)


def _head(view: SeatView, names: Mapping[int, str], tr: Translator, title: str, story: HandStory) -> list[str]:
    """The table (or the hand's header), what just happened, the last trick taken and the trick on the table."""
    table = view.table
    lines: list[str] = []
    if story.table_text is not None:
        lines.append(story.table_text)  # it shows the tricks itself
    else:
        trump = suit_name(table.trump, tr)
        if title:
            lines.append(tr.t("hand-header", table=html.escape(title), trump=trump, stock=table.stock))
        else:
            lines.append(tr.t("hand-header-untitled", trump=trump, stock=table.stock))
    shown = set(lines[0].split("\n")) if story.table_text is not None else set()
    notes = [note for note in story.notes if not note or note not in shown]  # the table says the match's end
    while notes and not notes[0]:
        notes.pop(0)
    while notes and not notes[-1]:
        notes.pop()
    notes = [note for index, note in enumerate(notes) if note or notes[index - 1]]  # no two blank lines in a row
    if notes:
        lines.append("")
        lines.extend(notes)
    if story.table_text is None:
        if table.history and (table.trick is None or not table.trick.plays):
            lines.append("")
            lines.append(trick_summary(table.history[-1], names, tr))
        if table.trick is not None:
            lines.append("")
            lines.extend(trick_lines(table.trick, names, tr))
    if table.finished and story.table_text is None:
        lines.append(tr.t("hand-over"))
    return lines


def moment_lines(
    view: SeatView,
    names: Mapping[int, str],
    tr: Translator,
    selected: tuple[Card, ...],
    refusal: Reason | None,
    claimable: bool,
) -> list[str]:
    """What the moment asks of the player, and what his marks still lack (or why they make no move)."""
    table = view.table
    legal = view.legal
    lines: list[str] = []
    leads = [a for a in legal if isinstance(a, Lead)]
    answers = [a for a in legal if isinstance(a, RespondOpen | RespondFaceDown)]
    combo = next((a for a in legal if isinstance(a, DeclareCombo)), None)
    if answers:
        needed = len(answers[0].cards)
        face_down = any(isinstance(a, RespondFaceDown) for a in answers)
        lines.append(tr.t("hand-answer", count=needed, face_down="yes" if face_down else "no"))
        lines.extend(_marks_hint(answers, selected, needed, refusal, tr))
    elif leads:
        if table.forced_lead is not None:
            lines.append(tr.t("hand-forced-lead", cards=cards_text(table.forced_lead, tr)))
        else:
            lines.append(tr.t("hand-your-lead"))
            lines.extend(_marks_hint(leads, selected, None, refusal, tr))
        if claimable:
            lines.append(tr.t("hand-may-claim"))
    elif table.phase is Phase.FINAL_CLAIM and claimable:
        lines.append(tr.t("hand-final-claim"))
    else:
        lines.extend(waiting_lines(table, names, tr))
    if combo is not None:
        lines.append(tr.t("hand-combo", combo=tr.t(f"combo-{combo.combo.value}")))
    return lines


def waiting_lines(table: PublicView, names: Mapping[int, str], tr: Translator) -> list[str]:
    """Whom the table waits for («Отвечает Борис.»), while the deal goes on."""
    if table.to_act is None or table.finished:
        return []
    key = {Phase.RESPOND: "hand-waiting-answer", Phase.FINAL_CLAIM: "hand-waiting-claim"}.get(
        table.phase, "hand-waiting"
    )
    return [tr.t(key, name=name_of(table.to_act, names, tr))]


def _marks_hint(
    actions: Sequence[Action], selected: tuple[Card, ...], needed: int | None, refusal: Reason | None, tr: Translator
) -> list[str]:
    """A line of what the marks lack: nothing marked, too few, too many, or the engine's reason they make no move."""
    count = len(selected)
    if _matching(actions, selected) is not None:
        bigger = [len(a.cards) - count for a in actions if isinstance(a, Lead) and set(selected) < set(a.cards)]
        return [tr.t("hand-select-more-lead", count=min(bigger))] if needed is None and bigger else []
    if not selected:
        return []  # the moment's line already says what to mark
    if needed is not None:
        if count < needed:
            return [tr.t("hand-select-more", count=needed - count)]
        if count > needed:
            return [tr.t("hand-select-fewer", count=count - needed)]
    else:
        missing = [len(a.cards) - count for a in actions if isinstance(a, Lead) and set(selected) < set(a.cards)]
        if missing:
            return [tr.t("hand-select-more", count=min(missing))]
    if refusal is not None:
        return [reason_text(refusal, tr)]
    if needed is not None and any(isinstance(a, RespondFaceDown) for a in actions):
        return []  # these marks may go face down (the button is there)
    return [tr.t("hand-marks-no-move")]


def _keyboard(view: SeatView, tr: Translator, make: Buttons, selected: tuple[Card, ...], claimable: bool) -> Keyboard:
    cards = [each for _, each in card_buttons(view, tr, make, selected)]
    rows = [cards[i : i + CARDS_A_ROW] for i in range(0, len(cards), CARDS_A_ROW)]
    rows.extend(action_rows(view, tr, make, selected, claimable, refresh=True))
    return keyboard(rows)


def card_buttons(
    view: SeatView, tr: Translator, make: Buttons, selected: tuple[Card, ...]
) -> list[tuple[Card, Button]]:
    """The hand's cards in display order, each with its button: a tap marks or unmarks it (the button carries the
    selection after the tap). None for a forced lead (a whole hand of one combo is its one button). The keyboard
    lays them out in rows; the Mini App's board sends a tap on a card as its button's data."""
    if is_forced(view):
        return []
    trump = view.table.trump
    hand = display_order(view)
    buttons: list[tuple[Card, Button]] = []
    for card in hand:
        label = card_button(card, tr, trump)
        after = tuple(c for c in hand if (c in selected) != (c is card))  # the selection after the tap
        if card in selected:
            label = tr.t("card-selected", card=label)
        buttons.append((card, make(label, HandOp.TOGGLE, after)))
    return buttons


def action_rows(
    view: SeatView,
    tr: Translator,
    make: Buttons,
    selected: tuple[Card, ...],
    claimable: bool,
    *,
    refresh: bool,
) -> list[list[Button]]:
    """The move buttons under the cards, row by row: lead or answer, «Стоп!» or pass, 🔄 (with ``refresh``: the
    Mini App's board has no need of it), and the claim alone on the last row."""
    rows: list[list[Button]] = []
    legal = view.legal
    play_row = _play_buttons(view, legal, selected, tr, make, partial(answer_beats, view))
    if play_row:
        rows.append(play_row)
    combo = next((a for a in legal if isinstance(a, DeclareCombo)), None)
    choice_row: list[Button] = []
    if combo is not None:
        choice_row.append(make(tr.t("hand-button-combo", combo=tr.t(f"combo-{combo.combo.value}")), HandOp.COMBO))
    if any(isinstance(a, Pass) for a in legal):
        key = "hand-button-combo-pass" if combo is not None else "hand-button-claim-pass"
        choice_row.append(make(tr.t(key), HandOp.PASS))
    if choice_row:
        rows.append(choice_row)
    if refresh:
        rows.append([make(tr.t("hand-button-refresh"), HandOp.REFRESH, selected)])
    if claimable:
        rows.append([make(tr.t("hand-button-claim"), HandOp.CLAIM_ASK, selected)])  # alone, last: asks first
    return rows


def claim_confirm_rows(tr: Translator, make: Buttons, selected: tuple[Card, ...]) -> list[list[Button]]:
    """The claim asked once more: «✅ Вскрываюсь» or «Отмена» (back to the marks)."""
    return [
        [
            make(tr.t("hand-button-claim-yes"), HandOp.CLAIM),
            make(tr.t("hand-button-claim-no"), HandOp.TOGGLE, selected),
        ]
    ]


def is_forced(view: SeatView) -> bool:
    """The seat must lead a shown combo now (after «Стоп!»): one button plays it, no card is marked."""
    return view.table.forced_lead is not None and any(isinstance(a, Lead) for a in view.legal)


def may_claim(view: SeatView) -> bool:
    """A claim is offered when the rules allow one now and the player's side has taken a trick (with none taken
    it can only be false)."""
    return any(isinstance(a, Claim) for a in view.legal) and tricks_taken(view) > 0


def tricks_taken(view: SeatView) -> int:
    return view.table.tricks_won[view.side] if view.side < len(view.table.tricks_won) else 0


def display_order(view: SeatView) -> tuple[Card, ...]:
    """The hand as the view orders it (suit by suit, weakest first), with the trumps gathered at the right."""
    trump = view.table.trump
    return tuple(sorted(view.hand, key=lambda card: card.suit is trump))


class Buttons:
    """Makes the buttons of one hand message: every callback names the table and the move (STYLE bot/ rule 4)."""

    def __init__(self, table_id: int, move: int) -> None:
        self.table_id = table_id
        self.move = move

    def __call__(self, text: str, op: HandOp, cards: Sequence[Card] = ()) -> Button:
        return button(text, HandCb.data(self.table_id, self.move, op, pack_cards(list(cards))))


def _matching(actions: Sequence[Action], selected: tuple[Card, ...]) -> tuple[Card, ...] | None:
    """The cards of the legal action whose cards are exactly the selection, or None."""
    chosen = set(selected)
    for action in actions:
        if isinstance(action, Lead | RespondOpen | RespondFaceDown) and set(action.cards) == chosen:
            return action.cards
    return None


def _play_buttons(
    view: SeatView,
    legal: Sequence[Action],
    selected: tuple[Card, ...],
    tr: Translator,
    make: Buttons,
    beats: Callable[[tuple[Card, ...]], bool],
) -> list[Button]:
    """Lead or answer with the marked cards, when they make a legal move; an open answer that does not beat says
    so («Сбросить открыто»). Where answers may go face down, that button is always there (a tap with the wrong
    marks is answered with the reason). A forced lead is one button with its cards."""
    leads = [a for a in legal if isinstance(a, Lead)]
    opens = [a for a in legal if isinstance(a, RespondOpen)]
    downs = [a for a in legal if isinstance(a, RespondFaceDown)]
    count = len(selected)
    row: list[Button] = []
    forced = view.table.forced_lead
    if leads and forced is not None:
        combo = next((shown.combo for shown in view.table.shown if shown.seat == view.seat), None)
        name = combo.value if combo is not None else "other"
        row.append(make(tr.t("hand-button-forced", combo=name, cards=cards_text(forced, tr)), HandOp.PLAY, forced))
    elif leads:
        cards = _matching(leads, selected)
        if cards is not None:
            row.append(make(tr.t("hand-button-lead", selected=count), HandOp.PLAY, cards))
    elif opens or downs:
        needed = len((opens or downs)[0].cards)
        cards = _matching(opens, selected)
        down = _matching(downs, selected)
        if cards is not None:
            key = "hand-button-beat" if beats(cards) else "hand-button-give"
            row.append(make(tr.t(key, selected=count, needed=needed), HandOp.PLAY, cards))
        if downs:
            row.append(make(tr.t("hand-button-discard"), HandOp.FACE_DOWN, down if down is not None else selected))
    return row
