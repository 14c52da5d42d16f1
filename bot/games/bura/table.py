"""The one live table message in the group, edited in place after every move (UX.md "The group").

Rendered from the public view only: it can show nothing a spectator may not see.

It shows every trick of the deal so far, one line each, not only the last: a group gets about twenty calls a
minute, so edits of the table coalesce and many of its pictures never reach the group; whichever one arrives
tells the whole deal (issue 37: 13 of 29 tricks were never shown to a group playing against the computer).
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from functools import lru_cache
from typing import Final

from bot.games.bura.cards import card_text, cards_text, suit_name
from bot.games.bura.common import match_goal, match_model, match_tally, trick_lines, trick_plays
from bot.games.bura.settings import profile_of
from bot.i18n import Translator
from bot.render.common import MAX_TEXT, clip, name_of, separator, side_name, side_of, sides_names, tally
from bot.table_settings import TableSettings
from engine.bura.deal import Phase
from engine.bura.variant import MatchModel
from engine.bura.views import PublicView, TrickView

TRICK_LINES_KEPT: Final = 1 << 14  # lines of taken tricks kept drawn: the deals of a thousand tables under way


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
    """Header, trump and stock, dealer and turn, the deal's tricks taken and the trick on the table, tricks and the
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
    # The tricks taken stay on view while the next is played (UX.md: a trick's result lives here).
    trick = trick_lines(view.trick, names, tr) if view.trick is not None else []
    if trick and not view.history:
        trick = ["", *trick]  # else below the tricks taken
    rest = [*trick, "", *score_lines(view, names, tr, model)]
    history = _history_lines(view, names, tr, room=MAX_TEXT - len("\n".join([*lines, *rest])))
    return clip("\n".join([*lines, *history, *rest]))


def score_lines(view: PublicView, names: Mapping[int, str], tr: Translator, model: MatchModel) -> list[str]:
    """The deal's tricks (and points, where shown) side by side, the match score by its model, a doubled next deal
    and the match's result."""
    sides = _sides_in_deal(view)

    def label(side: int) -> str:
        return side_name(side, view.teams, names, tr)

    scores = [tr.t("table-tricks", tally=tally([(label(side), str(view.tricks_won[side])) for side in sides], tr))]
    if view.points is not None:  # casual mode only: strict rules hide captured points (RULES §6.7)
        points = view.points
        scores.append(tr.t("table-points", tally=tally([(label(side), str(points[side])) for side in sides], tr)))
    active = _active_sides(view)
    out = [side for side in range(len(view.scores)) if side not in active]
    score = match_tally(model, view.scores, view.wins, view.pot, label, out, tr)
    if score is not None:
        scores.append(score)
    if view.doubled_next:
        scores.append(tr.t("tally-doubled"))
    if view.finished:
        if view.winners:
            winners, people = sides_names(view.winners, view.teams, names, tr)
            scores.append(tr.t("match-won", name=winners, count=people))
        else:
            scores.append(tr.t("match-draw"))
    return scores


def _history_lines(view: PublicView, names: Mapping[int, str], tr: Translator, room: int) -> list[str]:
    """The deal's tricks taken so far, a line each, oldest first; only who took each of the older ones where the
    cards would not fit in `room` characters (a long deal of many players with long names)."""
    if not view.history:
        return []
    seated = tuple(names.items())
    full = [_trick_line(trick, seated, tr) for trick in view.history]
    if sum(len(line) + 1 for line in full) + 1 <= room:
        return ["", *full]
    short = [
        tr.t("table-trick-taken-short", number=trick.number, name=name_of(trick.owner, names, tr))
        for trick in view.history[:-1]
    ]
    return ["", *short, full[-1]]


@lru_cache(maxsize=TRICK_LINES_KEPT)
def _trick_line(trick: TrickView, names: tuple[tuple[int, str], ...], tr: Translator) -> str:
    """A trick taken, on one line: ``3. Борис Д♠️ 7♠️ · Аня 9♦️ В♠️ → Аня``. Kept once drawn: every later picture of
    the deal shows it again, unchanged (the deal's last picture holds every trick of it)."""
    seats = dict(names)
    return tr.t(
        "table-trick-taken",
        number=trick.number,
        plays=trick_plays(trick, seats, tr),
        name=name_of(trick.owner, seats, tr),
    )


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
        line += separator(tr) + tr.t("table-dead", count=view.dead)
    return line


def _turn_line(view: PublicView, names: Mapping[int, str], tr: Translator, deadline_text: str | None) -> str:
    parts = [tr.t("table-dealer", name=name_of(view.dealer, names, tr))]
    if view.finished or view.to_act is None:
        parts.append(tr.t("table-over"))
        return separator(tr).join(parts)
    player = name_of(view.to_act, names, tr)
    key = {Phase.RESPOND: "table-to-answer", Phase.FINAL_CLAIM: "table-to-claim"}.get(view.phase, "table-to-lead")
    parts.append(tr.t(key, name=player))
    line = separator(tr).join(parts)
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


def _active_sides(view: PublicView) -> set[int]:
    """The sides still in the match: those with a seat still active."""
    return {side_of(seat, view.teams) for seat in view.active if 0 <= seat < view.players}
