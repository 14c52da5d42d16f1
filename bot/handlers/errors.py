"""The last word on an unexpected exception: log it with its context, give the user a polite line, go on."""

from __future__ import annotations

import logging

from aiogram import Bot, Router
from aiogram.types import ErrorEvent

from bot.handlers.common import answer
from bot.i18n import Translations
from bot.services import Reply

logger = logging.getLogger(__name__)


def create_router() -> Router:
    router = Router(name="errors")

    @router.errors()
    async def unexpected(event: ErrorEvent, translations: Translations, bot: Bot) -> bool:
        update = event.update
        logger.error(
            "update %s (%s) failed: %r",
            update.update_id,
            update.event_type,
            event.exception,
            exc_info=event.exception,
        )
        try:
            if update.callback_query is not None:
                query = update.callback_query
                tr = translations.for_telegram_language(query.from_user.language_code)
                # Through `answer`: a tap answered at once, before the failure, cannot be answered again.
                await answer(query, Reply(tr.t("flow-error"), alert=True))
            elif update.message is not None and update.message.text and update.message.text.startswith("/"):
                message = update.message
                code = message.from_user.language_code if message.from_user else None
                await bot.send_message(message.chat.id, translations.for_telegram_language(code).t("flow-error"))
        except Exception:
            logger.exception("update %s: telling the user about the failure failed too", update.update_id)
        return True

    return router
