"""What the bot forgets (README, "What the bot keeps"): old delivered messages and finished tables' hands, every
hour (`Retention`), and everything about a user who asks for it with /forget (`PrivacyService`).

Kept for good: the tallies (who won what, in each chat) and each table's row (its chat, settings, times and
seats). Gone after `RETENTION_DAYS`: the messages the bot delivered, and a finished table's game state (every
hand dealt), event log and the refs of its hand messages. Gone after two days: the ids of handled updates,
which only guard against Telegram sending one again (it does for a day at most). Never pruned: a message still
to deliver, an update not handled yet.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.render.keyboard import button, keyboard
from bot.services.context import Actor, Reply
from bot.services.core import Clock, TableCore, first_use
from bot.services.messages import html_text, text_message
from bot.storage import (
    OutboxKind,
    OutboxMessage,
    Storage,
    StorageError,
    UpdateAlreadyProcessedError,
    UserSeatedError,
)
from bot.telegram.callbacks import ForgetCb, ForgetOp

logger = logging.getLogger(__name__)

DAY = 24 * 3600.0
UPDATES_KEPT = 2 * DAY
"""How long a handled update's id is kept: Telegram sends an update again for a day at most."""
PRUNE_EVERY = 3600.0
ROWS_A_WRITE = 500  # outbox rows or updates deleted in one write
TABLES_A_WRITE = 50  # tables whose private parts go in one write (a state and a few hundred events each)
PAUSE = 0.05
"""Seconds between two writes of a prune: the moves waiting for the database go first."""
FORGOTTEN_NAME = "—"
"""The name a forgotten user's seats at finished tables keep (the same in every language)."""

Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Pruned:
    updates: int = 0
    messages: int = 0
    tables: int = 0


class Retention:
    """Prunes what the bot no longer needs, once at the start and then every hour, in short writes.

    `days` is RETENTION_DAYS: delivered messages and finished tables' private parts older than that go; 0 keeps
    them for good (handled updates still go after two days: they are nobody's data)."""

    def __init__(
        self,
        storage: Storage,
        days: int,
        *,
        clock: Clock = time.time,
        sleep: Sleep = asyncio.sleep,
        every: float = PRUNE_EVERY,
        pause: float = PAUSE,
    ) -> None:
        self.storage = storage
        self.days = days
        self.clock = clock
        self.sleep = sleep
        self.every = every
        self.pause = pause

    async def run(self) -> None:
        if self.days:
            logger.info("retention: delivered messages and finished tables' hands are kept %s days", self.days)
        else:
            logger.info("retention: RETENTION_DAYS=0, delivered messages and finished tables' hands are kept")
        while True:
            try:
                pruned = await self.prune()
                if pruned != Pruned():
                    logger.info(
                        "retention: forgot %s handled updates, %s delivered messages, %s finished tables' hands",
                        pruned.updates,
                        pruned.messages,
                        pruned.tables,
                    )
            except StorageError as error:
                logger.warning("retention: pruning failed, tried again in an hour: %s", error)
            await self.sleep(self.every)

    async def prune(self) -> Pruned:
        """One pass: everything that is old enough now, however much, a write at a time."""
        now = self.clock()
        storage = self.storage
        updates = await self._drain(lambda limit: storage.prune_updates(now - UPDATES_KEPT, limit), ROWS_A_WRITE)
        if not self.days:
            return Pruned(updates=updates)
        before = now - self.days * DAY
        messages = await self._drain(lambda limit: storage.prune_outbox(before, limit), ROWS_A_WRITE)
        tables = await self._drain(lambda limit: storage.prune_tables(before, limit), TABLES_A_WRITE)
        return Pruned(updates=updates, messages=messages, tables=tables)

    async def _drain(self, step: Callable[[int], Awaitable[int]], limit: int) -> int:
        total = 0
        while True:
            done = await step(limit)
            total += done
            if done < limit:
                return total
            await self.sleep(self.pause)


class PrivacyService:
    """/forget in the private chat: what would be deleted and a confirmation bound to the user who asked; on ✅
    everything the bot keeps about him goes (`RetentionStore.forget_user`), unless he sits at an open table.

    Nothing here writes the user's row: the bot knows him again only once he uses it again."""

    def __init__(self, core: TableCore, retention_days: int) -> None:
        self.core = core
        self.repository = core.repository
        self.retention_days = retention_days

    async def ask(self, actor: Actor, chat_id: int, message_id: int, update_id: int | None = None) -> None:
        """/forget: the question with its two buttons, or why not now (he sits at an open table)."""
        core = self.core
        tr = core.actor_translator(actor)
        markup = None
        if await self.repository.seated_at(actor.user_id):
            text = tr.t("flow-forget-seated")
        else:
            text = tr.t("flow-forget-ask", days=self.retention_days)
            markup = keyboard(
                [
                    [
                        button(tr.t("flow-forget-yes"), ForgetCb(op=ForgetOp.CONFIRM, user=actor.user_id).pack()),
                        button(tr.t("flow-forget-no"), ForgetCb(op=ForgetOp.CANCEL, user=actor.user_id).pack()),
                    ]
                ]
            )
        await core.enqueue([text_message(chat_id, text, reply_to=message_id, markup=markup)], update_id)

    async def tap(
        self, actor: Actor, data: ForgetCb, chat_id: int | None, message_id: int | None, update_id: int | None = None
    ) -> Reply:
        """✅ or Отмена under the question. Only the user who asked, in his own private chat: any other tap (a
        forged one, a button of someone else's) changes nothing."""
        core = self.core
        tr = core.actor_translator(actor)
        if data.user != actor.user_id or chat_id != actor.user_id or message_id is None:
            logger.info(
                "privacy: a forget button of user %s tapped by %s in chat %s", data.user, actor.user_id, chat_id
            )
            return Reply(tr.t("flow-forget-not-yours"), alert=True)
        if data.op is ForgetOp.CANCEL:
            await core.enqueue([self._edit(chat_id, message_id, tr.t("flow-forget-cancelled"))], update_id)
            return Reply(tr.t("flow-forget-cancelled"))
        done = self._edit(chat_id, message_id, tr.t("flow-forget-done"))
        try:
            forgotten = await self.repository.forget_user(
                actor.user_id, FORGOTTEN_NAME, outbox=[done], update_id=first_use(update_id)
            )
        except UserSeatedError:
            return Reply(tr.t("flow-forget-seated"), alert=True)
        except UpdateAlreadyProcessedError:
            return Reply()
        core.sender.notify({chat_id})
        logger.info(
            "privacy: a user was forgotten (%s tallies, %s seats, %s tables, %s messages)",
            forgotten.tallies,
            forgotten.seats,
            forgotten.tables,
            forgotten.messages,
        )
        return Reply(tr.t("flow-forget-done-toast"))

    @staticmethod
    def _edit(chat_id: int, message_id: int, text: str) -> OutboxMessage:
        """The question becomes its answer, without its buttons."""
        return OutboxMessage(
            chat_id=chat_id, kind=OutboxKind.EDIT, payload={**html_text(text), "message_id": message_id}
        )
