"""What a Buraco move tells the group as a new message: one a commit at most (issue 37: a canastra, a morto, a
renewed stock each rang the group). A deal's start, its score term by term and the match's end ring (RULES §17.6,
§17.7); a morto taken, a canastra made and the stock renewed from a morto (by the draw that found it empty,
§17.7a-15) are news in the same message, and alone they make a quiet one. Every other move shows in the table
message, which is edited (silently)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.games.base import Quiet
from bot.games.buraco.table import named
from bot.games.buraco.turns import last_round as last_turns
from bot.games.buraco.turns import turn_line
from bot.i18n import Translator
from bot.render.common import name_of, side_name, signed_number
from engine.buraco.events import (
    DealScored,
    DealStarted,
    Event,
    MatchEnded,
    MortoTaken,
    RunExtended,
    SideScore,
    StockRenewed,
)
from engine.buraco.melds import CANASTRA
from engine.buraco.turns import Turn


def render_announcements(
    events: Sequence[Event], names: Mapping[int, str], tr: Translator, *, last_round: Sequence[Turn] = ()
) -> list[str]:
    """The commit's one message for the group, or none: a ringing one where a deal starts or ends or the match
    ends, else a quiet one with the turn's news. A deal's result tells `last_round`, the ended deal's turns, a line
    a seat (issue 37: the table's pictures are coalesced, and the next deal's turns soon push those lines out of
    it; the result is the message sure to arrive)."""
    lines: list[str] = []
    rings = False
    for event in events:
        if isinstance(event, DealStarted):
            rings = True
            if lines:
                lines.append("")
            lines.append(
                tr.t(
                    "buraco-deal-started",
                    deal=event.number,
                    dealer=name_of(event.dealer, names, tr),
                    first=name_of(event.first, names, tr),
                )
            )
            for side in (0, 1):
                if event.vulnerable[side]:
                    lines.append(tr.t("buraco-vulnerable", side=side_name(side, True, names, tr)))
        elif isinstance(event, MortoTaken):
            key = "buraco-morto-direta" if event.direta else "buraco-morto-indireta"
            lines.append(tr.t(key, name=name_of(event.seat, names, tr)))
        elif isinstance(event, RunExtended) and len(event.meld.cards) == CANASTRA:
            key = "buraco-canastra-made-clean" if event.meld.clean else "buraco-canastra-made-dirty"
            lines.append(tr.t(key, side=side_name(event.side, True, names, tr), number=event.run + 1))
        elif isinstance(event, StockRenewed):
            lines.append(tr.t("buraco-stock-renewed", count=event.size))
        elif isinstance(event, DealScored):
            rings = True
            result = deal_result(event, names, tr)
            turns = [turn_line(turn, names, tr) for turn in last_turns(last_round)]
            lines.extend([result[0], *turns, *result[1:]])
        elif isinstance(event, MatchEnded):
            rings = True
            lines.append(
                tr.t(
                    "buraco-match-ended",
                    side=side_name(event.winner, True, names, tr),
                    first=event.totals[0],
                    second=event.totals[1],
                )
            )
    if not lines:
        return []
    text = "\n".join(lines)
    return [text if rings else Quiet(text)]


def deal_result(event: DealScored, names: Mapping[int, str], tr: Translator) -> list[str]:
    """A deal's end and score, term by term (RULES §17.7)."""
    if event.closer is not None:
        lines = [tr.t("buraco-deal-out", deal=event.number, side=side_name(event.closer, True, names, tr))]
    else:
        lines = [tr.t("buraco-deal-exhausted", deal=event.number)]
    for side in (0, 1):
        lines.append(score_line(side_name(side, True, names, tr), event.scores[side], tr))
    totals = tr.t("tally-separator").join(named(side_name(s, True, names, tr), event.totals[s]) for s in (0, 1))
    lines.append(tr.t("buraco-totals", tally=totals))
    return lines


def score_line(side: str, score: SideScore, tr: Translator) -> str:
    return tr.t(
        "buraco-deal-score",
        side=side,
        melded=score.melded,
        bonuses=score.bonuses,
        going_out=score.going_out,
        in_hands=score.in_hands,
        morto=score.morto_penalty,
        total=signed_number(score.total),
    )


def deal_story(events: Sequence[Event], names: Mapping[int, str], tr: Translator) -> list[str]:
    """What a hand tells of a move in a group game: the deal just scored."""
    return [line for event in events if isinstance(event, DealScored) for line in deal_result(event, names, tr)]
