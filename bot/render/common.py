"""Pieces shared by the renderers: names, sides, tallies, the trick block, the match goal and length limits."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from bot.i18n import Translator
from bot.render.cards import BACK, card_text, cards_text
from bot.table_settings import TableSettings
from engine.bura.cards import Card
from engine.bura.variant import MatchKind, MatchModel
from engine.bura.views import PlayView, TrickView

MAX_TEXT: Final = 4096  # Telegram's limit for a message text
ELLIPSIS: Final = "…"


def name_of(seat: int, names: Mapping[int, str], tr: Translator) -> str:
    """The seat's player name, HTML-escaped (names are user input); «Игрок 3» if the caller has none."""
    name = names.get(seat)
    return html.escape(name) if name else tr.t("seat-name", number=seat + 1)


def side_of(seat: int, teams: bool) -> int:
    """A seat's side: in 2x2 play partners sit across the table, 0+2 against 1+3 (RULES §4)."""
    return seat % 2 if teams else seat


def side_seats(side: int, players: int, teams: bool) -> tuple[int, ...]:
    """The seats of a side (see :func:`side_of`)."""
    return tuple(seat for seat in range(players) if side_of(seat, teams) == side)


def side_name(side: int, teams: bool, names: Mapping[int, str], tr: Translator) -> str:
    """A player's name, or in 2x2 play the pair of partners ("Аня и Вика"): seats side and side + 2 (RULES §4)."""
    if teams:
        return tr.t("pair-names", first=name_of(side, names, tr), second=name_of(side + 2, names, tr))
    return name_of(side, names, tr)


def sides_names(sides: Sequence[int], teams: bool, names: Mapping[int, str], tr: Translator) -> tuple[str, int]:
    """The names of several sides ("Аня, Вика") and how many people they are (for the verb's number)."""
    people = len(sides) * (2 if teams else 1)
    return tr.t("list-separator").join(side_name(side, teams, names, tr) for side in sides), people


def tally(entries: Sequence[tuple[str, str]], tr: Translator) -> str:
    """``Аня 2 · Борис 1`` from (label, value) pairs."""
    return tr.t("tally-separator").join(f"{label} {value}" for label, value in entries)


def match_model(settings: TableSettings) -> MatchModel:
    return settings.variant().match


def match_goal(model: MatchModel, tr: Translator) -> str:
    """What the match is played to: "матч до 11 побед", "до 12 штрафных", "на банк, 20 сдач"."""
    if model.kind is MatchKind.ROBBER:
        return tr.t("match-robber", target=model.target)
    if model.kind in (MatchKind.PENALTY_12, MatchKind.BURKOZEL):
        return tr.t("match-penalty", limit=model.limit)
    if model.kind is MatchKind.POT:
        if model.max_deals is not None:
            return tr.t("match-pot-deals", deals=model.max_deals)
        return tr.t("match-pot")
    return tr.t("match-single")


def match_tally(
    model: MatchModel | None,
    scores: Sequence[int],
    wins: Sequence[int],
    pot: int,
    label: Callable[[int], str],
    out: Sequence[int],
    tr: Translator,
    before: Sequence[int] | None = None,
) -> str | None:
    """The match score labelled by its model (wins, penalty points, chips); None for a single-deal match.

    ``model`` None (unknown) shows the tally of won deals, which means the same under every model.
    ``out`` lists the sides no longer in the match (eliminated), marked ✖. ``before`` (the scores before the
    deal, if known) adds what the deal changed: ``Борис 6 (+4)``.
    """
    if model is None:
        return tr.t("tally-wins", tally=_entries(wins, None, False, True, label, out, tr))
    if model.kind is MatchKind.ROBBER:
        return tr.t("tally-robber", tally=_entries(scores, before, False, True, label, out, tr))
    if model.kind in (MatchKind.PENALTY_12, MatchKind.BURKOZEL):
        return tr.t("tally-penalty", limit=model.limit, tally=_entries(scores, before, False, False, label, out, tr))
    if model.kind is MatchKind.POT:
        return tr.t("tally-pot", tally=_entries(scores, before, True, True, label, out, tr), pot=pot)
    return None


def _entries(
    values: Sequence[int],
    before: Sequence[int] | None,
    signed: bool,
    best_high: bool,
    label: Callable[[int], str],
    out: Sequence[int],
    tr: Translator,
) -> str:
    """Sides best first: ``Аня 2 · Борис 1``; chips signed (``+2``, ``−1``); changes in brackets."""
    order = sorted(range(len(values)), key=lambda side: -values[side] if best_high else values[side])
    pairs = []
    for side in order:
        name = tr.t("tally-out", name=label(side)) if side in out else label(side)
        value = signed_number(values[side]) if signed else str(values[side])
        if before is not None and side < len(before) and before[side] != values[side]:
            value = tr.t("tally-change", value=value, change=signed_number(values[side] - before[side]))
        pairs.append((name, value))
    return tally(pairs, tr)


def signed_number(value: int) -> str:
    """``+2``, ``0``, ``−1`` (a true minus sign)."""
    return f"{value:+d}".replace("-", "−") if value else "0"


def play_cards(play: PlayView, tr: Translator) -> str:
    """An answer: open cards, backs for hidden face-down cards, ``🂠→Д♥️`` for face-down cards the viewer knows."""
    if not play.face_down:
        return cards_text(play.cards, tr)
    if play.cards:
        return " ".join(f"{BACK}→{card_text(card, tr)}" for card in play.cards)
    return " ".join([BACK] * play.count)


def trick_lines(trick: TrickView, names: Mapping[int, str], tr: Translator) -> list[str]:
    """The trick on the table: the lead, each answer, and which set beats now (the owner's answer)."""
    lines = [tr.t("table-trick", number=trick.number)]
    lines.append(f"  {name_of(trick.leader, names, tr)}  {cards_text(trick.lead, tr)}")
    beater = _beating_play(trick)
    for index, play in enumerate(trick.plays):
        line = f"  {name_of(play.seat, names, tr)}  {play_cards(play, tr)}"
        if index == beater:
            line += "   " + tr.t("table-beats")
        lines.append(line)
    return lines


def trick_summary(trick: TrickView, names: Mapping[int, str], tr: Translator) -> str:
    """A taken trick on one line: ``Взятка 3 → Аня: Борис Д♠ 7♠ · Аня 9♦️★ В♠``."""
    plays = [f"{name_of(trick.leader, names, tr)} {cards_text(trick.lead, tr)}"]
    plays += [f"{name_of(play.seat, names, tr)} {play_cards(play, tr)}" for play in trick.plays]
    return tr.t(
        "table-last-trick",
        number=trick.number,
        name=name_of(trick.owner, names, tr),
        plays=tr.t("tally-separator").join(plays),
    )


def _beating_play(trick: TrickView) -> int | None:
    """Index of the answer that holds the trick now: the last one that beat (RULES §6.5), if any."""
    for index in range(len(trick.plays) - 1, -1, -1):
        if trick.plays[index].beats:
            return index
    return None


def sorted_selection(hand: Sequence[Card], selection: Sequence[Card]) -> tuple[Card, ...]:
    """The selected cards that are in the hand, in hand order (stale or forged cards are dropped)."""
    chosen = set(selection)
    return tuple(card for card in hand if card in chosen)


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """Keep a text within Telegram's limit by dropping its oldest (first) lines; tags never span lines here."""
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    while lines and len(ELLIPSIS) + 1 + sum(len(line) + 1 for line in lines) - 1 > limit:
        lines.pop(0)
    if not lines:  # one enormous line: cut it at a space, which never falls inside a tag here
        return ELLIPSIS + text[-(limit - 1) :].split(" ", 1)[-1]
    return "\n".join([ELLIPSIS, *lines])
