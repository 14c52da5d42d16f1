"""An Очко player's private hand: his cards (a dark card as 🂠, RULES §20.8 item 3) and what they are worth, his
chips and the bank, and a button for exactly each of his legal actions now.

As a player: «минимум · треть · половина · весь банк» (``Match.bet_buttons``, the same amount shown once), and a
stepper «−10 −1 +1 +10» under «Ставка N» for any whole amount in range without typing, then «Ещё» / «Хватит» /
«В тёмную». As the banker: the bank's stake (the minimum first, a few multiples, all his chips, and the
stepper), «Стук» / «Сдавать» at the knock question, «Ещё» / «Хватит» in his turn as [O07] allows.

Read from the seat's view only (``engine.ochko.views.view``). The move buttons (``move_rows``) and the lines of
the moment (``moment_lines``) are the Mini App board's too (``bot.games.ochko.web``): one builder for both."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from enum import Enum

from bot.games.base import HandStory
from bot.games.ochko.buttons import HandButton, Op
from bot.games.ochko.cards import cards_text
from bot.games.ochko.table import hand_text
from bot.i18n import Translator
from bot.render.common import clip, name_of
from bot.render.keyboard import Button, Keyboard, button, keyboard
from bot.render.reasons import reason_text
from bot.telegram.callbacks import HandCb, PlayCb
from engine.ochko.actions import Action, Bet, Dark, Deal, Hit, Knock, StakeBank, Stand
from engine.ochko.hands import value
from engine.ochko.match import Phase
from engine.ochko.views import SeatView

STEPS = (-10, -1, 1, 10)
STAKE_MULTIPLES = (1, 2, 5, 10)  # the stake buttons: bank_min times these (the minimum first), then all chips


class _Buttons:
    def __init__(self, table_id: int, move: int) -> None:
        self.table_id = table_id
        self.move = move

    def __call__(self, text: str, tapped: HandButton) -> Button:
        return button(text, HandCb.data(self.table_id, self.move, tapped.op, tapped.payload()))


def amounts(legal: Sequence[Action]) -> tuple[int, int] | None:
    """The range of the stakes or bets among ``legal`` (listed from the lowest, every whole amount)."""
    chosen = [action.amount for action in legal if isinstance(action, StakeBank | Bet)]
    return (chosen[0], chosen[-1]) if chosen else None


def quick_amounts(view: SeatView) -> list[tuple[str, int]]:
    """The quick buttons' (text key, amount): a bet's four of RULES §20.8 item 1, or the stake's few; each amount
    once, the first name it has."""
    table = view.table
    span = amounts(view.legal)
    if span is None:
        return []
    low, high = span
    if table.phase is Phase.BET:
        lowest, third, half, whole = table.buttons
        whole_key = "ochko-button-bank" if whole == table.cover else "ochko-button-all"
        named = [
            ("ochko-button-min", lowest),
            ("ochko-button-third", third),
            ("ochko-button-half", half),
            (whole_key, whole),
        ]
    else:
        named = [("ochko-button-stake", low * times) for times in STAKE_MULTIPLES if low * times < high]
        named.append(("ochko-button-all", high))
    seen: set[int] = set()
    quick = []
    for key, amount in named:
        if low <= amount <= high and amount not in seen:
            seen.add(amount)
            quick.append((key, amount))
    return quick


def _amount_rows(view: SeatView, chosen: int | None, tr: Translator, make: _Buttons) -> list[list[Button]]:
    span = amounts(view.legal)
    if span is None:
        return []
    low, high = span
    op = Op.BET if view.table.phase is Phase.BET else Op.STAKE
    quick = [make(tr.t(key, amount=amount), HandButton(op, amount)) for key, amount in quick_amounts(view)]
    rows = [quick[i : i + 2] for i in range(0, len(quick), 2)]
    if high > low:
        current = low if chosen is None else max(low, min(high, chosen))
        steps = []
        for step in STEPS:
            target = max(low, min(high, current + step))
            if target != current:
                steps.append(
                    make(tr.t("ochko-button-step", step=f"{step:+d}".replace("-", "−")), HandButton(Op.STEP, target))
                )
        rows.append(steps)
        key = "ochko-button-bet-n" if op is Op.BET else "ochko-button-stake-n"
        rows.append([make(tr.t(key, amount=current), HandButton(op, current))])
    return rows


_SIMPLE: dict[type[Action], tuple[Op, str]] = {
    Knock: (Op.KNOCK, "ochko-button-knock"),
    Deal: (Op.DEAL, "ochko-button-deal"),
    Hit: (Op.HIT, "ochko-button-hit"),
    Stand: (Op.STAND, "ochko-button-stand"),
    Dark: (Op.DARK, "ochko-button-dark"),
}


def can_move(view: SeatView, *, paused: bool) -> bool:
    """Whether his move buttons are up: it is his turn, the table is not paused, the game goes on and he sits."""
    table = view.table
    return bool(view.legal) and not paused and not table.finished and table.present[view.seat]


def move_rows(
    view: SeatView, tr: Translator, *, table_id: int, move: int, chosen: int | None, paused: bool
) -> list[list[Button]]:
    """His move buttons now, row by row (none while he may not move): the amounts and the stepper, then «Стук» /
    «Сдавать» or «Ещё» / «Хватит» / «В тёмную». The hand keyboard adds 🔄 under them; the Mini App's board
    (``bot.games.ochko.web``) shows these very buttons."""
    if not can_move(view, paused=paused):
        return []
    make = _Buttons(table_id, move)
    rows = _amount_rows(view, chosen, tr, make)
    simple = [
        make(tr.t(_SIMPLE[type(action)][1]), HandButton(_SIMPLE[type(action)][0]))
        for action in view.legal
        if type(action) in _SIMPLE
    ]
    if simple:
        rows.append(simple)
    return rows


def own_lines(view: SeatView, names: Mapping[int, str], tr: Translator) -> list[str]:
    """His cards and their worth (the banker's are the bank's, face up), his chips."""
    table = view.table
    seat = view.seat
    lines = []
    if view.hand:
        total = value(view.seen, table.options)
        key = "ochko-your-cards-dark" if None in view.hand else "ochko-your-cards"
        lines.append(tr.t(key, cards=cards_text(view.hand, tr), total=total))
    elif table.shown[seat] is not None:
        lines.append(tr.t("ochko-your-settled", hand=hand_text(table.shown[seat] or (), table.options, tr)))
    elif seat == table.banker and table.banker_cards:
        lines.append(tr.t("ochko-your-bank-cards", hand=hand_text(table.banker_cards, table.options, tr)))
    lines.append(tr.t("ochko-your-chips", chips=table.chips[seat]))
    return lines


def context_lines(view: SeatView, names: Mapping[int, str], tr: Translator, *, mine: bool) -> list[str]:
    """What a hand needs of the table (in a group game the table is a message among many in another chat): the
    bank always; on his turn the banker's cards too (they change with every draw of the banker's, and a waiting
    hand is not edited for them)."""
    table = view.table
    lines = []
    if table.initial_stake:
        lines.append(
            tr.t("ochko-bank", name=name_of(table.banker, names, tr), bank=table.bank, initial=table.initial_stake)
        )
    if mine and table.banker_cards and view.seat != table.banker:
        lines.append(tr.t("ochko-banker-cards", hand=hand_text(table.banker_cards, table.options, tr)))
    return lines


def prompt(view: SeatView, names: Mapping[int, str], tr: Translator) -> str:
    """What the moment asks of him."""
    table = view.table
    span = amounts(view.legal)
    if table.phase is Phase.STAKE and span is not None:
        return tr.t("ochko-ask-stake", low=span[0], high=span[1])
    if table.phase is Phase.KNOCK:
        return tr.t("ochko-ask-knock", bank=table.bank, initial=table.initial_stake)
    if table.phase is Phase.BET and span is not None:
        return tr.t("ochko-ask-bet", low=span[0], high=span[1], bank=table.bank)
    if table.phase is Phase.PLAY:
        return tr.t(
            "ochko-ask-play" if any(isinstance(action, Dark) for action in view.legal) else "ochko-ask-play-open"
        )
    against = table.waiting
    if len(against) == 1:
        player = against[0]
        return tr.t(
            "ochko-ask-banker",
            name=name_of(player, names, tr),
            bet=table.bets[player] or 0,
            cards=table.hand_sizes[player],
            dark="yes" if table.dark[player] else "no",
        )
    return tr.t("ochko-ask-banker-all", count=len(against))


def moment_lines(
    view: SeatView, names: Mapping[int, str], tr: Translator, *, paused: bool, refusal: Enum | None
) -> list[str]:
    """His cards and chips, then what the moment asks of him (or whom he waits for, or why he may not move), and
    the engine's refusal of his last tap."""
    table = view.table
    lines = own_lines(view, names, tr)
    if paused:
        lines.append(tr.t("hand-paused"))
    elif table.finished:
        lines.append(tr.t("ochko-hand-over"))
    elif not table.present[view.seat]:
        lines.append(tr.t("ochko-you-left"))
    elif not can_move(view, paused=paused):
        if table.to_act is not None:
            lines.append(tr.t("hand-waiting", name=name_of(table.to_act, names, tr)))
    else:
        lines.append(prompt(view, names, tr))
    if refusal is not None:
        lines.append(tr.t("ochko-refused", reason=reason_text(refusal, tr)))
    return lines


def render_hand(
    view: SeatView,
    names: Mapping[int, str],
    tr: Translator,
    *,
    table_id: int,
    move: int,
    title: str,
    chosen: int | None,
    paused: bool = False,
    story: HandStory | None = None,
) -> tuple[str, Keyboard]:
    """The hand message and its buttons; ``chosen`` is the stepper's amount (None: the lowest)."""
    story = story or HandStory()
    make = _Buttons(table_id, move)
    table = view.table
    if story.table_text is not None:
        # A game against the computer: the table above the hand. A line it says already is not said twice (the
        # session's standings end both the story and the table).
        said = set(story.table_text.split("\n"))
        lines = [line for line in story.notes if line not in said] + [story.table_text, ""]
        if table.finished:  # its last word: no card to tap, another game to start
            return clip("\n".join(lines[:-1])), keyboard([[button(tr.t("play-again"), PlayCb().pack())]])
    else:
        lines = [*story.notes]
    head = tr.t("ochko-hand-title", title=html.escape(title)) if title else tr.t("game-ochko")
    lines.append(f"<b>{head}</b>")
    mine = bool(view.legal) and not paused
    if story.table_text is None and not table.finished:
        lines += context_lines(view, names, tr, mine=mine)
    lines += moment_lines(view, names, tr, paused=paused, refusal=story.refusal)
    rows = move_rows(view, tr, table_id=table_id, move=move, chosen=chosen, paused=paused)
    rows.append([make(tr.t("hand-button-refresh"), HandButton(Op.REFRESH))])
    return clip("\n".join(lines)), keyboard(rows)
