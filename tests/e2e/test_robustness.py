"""The bot's dispatcher in this process against the fake Bot API: membership changes, migration, blocked
players, junk and failures. In-process (unlike test_game.py) so that it is quick and can break things on purpose.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiogram import Bot, Dispatcher

from bot.app import set_commands, update_handler
from bot.config import Settings
from bot.dispatcher import create_dispatcher
from bot.i18n import Translations
from bot.services import TableService
from bot.storage import SqliteStorage, TableStatus
from bot.telegram.api import BotApi
from bot.telegram.callbacks import LobbyCb, LobbyOp
from bot.telegram.calls import Unreachable, bot_api_call, bot_pin_check
from bot.telegram.pacer import Pacer
from bot.telegram.polling import Poller
from bot.telegram.sender import Sender
from tests.botapi import FakeTelegram, Message, User
from tests.botapi.conftest import make_bot

WAIT = 10.0


@dataclass
class Running:
    tg: FakeTelegram
    bot: Bot
    storage: SqliteStorage
    tables: TableService
    dispatcher: Dispatcher


@pytest.fixture
async def running(tmp_path: Path) -> AsyncIterator[Running]:
    async with FakeTelegram(flood_limits=False) as tg:
        storage = await SqliteStorage.open(tmp_path / "bura.sqlite3")
        bot = make_bot(tg)
        translations = Translations()
        holder: list[TableService] = []

        async def on_unreachable(report: Unreachable) -> None:
            await holder[0].game.player_unreachable(report.chat_id)

        pacer = Pacer(lambda: 0.0, asyncio.sleep, per_chat_interval=0, global_per_second=None, group_limit=10_000)
        sender = Sender(
            storage,
            bot_api_call(BotApi(bot)),
            pacer=pacer,
            on_unreachable=on_unreachable,
            poll_interval=0.2,
            may_pin=bot_pin_check(BotApi(bot), tg.bot.id),  # as bot/app.py: a member bot does not try to pin
        )
        tables = TableService(storage, translations, sender, test_seed="robust")
        holder.append(tables)
        settings = Settings(bot_token=tg.token, telegram_api_base=tg.base_url, database_path=tmp_path / "x")
        dispatcher = create_dispatcher(settings, storage, translations, sender, tables)
        # The bot's own polling: updates through the inbox, as `python -m bot` handles them.
        poller = Poller(BotApi(bot), storage, update_handler(dispatcher, bot), timeout=1)
        tasks = [asyncio.create_task(sender.run()), asyncio.create_task(poller.run())]
        try:
            yield Running(tg, bot, storage, tables, dispatcher)
        finally:
            tasks[1].cancel()
            await asyncio.gather(tasks[1], return_exceptions=True)
            await poller.stop()
            tasks[0].cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await bot.session.close()
            await storage.close()
        assert not tg.crashes, tg.crashes[0]


async def lobby_with_two(run: Running) -> tuple[User, User, Message, int]:
    tg = run.tg
    anna, boris = tg.user("Аня"), tg.user("Борис")
    group = tg.group("Стол", owner=anna, members=[boris])
    tg.add_bot(group)
    for user in (anna, boris):
        tg.start_bot(user)
        await tg.wait_bot_message(tg.private_chat(user), timeout=WAIT)
    said = tg.send_message(anna, group, "/new")
    lobby = await tg.wait_bot_message(group, after=said, timeout=WAIT)
    while not lobby.keyboard:  # the hello came first
        lobby = await tg.wait_bot_message(group, after=lobby, timeout=WAIT)
    join = next(b for row in lobby.keyboard for b in row if LobbyCb.unpack(b["callback_data"]).op is LobbyOp.JOIN)
    table_id = LobbyCb.unpack(join["callback_data"]).table
    answer = await tg.wait_answer(tg.tap(boris, lobby, text=join["text"]))
    assert answer.url is None
    return anna, boris, lobby, table_id


async def test_junk_is_ignored_or_answered_briefly(running: Running) -> None:
    tg = running.tg
    anna = tg.user("Аня")
    private = tg.private_chat(anna)
    said = tg.send_message(anna, private, "привет, бот")
    reply = await tg.wait_bot_message(private, after=said, timeout=WAIT)
    assert "/new" in (reply.text or "")
    said = tg.send_message(anna, private, "/nonsense")
    assert "/help" in ((await tg.wait_bot_message(private, after=said, timeout=WAIT)).text or "")
    group = tg.group("Стол", owner=anna)
    tg.add_bot(group, admin=True)  # an admin bot sees every message
    hello = await tg.wait_bot_message(group, timeout=WAIT)
    tg.send_message(anna, group, "просто текст")
    tg.send_message(anna, group, "/whatever@bura_test_bot")
    said = tg.send_message(anna, group, "/score")
    reply = await tg.wait_bot_message(group, after=said, timeout=WAIT)
    assert [m.message_id for m in tg.messages(group, from_bot=True)] == [hello.message_id, reply.message_id]


async def test_a_second_new_is_answered_clearly(running: Running) -> None:
    _, boris, lobby, _ = await lobby_with_two(running)
    group = lobby.chat
    said = running.tg.send_message(boris, group, "/bura")
    reply = await running.tg.wait_bot_message(group, after=said, timeout=WAIT)
    assert "уже собирают стол" in (reply.text or "")


async def test_removing_the_bot_closes_the_table(running: Running) -> None:
    _, _, lobby, table_id = await lobby_with_two(running)
    running.tg.remove_bot(lobby.chat)

    async def closed() -> None:
        while (table := await running.storage.get_table(table_id)) is None or table.status is not TableStatus.FINISHED:
            await asyncio.sleep(0.05)

    await asyncio.wait_for(closed(), WAIT)
    chat = await running.storage.get_chat(lobby.chat.id)
    assert chat is not None and chat.bot_removed


async def test_a_migrated_group_keeps_its_table(running: Running) -> None:
    anna, _, lobby, table_id = await lobby_with_two(running)
    supergroup = running.tg.migrate_to_supergroup(lobby.chat)

    async def moved() -> None:
        while await running.storage.get_open_table(supergroup.id) is None:
            await asyncio.sleep(0.05)

    await asyncio.wait_for(moved(), WAIT)
    said = running.tg.send_message(anna, supergroup, "/new")
    reply = await running.tg.wait_bot_message(supergroup, after=said, timeout=WAIT)
    assert "уже собирают стол" in (reply.text or "")
    assert (await running.storage.get_open_table(supergroup.id)).table_id == table_id  # type: ignore[union-attr]


async def test_a_player_who_blocks_the_bot_is_named_in_the_group(running: Running) -> None:
    _, boris, lobby, _ = await lobby_with_two(running)
    running.tg.block_bot(boris)
    message = await running.tg.wait_for(
        lambda: next(
            (
                m
                for m in running.tg.messages(lobby.chat, from_bot=True)
                if "личный чат с ботом закрыт" in (m.text or "")
            ),
            None,
        ),
        WAIT,
        "the group to hear of it",
    )
    assert "Борис" in (message.text or "")
    user = await running.storage.get_user(boris.id)
    assert user is not None and user.blocked


async def test_an_unexpected_error_is_a_polite_alert(
    running: Running, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    anna, _, lobby, _ = await lobby_with_two(running)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the disk caught fire")

    monkeypatch.setattr(running.tables.lobby, "tap", broken)
    start = next(b for row in lobby.keyboard for b in row if LobbyCb.unpack(b["callback_data"]).op is LobbyOp.START)
    with caplog.at_level(logging.ERROR, logger="bot.handlers.errors"):
        answer = await running.tg.wait_answer(running.tg.tap(anna, lobby, text=start["text"]), timeout=WAIT)
    assert answer.show_alert and answer.text == "Что-то пошло не так. Попробуйте ещё раз."
    assert "the disk caught fire" in caplog.text
    said = running.tg.send_message(anna, lobby.chat, "/score")  # and the bot goes on
    assert await running.tg.wait_bot_message(lobby.chat, after=said, timeout=WAIT)


async def test_a_tap_whose_work_fails_is_not_answered_as_accepted(
    running: Running, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # A tap is answered once what it changes is committed: when that work fails, the player hears so (an
    # alert), never a silent "accepted"; the failure is logged once.
    anna, _, lobby, _ = await lobby_with_two(running)
    start = next(b for row in lobby.keyboard for b in row if LobbyCb.unpack(b["callback_data"]).op is LobbyOp.START)
    assert not (await running.tg.wait_answer(running.tg.tap(anna, lobby, text=start["text"]), timeout=WAIT)).show_alert
    hand = await running.tg.wait_for(
        lambda: next((m for m in running.tg.messages(running.tg.private_chat(anna), True) if m.protected), None),
        WAIT,
        "Anna's hand",
    )

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the disk caught fire")

    monkeypatch.setattr(running.tables.game, "_redraw_hand", broken)
    with caplog.at_level(logging.ERROR):
        answer = await running.tg.wait_answer(running.tg.tap(anna, hand, row=0, col=0), timeout=WAIT)
    assert answer.show_alert and answer.text == "Что-то пошло не так. Попробуйте ещё раз."
    assert len([record for record in caplog.records if "the disk caught fire" in record.getMessage()]) == 1
    assert "failed too" not in caplog.text


async def test_command_menus_in_russian_and_english(running: Running) -> None:
    await set_commands(running.bot, Translations())
    calls = running.tg.calls("setMyCommands")
    languages = {call.params.get("language_code") for call in calls}
    assert languages == {"ru", None}
    assert all(call.ok for call in calls)
