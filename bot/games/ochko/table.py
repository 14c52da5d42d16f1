"""The live table message of an Очко table (RULES §20.11 "Views"): the bank and whose it is, B₀, the round and
the banks of the session, «стук», the banker's cards (always face up) and his total, the marker, every player's
chips, bet and cards (his own unsettled ones as backs, a settled hand shown), whose duel it is and who acts.

Only the public view (``engine.ochko.views.table_view``) is read: nothing here can name a card the table may
not see."""

from __future__ import annotations

import html
from collections.abc import Mapping

from bot.games.ochko.cards import BACK, cards_text
from bot.i18n import Translator
from bot.render.common import clip, name_of
from engine.ochko.cards import Card
from engine.ochko.hands import value
from engine.ochko.match import Phase
from engine.ochko.variant import Options, Structure
from engine.ochko.views import TableView


def hand_text(cards: tuple[Card, ...], options: Options, tr: Translator) -> str:
    """``10♠️ Т♦️ — 21``: cards open, and what they are worth."""
    return tr.t("ochko-cards-worth", cards=cards_text(cards, tr), total=value(cards, options))


def bank_line(view: TableView, names: Mapping[int, str], tr: Translator) -> str:
    """«Банкует Аня: в банке 40 (начальный 10)», or who is to put up the bank."""
    banker = name_of(view.banker, names, tr)
    if view.phase is Phase.OVER:
        return ""
    if view.initial_stake == 0:
        return tr.t("ochko-bank-to-stake", name=banker)
    return tr.t("ochko-bank", name=banker, bank=view.bank, initial=view.initial_stake)


def session_line(view: TableView, tr: Translator) -> str:
    """«кон 3 · банк 2 из 4»: the round and which bank of the session this is."""
    parts = []
    if view.round_no:
        parts.append(tr.t("ochko-round", number=view.round_no))
    held = view.banks_held + (0 if view.finished else 1)
    if view.max_banks:
        parts.append(tr.t("ochko-banks-of", held=min(held, view.max_banks), total=view.max_banks))
    else:
        parts.append(tr.t("ochko-banks-unlimited", held=held))
    return tr.t("tally-separator").join(parts)


def seat_line(view: TableView, seat: int, names: Mapping[int, str], tr: Translator) -> str:
    """One seat: its name, chips, this round's bet and cards (backs while unsettled, shown once settled)."""
    name = f"<b>{name_of(seat, names, tr)}</b>"
    if seat == view.banker and view.phase is not Phase.OVER:
        name = tr.t("ochko-seat-banker", name=name)
    parts = [tr.t("ochko-seat-chips", name=name, chips=view.chips[seat])]
    if not view.present[seat]:
        parts.append(tr.t("ochko-seat-left"))
    bet = view.bets[seat]
    shown = view.shown[seat]
    if shown is not None:
        parts.append(tr.t("ochko-seat-settled", bet=bet or 0, hand=hand_text(shown, view.options, tr)))
    elif view.hand_sizes[seat]:
        backs = " ".join([BACK] * view.hand_sizes[seat])
        if bet is not None:
            parts.append(tr.t("ochko-seat-bet", bet=bet, cards=backs))
        else:
            parts.append(backs)
        if seat in view.waiting:
            parts.append(tr.t("ochko-seat-waiting"))
    line = tr.t("tally-separator").join(parts)
    if view.current == seat and view.phase in (Phase.BET, Phase.PLAY, Phase.BANKER):
        line += " " + tr.t("ochko-seat-duel")
    return line


def render_table(
    view: TableView,
    names: Mapping[int, str],
    tr: Translator,
    *,
    title: str,
    deadline_text: str | None = None,
    ended: str | None = None,
) -> str:
    """The group's table, from the public view only."""
    game = tr.t("game-ochko")
    session = session_line(view, tr)
    if title:
        lines = [tr.t("ochko-table-title", title=html.escape(title), game=game, session=session)]
    else:
        lines = [tr.t("ochko-table-title-untitled", game=game, session=session)]
    bank = bank_line(view, names, tr)
    if bank:
        lines.append(bank)
    if view.last_round and view.phase is not Phase.OVER:
        lines.append(tr.t("ochko-last-round"))
    if view.banker_cards:
        lines.append(tr.t("ochko-banker-cards", hand=hand_text(view.banker_cards, view.options, tr)))
    if view.marker is not None or view.pack:
        marker = cards_text((view.marker,), tr) if view.marker is not None else "—"
        lines.append(tr.t("ochko-marker", marker=marker, pack=view.pack))
    lines.append("")
    order = [(view.banker + step) % len(view.chips) for step in range(1, len(view.chips) + 1)]
    lines.extend(seat_line(view, seat, names, tr) for seat in order)
    lines.append("")
    if ended is not None:
        lines.append(ended)
    elif view.finished:
        lines.append(tr.t("ochko-session-ended"))
        lines.append(standings_text(view.chips, names, tr))
    else:
        turn = turn_line(view, names, tr)
        if turn is not None:
            if deadline_text is not None:
                turn += " " + tr.t("table-clock", clock=deadline_text)
            lines.append(turn)
    return clip("\n".join(lines))


def turn_line(view: TableView, names: Mapping[int, str], tr: Translator) -> str | None:
    """Who acts now and what he decides («Ставку делает Аня.»); None when nobody does."""
    if view.to_act is None or view.finished:
        return None
    if view.phase is Phase.BANKER and view.options.structure is Structure.DUEL and view.waiting:
        return tr.t(
            "ochko-turn-banker-against",
            name=name_of(view.to_act, names, tr),
            player=name_of(view.waiting[0], names, tr),
        )
    return tr.t(_TURN_KEYS[view.phase], name=name_of(view.to_act, names, tr))


_TURN_KEYS = {
    Phase.STAKE: "ochko-turn-stake",
    Phase.KNOCK: "ochko-turn-knock",
    Phase.BET: "ochko-turn-bet",
    Phase.PLAY: "ochko-turn-play",
    Phase.BANKER: "ochko-turn-banker",
}


def places(chips: tuple[int, ...] | list[int]) -> list[int]:
    """Each seat's place by chips, 1 the best; equal chips share a place (1, 1, 3)."""
    return [1 + sum(1 for other in chips if other > mine) for mine in chips]


def standings_text(chips: tuple[int, ...] | list[int], names: Mapping[int, str], tr: Translator) -> str:
    """«1. Вика — 130 · 2. Аня — 100 · 2. Гена — 100 · 4. Борис — 70»."""
    ranked = places(chips)
    order = sorted(range(len(chips)), key=lambda seat: (ranked[seat], seat))
    return tr.t("tally-separator").join(
        tr.t("ochko-standing", place=ranked[seat], name=name_of(seat, names, tr), chips=chips[seat]) for seat in order
    )
