"""Issue 37, end to end: what a newcomer meets. The real `python -m bot` against the fake Bot API."""

from __future__ import annotations

from bot.storage import TableStatus
from bot.telegram.callbacks import LobbyCb, LobbyOp
from tests.botapi import FakeTelegram
from tests.e2e.conftest import BotProcess
from tests.e2e.players import MOVE_WAIT, lobby_button
from tests.e2e.reader import BotDatabase


async def test_the_host_who_never_opened_the_private_chat_is_sent_there_and_seated(
    tg: FakeTelegram, bot: BotProcess
) -> None:
    """Dima adds the bot and sends /new, never having opened its private chat; Boris joins. «Начать» answers Dima
    with the table's invitation (his private chat opens); his /start there says the table waits, the group hears
    it quietly, and the next «Начать» deals."""
    dima, boris = tg.user("Дима", "dima"), tg.user("Борис", "boris")
    group = tg.group("Двор", owner=dima, members=[boris])
    tg.add_bot(group, by=dima)
    await tg.wait_bot_message(group, timeout=MOVE_WAIT)
    said = tg.send_message(dima, group, "/new")
    lobby = await tg.wait_bot_message(group, after=said, timeout=MOVE_WAIT)
    said = tg.start_bot(boris)
    await tg.wait_bot_message(tg.private_chat(boris), after=said, timeout=MOVE_WAIT)
    join = lobby_button(lobby, LobbyOp.JOIN)
    assert join is not None
    table_id = LobbyCb.unpack(str(join["callback_data"])).table
    await tg.wait_answer(tg.tap(boris, lobby, text=str(join["text"])), timeout=MOVE_WAIT)
    await tg.wait_for(lambda: "Борис" in (lobby.text or ""), MOVE_WAIT, "Boris in the lobby")

    start = lobby_button(lobby, LobbyOp.START)
    assert start is not None
    before = len(tg.messages(group, from_bot=True))
    answer = await tg.wait_answer(tg.tap(dima, lobby, text=str(start["text"])), timeout=MOVE_WAIT)
    assert answer.url is not None and f"?start=j{table_id}_" in answer.url, answer
    opened = tg.start_bot(dima, payload=answer.url.split("?start=", 1)[1])
    reply = await tg.wait_bot_message(tg.private_chat(dima), after=opened, timeout=MOVE_WAIT)
    assert "Вас ждут за столом" in (reply.text or "")
    ready = await tg.wait_for(
        lambda: next((m for m in tg.messages(group, from_bot=True) if "личный чат открыт" in (m.text or "")), None),
        MOVE_WAIT,
        "the group told Dima is ready",
    )
    assert ready is not None and not ready.notified
    assert len(tg.messages(group, from_bot=True)) == before + 1  # no ringing wall: that one quiet line

    answer = await tg.wait_answer(tg.tap(dima, lobby, text=str(start["text"])), timeout=MOVE_WAIT)
    assert not answer.show_alert and answer.url is None, answer
    async with BotDatabase(bot.database) as storage:
        table = await storage.get_table(table_id)
        assert table is not None and table.status is TableStatus.PLAYING
