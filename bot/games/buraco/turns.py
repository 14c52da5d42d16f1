"""The deal's last round of turns on the group's table: a line a seat for its latest turn in the deal, newest last
(issue 37). A group gets about twenty messages a minute and the table's edits are coalesced, so many pictures of
the table never arrive; whichever one does tells every turn since the one before it, unless more than a full round
passed in between. Rendered from the engine's record of the deal's turns (engine.buraco.turns), public only: a
draft of an opening shows from the discard that makes it (RULES §17.5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.games.buraco.cards import WILD_MARK, card_text, meld_text, rank_text
from bot.i18n import Translator
from bot.render.common import name_of
from engine.buraco.turns import Placed, Turn


def last_round(turns: Sequence[Turn]) -> list[Turn]:
    """Each seat's latest turn, newest last: the last full round (four turns at four seats)."""
    latest: list[Turn] = []
    seen: set[int] = set()
    for turn in reversed(turns):
        if turn.seat not in seen:
            seen.add(turn.seat)
            latest.append(turn)
    return latest[::-1]


def placed_text(placed: Placed, tr: Translator) -> str:
    """``8♥️`` or ``🃏→9``: a card added to a run, a substitute marked as a run marks it."""
    text = card_text(placed.card, tr)
    return text if placed.wild_at is None else text + WILD_MARK + rank_text(placed.wild_at, tr)


def turn_parts(turn: Turn, tr: Translator, *, cards: bool = True) -> list[str]:
    """What the turn did, in order; ``cards=False`` names the runs without their cards (an older turn of a long
    table)."""
    parts: list[str] = []
    if turn.rejected is not None:
        parts.append(tr.t("buraco-turn-rejected", card=card_text(turn.rejected, tr)))
    elif turn.drew:
        parts.append(tr.t("buraco-turn-stock"))
    elif turn.took:
        parts.append(tr.t("buraco-turn-pile", count=len(turn.took)))
    if turn.opening is not None:
        parts.append(tr.t("buraco-turn-opening", points=turn.opening))
    for run, meld in turn.laid:
        if cards:
            parts.append(tr.t("buraco-turn-run", number=run + 1, cards=meld_text(meld, tr)))
        else:
            parts.append(tr.t("buraco-turn-run-short", number=run + 1))
    for run, added in turn.added:
        if cards:
            shown = " ".join(placed_text(placed, tr) for placed in added)
            parts.append(tr.t("buraco-turn-add", number=run + 1, cards=shown))
        else:
            parts.append(tr.t("buraco-turn-add-short", number=run + 1, count=len(added)))
    if turn.morto is True:  # direta: before the discard (RULES §17.6)
        parts.append(tr.t("buraco-turn-morto"))
    if turn.discarded is not None:
        key = "buraco-turn-out" if turn.out else "buraco-turn-discard"
        parts.append(tr.t(key, card=card_text(turn.discarded, tr)))
    if turn.morto is False:  # indireta: by the discard
        parts.append(tr.t("buraco-turn-morto"))
    return parts


def turn_line(turn: Turn, names: Mapping[int, str], tr: Translator, *, cards: bool = True) -> str:
    """``<b>Аня</b>: берёт из колоды, выкладывает ряд 3: 3♥️ 4♥️ 5♥️, сбрасывает 7♥️``; a turn under way ends
    in «…». The name stands before a colon, apart from any number (names may end in digits)."""
    parts = tr.t("buraco-turn-separator").join(turn_parts(turn, tr, cards=cards))
    key = "buraco-turn-line" if turn.over else "buraco-turn-line-playing"
    return tr.t(key, name=name_of(turn.seat, names, tr), parts=parts)


def round_lines(
    turns: Sequence[Turn],
    names: Mapping[int, str],
    tr: Translator,
    room: int,
    *,
    earlier: Sequence[Turn] = (),
    deal: int = 1,
) -> list[str]:
    """The last round's lines, newest last, within ``room`` characters: where the cards of every line would not
    fit, the older lines name their runs without the cards (the newest keeps them).

    ``earlier`` are the turns of the deal before (number ``deal - 1``): a seat that has not played in this deal
    yet still shows its last turn of that one, under a line saying so, so the turns that ended a deal are told
    by the new deal's first pictures (the last picture of a deal is the one before its closing turn)."""
    latest = last_round(turns)
    played = {turn.seat for turn in latest}
    ended = [turn for turn in last_round(earlier) if turn.seat not in played]
    shown = [*ended, *latest]

    def lines(cards: bool) -> list[str]:
        told = [turn_line(turn, names, tr, cards=cards or turn is shown[-1]) for turn in shown]
        if not ended:
            return told
        heads = [tr.t("buraco-turns-ended", deal=deal - 1)]
        now = [tr.t("buraco-turns-now", deal=deal)] if latest else []
        return [*heads, *told[: len(ended)], *now, *told[len(ended) :]]

    full = lines(cards=True)
    return full if sum(len(line) + 1 for line in full) <= room else lines(cards=False)
