"""The chat's history (issue 38): /history lists its last matches — the rules, who played, how it ended and what
it did to the ratings — newest first.

A match's result is written once, by the commit that ends its table (the last move, /stop, everyone away, the bot
removed): `match_result` keeps the game's key, the table's settings, the deals played, the final standing and the
game's own summary of the score (`GameAdapter.summary`), as plain data, so that /history reads a few rows and
replays no match. Names are read from the seats at the time of asking: a player who asked the bot to forget him
shows as the placeholder.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Final

from bot.games.registry import GAMES
from bot.i18n import Translator
from bot.services.core import TableCore
from bot.services.ratings import changes_line
from bot.services.state import AnyState, seat_names
from bot.storage import JsonObject, MatchRecord
from bot.table_settings import TableSettings

HISTORY_SHOWN: Final = 10  # matches /history lists
MESSAGE_MOST: Final = 4096  # characters of a Telegram message: older matches are left out to fit

MINUTE: Final = 60.0
HOUR: Final = 60 * MINUTE
DAY: Final = 24 * HOUR


def match_result(state: AnyState) -> JsonObject:
    """What /history keeps of a table's match as its last commit leaves it: over (with its standing) or stopped."""
    game, match = state.game, state.match
    result: JsonObject = {
        "game": game.key,
        "settings": state.settings.model_dump(mode="json"),
        "deals": game.deal_number(match),
        "over": bool(match.finished),
        "summary": game.summary(match),
    }
    standing = game.standing(match) if match.finished else None
    if standing is not None:
        result["sides"] = [list(side) for side in standing.sides]
        result["places"] = list(standing.places)
    return result


def ago(seconds: float, tr: Translator) -> str:
    """«5 мин назад», «3 ч назад», «2 дн. назад»: when a match ended, as a chat in any time zone reads it."""
    if seconds < MINUTE:
        return tr.t("history-just-now")
    if seconds < HOUR:
        return tr.t("history-minutes-ago", count=int(seconds // MINUTE))
    if seconds < DAY:
        return tr.t("history-hours-ago", count=int(seconds // HOUR))
    return tr.t("history-days-ago", count=int(seconds // DAY))


def winners_line(result: JsonObject, names: dict[int, str], tr: Translator) -> str:
    """«🏆 Аня», «🏆 Аня и Вика», «🤝 Ничья», «⏹ Остановлен на 3-й сдаче»."""
    if not result.get("over"):
        return tr.t("history-stopped", deal=int(result.get("deals", 0)))
    places = [int(place) for place in result.get("places", ())]
    sides = [[int(seat) for seat in side] for side in result.get("sides", ())]
    if not places or all(place == 1 for place in places):
        return tr.t("history-draw")

    def side_text(side: list[int]) -> str:
        named = [html.escape(names.get(seat, "?")) for seat in side]
        return (
            tr.t("pair-names", first=named[0], second=named[1])
            if len(named) == 2
            else tr.t("list-separator").join(named)
        )

    first = [side_text(side) for side, place in zip(sides, places, strict=True) if place == 1]
    return tr.t("history-won", names=tr.t("list-separator").join(first))


def record_text(number: int, record: MatchRecord, now: float, tr: Translator) -> str | None:
    """One match of /history: its rules and when, who won, the score, the rating changes; None for a game this
    bot no longer hosts."""
    result = record.result
    game = GAMES.get(str(result.get("game", "")))
    if game is None:
        return None
    settings = TableSettings.model_validate(result.get("settings", {}))
    names = seat_names(record.seats)
    rules = tr.t("tally-separator").join(game.rules_parts(settings, tr))
    lines = [
        tr.t("history-match", number=number, rules=rules, when=ago(now - record.finished_at, tr)),
        winners_line(result, names, tr),
        game.summary_text(result.get("summary", {}), names, settings, tr),
    ]
    if record.changes:
        by_user = {seat.user_id: seat.name for seat in record.seats if seat.user_id is not None}
        lines.append(changes_line(record.changes, by_user, tr))
    return "\n".join(lines)


def history_text(records: Sequence[MatchRecord], now: float, tr: Translator) -> str:
    """/history: the title and the matches, newest first, as many as fit in one message."""
    if not records:
        return tr.t("history-empty")
    text = tr.t("history-title")
    for number, record in enumerate(records, start=1):
        entry = record_text(number, record, now, tr)
        if entry is None:
            continue
        longer = f"{text}\n\n{entry}"
        if len(longer) > MESSAGE_MOST:
            break
        text = longer
    return text


class HistoryService:
    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.repository = core.repository

    async def history(self, chat_id: int) -> str:
        """/history: the chat's last matches (in a private chat, its games against the computer)."""
        tr = await self.core.chat_translator(chat_id)
        records = await self.repository.match_history(chat_id, HISTORY_SHOWN)
        return history_text(records, self.core.clock(), tr)
