"""The live table message of a Buraco table: both pairs' runs as numbered lines, the whole discard pile, the stock
and the mortos, the deal's last round of turns, the hands' sizes and the scores (RULES §17.2: everything but the
hands and the mortos is open)."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from bot.games.buraco.cards import cards_text, meld_text
from bot.games.buraco.turns import round_lines
from bot.i18n import Translator
from bot.render.common import MAX_TEXT, clip, name_of, side_name
from engine.buraco.melds import Meld
from engine.buraco.turns import Turn
from engine.buraco.views import TableView

TARGET = 3000  # RULES §17.7


def named(name: str, number: int) -> str:
    """``<b>Вика2</b> 12``: a name (escaped) and its number, told apart where a name ends in digits (issue 37)."""
    return f"<b>{name}</b> {number}"


def totals_text(totals: Sequence[int], names: Mapping[int, str], tr: Translator) -> str:
    """``Счёт: <b>Аня и Вика</b> 1200 · <b>Борис и Гена</b> 800``: the match's totals, pair by pair."""
    tally = tr.t("tally-separator").join(named(side_name(s, True, names, tr), totals[s]) for s in (0, 1))
    return tr.t("buraco-totals", tally=tally)


def score_lines(
    deal: int, totals: Sequence[int], turn: int | None, names: Mapping[int, str], tr: Translator
) -> list[str]:
    """/score (and the Mini App's score): the deal, the totals and who is to play."""
    lines = [tr.t("flow-score-title", deal=deal), totals_text(totals, names, tr)]
    if turn is not None:
        lines.append(tr.t("hand-waiting", name=name_of(turn, names, tr)))
    return lines


def run_line(number: int, meld: Meld, tr: Translator) -> str:
    """``2. 3♥️ 4♥️ 🃏→5 6♥️ 7♥️ 8♥️ 9♥️ — грязная канастра``: a run as laid, low to high, its substitute marked."""
    line = f"{number}. {meld_text(meld, tr)}"
    if meld.canastra:
        line += " — " + tr.t("buraco-canastra-clean" if meld.clean else "buraco-canastra-dirty")
    return line


def render_table(
    view: TableView,
    names: Mapping[int, str],
    tr: Translator,
    *,
    title: str,
    deadline_text: str | None = None,
    ended: str | None = None,
    turns: Sequence[Turn] = (),
    earlier: Sequence[Turn] = (),
) -> str:
    """The table; ``turns`` are the deal's turns so far (engine.buraco.turns), of which it shows the last round,
    and ``earlier`` the deal's before, whose last turns it shows until their seats play in this deal (issue 37:
    whichever of the coalesced pictures reaches the group tells the turns since the last one did)."""
    game = tr.t("game-buraco")
    head = tr.t("buraco-table-title", title=html.escape(title), game=game, deal=view.deal_number, target=TARGET)
    lines = [head if title else tr.t("buraco-table-title-untitled", game=game, deal=view.deal_number, target=TARGET)]
    scores = []
    for side in (0, 1):
        label = side_name(side, True, names, tr)
        key = "buraco-score-vulnerable" if view.vulnerable[side] else "buraco-score"
        scores.append(tr.t(key, side=label, points=view.totals[side]))
    lines.append(tr.t("tally-separator").join(scores))
    lines.append(tr.t("buraco-stock", stock=view.stock, mortos=view.mortos))
    if view.pile:
        lines.append(tr.t("buraco-pile", count=len(view.pile), cards=cards_text(view.pile, tr)))
    else:
        lines.append(tr.t("buraco-pile-empty"))
    for side in (0, 1):
        label = side_name(side, True, names, tr)
        runs = view.runs[side]
        morto = " · " + tr.t("buraco-morto-taken") if view.morto_taken[side] else ""
        lines.append("")
        lines.append(tr.t("buraco-side-runs", side=label, count=len(runs)) + morto)
        lines.extend(run_line(number, meld, tr) for number, meld in enumerate(runs, start=1))
    sizes = tr.t("tally-separator").join(named(name_of(seat, names, tr), view.hand_sizes[seat]) for seat in range(4))
    rest = ["", tr.t("buraco-hands", sizes=sizes)]
    if ended is not None:
        rest.append(ended)
    elif view.finished:
        winner = view.winner if view.winner is not None else 0
        rest.append(tr.t("buraco-match-won", side=side_name(winner, True, names, tr)))
    elif view.turn is not None:
        turn = tr.t("buraco-turn", name=name_of(view.turn, names, tr))
        if deadline_text is not None:
            turn += " " + tr.t("table-clock", clock=deadline_text)
        rest.append(turn)
    if turns or earlier:
        room = MAX_TEXT - len("\n".join([*lines, *rest])) - 1
        lines += ["", *round_lines(turns, names, tr, room, earlier=earlier, deal=view.deal_number)]
    return clip("\n".join([*lines, *rest]))
