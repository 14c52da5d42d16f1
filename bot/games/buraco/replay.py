"""«Как это было» for Buraco: a finished deal told to one player, turn by turn, as he saw it.

The words only: what was seen is the engine's record (engine.buraco.replay). Every turn reads as the group's
table reads it («<b>Аня</b>: берёт из колоды, выкладывает ряд 1: 3♥️ 4♥️ 5♥️, сбрасывает 7♥️»), a pile taken
with its cards (it is taken face up, RULES §17.3); the player's own turns add the card he drew, the morto he
took and his hand after the turn (his alone to see, §17.2). The deal's score reads as the group's result.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.buraco.cards import cards_text
from bot.games.buraco.events import deal_result
from bot.games.buraco.turns import turn_line
from bot.i18n import Translator
from bot.render.common import name_of, side_name, split_messages
from engine.buraco.match import Match
from engine.buraco.replay import DealReplay, replay_deal


def render_replay(record: DealReplay, names: Mapping[int, str], tr: Translator) -> list[str]:
    """The messages of deal ``record.deal`` as ``record.seat`` saw it (HTML, each within Telegram's limit)."""
    lines = [
        tr.t("replay-buraco-start", dealer=name_of(record.dealer, names, tr), first=name_of(record.first, names, tr))
    ]
    for side in (0, 1):
        if record.vulnerable[side]:
            lines.append(tr.t("buraco-vulnerable", side=side_name(side, True, names, tr)))
    lines.append(tr.t("replay-hand", cards=cards_text(record.hand, tr)))
    for seen in record.turns:
        turn = seen.turn
        lines.append(turn_line(turn, names, tr))
        if turn.took:
            lines.append(tr.t("replay-buraco-pile", cards=cards_text(turn.took, tr)))
        if seen.drawn:
            lines.append(tr.t("replay-buraco-drawn", cards=cards_text(seen.drawn, tr)))
        if seen.morto:
            lines.append(tr.t("replay-buraco-morto", cards=cards_text(seen.morto, tr)))
        if seen.hand is not None:
            key = "replay-buraco-hand" if seen.hand else "replay-buraco-hand-empty"
            lines.append(tr.t(key, cards=cards_text(seen.hand, tr)))
    lines.append(tr.t("replay-result"))
    if record.kept and (not record.turns or record.turns[-1].hand != record.kept):
        lines.append(tr.t("replay-buraco-kept", cards=cards_text(record.kept, tr)))
    lines += deal_result(record.scored, names, tr)
    if record.ended is not None:
        totals = record.ended.totals
        lines.append(
            tr.t(
                "buraco-match-ended",
                side=side_name(record.ended.winner, True, names, tr),
                first=totals[0],
                second=totals[1],
            )
        )
    return split_messages(tr.t("replay-title", deal=record.deal), lines, tr.t("replay-title-more", deal=record.deal))


def buraco_replay(match: Match, deal: int, seat: int, names: Mapping[int, str], tr: Translator) -> list[str] | None:
    """``GameAdapter.replay`` for Buraco."""
    record = replay_deal(match, deal, seat)
    return None if record is None else render_replay(record, names, tr)
