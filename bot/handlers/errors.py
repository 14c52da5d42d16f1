"""The last word on a failed update: the user is told in his language, the bot goes on.

A database that cannot write (a full disk, an I/O error) is not a bug: the tap or command changed nothing, the
user is asked to try again, and one line is logged. Anything else is logged with its traceback and context, and
the user gets a polite line. The answer goes straight to Telegram: the outbox is in the database that may be
failing.
"""

from __future__ import annotations

import logging

from aiogram import Bot, Router
from aiogram.exceptions import TelegramAPIError
from aiogram.types import ErrorEvent

from bot import metrics
from bot.handlers.common import answer
from bot.i18n import Translations
from bot.services import Reply
from bot.storage import StorageUnavailable

logger = logging.getLogger(__name__)


def create_router() -> Router:
    router = Router(name="errors")

    @router.errors()
    async def failed(event: ErrorEvent, translations: Translations, bot: Bot) -> bool:
        update = event.update
        error = event.exception
        metrics.ERRORS.inc()
        if isinstance(error, StorageUnavailable):
            logger.warning("update %s (%s) changed nothing: %s", update.update_id, update.event_type, error)
            key = "flow-storage-failed"
        else:
            logger.error("update %s (%s) failed: %r", update.update_id, update.event_type, error, exc_info=error)
            key = "flow-error"
        try:
            if update.callback_query is not None:
                query = update.callback_query
                tr = translations.for_telegram_language(query.from_user.language_code)
                await answer(query, Reply(tr.t(key), alert=True))
            elif update.message is not None and update.message.text and update.message.text.startswith("/"):
                message = update.message
                code = message.from_user.language_code if message.from_user else None
                await bot.send_message(message.chat.id, translations.for_telegram_language(code).t(key))
        except TelegramAPIError as failure:
            logger.warning("update %s: telling the user failed too: %s", update.update_id, failure)
        except Exception:
            logger.exception("update %s: telling the user about the failure failed too", update.update_id)
        return True

    return router
