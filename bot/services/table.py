"""`TableService`: the one object handlers talk to about tables; it runs every change of a table.

It holds the shared machinery (`TableCore`: the commit, the tables' locks and states, a move's messages) and the
services built on it: the lobby and its settings menu, coming back to a table, the game, the timers, the bot's
membership, the tallies, the guide (/help, /rules), the history and the replays. See `bot.services.core` for how a
change runs.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from bot.i18n import Translations
from bot.render.keyboard import Keyboard, LinkKeyboard
from bot.services.computer import Thinker
from bot.services.core import Clock, Notifier, TableCore
from bot.services.fairness import FairnessService
from bot.services.game import GameService
from bot.services.guide import GuideService
from bot.services.history import HistoryService
from bot.services.lobby import LobbyService
from bot.services.membership import MembershipService
from bot.services.messages import LiveRef, html_text, live_message, text_message
from bot.services.rejoin import RejoinService
from bot.services.replays import ReplayService
from bot.services.settings_menu import SettingsMenuService
from bot.services.stats import StatsService
from bot.services.timers import TimerService
from bot.storage import OutboxKind, Storage

if TYPE_CHECKING:
    from bot.webapp.links import MiniAppLinks


class TableService:
    def __init__(
        self,
        repository: Storage,
        translations: Translations,
        sender: Notifier,
        *,
        clock: Clock = time.time,
        test_seed: str | None = None,
        timer_interval: float = 1.0,
        thinker: Thinker | None = None,
        invite_key: bytes | None = None,
        time_scale: float = 1.0,
        mini_app: MiniAppLinks | None = None,
    ) -> None:
        """`time_scale` (TIME_SCALE): the game's clock runs this much faster than real time, the timers' polling
        with it (`timer_interval` is in the game's seconds). `mini_app`: the Mini App's links (WEBAPP_URL, with
        the bot's username from getMe), which the table and the hands carry; None: no Mini App."""
        self.core = TableCore(
            repository,
            translations,
            sender,
            clock=clock,
            test_seed=test_seed,
            invite_key=invite_key,
            time_scale=time_scale,
            mini_app=mini_app,
        )
        self.lobby = LobbyService(self.core)
        self.guide = GuideService(self.core)
        self.settings_menu = SettingsMenuService(self.core, self.lobby)
        self.rejoin = RejoinService(self.core, self.lobby)
        self.game = GameService(self.core, thinker)
        self.timers = TimerService(self.core, self.lobby, self.game, interval=timer_interval * time_scale)
        self.membership = MembershipService(self.core, self.lobby, self.game)
        self.stats = StatsService(self.core)
        self.fairness = FairnessService(self.core, self.lobby)
        self.history = HistoryService(self.core)
        self.replays = ReplayService(self.core)

    async def say(
        self,
        chat_id: int,
        text: str,
        update_id: int | None = None,
        *,
        reply_to: int | None = None,
        thread_id: int | None = None,
        markup: Keyboard | LinkKeyboard | None = None,
    ) -> None:
        """A message to a chat (a command's answer: a reply to it, in its forum topic), delivered by the sender
        like everything else; with the update it answers, unless what the command changed recorded that.

        A reply is silent: whoever asked is looking at the chat, and in a group the others' phones are for the
        game's news (issue 37: /stats, /top, /score rang every member's phone)."""
        message = text_message(
            chat_id, text, thread_id=thread_id, reply_to=reply_to, markup=markup, silent=reply_to is not None
        )
        await self.core.enqueue([message], update_id)

    async def pin_refused(self, chat_id: int) -> None:
        """The bot could not pin a group's table (it is no admin there): the group is told, once ever, how to make
        it one so that the table stays in sight; meanwhile the sender moves the table down when it is buried.
        Silent: it is no news of the game, and the admins who can act on it read the chat anyway."""
        if chat_id > 0 or await self.core.repository.get_message_ref(chat_id, LiveRef.PIN_HINT) is not None:
            return
        table = await self.core.repository.get_open_table(chat_id)
        tr = await self.core.chat_translator(chat_id)
        payload = html_text(tr.t("group-pin-refused"), thread_id=table.thread_id if table else None, silent=True)
        # Queued once per group, whoever is refused the pin before it is delivered (its ref is recorded only then: a
        # restarted process retrying the pin asked again): the group's id stands for the note's update id, which a
        # second enqueue finds used (Telegram's update ids are positive, a group's id negative).
        await self.core.enqueue([live_message(chat_id, LiveRef.PIN_HINT, "", OutboxKind.SEND, payload)], chat_id)
