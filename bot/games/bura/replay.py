"""«Как это было» for the Bura family: a finished deal told to one player, trick by trick, as he saw it.

The words only: what was seen is the engine's record (engine.bura.replay), built from the player's views and
the deal's public events. Tricks read as the table and the hand show them («Взятка 3: Аня Т♠️ · Борис 🂠 →
Аня»); a face-down answer the player saw, or that the deal's end turned over, reads ``🂠→Д♥️`` as a claim shows
it. Calls and the deal's end read as the group heard them.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.bura.cards import BACK, card_text, cards_text, suit_name
from bot.games.bura.common import trick_summary
from bot.games.bura.events import EventWriter, write_events
from bot.i18n import Translator
from bot.render.common import name_of, split_messages
from engine.bura.events import Event
from engine.bura.match import Match
from engine.bura.replay import DealReplay, LastCards, SeenCalls, SeenTrick, replay_deal
from engine.bura.views import PlayView, TrickView


def render_replay(record: DealReplay, match: Match, names: Mapping[int, str], tr: Translator) -> list[str]:
    """The messages of deal ``record.deal`` as ``record.seat`` saw it (HTML, each within Telegram's limit)."""
    lines = [
        tr.t(
            "replay-bura-start",
            dealer=name_of(record.dealer, names, tr),
            trump=suit_name(record.trump_card.suit, tr),
            card=card_text(record.trump_card, tr),
            leader=name_of(record.leader, names, tr),
        ),
        tr.t("replay-hand", cards=cards_text(record.hand, tr)),
    ]
    face_down = False
    for step in record.steps:
        if isinstance(step, SeenTrick):
            trick = _as_told(step)
            face_down = face_down or any(play.face_down for play in trick.plays)
            lines.append(trick_summary(trick, names, tr))
            if step.drawn:
                lines.append(tr.t("replay-bura-drawn", cards=cards_text(step.drawn, tr)))
            if step.trump_to is not None and step.trump_to != record.seat:
                trump = card_text(record.trump_card, tr)
                lines.append(tr.t("replay-bura-trump-drawn", name=name_of(step.trump_to, names, tr), card=trump))
        elif isinstance(step, LastCards):
            shown = " ".join(f"{BACK}→{card_text(card, tr)}" for card in step.cards)
            lines.append(tr.t("replay-bura-last-cards", name=name_of(step.seat, names, tr), cards=shown))
        elif isinstance(step, SeenCalls):
            lines += _told(step.events, record, match, names, tr)
    if record.kept:
        lines.append(tr.t("replay-bura-kept", cards=cards_text(record.kept, tr)))
    lines.append(tr.t("replay-result"))
    lines += _told(record.end, record, match, names, tr)
    if face_down:
        lines.append(tr.t("replay-bura-face-down"))
    return split_messages(tr.t("replay-title", deal=record.deal), lines, tr.t("replay-title-more", deal=record.deal))


def _as_told(step: SeenTrick) -> TrickView:
    """The trick with the face-down cards the deal's end turned over put in (shown ``🂠→Д♥️``)."""
    trick = step.trick
    plays = tuple(
        PlayView(play.seat, revealed, play.count, play.face_down, play.beats) if revealed else play
        for play, revealed in zip(trick.plays, step.revealed, strict=True)
    )
    return TrickView(trick.number, trick.leader, trick.lead, plays, trick.owner)


def _told(
    events: tuple[Event, ...], record: DealReplay, match: Match, names: Mapping[int, str], tr: Translator
) -> list[str]:
    """Calls and the deal's end as the group heard them, the score by the match's model with what this deal
    changed (``Борис 6 (+4)``)."""
    writer = EventWriter(names, tr, record.teams, match.variant.match, record.scores_before, None)
    write_events(writer, events)
    return [line for block in writer.blocks for line in block]


def bura_replay(match: Match, deal: int, seat: int, names: Mapping[int, str], tr: Translator) -> list[str] | None:
    """``GameAdapter.replay`` for the Bura family."""
    record = replay_deal(match, deal, seat)
    return None if record is None else render_replay(record, match, names, tr)
