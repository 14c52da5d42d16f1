"""The storage contract of what the bot forgets (`RetentionStore`, `prune_updates`), on every backend: old
delivered messages and finished tables' private parts go, results and what is still to do stay; a user who asks
is forgotten. Time moves by the storage's clock (tests/bot/storage/conftest.py)."""

from __future__ import annotations

import pytest

from bot.storage import (
    Delivery,
    OutboxKind,
    OutboxMessage,
    Seat,
    StatsDelta,
    Storage,
    Table,
    TableStatus,
    UpdateAlreadyProcessedError,
    UserSeatedError,
)
from tests.bot.storage.conftest import FakeClock

DAY = 24 * 3600.0
GROUP = -100
ANNA, BORIS = 7, 8


def message(chat_id: int, text: str, ref: str | None = None) -> OutboxMessage:
    return OutboxMessage(chat_id=chat_id, kind=OutboxKind.SEND, payload={"text": text}, ref=ref)


async def deliver_all(storage: Storage) -> None:
    """Every pending row delivered, each send recorded as the live message its ref names."""
    for n, item in enumerate(await storage.fetch_outbox(now=1e12, limit=1000)):
        await storage.record_delivery(
            Delivery(outbox_id=item.id, chat_id=item.chat_id, ref=item.ref, message_id=100 + n if item.ref else None)
        )


async def finished_table(storage: Storage, chat_id: int = GROUP, seats: tuple[int, ...] = (ANNA, BORIS)) -> Table:
    """A table played to its end: state, events, hands sent to its players, tallies; every message delivered."""
    table = await storage.create_table(
        chat_id,
        creator_id=seats[0],
        settings={"variant": "bura"},
        seats=[Seat(seat=n, user_id=user, name=f"player {user}") for n, user in enumerate(seats)],
    )
    ref = f"hand:{table.table_id}"
    await storage.commit_move(
        table.table_id,
        0,
        '{"hands": "every card"}',
        events=[{"type": "dealt"}, {"type": "MatchEnded"}],
        outbox=[message(user, "🃏", ref) for user in seats] + [message(chat_id, "🏆")],
        status=TableStatus.FINISHED,
        stats=[
            StatsDelta(chat_id=chat_id, user_id=user, game="bura", counts={"matches_played": 1, "matches_won": won})
            for user, won in zip(seats, (1, 0), strict=False)
        ],
    )
    await deliver_all(storage)
    found = await storage.get_table(table.table_id)
    assert found is not None
    return found


# -- pruning ---------------------------------------------------------------------------------------------------


async def test_old_delivered_messages_are_pruned_in_batches_and_pending_ones_stay(
    storage: Storage, clock: FakeClock
) -> None:
    old = await storage.enqueue([message(1, "a"), message(2, "b"), message(1, "c"), message(3, "waits")])
    for outbox_id, chat_id in zip(old[:3], (1, 2, 1), strict=True):
        await storage.record_delivery(Delivery(outbox_id=outbox_id, chat_id=chat_id))
    clock.now += 30 * DAY
    [young] = await storage.enqueue([message(1, "d")])
    await storage.record_delivery(Delivery(outbox_id=young, chat_id=1))

    assert await storage.prune_outbox(older_than=clock.now - DAY, limit=2) == 2
    assert await storage.prune_outbox(older_than=clock.now - DAY, limit=2) == 1
    assert await storage.prune_outbox(older_than=clock.now - DAY, limit=2) == 0
    assert [await storage.get_outbox_item(i) for i in old[:3]] == [None, None, None]
    assert await storage.get_outbox_item(young) is not None, "a young delivered message stays"
    assert [item.id for item in await storage.fetch_outbox(now=1e12)] == [old[3]], "a pending one is never pruned"
    assert await storage.outbox_depth() == 1


async def test_finished_tables_lose_their_private_parts_and_keep_their_results(
    storage: Storage, clock: FakeClock
) -> None:
    old = await finished_table(storage)
    ref = f"hand:{old.table_id}"
    assert await storage.get_message_ref(ANNA, ref) is not None
    playing = await storage.create_table(-200, creator_id=ANNA, settings={}, seats=[Seat(seat=0, user_id=9, name="V")])
    await storage.commit_move(playing.table_id, 0, '{"hands": "in play"}', events=[{"type": "dealt"}])
    clock.now += 30 * DAY
    recent = await finished_table(storage, chat_id=-300)

    assert await storage.prune_tables(finished_before=clock.now - DAY, limit=10) == 1
    assert await storage.prune_tables(finished_before=clock.now - DAY, limit=10) == 0, "done once"
    pruned = await storage.get_table(old.table_id)
    assert pruned is not None
    assert pruned.state is None
    assert await storage.get_events(old.table_id) == []
    assert await storage.get_message_ref(ANNA, ref) is None
    assert await storage.get_message_ref(BORIS, ref) is None
    # The public summary and the results stay.
    assert (pruned.status, pruned.chat_id, pruned.creator_id, pruned.settings, pruned.seats, pruned.created_at) == (
        old.status,
        old.chat_id,
        old.creator_id,
        old.settings,
        old.seats,
        old.created_at,
    )
    assert [(s.user_id, s.matches_played, s.matches_won) for s in await storage.chat_stats(GROUP)] == [
        (ANNA, 1, 1),
        (BORIS, 1, 0),
    ]
    # A table in play, and one finished lately, keep everything.
    still = await storage.get_table(playing.table_id)
    assert still is not None and still.state == '{"hands": "in play"}'
    assert len(await storage.get_events(playing.table_id)) == 1
    kept = await storage.get_table(recent.table_id)
    assert kept is not None and kept.state is not None
    assert len(await storage.get_events(recent.table_id)) == 2


async def test_tables_are_pruned_in_batches(storage: Storage, clock: FakeClock) -> None:
    for chat_id in (-1, -2, -3):
        await finished_table(storage, chat_id=chat_id)
    clock.now += 30 * DAY
    assert [await storage.prune_tables(clock.now - DAY, limit=2) for _ in range(3)] == [2, 1, 0]


async def test_handled_updates_are_pruned_in_batches_and_unhandled_ones_stay(
    storage: Storage, clock: FakeClock
) -> None:
    await storage.store_updates([(n, f'{{"update_id":{n}}}') for n in range(1, 6)])
    await storage.mark_updates_done([1, 2, 3])
    clock.now += 30 * DAY
    assert [await storage.prune_updates(clock.now - 2 * DAY, limit=2) for _ in range(3)] == [2, 1, 0]
    assert [update_id for update_id, _ in await storage.pending_updates()] == [4, 5]


async def test_an_update_sent_again_within_the_window_is_still_refused(storage: Storage, clock: FakeClock) -> None:
    """Telegram sends an update again for at most a day; the bot keeps the handled ones' ids for two."""
    await storage.store_updates([(10, '{"update_id":10}')])
    await storage.enqueue([message(1, "reply")], update_id=10)
    clock.now += DAY + 3600
    assert await storage.prune_updates(clock.now - 2 * DAY, limit=100) == 0
    assert await storage.store_updates([(10, '{"update_id":10}')]) == [], "known: not stored again"
    with pytest.raises(UpdateAlreadyProcessedError):
        await storage.enqueue([message(1, "reply")], update_id=10)
    assert len(await storage.fetch_outbox(now=1e12)) == 1, "answered once"
    clock.now += DAY
    assert await storage.prune_updates(clock.now - 2 * DAY, limit=100) == 1


# -- forgetting a user -----------------------------------------------------------------------------------------


async def test_a_user_at_an_open_table_is_not_forgotten(storage: Storage) -> None:
    await storage.upsert_user(ANNA, "Аня", language="ru")
    lobby = await storage.create_table(
        GROUP, creator_id=ANNA, settings={}, seats=[Seat(seat=0, user_id=ANNA, name="Аня")]
    )
    assert await storage.seated_at(ANNA) == [lobby.table_id]
    assert await storage.seated_at(BORIS) == []
    with pytest.raises(UserSeatedError) as refused:
        await storage.forget_user(ANNA, "—", outbox=[message(ANNA, "done")], update_id=5)
    assert refused.value.table_ids == (lobby.table_id,)
    user = await storage.get_user(ANNA)
    assert user is not None and user.name == "Аня"
    assert await storage.get_table(lobby.table_id) == lobby
    assert await storage.fetch_outbox(now=1e12) == [], "nothing queued"
    assert not await storage.is_update_processed(5)

    await storage.commit_move(lobby.table_id, 0, "{}", status=TableStatus.PLAYING)
    with pytest.raises(UserSeatedError):
        await storage.forget_user(ANNA, "—")
    await storage.commit_move(lobby.table_id, 1, None, status=TableStatus.FINISHED)
    assert await storage.seated_at(ANNA) == []
    assert (await storage.forget_user(ANNA, "—")).user


async def test_forgetting_a_user_deletes_what_is_kept_about_him(storage: Storage) -> None:
    for user, name in ((ANNA, "Аня"), (BORIS, "Борис")):
        await storage.upsert_user(user, name, language="ru")
        await storage.set_user_started(user)
    await storage.upsert_chat(ANNA, language="en")
    await storage.set_chat_settings(ANNA, {"computer_level": "hard"})
    group = await finished_table(storage)
    alone = await finished_table(storage, chat_id=ANNA, seats=(ANNA,))  # against the computer, in his chat
    await storage.commit_move(  # a tally in a second chat
        (await storage.create_table(-200, creator_id=BORIS, settings={})).table_id,
        0,
        None,
        status=TableStatus.FINISHED,
        stats=[StatsDelta(chat_id=-200, user_id=ANNA, game="buraco", counts={"deals_played": 3})],
    )
    [waiting] = await storage.enqueue([message(ANNA, "still on its way")])
    reply = message(ANNA, "forgotten")

    forgotten = await storage.forget_user(ANNA, "—", outbox=[reply], update_id=77)

    assert forgotten.user
    assert (forgotten.seats, forgotten.tables) == (2, 2)
    assert forgotten.tallies == 5  # two counters in each of two tables' chats, one in the third chat
    assert forgotten.messages == 3  # his two hands, and the end of his game against the computer
    assert await storage.get_user(ANNA) is None
    assert await storage.get_stats(GROUP, ANNA) == await storage.get_stats(-200, ANNA) == []
    assert await storage.get_stats(ANNA, ANNA) == []
    for table in (group, alone):
        after = await storage.get_table(table.table_id)
        assert after is not None and after.state is None
        assert await storage.get_events(table.table_id) == []
        assert [(seat.user_id, seat.name) for seat in after.seats if seat.user_id == ANNA] == [(ANNA, "—")]
    assert await storage.get_message_ref(ANNA, f"hand:{group.table_id}") is None
    assert await storage.get_message_ref(ANNA, f"hand:{alone.table_id}") is None
    chat = await storage.get_chat(ANNA)
    assert chat is not None and chat.language is None and chat.settings == {}
    pending = await storage.fetch_outbox(now=1e12)
    assert pending[0].id == waiting, "a message on its way is not taken back"
    assert [item.payload["text"] for item in pending] == ["still on its way", "forgotten"]
    assert await storage.is_update_processed(77)
    # Everybody else keeps his.
    boris = await storage.get_user(BORIS)
    assert boris is not None and boris.name == "Борис" and boris.started_bot
    assert [(s.user_id, s.matches_won) for s in await storage.chat_stats(GROUP)] == [(BORIS, 0)]
    after = await storage.get_table(group.table_id)
    assert after is not None and [seat.name for seat in after.seats] == ["—", f"player {BORIS}"]
    group_messages = [item for item in await storage.fetch_outbox(now=1e12) if item.chat_id == GROUP]
    assert group_messages == []  # delivered already; the group's own rows go with the retention period

    with pytest.raises(UpdateAlreadyProcessedError):
        await storage.forget_user(ANNA, "—", outbox=[reply], update_id=77)
    again = await storage.forget_user(ANNA, "—")
    assert (again.user, again.tallies, again.messages) == (False, 0, 0), "nothing was made again meanwhile"
