"""The last router: a tap that no feature understood (a forged, garbled or foreign button, a hand button in a
group, a lobby button in a private chat) is still answered, or the client would spin until it gives up."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.handlers.common import answer
from bot.i18n import Translator
from bot.services.context import Reply


def create_router() -> Router:
    router = Router(name="fallback")

    @router.callback_query()
    async def unknown_button(query: CallbackQuery, tr: Translator) -> None:
        await answer(query, Reply(tr.t("flow-stale-button"), alert=True))

    return router
