"""The player's private hand message and its stateless keyboard (UX.md "The private chat").

Rendered from the seat's own view. The action buttons come from ``view.legal`` only: a button plays an action
exactly when the marked cards are the cards of a legal action; otherwise it says what is missing and, when
tapped, lets the service explain the refusal in an alert (bot/telegram/callbacks.py: the hand keyboard is stateless).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from functools import partial

from bot.i18n import Translator
from bot.render.cards import card_text, cards_text, suit_text
from bot.render.common import clip, name_of, sorted_selection, trick_lines
from bot.render.keyboard import Button, Keyboard, button, keyboard
from bot.telegram.callbacks import HandCb, HandOp, pack_cards
from engine.actions import Action, Claim, DeclareCombo, Lead, Pass, RespondFaceDown, RespondOpen
from engine.cards import Card
from engine.deal import Phase
from engine.views import SeatView, answer_beats

MAX_ROW = 8  # Telegram shows at most 8 buttons in a row


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
) -> tuple[str, Keyboard]:
    """The hand message: what is on the table, what the moment asks of the player; cards and actions as buttons.
    A paused table (the bot may not write in its group) shows the hand without a move to make."""
    selected = sorted_selection(_display_order(view), selection)
    text = _text(view, names, tr, title)
    if paused:
        text += "\n\n" + tr.t("hand-paused")
        make = _Buttons(table_id, move)
        return clip(text), keyboard([[make(tr.t("hand-button-refresh"), HandOp.REFRESH)]])
    return clip(text), _keyboard(view, tr, table_id, move, selected)


def _text(view: SeatView, names: Mapping[int, str], tr: Translator, title: str) -> str:
    table = view.table
    trump = table.trump
    if title:
        header = tr.t("hand-header", table=html.escape(title), suit=suit_text(trump), stock=table.stock)
    else:
        header = tr.t("hand-header-untitled", suit=suit_text(trump), stock=table.stock)
    lines = [header]
    if table.finished:
        lines.append(tr.t("hand-over"))
    if table.trick is not None:
        lines.append("")
        lines.extend(trick_lines(table.trick, names, tr, trump))
    lines.append("")
    legal = view.legal
    answers = [a for a in legal if isinstance(a, RespondOpen | RespondFaceDown)]
    combo = next((a for a in legal if isinstance(a, DeclareCombo)), None)
    if answers:
        face_down = any(isinstance(a, RespondFaceDown) for a in answers)
        lines.append(tr.t("hand-answer", count=len(answers[0].cards), face_down="yes" if face_down else "no"))
    elif any(isinstance(a, Lead) for a in legal):
        if table.forced_lead is not None:
            lines.append(tr.t("hand-forced-lead", cards=cards_text(table.forced_lead, tr, trump)))
        else:
            lines.append(tr.t("hand-your-lead"))
    elif table.phase is Phase.FINAL_CLAIM and any(isinstance(a, Claim) for a in legal):
        lines.append(tr.t("hand-final-claim"))
    elif table.to_act is not None and not table.finished:
        key = {Phase.RESPOND: "hand-waiting-answer", Phase.FINAL_CLAIM: "hand-waiting-claim"}.get(
            table.phase, "hand-waiting"
        )
        lines.append(tr.t(key, name=name_of(table.to_act, names, tr)))
    if combo is not None:
        lines.append(tr.t("hand-combo", combo=tr.t(f"combo-{combo.combo.value}")))
    tricks = table.tricks_won[view.side] if view.side < len(table.tricks_won) else 0
    lines.append(tr.t("hand-tricks-pair" if table.teams else "hand-tricks", count=tricks))
    if table.points is not None:  # casual mode only (RULES §6.7)
        lines.append(tr.t("hand-points", count=table.points[view.side]))
    return "\n".join(lines)


def _keyboard(view: SeatView, tr: Translator, table_id: int, move: int, selected: tuple[Card, ...]) -> Keyboard:
    trump = view.table.trump
    make = _Buttons(table_id, move)
    rows: list[list[Button]] = []
    card_buttons = []
    hand = _display_order(view)
    for card in hand:
        label = card_text(card, tr, trump)
        after = tuple(c for c in hand if (c in selected) != (c is card))  # the selection after the tap
        if card in selected:
            label = tr.t("card-selected", card=label)
        card_buttons.append(make(label, HandOp.TOGGLE, after))
    rows.extend(card_buttons[i : i + MAX_ROW] for i in range(0, len(card_buttons), MAX_ROW))

    legal = view.legal
    play_row = _play_buttons(legal, selected, tr, make, partial(answer_beats, view))
    if play_row:
        rows.append(play_row)
    if any(isinstance(a, Claim) for a in legal):
        rows.append([make(tr.t("hand-button-claim"), HandOp.CLAIM)])
    combo = next((a for a in legal if isinstance(a, DeclareCombo)), None)
    choice_row: list[Button] = []
    if combo is not None:
        choice_row.append(make(tr.t("hand-button-combo", combo=tr.t(f"combo-{combo.combo.value}")), HandOp.COMBO))
    if any(isinstance(a, Pass) for a in legal):
        key = "hand-button-combo-pass" if combo is not None else "hand-button-claim-pass"
        choice_row.append(make(tr.t(key), HandOp.PASS))
    if choice_row:
        rows.append(choice_row)
    rows.append([make(tr.t("hand-button-refresh"), HandOp.REFRESH)])
    return keyboard(rows)


def _display_order(view: SeatView) -> tuple[Card, ...]:
    """The hand as the view orders it (suit by suit, weakest first), with the trumps gathered at the right."""
    trump = view.table.trump
    return tuple(sorted(view.hand, key=lambda card: card.suit is trump))


class _Buttons:
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
    legal: Sequence[Action],
    selected: tuple[Card, ...],
    tr: Translator,
    make: _Buttons,
    beats: Callable[[tuple[Card, ...]], bool],
) -> list[Button]:
    """Lead or answer with the marked cards; a hint in place of the action while the marks do not make one. An
    open answer that does not beat says so («Отдать открыто»); where answers may go face down, the face-down
    button is always there (a tap with the wrong marks is answered with the reason)."""
    leads = [a for a in legal if isinstance(a, Lead)]
    opens = [a for a in legal if isinstance(a, RespondOpen)]
    downs = [a for a in legal if isinstance(a, RespondFaceDown)]
    count = len(selected)
    row: list[Button] = []
    if leads:
        cards = _matching(leads, selected)
        if cards is not None:
            row.append(make(tr.t("hand-button-lead", selected=count), HandOp.PLAY, cards))
        elif not selected:
            row.append(make(tr.t("hand-button-lead-empty"), HandOp.PLAY))
        else:
            missing = [len(a.cards) - count for a in leads if set(selected) <= set(a.cards)]
            if missing:
                row.append(make(tr.t("hand-select-more", count=min(missing)), HandOp.PLAY, selected))
            else:
                row.append(make(tr.t("hand-button-lead-illegal", selected=count), HandOp.PLAY, selected))
    elif opens or downs:
        needed = len((opens or downs)[0].cards)
        cards = _matching(opens, selected)
        down = _matching(downs, selected)
        if cards is not None:
            key = "hand-button-beat" if beats(cards) else "hand-button-give"
            row.append(make(tr.t(key, selected=count, needed=needed), HandOp.PLAY, cards))
        elif count < needed:
            row.append(make(tr.t("hand-select-more", count=needed - count), HandOp.PLAY, selected))
        elif count > needed:
            row.append(make(tr.t("hand-select-fewer", count=count - needed), HandOp.PLAY, selected))
        elif down is None or opens:
            row.append(make(tr.t("hand-button-beat-illegal", selected=count, needed=needed), HandOp.PLAY, selected))
        if downs:
            row.append(make(tr.t("hand-button-discard"), HandOp.FACE_DOWN, down if down is not None else selected))
    return row
