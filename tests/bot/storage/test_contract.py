"""The storage contract (bot/storage/base.py), run on every backend: what the bot relies on, whatever keeps it."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.storage import (
    Deadline,
    Delivery,
    OpenTableExistsError,
    OutboxKind,
    OutboxMessage,
    Seat,
    StaleVersion,
    StatsDelta,
    Storage,
    TableNotFoundError,
    TableStatus,
    UpdateAlreadyProcessedError,
    payload_digest,
)
from tests.bot.storage.conftest import FakeClock, hand, table_message

# -- tables and moves ------------------------------------------------------------------------------------------


async def test_commit_move_sets_the_chats_settings_with_the_lobby_or_not_at_all(storage: Storage) -> None:
    await storage.upsert_chat(-100, language="ru")
    await storage.set_chat_settings(-100, {"timer": 60})
    table = await storage.create_table(-100, creator_id=7, settings={})
    lobby = table_message(-100, "настройки")
    moved = await storage.commit_move(table.table_id, 0, None, outbox=[lobby], chat_settings={"timer": 30})
    chat = await storage.get_chat(-100)
    assert chat is not None and (chat.settings, chat.language) == ({"timer": 30}, "ru"), "the language is kept"
    await storage.commit_move(table.table_id, moved.version, None, chat_language="en")
    chat = await storage.get_chat(-100)
    assert chat is not None and (chat.settings, chat.language) == ({"timer": 30}, "en"), "the settings are kept"
    with pytest.raises(StaleVersion):
        await storage.commit_move(table.table_id, moved.version, None, chat_settings={"timer": 0}, chat_language="ru")
    chat = await storage.get_chat(-100)
    assert chat is not None and (chat.settings, chat.language) == ({"timer": 30}, "en"), "a refused move sets nothing"


async def test_create_table_opens_a_lobby_with_seats(storage: Storage) -> None:
    table = await storage.create_table(
        -100, creator_id=7, settings={"variant": "bura"}, seats=[Seat(seat=0, user_id=7, name="Аня")]
    )
    assert table.status is TableStatus.LOBBY
    assert table.version == 0
    assert table.state is None
    assert table.seats == (Seat(seat=0, user_id=7, name="Аня"),)
    assert await storage.get_open_table(-100) == table
    assert await storage.get_table(table.table_id) == table
    with pytest.raises(OpenTableExistsError):
        await storage.create_table(-100, creator_id=8, settings={})
    assert [t.table_id for t in await storage.list_tables(TableStatus.LOBBY)] == [table.table_id]


async def test_commit_move_stores_state_events_outbox_and_bumps_the_version(storage: Storage) -> None:
    table = await storage.create_table(-100, creator_id=7, settings={})
    seats = [Seat(seat=0, user_id=7, name="Аня"), Seat(seat=1, user_id=None, name="Компьютер")]
    moved = await storage.commit_move(
        table.table_id,
        expected_version=0,
        new_state_json='{"phase": "play"}',
        events=[{"type": "dealt"}, {"type": "led", "seat": 0}],
        outbox=[table_message(-100, "стол")],
        update_id=500,
        status=TableStatus.PLAYING,
        seats=seats,
        deadline=Deadline(seconds=60),
        stats=[StatsDelta(chat_id=-100, user_id=7, game="bura", counts={"deals_played": 1})],
    )
    assert moved.version == 1
    assert moved.state == '{"phase": "play"}'
    assert moved.status is TableStatus.PLAYING
    assert [seat.user_id for seat in moved.seats] == [7, None]
    assert await storage.get_table(table.table_id) == moved
    assert [(event.seq, event.payload["type"]) for event in await storage.get_events(table.table_id)] == [
        (1, "dealt"),
        (2, "led"),
    ]
    [item] = await storage.fetch_outbox(now=2_000.0)
    assert (item.chat_id, item.kind, item.payload, item.table_id) == (-100, "edit", {"text": "стол"}, 1)
    assert await storage.is_update_processed(500)
    [timer] = await storage.timers_due_by(1_060.0)
    assert (timer.table_id, timer.move_no, timer.seconds, timer.armed) == (1, 1, 60.0, True)
    assert await storage.timers_due_by(1_059.0) == []
    assert [(s.game, s.deals_played) for s in await storage.get_stats(-100, 7)] == [("bura", 1)]
    assert [t.table_id for t in await storage.list_tables(TableStatus.PLAYING)] == [table.table_id]

    again = await storage.commit_move(table.table_id, 1, None, events=[{"type": "beat"}])
    assert again.state == '{"phase": "play"}', "None keeps the state"
    assert again.seats == moved.seats, "no seats keeps the seats"
    assert [event.seq for event in await storage.get_events(table.table_id, after_seq=2)] == [3]
    assert await storage.timers_due_by(2_000.0) == [], "a move without a deadline clears the stale timer"


async def test_commit_move_with_a_stale_version_writes_nothing(storage: Storage) -> None:
    table = await storage.create_table(-100, creator_id=7, settings={})
    await storage.commit_move(table.table_id, 0, '{"n": 1}')
    with pytest.raises(StaleVersion) as raised:
        await storage.commit_move(
            table.table_id, 0, '{"n": 2}', events=[{"x": 1}], outbox=[table_message(-100, "x")], update_id=9
        )
    assert (raised.value.expected, raised.value.actual) == (0, 1)
    current = await storage.get_table(table.table_id)
    assert current is not None
    assert (current.version, current.state) == (1, '{"n": 1}')
    assert await storage.get_events(table.table_id) == []
    assert await storage.fetch_outbox(now=2_000.0) == []
    assert not await storage.is_update_processed(9), "a rejected move may be retried with the same update"


async def test_commit_move_is_atomic_when_it_fails_in_the_middle(storage: Storage) -> None:
    table = await storage.create_table(-100, creator_id=7, settings={})
    await storage.enqueue([], update_id=42)
    # The table row, events and outbox are written before the update id clashes at the end.
    with pytest.raises(UpdateAlreadyProcessedError):
        await storage.commit_move(
            table.table_id,
            0,
            '{"n": 1}',
            events=[{"x": 1}],
            outbox=[table_message(-100, "x")],
            update_id=42,
            status=TableStatus.PLAYING,
            seats=[Seat(seat=0, user_id=7, name="Аня")],
            deadline=Deadline(seconds=5),
            stats=[StatsDelta(chat_id=-100, user_id=7, game="bura", counts={"deals_won": 1})],
        )
    assert await storage.get_table(table.table_id) == table
    assert await storage.get_open_table(-100) == table
    assert await storage.get_events(table.table_id) == []
    assert await storage.fetch_outbox(now=2_000.0) == []
    assert await storage.timers_due_by(10_000.0) == []
    assert await storage.get_stats(-100, 7) == []


async def test_a_write_failing_half_way_undoes_itself_and_not_the_others_of_its_commit(storage: Storage) -> None:
    # Asked at once, the three go in one group commit; the middle one fails after it wrote its table's row.
    first = await storage.create_table(-100, creator_id=7, settings={})
    second = await storage.create_table(-200, creator_id=8, settings={})
    await storage.enqueue([], update_id=42)
    moved, failed, queued = await asyncio.gather(
        storage.commit_move(first.table_id, 0, '{"n": 1}', outbox=[table_message(-100, "a")]),
        storage.commit_move(second.table_id, 0, '{"n": 1}', outbox=[table_message(-200, "b")], update_id=42),
        storage.enqueue([table_message(-300, "c")], update_id=43),
        return_exceptions=True,
    )
    assert not isinstance(moved, BaseException) and moved.version == 1
    assert isinstance(failed, UpdateAlreadyProcessedError)
    assert not isinstance(queued, BaseException) and len(queued) == 1
    assert await storage.get_table(second.table_id) == second
    assert sorted(item.chat_id for item in await storage.fetch_outbox(now=2_000.0)) == [-300, -100]
    assert await storage.is_update_processed(43)


async def test_commit_move_on_a_missing_table(storage: Storage) -> None:
    with pytest.raises(TableNotFoundError):
        await storage.commit_move(404, 0, "{}")


async def test_events_are_numbered_on_across_commits(storage: Storage) -> None:
    table = await storage.create_table(-100, creator_id=7, settings={})
    other = await storage.create_table(-200, creator_id=8, settings={})
    await storage.commit_move(table.table_id, 0, None, events=[{"n": 1}, {"n": 2}, {"n": 3}])
    await storage.commit_move(other.table_id, 0, None, events=[{"n": 1}])
    await storage.commit_move(table.table_id, 1, None, events=[{"n": 4}, {"n": 5}])
    events = await storage.get_events(table.table_id)
    assert [(event.seq, event.payload["n"]) for event in events] == [(n, n) for n in range(1, 6)]
    assert [event.seq for event in await storage.get_events(other.table_id)] == [1]


async def test_finished_tables_free_the_chat(storage: Storage) -> None:
    table = await storage.create_table(-1, creator_id=7, settings={})
    finished = await storage.commit_move(table.table_id, 0, None, status=TableStatus.FINISHED)
    assert await storage.get_open_table(-1) is None
    assert await storage.get_table(table.table_id) == finished
    assert [t.table_id for t in await storage.list_tables(TableStatus.FINISHED)] == [table.table_id]
    assert await storage.list_tables(TableStatus.LOBBY) == []
    await storage.create_table(-1, creator_id=8, settings={})


async def test_an_unknown_table_is_none(storage: Storage) -> None:
    assert await storage.get_table(987_654) is None
    assert await storage.get_open_table(-987_654) is None


# -- the inbox -------------------------------------------------------------------------------------------------


async def test_updates_are_stored_once_and_wait_until_processed(storage: Storage) -> None:
    assert await storage.store_updates([(1, '{"update_id":1,"a":1}'), (2, '{"update_id":2}')]) == [1, 2]
    assert await storage.store_updates([(2, '{"update_id":2}'), (3, '{"update_id":3}')]) == [3], "2 came twice"
    assert [update_id for update_id, _ in await storage.pending_updates()] == [1, 2, 3]
    assert (await storage.pending_updates())[0] == (1, '{"update_id":1,"a":1}')
    await storage.mark_updates_done([1, 3])
    await storage.mark_updates_done([1])  # marked already: no matter
    assert [update_id for update_id, _ in await storage.pending_updates()] == [2]
    assert await storage.is_update_processed(1)
    assert not await storage.is_update_processed(2)
    assert await storage.store_updates([(1, '{"update_id":1}')]) == [], "a processed update is not handled again"


async def test_a_change_records_its_update_as_processed_in_its_own_commit(storage: Storage) -> None:
    await storage.store_updates([(10, '{"update_id":10}'), (11, '{"update_id":11}')])
    table = await storage.create_table(-1, creator_id=7, settings={}, update_id=10)
    await storage.commit_move(table.table_id, 0, None, update_id=11)
    assert await storage.pending_updates() == []
    with pytest.raises(UpdateAlreadyProcessedError):
        await storage.commit_move(table.table_id, 1, None, update_id=11)


async def test_a_redelivered_update_is_applied_once(storage: Storage) -> None:
    await storage.enqueue([OutboxMessage(chat_id=5, kind=OutboxKind.SEND, payload={"text": "hi"})], 2)
    with pytest.raises(UpdateAlreadyProcessedError):
        await storage.enqueue([OutboxMessage(chat_id=5, kind=OutboxKind.SEND, payload={"text": "hi"})], 2)
    assert len(await storage.fetch_outbox(now=2_000.0)) == 1


async def test_processed_updates_are_pruned_by_age(storage: Storage, clock: FakeClock) -> None:
    await storage.store_updates([(1, '{"update_id":1}'), (3, '{"update_id":3}')])
    await storage.mark_updates_done([1])
    clock.now += 100
    await storage.enqueue([], update_id=2)
    assert await storage.prune_updates(older_than=clock.now - 50) == 1
    assert not await storage.is_update_processed(1)
    assert await storage.is_update_processed(2)
    assert [update_id for update_id, _ in await storage.pending_updates()] == [3], "pending ones are kept"


# -- the outbox ------------------------------------------------------------------------------------------------


async def test_outbox_fetch_in_order_and_record_delivery(storage: Storage) -> None:
    ids = await storage.enqueue(
        [OutboxMessage(chat_id=chat, kind=OutboxKind.SEND, payload={"n": n}) for n, chat in enumerate([1, 2])]
        + [OutboxMessage(chat_id=1, kind=OutboxKind.SEND, payload={"n": 2})]
    )
    assert [item.id for item in await storage.fetch_outbox(now=2_000.0)] == ids
    assert [item.id for item in await storage.fetch_outbox(now=2_000.0, after=ids[0])] == ids[1:]
    assert [item.id for item in await storage.fetch_outbox(now=2_000.0, limit=1, skip=[ids[0]])] == [ids[1]]
    await storage.record_delivery(Delivery(outbox_id=ids[0], chat_id=1))
    await storage.record_delivery(Delivery(outbox_id=ids[1], chat_id=2, error="rejected"))
    assert [item.id for item in await storage.fetch_outbox(now=2_000.0)] == [ids[2]]
    failed = await storage.get_outbox_item(ids[1])
    assert failed is not None
    assert (failed.done, failed.last_error) == (True, "rejected")


async def test_outbox_depth_counts_the_rows_not_yet_delivered(storage: Storage) -> None:
    assert await storage.outbox_depth() == 0
    ids = await storage.enqueue([OutboxMessage(chat_id=chat, kind=OutboxKind.SEND) for chat in (1, 1, 2)])
    assert await storage.outbox_depth() == 3
    await storage.record_delivery(Delivery(outbox_id=ids[0], chat_id=1))
    await storage.record_delivery(Delivery(outbox_id=ids[2], chat_id=2, error="rejected"))
    assert await storage.outbox_depth() == 1


async def test_outbox_fetch_leaves_out_the_rows_being_delivered(storage: Storage) -> None:
    ids = await storage.enqueue([OutboxMessage(chat_id=chat, kind=OutboxKind.SEND) for chat in (1, 2, 3, 4)])
    assert [item.id for item in await storage.fetch_outbox(now=2_000.0, limit=2)] == ids[:2]
    assert [item.id for item in await storage.fetch_outbox(now=2_000.0, limit=2, skip=set(ids[:2]))] == ids[2:]
    assert await storage.fetch_outbox(now=2_000.0, skip=set(ids)) == []


async def test_outbox_fetch_of_some_chats_reads_only_theirs(storage: Storage) -> None:
    ids = await storage.enqueue([OutboxMessage(chat_id=chat, kind=OutboxKind.SEND) for chat in (1, 2, 3, 2)])
    found = await storage.fetch_outbox(now=2_000.0, chats={2, 4})
    assert [(item.id, item.chat_id) for item in found] == [(ids[1], 2), (ids[3], 2)]
    assert await storage.fetch_outbox(now=2_000.0, chats=()) == []


async def test_outbox_retry_holds_back_the_rest_of_its_chat(storage: Storage, clock: FakeClock) -> None:
    first, second, other = await storage.enqueue(
        [OutboxMessage(chat_id=chat, kind=OutboxKind.SEND) for chat in (1, 1, 2)]
    )
    assert await storage.schedule_outbox_retry(first, next_attempt_at=clock.now + 30, error="timeout") == 1
    # chat 1 waits for its first message; chat 2 goes on
    assert [item.id for item in await storage.fetch_outbox(now=clock.now)] == [other]
    due = await storage.fetch_outbox(now=clock.now + 30)
    assert [item.id for item in due] == [first, second, other]
    assert (due[0].attempts, due[0].last_error) == (1, "timeout")
    assert await storage.schedule_outbox_retry(first, next_attempt_at=clock.now + 90, error="timeout") == 2
    assert await storage.retry_chat_now(1) == 1
    assert [item.id for item in await storage.fetch_outbox(now=clock.now)] == [first, second, other]


async def test_outbox_key_supersedes_a_pending_edit(storage: Storage) -> None:
    await storage.enqueue([table_message(-1, "old")])
    await storage.enqueue([table_message(-1, "new"), table_message(-2, "other")])
    due = await storage.fetch_outbox(now=2_000.0)
    assert [(item.chat_id, item.payload["text"]) for item in due] == [(-1, "new"), (-2, "other")]


async def test_outbox_key_supersedes_within_one_batch_and_ids_come_in_order(storage: Storage) -> None:
    ids = await storage.enqueue(
        [table_message(-1, "first"), OutboxMessage(chat_id=5, kind=OutboxKind.SEND), table_message(-1, "second")]
    )
    assert ids == sorted(ids) and len(set(ids)) == 3
    due = await storage.fetch_outbox(now=2_000.0)
    assert [(item.id, item.chat_id, item.payload.get("text")) for item in due] == [
        (ids[1], 5, None),
        (ids[2], -1, "second"),
    ]


async def test_a_keyed_send_clears_the_edits_before_it_and_is_never_superseded(storage: Storage) -> None:
    # A hand sent anew (so that it rings) draws the latest picture: the edit queued before it is pointless; an
    # edit queued after it must wait for the message it records, not replace it.
    def hand(kind: OutboxKind, text: str) -> OutboxMessage:
        return OutboxMessage(chat_id=5, kind=kind, payload={"text": text}, ref="hand:1", key="hand:1:5")

    await storage.enqueue([hand(OutboxKind.EDIT, "waiting")])
    await storage.enqueue([hand(OutboxKind.SEND, "your turn").model_copy(update={"replaces": True})])
    await storage.enqueue([hand(OutboxKind.EDIT, "a card marked")])
    due = await storage.fetch_outbox(now=2_000.0)
    assert [(item.kind, item.payload["text"]) for item in due] == [
        (OutboxKind.SEND, "your turn"),
        (OutboxKind.EDIT, "a card marked"),
    ]
    [first, *_] = await storage.enqueue(
        [hand(OutboxKind.SEND, "anew").model_copy(update={"replaces": True}), hand(OutboxKind.EDIT, "marked")]
    )
    due = await storage.fetch_outbox(now=2_000.0, after=first - 1)
    assert [(item.kind, item.payload["text"]) for item in due] == [
        (OutboxKind.SEND, "anew"),
        (OutboxKind.EDIT, "marked"),
    ]


async def test_cancel_outbox_for_chat(storage: Storage) -> None:
    await storage.enqueue([OutboxMessage(chat_id=chat, kind=OutboxKind.SEND) for chat in (1, 1, 2)])
    assert await storage.cancel_outbox_for_chat(1, "forbidden") == 2
    assert [item.chat_id for item in await storage.fetch_outbox(now=2_000.0)] == [2]


async def test_a_delivery_records_the_live_message_and_what_it_shows(storage: Storage) -> None:
    assert await storage.get_message_ref(-1, "table") is None
    [sent, edited, deleted] = await storage.enqueue(
        [
            OutboxMessage(chat_id=-1, kind=OutboxKind.SEND, ref="table"),
            OutboxMessage(chat_id=-1, kind=OutboxKind.EDIT, ref="table"),
            OutboxMessage(chat_id=-1, kind=OutboxKind.DELETE, ref="table"),
        ]
    )
    await storage.record_delivery(Delivery(outbox_id=sent, chat_id=-1, ref="table", message_id=10, content="a"))
    ref = await storage.get_message_ref(-1, "table")
    assert ref is not None and (ref.message_id, ref.content) == (10, "a")
    await storage.record_delivery(Delivery(outbox_id=edited, chat_id=-1, ref="table", content="b"))
    ref = await storage.get_message_ref(-1, "table")
    assert ref is not None and (ref.message_id, ref.content) == (10, "b")
    await storage.record_delivery(Delivery(outbox_id=deleted, chat_id=-1, ref="table", forget=True))
    assert await storage.get_message_ref(-1, "table") is None


async def test_deliveries_recorded_at_once_each_keep_their_own_chat_s_message(storage: Storage) -> None:
    # Recorded together they go in one commit (PostgreSQL: one statement for all, but two of one chat apart).
    table = await storage.create_table(-1, creator_id=7, settings={})
    sends = await storage.enqueue([hand(chat, "x", OutboxKind.SEND) for chat in (1, 2, 3)])
    await storage.record_delivery(Delivery(outbox_id=sends[1], chat_id=2, ref="hand:1", message_id=12, content="x"))
    again = await storage.enqueue(
        [OutboxMessage(chat_id=2, kind=kind, ref="hand:1") for kind in (OutboxKind.SEND, OutboxKind.EDIT)]
    )
    deadline = Deadline(seconds=60, shown_in=(3, "hand:1"))
    await storage.commit_move(table.table_id, 0, None, outbox=[hand(3, "y")], deadline=deadline)
    gone = OutboxMessage(chat_id=4, kind=OutboxKind.DELETE, ref="old", payload={"message_id": 9})
    await asyncio.gather(
        storage.record_delivery(Delivery(outbox_id=sends[0], chat_id=1, ref="hand:1", message_id=11, content="x")),
        storage.record_delivery(Delivery(outbox_id=again[0], chat_id=2, ref="hand:1", message_id=20, content="s")),
        storage.record_delivery(Delivery(outbox_id=sends[2], chat_id=3, ref="hand:1", message_id=13, content="x")),
        storage.record_delivery(Delivery(outbox_id=again[1], chat_id=2, ref="hand:1", content="t")),
        storage.record_delivery(Delivery(outbox_id=999, chat_id=4, ref="hand:1", forget=True, then=(gone,))),
    )
    refs = {chat: await storage.get_message_ref(chat, "hand:1") for chat in (1, 2, 3, 4)}
    assert {chat: (ref.message_id, ref.content) for chat, ref in refs.items() if ref} == {
        1: (11, "x"),
        2: (20, "t"),
        3: (13, "x"),
    }
    assert [(item.chat_id, item.kind) for item in await storage.fetch_outbox(now=2_000.0)] == [
        (3, OutboxKind.EDIT),
        (4, OutboxKind.DELETE),
    ]
    [timer] = await storage.timers_due_by(10**12)
    assert not timer.armed, "the send to chat 3 came before the move: its hand's edit is not shown yet"


async def test_a_kept_timer_runs_on_at_the_new_version(storage: Storage, clock: FakeClock) -> None:
    """`Deadline.keep`: a move its player could not see leaves his timer as it ran (due time, length, waiting
    for its hand), moved on to the new version; with no timer none is made (issue 35, no side channels)."""
    table = await storage.create_table(-1, creator_id=7, settings={})
    await storage.commit_move(table.table_id, 0, None, outbox=[hand(7, "твой ход")], deadline=Deadline(seconds=60))
    [before] = await storage.timers_due_by(10**12)
    clock.now += 20
    kept = Deadline(seconds=60, shown_in=(7, "hand:1"), keep=True)
    await storage.commit_move(table.table_id, 1, None, deadline=kept)
    [after] = await storage.timers_due_by(10**12)
    assert (after.due_at, after.seconds, after.armed) == (before.due_at, before.seconds, before.armed)
    assert (before.move_no, after.move_no) == (1, 2)
    await storage.commit_move(table.table_id, 2, None, deadline=None)
    await storage.commit_move(table.table_id, 3, None, deadline=kept)
    assert await storage.timers_due_by(10**12) == []


async def test_a_move_timer_starts_when_its_hand_is_shown(storage: Storage, clock: FakeClock) -> None:
    """A deadline counted from a message waits for its delivery: an hour of outage costs the player nothing."""
    table = await storage.create_table(-1, creator_id=7, settings={})
    outbox = [table_message(-1, "стол"), hand(7, "твой ход"), hand(8, "ждёт")]
    await storage.commit_move(
        table.table_id, 0, None, outbox=outbox, deadline=Deadline(seconds=60, shown_in=(7, "hand:1"))
    )
    [timer] = await storage.timers_due_by(10**12)
    assert not timer.armed and timer.due_at > clock.now + 3600, "waits; fires late only if never shown"
    items = {item.chat_id: item for item in await storage.fetch_outbox(now=clock.now)}
    await storage.record_delivery(Delivery(outbox_id=items[8].id, chat_id=8, ref="hand:1", content="x"))
    assert not (await storage.timers_due_by(10**12))[0].armed, "another player's hand starts nothing"
    clock.now += 300  # the hand took five minutes to arrive
    await storage.record_delivery(Delivery(outbox_id=items[7].id, chat_id=7, ref="hand:1", content="y"))
    [timer] = await storage.timers_due_by(10**12)
    assert timer.armed and timer.due_at == clock.now + 60


async def test_a_timer_waiting_for_a_chat_that_cannot_be_reached_starts(storage: Storage, clock: FakeClock) -> None:
    table = await storage.create_table(-1, creator_id=7, settings={})
    deadline = Deadline(seconds=60, shown_in=(7, "hand:1"))
    await storage.commit_move(table.table_id, 0, None, outbox=[hand(7, "твой ход")], deadline=deadline)
    await storage.cancel_outbox_for_chat(7, "blocked")
    [timer] = await storage.timers_due_by(10**12)
    assert timer.armed and timer.due_at == clock.now + 60


async def test_a_deadline_whose_message_is_not_in_the_commit_counts_at_once(storage: Storage, clock: FakeClock) -> None:
    table = await storage.create_table(-1, creator_id=7, settings={})
    await storage.commit_move(table.table_id, 0, None, deadline=Deadline(seconds=60, shown_in=(7, "hand:1")))
    [timer] = await storage.timers_due_by(clock.now + 60)
    assert timer.armed


async def test_a_later_hand_of_the_same_move_starts_the_timer_too(storage: Storage, clock: FakeClock) -> None:
    """A redraw (a card marked) supersedes the pending hand: its delivery shows the turn just as well."""
    table = await storage.create_table(-1, creator_id=7, settings={})
    deadline = Deadline(seconds=60, shown_in=(7, "hand:1"))
    await storage.commit_move(table.table_id, 0, None, outbox=[hand(7, "твой ход")], deadline=deadline)
    [redraw] = await storage.enqueue([hand(7, "твой ход, отмечена карта")])
    await storage.record_delivery(Delivery(outbox_id=redraw, chat_id=7, ref="hand:1", content="z"))
    assert (await storage.timers_due_by(10**12))[0].armed


# -- chats, users, stats ---------------------------------------------------------------------------------------


async def test_migrate_chat_moves_tables_refs_and_pending_messages(storage: Storage) -> None:
    await storage.upsert_chat(-1, language="en")
    table = await storage.create_table(-1, creator_id=7, settings={})
    [sent] = await storage.enqueue([OutboxMessage(chat_id=-1, kind=OutboxKind.SEND, ref="table")])
    await storage.record_delivery(Delivery(outbox_id=sent, chat_id=-1, ref="table", message_id=10))
    await storage.enqueue([table_message(-1, "x")])
    tally = StatsDelta(chat_id=-1, user_id=7, game="buraco", counts={"deals_won": 2})
    await storage.commit_move(table.table_id, 0, None, stats=[tally])
    await storage.migrate_chat(-1, -1001)
    old, new = await storage.get_chat(-1), await storage.get_chat(-1001)
    assert old is not None
    assert new is not None
    assert old.migrated_to == -1001
    assert new.language == "en"
    moved = await storage.get_table(table.table_id)
    assert moved is not None
    assert moved.chat_id == -1001
    assert await storage.get_open_table(-1001) == moved
    assert await storage.get_open_table(-1) is None
    ref = await storage.get_message_ref(-1001, "table")
    assert ref is not None and ref.message_id == 10
    assert [item.chat_id for item in await storage.fetch_outbox(now=2_000.0)] == [-1001]
    assert [(s.user_id, s.game, s.counts) for s in await storage.chat_stats(-1001)] == [(7, "buraco", {"deals_won": 2})]


async def test_chats_and_their_settings(storage: Storage) -> None:
    assert await storage.get_chat(-5) is None
    chat = await storage.upsert_chat(-5)
    assert (chat.language, chat.settings, chat.bot_removed) == (None, {}, False)
    await storage.set_chat_settings(-5, {"timer": 30})
    await storage.set_chat_removed(-5)
    await storage.upsert_chat(-5, language="en")
    found = await storage.get_chat(-5)
    assert found is not None and (found.language, found.settings, found.bot_removed) == ("en", {"timer": 30}, True)


async def test_users_and_flags(storage: Storage) -> None:
    assert await storage.get_user(7) is None
    user = await storage.upsert_user(7, "Аня", language="ru")
    assert (user.started_bot, user.blocked) == (False, False)
    await storage.set_user_started(7)
    await storage.set_user_blocked(7)
    renamed = await storage.upsert_user(7, "Анна")
    assert (renamed.name, renamed.language) == ("Анна", "ru"), "a missing language keeps the known one"
    assert (renamed.started_bot, renamed.blocked) == (True, True)
    assert await storage.get_user(7) == renamed
    await storage.set_user_blocked(7, False)
    unblocked = await storage.get_user(7)
    assert unblocked is not None and not unblocked.blocked
    await storage.set_user_blocked(8)
    stranger = await storage.get_user(8)
    assert stranger is not None
    assert stranger.blocked


async def test_users_by_ids_are_read_at_once(storage: Storage) -> None:
    assert await storage.get_users([]) == {}
    await storage.upsert_user(7, "Аня", language="ru")
    await storage.upsert_user(9, "Борис")
    assert await storage.get_user(9) is not None  # one of them known already (a backend's cache, say)
    found = await storage.get_users([9, 7, 8, 7])
    assert sorted(found) == [7, 9], "a stranger is left out, a repeated id read once"
    assert found[7] == await storage.get_user(7)
    assert found[9].name == "Борис"


async def test_stats_accumulate_per_game_and_counter(storage: Storage) -> None:
    table = await storage.create_table(-1, creator_id=7, settings={})
    await storage.commit_move(
        table.table_id,
        0,
        None,
        stats=[
            StatsDelta(chat_id=-1, user_id=7, game="bura", counts={"deals_won": 1, "matches_won": 1}),
            StatsDelta(chat_id=-1, user_id=8, game="bura", counts={"deals_won": 2, "buras": 0}),
            StatsDelta(chat_id=-1, user_id=8, game="buraco", counts={"canastras": 2}),
        ],
    )
    await storage.commit_move(
        table.table_id, 1, None, stats=[StatsDelta(chat_id=-1, user_id=8, game="bura", counts={"buras": 1})]
    )
    assert [(s.game, s.user_id, s.counts) for s in await storage.chat_stats(-1)] == [
        ("bura", 7, {"deals_won": 1, "matches_won": 1}),
        ("bura", 8, {"deals_won": 2, "buras": 1}),
        ("buraco", 8, {"canastras": 2}),
    ]
    assert [(s.game, s.count("canastras")) for s in await storage.get_stats(-1, 8)] == [("bura", 0), ("buraco", 2)]
    assert await storage.get_stats(-1, 9) == []
    assert await storage.chat_stats(-2) == []


async def test_a_players_tallies_are_read_across_his_chats(storage: Storage) -> None:
    """/stats in private (issue 37): his tallies in every chat, a row a chat and game, by game."""
    for chat in (-1, -2):
        table = await storage.create_table(chat, creator_id=7, settings={})
        deltas = [
            StatsDelta(chat_id=chat, user_id=7, game="bura", counts={"deals_won": -chat}),
            StatsDelta(chat_id=chat, user_id=8, game="bura", counts={"deals_won": 5}),
        ]
        if chat == -1:
            deltas.append(StatsDelta(chat_id=chat, user_id=7, game="buraco", counts={"canastras": 2}))
        await storage.commit_move(table.table_id, 0, None, stats=deltas)
    found = [(s.game, s.chat_id, s.counts) for s in await storage.user_stats(7)]
    assert sorted(found) == [
        ("bura", -2, {"deals_won": 2}),
        ("bura", -1, {"deals_won": 1}),
        ("buraco", -1, {"canastras": 2}),
    ]
    assert [s.game for s in await storage.user_stats(7)] == ["bura", "bura", "buraco"]
    assert await storage.user_stats(9) == []


# -- what players see (issue #12) ------------------------------------------------------------------------------


async def test_a_table_opened_in_a_forum_topic_keeps_its_thread(storage: Storage) -> None:
    table = await storage.create_table(-100, creator_id=7, settings={}, thread_id=42)
    assert table.thread_id == 42
    stored = await storage.get_table(table.table_id)
    assert stored is not None and stored.thread_id == 42
    other = await storage.create_table(-200, creator_id=7, settings={})
    assert other.thread_id is None


async def test_the_outbox_keeps_pins_replacing_sends_and_each_rows_digest(storage: Storage) -> None:
    payload = {"text": "🃏 hand", "reply_markup": {"inline_keyboard": []}}
    ids = await storage.enqueue(
        [
            OutboxMessage(chat_id=5, kind=OutboxKind.SEND, payload=payload, ref="hand:1", replaces=True),
            OutboxMessage(chat_id=-1, kind=OutboxKind.PIN, ref="table"),
            OutboxMessage(chat_id=-1, kind=OutboxKind.UNPIN, ref="table"),
            OutboxMessage(chat_id=5, kind=OutboxKind.SEND, payload={"text": "plain"}),
        ]
    )
    due = {item.id: item for item in await storage.fetch_outbox(now=2_000.0)}
    assert [due[i].kind for i in ids] == [OutboxKind.SEND, OutboxKind.PIN, OutboxKind.UNPIN, OutboxKind.SEND]
    assert [due[i].replaces for i in ids] == [True, False, False, False]
    assert due[ids[0]].digest == payload_digest(payload) != due[ids[3]].digest
    assert due[ids[1]].ref == "table" and due[ids[1]].payload == {}


async def test_the_chats_last_finished_table_is_found(storage: Storage) -> None:
    """/score after a match (issue 37): the chat's latest finished table, not an open one, not another chat's."""
    assert await storage.last_finished_table(-1) is None
    first = await storage.create_table(-1, creator_id=7, settings={})
    await storage.commit_move(first.table_id, 0, '{"over": 1}', status=TableStatus.FINISHED)
    second = await storage.create_table(-1, creator_id=8, settings={})
    await storage.commit_move(second.table_id, 0, '{"over": 2}', status=TableStatus.FINISHED)
    cancelled = await storage.create_table(-1, creator_id=9, settings={})  # a lobby cancelled: no match in it
    await storage.commit_move(cancelled.table_id, 0, None, status=TableStatus.FINISHED)
    await storage.create_table(-1, creator_id=9, settings={})  # open: not it
    other = await storage.create_table(-2, creator_id=7, settings={})
    await storage.commit_move(other.table_id, 0, None, status=TableStatus.FINISHED)
    found = await storage.last_finished_table(-1)
    assert found is not None and (found.table_id, found.creator_id) == (second.table_id, 8)
    assert found.state is not None and json.loads(found.state) == {"over": 2}
