"""What the bot forgets: /forget (its question, its buttons bound to who asked, the refusal at an open table) and
the hourly pruning, on a real SQLite storage with the real sender (tests/bot/test_services.py's world)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import cast

import pytest

from bot.services import Actor, Reply
from bot.services.privacy import DAY, FORGOTTEN_NAME, UPDATES_KEPT, PrivacyService, Pruned, Retention
from bot.storage import (
    Delivery,
    OutboxKind,
    OutboxMessage,
    SqliteStorage,
    StatsDelta,
    Storage,
    StorageUnavailable,
    TableStatus,
)
from bot.telegram.callbacks import ForgetCb, ForgetOp
from tests.bot.test_services import ANNA, BORIS, GROUP, FakeTime, World, admin, playing_table, started, world

__all__ = ["world"]  # the fixture, shared with the table service's tests

QUESTION = 40  # the message id of Anna's /forget in her private chat


def privacy(world: World) -> PrivacyService:
    return PrivacyService(world.tables.core, retention_days=30)


def asked(world: World, actor: Actor = ANNA) -> list[dict[str, object]]:
    """The buttons under the last message the bot sent to the actor's private chat."""
    [*_, last] = [call for call in world.api.to(actor.user_id) if call.kind is OutboxKind.SEND]
    markup = last.payload.get("reply_markup")
    assert isinstance(markup, dict)
    return [button for row in markup["inline_keyboard"] for button in row]


async def tap(world: World, actor: Actor, op: ForgetOp, owner: Actor = ANNA, chat_id: int | None = None) -> Reply:
    data = ForgetCb(op=op, user=owner.user_id)
    chat = actor.user_id if chat_id is None else chat_id
    return await privacy(world).tap(actor, data, chat, QUESTION + 1, update_id=None)


async def a_finished_game(world: World) -> int:
    """Anna and Boris played at the group's table, which Anna then stopped; both have tallies there."""
    table = await playing_table(world)
    assert await world.tables.game.stop(GROUP, ANNA, is_admin=admin(False), update_id=90) == Reply()
    other = await world.storage.create_table(-2002, creator_id=BORIS.user_id, settings={})
    await world.storage.commit_move(
        other.table_id,
        0,
        None,
        status=TableStatus.FINISHED,
        stats=[
            StatsDelta(chat_id=-2002, user_id=user, game="bura", counts={"matches_played": 1})
            for user in (ANNA.user_id, BORIS.user_id)
        ],
    )
    await world.deliver()
    return table.table_id


async def test_forget_asks_first_with_buttons_bound_to_who_asked(world: World) -> None:
    await started(world, ANNA)
    await privacy(world).ask(ANNA, ANNA.user_id, QUESTION, update_id=50)
    await world.deliver()
    [question] = world.api.texts(ANNA.user_id)
    assert "Удалить всё, что бот хранит о вас?" in question and "30 дней" in question
    assert [(b["text"], b["callback_data"]) for b in asked(world)] == [
        ("✅ Удалить", f"f:y:{ANNA.user_id}"),
        ("Отмена", f"f:n:{ANNA.user_id}"),
    ]
    assert await world.storage.get_user(ANNA.user_id) is not None, "asking deletes nothing"
    assert await world.storage.is_update_processed(50)


async def test_forget_is_refused_at_an_open_table(world: World) -> None:
    table = await playing_table(world)
    await privacy(world).ask(ANNA, ANNA.user_id, QUESTION, update_id=50)
    await world.deliver()
    refusal = world.api.to(ANNA.user_id)[-1]
    assert "Выйдите из лобби, закончите игру (/stop)" in str(refusal.payload["text"])
    assert "reply_markup" not in refusal.payload, "no buttons to delete with"

    reply = await tap(world, ANNA, ForgetOp.CONFIRM)  # a button from before he sat down
    assert reply.alert and reply.text is not None and "/stop" in reply.text
    assert len(reply.text) <= 200, "an alert holds 200 characters"
    user = await world.storage.get_user(ANNA.user_id)
    assert user is not None and user.name == ANNA.name
    assert (await world.storage.get_table(table.table_id)) == await world.table()
    assert await world.storage.get_stats(GROUP, ANNA.user_id) == []  # none yet: nothing was lost either


async def test_confirmed_forget_deletes_what_is_kept_about_him(world: World) -> None:
    table_id = await a_finished_game(world)
    hands_before = len(world.api.to(ANNA.user_id))
    assert hands_before > 0
    await privacy(world).ask(ANNA, ANNA.user_id, QUESTION, update_id=50)
    await world.deliver()

    reply = await tap(world, ANNA, ForgetOp.CONFIRM)
    assert reply == Reply("Удалено.")
    await world.deliver()

    edit = world.api.to(ANNA.user_id)[-1]
    assert (edit.kind, edit.message_id) == (OutboxKind.EDIT, QUESTION + 1)
    assert edit.payload["text"] == "✅ Готово: бот удалил всё, что хранил о вас."
    assert "reply_markup" not in edit.payload, "the buttons are gone"
    storage = world.storage
    assert await storage.get_user(ANNA.user_id) is None, "not made again by the delivery of the answer"
    assert await storage.get_stats(GROUP, ANNA.user_id) == await storage.get_stats(-2002, ANNA.user_id) == []
    table = await storage.get_table(table_id)
    assert table is not None and table.state is None
    assert [(seat.user_id, seat.name) for seat in table.seats] == [
        (ANNA.user_id, FORGOTTEN_NAME),
        (BORIS.user_id, BORIS.name),
    ]
    # His private chat keeps only the answer to come; the group's messages and Boris's stay for their time.
    assert await storage.get_message_ref(ANNA.user_id, f"hand:{table_id}") is None
    assert await storage.get_message_ref(BORIS.user_id, f"hand:{table_id}") is None  # the table's hands went
    boris = await storage.get_user(BORIS.user_id)
    assert boris is not None and boris.name == BORIS.name
    assert [s.user_id for s in await storage.chat_stats(-2002)] == [BORIS.user_id]


async def test_another_users_tap_changes_nothing(world: World) -> None:
    await a_finished_game(world)
    for actor, owner, chat_id in (
        (BORIS, ANNA, None),  # Anna's button, tapped by Boris (in his own chat)
        (ANNA, BORIS, None),  # a forged button naming Boris, in Anna's chat
        (ANNA, ANNA, GROUP),  # Anna's button, but in a group
    ):
        reply = await tap(world, actor, ForgetOp.CONFIRM, owner=owner, chat_id=chat_id)
        assert reply == Reply("Эта кнопка не ваша: ничего не изменилось.", alert=True)
    for user in (ANNA, BORIS):
        kept = await world.storage.get_user(user.user_id)
        assert kept is not None and kept.name == user.name
        assert await world.storage.get_stats(-2002, user.user_id) != []
    assert await world.pending() == 0, "nothing queued either"


async def test_cancel_deletes_nothing(world: World) -> None:
    await a_finished_game(world)
    assert await tap(world, ANNA, ForgetOp.CANCEL) == Reply("Ничего не удалено.")
    await world.deliver()
    edit = world.api.to(ANNA.user_id)[-1]
    assert (edit.kind, edit.payload["text"], edit.message_id) == (OutboxKind.EDIT, "Ничего не удалено.", QUESTION + 1)
    assert await world.storage.get_user(ANNA.user_id) is not None
    assert await world.storage.get_stats(-2002, ANNA.user_id) != []


# -- pruning ---------------------------------------------------------------------------------------------------


async def test_retention_prunes_a_backlog_in_short_writes(tmp_path: Path) -> None:
    time = FakeTime()
    storage = await SqliteStorage.open(tmp_path / "bura.sqlite3", clock=time.clock)
    try:
        ids = await storage.enqueue([OutboxMessage(chat_id=1, kind=OutboxKind.SEND) for _ in range(1203)])
        for outbox_id in ids[:-1]:
            await storage.record_delivery(Delivery(outbox_id=outbox_id, chat_id=1))
        await storage.store_updates([(n, "{}") for n in range(1, 4)])
        await storage.mark_updates_done([1, 2])
        time.now += 31 * DAY
        pauses: list[float] = []

        async def sleep(seconds: float) -> None:
            pauses.append(seconds)

        assert await Retention(storage, 0, clock=time.clock, sleep=sleep).prune() == Pruned(updates=2)
        assert await storage.get_outbox_item(ids[0]) is not None, "RETENTION_DAYS=0 keeps the messages"

        pruned = await Retention(storage, 30, clock=time.clock, sleep=sleep, pause=0.05).prune()
        assert pruned == Pruned(messages=1202)
        assert pauses == [0.05, 0.05], "a pause after each full write of 500 rows"
        assert [item.id for item in await storage.fetch_outbox(now=1e12)] == [ids[-1]], "the pending one stays"
        assert [update_id for update_id, _ in await storage.pending_updates()] == [3]
    finally:
        await storage.close()


class FailingStorage:
    """A database that refuses every write (a full disk)."""

    def __init__(self) -> None:
        self.calls = 0

    async def prune_updates(self, older_than: float, limit: int | None = None) -> int:
        self.calls += 1
        raise StorageUnavailable(OSError("database or disk is full"))


async def test_retention_runs_at_once_then_every_hour_and_survives_a_failure() -> None:
    failing = FailingStorage()
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 2:
            raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        await Retention(cast(Storage, failing), 30, sleep=sleep).run()
    assert (failing.calls, slept) == (2, [3600.0, 3600.0]), "at once, then an hour later, despite the failure"
    assert UPDATES_KEPT == 2 * DAY
