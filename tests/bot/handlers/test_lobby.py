"""The lobby router's middleware: what its handlers are handed (`by: InGroup`), and what it lets go."""

from __future__ import annotations

from typing import Any

from aiogram.enums import ChatType
from aiogram.types import Chat, TelegramObject

from bot.handlers.lobby import InGroup, in_group
from bot.services import Actor
from bot.telegram.members import Members

GROUP = Chat(id=-1001, type=ChatType.SUPERGROUP, title="Друзья")
ANNA = Actor(1, "Аня", "ru")


async def handled(data: dict[str, Any]) -> dict[str, Any] | None:
    seen: dict[str, Any] = {}

    async def handler(event: TelegramObject, data: dict[str, Any]) -> str:
        seen.update(data)
        return "handled"

    result = await in_group(handler, TelegramObject(), data)
    return seen if result == "handled" else None


async def test_a_handler_gets_who_acts_in_which_group_and_telegram_is_not_asked_yet() -> None:
    data = {"actor": ANNA, "event_chat": GROUP, "update_id": 7, "bot": object(), "members": Members()}
    seen = await handled(data)
    assert seen is not None
    by = seen["by"]
    assert isinstance(by, InGroup)
    assert (by.chat, by.actor, by.update_id) == (GROUP, ANNA, 7)


async def test_an_update_with_no_person_or_no_chat_goes_no_further() -> None:
    assert await handled({"actor": None, "event_chat": GROUP, "update_id": 7}) is None
    assert await handled({"actor": ANNA, "update_id": 7}) is None
