"""The one live table message in the group, edited in place after every move (UX.md "The group").

Rendered from the public view only: it can show nothing a spectator may not see.
"""

from __future__ import annotations

import html
from collections.abc import Mapping

from bot.games.bura.cards import card_text, cards_text, suit_name
from bot.games.bura.common import match_goal, match_model, match_tally, trick_lines, trick_summary
from bot.games.bura.settings import profile_of
from bot.i18n import Translator
from bot.render.common import clip, name_of, side_name, side_of, side_seats, sides_names, tally
from bot.table_settings import TableSettings
from engine.bura.deal import Phase
from engine.bura.views import PublicView


def render_table(
    view: PublicView,
    names: Mapping[int, str],
    tr: Translator,
    *,
    title: str,
    settings: TableSettings,
    deadline_text: str | None = None,
    ended: str | None = None,
) -> str:
    """Header, trump and stock, dealer and turn, the last trick taken and the trick on the table, tricks and the
    match score. ``ended`` says how a table that will not go on ended (stopped, closed): it replaces the turn."""
    model = match_model(settings)
    game = tr.t(f"game-name-{profile_of(settings).value}")
    goal = match_goal(model, tr)
    if title:
        header = tr.t("table-title-named", title=html.escape(title), game=game, deal=view.deal_number, match=goal)
    else:
        header = tr.t("table-title", game=game, deal=view.deal_number, match=goal)
    turn = ended if ended is not None else _turn_line(view, names, tr, deadline_text)
    lines = [header, _trump_line(view, names, tr), turn]
    for shown in view.shown:
        lines.append(
            tr.t(
                "table-shown",
                name=name_of(shown.seat, names, tr),
                combo=tr.t(f"combo-{shown.combo.value}"),
                cards=cards_text(shown.cards, tr),
            )
        )
    if view.history or view.trick is not None:
        lines.append("")
    if view.history:
        # The last trick taken stays on view while the next is played: a computer leads again a second after it
        # takes a trick, too soon for people to have read the result (UX.md: a trick's result lives here).
        lines.append(trick_summary(view.history[-1], names, tr))
    if view.trick is not None:
        lines.extend(trick_lines(view.trick, names, tr))
    lines.append("")
    sides = _sides_in_deal(view)

    def label(side: int) -> str:
        return side_name(side, view.teams, names, tr)

    lines.append(tr.t("table-tricks", tally=tally([(label(side), str(view.tricks_won[side])) for side in sides], tr)))
    if view.points is not None:  # casual mode only: strict rules hide captured points (RULES §6.7)
        points = view.points
        lines.append(tr.t("table-points", tally=tally([(label(side), str(points[side])) for side in sides], tr)))
    active = {side for side in range(len(view.scores)) if _side_active(view, side)}
    out = [side for side in range(len(view.scores)) if side not in active]
    score = match_tally(model, view.scores, view.wins, view.pot, label, out, tr)
    if score is not None:
        lines.append(score)
    if view.doubled_next:
        lines.append(tr.t("tally-doubled"))
    if view.finished:
        if view.winners:
            winners, people = sides_names(view.winners, view.teams, names, tr)
            lines.append(tr.t("match-won", name=winners, count=people))
        else:
            lines.append(tr.t("match-draw"))
    return clip("\n".join(lines))


def _trump_line(view: PublicView, names: Mapping[int, str], tr: Translator) -> str:
    suit = suit_name(view.trump, tr)
    card = card_text(view.trump_card, tr)
    if view.trump_card_holder is not None:  # who drew the turned-up card is a public fact
        line = tr.t(
            "table-trump-held", suit=suit, card=card, name=name_of(view.trump_card_holder, names, tr), stock=view.stock
        )
    elif view.stock:
        line = tr.t("table-trump", suit=suit, card=card, stock=view.stock)
    else:
        line = tr.t("table-trump-stock-empty", suit=suit, card=card)
    if view.dead:
        line += tr.t("tally-separator") + tr.t("table-dead", count=view.dead)
    return line


def _turn_line(view: PublicView, names: Mapping[int, str], tr: Translator, deadline_text: str | None) -> str:
    parts = [tr.t("table-dealer", name=name_of(view.dealer, names, tr))]
    if view.finished or view.to_act is None:
        parts.append(tr.t("table-over"))
        return tr.t("tally-separator").join(parts)
    player = name_of(view.to_act, names, tr)
    key = {Phase.RESPOND: "table-to-answer", Phase.FINAL_CLAIM: "table-to-claim"}.get(view.phase, "table-to-lead")
    parts.append(tr.t(key, name=player))
    line = tr.t("tally-separator").join(parts)
    if deadline_text:
        line += " " + tr.t("table-clock", clock=html.escape(deadline_text))
    return line


def _sides_in_deal(view: PublicView) -> list[int]:
    """The sides that play this deal, in seat order."""
    sides: list[int] = []
    for seat in view.seats:
        side = side_of(seat, view.teams)
        if side not in sides:
            sides.append(side)
    return sorted(sides)


def _side_active(view: PublicView, side: int) -> bool:
    return any(seat in view.active for seat in side_seats(side, view.players, view.teams))
