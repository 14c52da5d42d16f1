"""«Как это было» (issue 38): a deal that is over, replayed for one of its players as he saw it, in his private chat.

The group's result of each deal carries «🔎 Как это было» (`ReplayCb`: the table and the deal); in a private game
against the computer, /replay [N] asks for it (the last deal over by default). Only a player of that deal gets it,
in his own language, and only what his seat saw then (the game's adapter builds it from the engine's views:
`GameAdapter.replay`): never another's hidden card.

The deal is rebuilt from the table's committed state, replayed from its action log: that costs a few milliseconds
(more for a long Бурако match), so it runs on a worker thread, away from the event loop, on a copy of its own. The
messages go through the outbox like every other, and the tap is answered once they are queued.
"""

from __future__ import annotations

import asyncio

from bot.i18n import Translator
from bot.services.context import Actor, Reply
from bot.services.core import TableCore
from bot.services.messages import text_message
from bot.services.state import AnyState, TableState, seat_names, seat_of
from bot.storage import OutboxMessage, Table, TableStatus
from bot.telegram.callbacks import parse_id


def replay_texts(state_json: str, deal: int, seat: int, names: dict[int, str], tr: Translator) -> list[str] | None:
    """The deal's messages for the seat, from a table's stored state; None when that deal is not over or the seat
    did not play it (run on a worker thread)."""
    state = TableState.from_json(state_json)
    if not 1 <= deal <= deals_over(state):
        return None
    return state.game.replay(state.match, deal, seat, names, tr)


def deals_over(state: AnyState) -> int:
    """How many deals of a table's match are over."""
    dealt = state.game.deal_number(state.match)
    return dealt if state.match.finished else dealt - 1


def stored_deals(state_json: str) -> tuple[int, int]:
    """How many deals are over in a stored state, and the one dealt last (run on a worker thread)."""
    state = TableState.from_json(state_json)
    return deals_over(state), state.game.deal_number(state.match)


class ReplayService:
    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.repository = core.repository

    async def _translator(self, actor: Actor) -> Translator:
        """The player's language, as his hand speaks it."""
        user = await self.repository.get_user(actor.user_id)
        if user is not None and user.language:
            return self.core.translations.get(user.language)
        return self.core.translations.for_telegram_language(actor.language_code)

    async def button(self, table_id: int, deal: int, chat_id: int, actor: Actor, update_id: int | None) -> Reply:
        """«🔎 Как это было» under deal ``deal``'s result in ``chat_id``: the deal, as the tapper saw it, to his
        private chat; refused to anyone who did not play it, and for a button of another chat (forged)."""
        tr = await self._translator(actor)
        table = await self.repository.get_table(table_id)
        if table is None or table.chat_id != chat_id:
            return Reply(tr.t("flow-stale-button"), alert=True)
        seat = seat_of(table, actor.user_id)
        if seat is None:
            return Reply(tr.t("replay-not-yours"), alert=True)
        return await self._send(table, deal, seat, actor, tr, update_id, told=True)

    async def command(self, chat_id: int, actor: Actor, argument: str, update_id: int | None) -> str | None:
        """/replay [N] in the private chat: deal N (else the last one over) of the game against the computer played
        there (open, else the last one). Its answer is the deal itself (None) or why not."""
        tr = await self._translator(actor)
        table = await self.repository.get_open_table(chat_id) or await self.repository.last_finished_table(chat_id)
        seat = seat_of(table, actor.user_id) if table is not None else None
        if table is None or table.state is None or seat is None:
            return tr.t("replay-no-table")
        over, dealt = await asyncio.to_thread(stored_deals, table.state)
        word = argument.strip()
        number = (parse_id(word) or 0) if word else over  # ASCII digits only, as /verify N reads them
        if not 1 <= number <= dealt:
            return tr.t("replay-unknown", count=over)
        reply = await self._send(table, number, seat, actor, tr, update_id, told=False)
        return reply.text

    async def _send(
        self, table: Table, deal: int, seat: int, actor: Actor, tr: Translator, update_id: int | None, *, told: bool
    ) -> Reply:
        if table.state is None or table.status is TableStatus.LOBBY:
            return Reply(tr.t("replay-gone"), alert=True)
        texts = await asyncio.to_thread(replay_texts, table.state, deal, seat, seat_names(table.seats), tr)
        if texts is None:
            over, _ = await asyncio.to_thread(stored_deals, table.state)
            key = "replay-not-over" if deal > over else "replay-not-yours"
            return Reply(tr.t(key, deal=deal), alert=True)
        outbox: list[OutboxMessage] = [text_message(actor.user_id, text, silent=True) for text in texts]
        if not await self.core.enqueue(outbox, update_id):
            return Reply()  # a redelivered tap: sent the first time
        return Reply(tr.t("replay-sent", deal=deal)) if told else Reply()
