"""The composition root of the aiogram side: one `Dispatcher`, its dependencies, its routers."""

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import Dispatcher
from aiogram.types import TelegramObject

from bot.config import Settings
from bot.handlers import (
    errors,
    fairness,
    fallback,
    game,
    games,
    history,
    lobby,
    membership,
    privacy,
    private,
    stats,
)
from bot.handlers.common import update_context
from bot.handlers.people import people_only
from bot.handlers.throttle import Throttle
from bot.i18n import Translations
from bot.services import TableService
from bot.services.core import handling
from bot.services.invites import invite_key as derive_invite_key
from bot.services.privacy import PrivacyService
from bot.storage import Storage
from bot.telegram.members import Members
from bot.telegram.sender import Sender
from bot.webapp.links import MiniAppLinks


def create_dispatcher(
    settings: Settings,
    storage: Storage,
    translations: Translations,
    sender: Sender,
    tables: TableService | None = None,
) -> Dispatcher:
    """Build the dispatcher with everything a handler may ask for by name and type:

    `settings: Settings`, `repository: Storage`, `translations: Translations`, `sender: Sender`,
    `tables: TableService` (made here unless given: the app shares it with its timers and the sender),
    `members: Members` (who is in which group, asked of Telegram and cached briefly), `privacy: PrivacyService`
    (/forget).
    (`repository`, not `storage`: aiogram's own FSM storage already answers to that name.)
    Feature routers are included here, one per module; each module makes a fresh router, so this can run
    more than once in a process (tests).
    """
    if tables is None:
        tables = TableService(
            storage,
            translations,
            sender,
            test_seed=settings.test_seed,
            invite_key=invite_key(settings),
            time_scale=settings.time_scale,
            mini_app=MiniAppLinks.from_settings(settings, None),  # the bot's username unknown: no t.me link
        )
    # No FSM: a table's state lives in the storage, not in conversation states (its middleware cost every update).
    dispatcher = Dispatcher(name="bura", disable_fsm=True)
    dispatcher.workflow_data.update(
        settings=settings,
        repository=storage,
        translations=translations,
        sender=sender,
        tables=tables,
        members=Members(),
        privacy=PrivacyService(tables.core, settings.retention_days),
    )
    dispatcher.update.outer_middleware(_one_handling)
    dispatcher.update.outer_middleware(Throttle.scaled(translations, sender.pacer.interval))  # at the sender's pace
    dispatcher.update.outer_middleware(update_context)  # the actor, his translator, the update id
    dispatcher.message.outer_middleware(people_only)  # only people act: no rows for channels and stand-ins
    dispatcher.include_routers(
        errors.create_router(),
        membership.create_router(),
        games.create_router(),  # /new [game], /rules, the games' buttons
        lobby.create_router(),
        game.create_router(),
        stats.create_router(),
        fairness.create_router(),  # /seed, /verify: before private's catch-all
        history.create_router(),  # /history, /replay, «Как это было»: before private's catch-all
        privacy.create_router(),  # before private's, whose catch-all would answer /forget
        private.create_router(),
        fallback.create_router(),  # last: answers the taps nobody above understood
    )
    return dispatcher


def invite_key(settings: Settings) -> bytes:
    """The key of this bot's table invitations: derived from its token, so every instance shares it."""
    return derive_invite_key(settings.bot_token.get_secret_value())


async def _one_handling(
    handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]], event: TelegramObject, data: dict[str, Any]
) -> Any:
    """Each update is one handling: its first write records it as processed (`bot.services.core.first_use`)."""
    with handling():
        return await handler(event, data)
