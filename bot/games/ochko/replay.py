"""«Как это было» for Очко: a round (кон) that is over, told to one seat as he saw it: the bank and the banker's
face-up card, his own cards as they came (a dark card as 🂠 until it was shown), the bets, the banker's draws and
every settled hand (shown to all, RULES §20.8 item 4).

The round is replayed from the match's log (``to_json``); what the seat saw of his own cards is read from his
view (``engine.ochko.views.view``) after each move, everything else from the events, which carry only what the
table may see."""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.ochko.cards import card_text, cards_text
from bot.games.ochko.events import closed_line, settled_line
from bot.games.ochko.table import standings_text
from bot.i18n import Translator
from bot.render.common import name_of, split_messages
from engine.ochko.actions import action_from_json
from engine.ochko.events import (
    BankClosed,
    BankerBusted,
    BankerDrew,
    BankerStood,
    BetPlaced,
    Event,
    PlayerDrew,
    RoundEnded,
    RoundStarted,
    SessionEnded,
    Settled,
    Skipped,
    Stood,
)
from engine.ochko.hands import value
from engine.ochko.match import Match
from engine.ochko.views import view


def _public(event: Event, banker: int, match: Match, names: Mapping[int, str], tr: Translator) -> list[str]:
    options = match.options
    if isinstance(event, BetPlaced):
        return [tr.t("ochko-replay-bet", name=name_of(event.seat, names, tr), amount=event.amount)]
    if isinstance(event, Stood):
        key = "ochko-replay-dark" if event.dark else "ochko-replay-stood"
        return [tr.t(key, name=name_of(event.seat, names, tr))]
    if isinstance(event, BankerDrew):
        return [tr.t("ochko-replay-banker-drew", card=card_text(event.card, tr), total=event.value)]
    if isinstance(event, BankerStood | BankerBusted):
        key = "ochko-replay-banker-stood" if isinstance(event, BankerStood) else "ochko-replay-banker-bust"
        return [tr.t(key, total=event.value)]
    if isinstance(event, Skipped):
        return [tr.t(f"ochko-skipped-{event.why.value}", name=name_of(event.seat, names, tr))]
    if isinstance(event, Settled):
        return settled_line(event, banker, options, names, tr).split("\n")
    if isinstance(event, BankClosed):
        return [closed_line(event, names, tr)]
    if isinstance(event, SessionEnded):
        return [tr.t("ochko-session-ended"), standings_text(event.chips, names, tr)]
    return []


def ochko_replay(match: Match, deal: int, seat: int, names: Mapping[int, str], tr: Translator) -> list[str] | None:
    """``GameAdapter.replay`` for Очко: round ``deal`` as ``seat`` saw it; None while it is not over, or for a seat
    not dealt in (neither a player of it nor its banker)."""
    if deal < 1 or deal > match.round_no or (deal == match.round_no and match.in_round):
        return None
    data = match.to_json()
    replayed = Match.from_json({**data, "actions": []})
    lines: list[str] = []
    banker: int | None = None
    for item in data["actions"]:
        events = replayed.apply(action_from_json(item))
        mine = view(replayed, seat).hand  # what he holds after the move, a dark card face down
        for event in events:
            if isinstance(event, RoundStarted) and event.number == deal:
                if seat != event.banker and seat not in event.seats:
                    return None
                banker = event.banker
                marker = card_text(event.marker, tr) if event.marker is not None else "—"
                name = name_of(event.banker, names, tr)
                card = card_text(event.banker_card, tr)
                lines.append(tr.t("ochko-replay-start", name=name, bank=event.bank, card=card, marker=marker))
                if seat in event.seats:
                    lines.append(tr.t("ochko-replay-first", card=card_text(replayed.hands[seat][0], tr)))
            elif banker is not None:
                lines += _public(event, banker, replayed, names, tr)
                if isinstance(event, PlayerDrew) and event.seat == seat and mine:
                    seen = [card for card in mine if card is not None]
                    total = value(seen, replayed.options)
                    lines.append(tr.t("ochko-replay-own", cards=cards_text(mine, tr), total=total))
                if isinstance(event, RoundEnded):
                    after = events[events.index(event) + 1 :]
                    lines += [line for later in after for line in _public(later, banker, replayed, names, tr)]
                    return split_messages(
                        tr.t("ochko-replay-title", deal=deal), lines, tr.t("ochko-replay-title-more", deal=deal)
                    )
    return None
