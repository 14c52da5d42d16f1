"""Pieces shared by Bura's renderers: the match goal and tally, the trick block, a selection in hand order."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.games.bura.cards import BACK, card_text, cards_text
from bot.games.bura.settings import variant
from bot.i18n import Translator
from bot.render.common import name_of, separator, signed_number, tally
from bot.table_settings import TableSettings
from engine.bura.cards import Card
from engine.bura.variant import MatchKind, MatchModel
from engine.bura.views import PlayView, TrickView


def match_model(settings: TableSettings) -> MatchModel:
    return variant(settings).match


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
    return tr.t(
        "table-last-trick",
        number=trick.number,
        name=name_of(trick.owner, names, tr),
        plays=trick_plays(trick, names, tr),
    )


def trick_plays(trick: TrickView, names: Mapping[int, str], tr: Translator) -> str:
    """Who played what in a trick, in order: ``Борис Д♠ 7♠ · Аня 9♦️ В♠ · Вика 🂠 🂠``."""
    plays = [f"{name_of(trick.leader, names, tr)} {cards_text(trick.lead, tr)}"]
    plays += [f"{name_of(play.seat, names, tr)} {play_cards(play, tr)}" for play in trick.plays]
    return separator(tr).join(plays)


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
