"""What the group sees of a table (issue 37): which messages ring, what the table says of the move timer."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import Translations
from bot.services.messages import move_limit
from bot.storage import OutboxKind
from tests.bot.test_services import GROUP, a_world, playing_table, state_of


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


def test_the_move_timer_is_shown_as_a_limit_in_both_languages() -> None:
    """Issue 37: «⏳ 1:00» stood still between edits; the group's budget cannot pay for ticks, and a time of day
    would need a time zone Telegram does not tell: the table says how long a move may take."""
    translations = Translations()
    ru, en = translations.get("ru"), translations.get("en")
    assert move_limit(60, ru) == "1 мин на ход" and move_limit(120, ru) == "2 мин на ход"
    assert move_limit(45, ru) == "45 с на ход" and move_limit(5, ru) == "5 с на ход"
    assert move_limit(60, en) == "1 min per move" and move_limit(90, en) == "90 s per move"


async def test_the_table_shows_the_move_limit(tmp_path: Path) -> None:
    async with a_world(tmp_path) as world:
        await playing_table(world)
        [table] = [text for text in world.api.texts(GROUP) if "сдача 1" in text][-1:]
        assert "⏳ 1 мин на ход" in table and "1:00" not in table


async def test_a_group_is_told_once_that_the_bot_may_not_pin_the_table(tmp_path: Path) -> None:
    async with a_world(tmp_path) as world:
        await playing_table(world)
        before = len(world.api.to(GROUP))
        await world.tables.pin_refused(GROUP)
        await world.deliver()
        await world.tables.pin_refused(GROUP)  # the next table's pin, or after a restart
        await world.deliver()
        [told] = world.api.to(GROUP)[before:]
        assert told.payload["text"].startswith("📌 Не могу закрепить стол")
        assert "администратором" in told.payload["text"]
        assert told.payload.get("disable_notification") is True


async def test_the_pin_note_is_queued_once_however_often_the_pin_is_refused_before_it_is_delivered(
    tmp_path: Path,
) -> None:
    """A process killed with the note queued: the next one retries the table's pin, is refused again, and must not
    queue a second note (its ref is recorded only once it is delivered)."""
    async with a_world(tmp_path) as world:
        await playing_table(world)
        before = len(world.api.to(GROUP))
        await world.tables.pin_refused(GROUP)
        await world.tables.pin_refused(GROUP)  # before the first was delivered
        await world.deliver()
        assert [call.payload["text"][:1] for call in world.api.to(GROUP)[before:]] == ["📌"]


async def test_the_pin_note_speaks_the_group_s_language(tmp_path: Path) -> None:
    async with a_world(tmp_path) as world:
        await world.storage.upsert_chat(-5, language="en")
        await world.tables.pin_refused(-5)
        await world.deliver()
        [told] = world.api.to(-5)
        assert told.payload["text"].startswith("📌 I can't pin the table") and "admin" in told.payload["text"]


async def test_the_last_picture_of_a_deal_is_not_superseded_by_the_next_deal_s(tmp_path: Path) -> None:
    """Edits of the table coalesce within a deal; the picture that ends a deal (every trick but the last, which
    the deal's result tells) still goes out when the next deal's pictures are queued behind it."""
    async with a_world(tmp_path) as world:
        table = await playing_table(world)
        state = state_of(table)
        tr = Translations().get("ru")
        [deal_1] = world.tables.core.messages.table_message(table, state, tr)
        state.match.deal_number += 1  # as the next deal's pictures are
        [deal_2] = world.tables.core.messages.table_message(table, state, tr)
        assert deal_1.key is not None and deal_2.key is not None and deal_1.key != deal_2.key
        [first, _, _] = await world.storage.enqueue([deal_1, deal_2, deal_2])
        waiting = [item.id for item in await world.storage.fetch_outbox(now=1e12)]
        assert first in waiting and len(waiting) == 2, "the next deal's edits coalesce, the ended deal's stays"
