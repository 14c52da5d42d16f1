"""What the group sees of a table (issue 37): which messages ring, what the table says of the move timer."""

from __future__ import annotations

from pathlib import Path

from bot.storage import OutboxKind
from tests.bot.test_services import GROUP, a_world, playing_table


async def test_replies_to_commands_are_silent_and_the_game_s_news_rings(tmp_path: Path) -> None:
    async with a_world(tmp_path) as world:
        await playing_table(world)
        dealt = [call for call in world.api.to(GROUP) if call.kind is OutboxKind.SEND and "🃏" in call.payload["text"]]
        assert any(not call.payload.get("disable_notification") for call in dealt), "the deal's start rings"
        await world.tables.say(GROUP, "📊 Аня: 3 матча", 10, reply_to=77)
        await world.deliver()
        [answer] = [call for call in world.api.to(GROUP) if call.payload.get("text") == "📊 Аня: 3 матча"]
        assert answer.payload.get("disable_notification") is True
        assert answer.payload["reply_parameters"]["message_id"] == 77
