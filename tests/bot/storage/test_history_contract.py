"""The history's part of the storage contract (`HistoryStore`, `commit_move`'s `result`), run on every backend."""

from __future__ import annotations

from bot.storage import MatchRecord, RatingChange, RatingUpdate, Seat, Storage, TableStatus
from tests.bot.storage.conftest import FakeClock

SEATS = (Seat(seat=0, user_id=7, name="Аня"), Seat(seat=1, user_id=8, name="Борис"))


async def finished(
    storage: Storage, chat_id: int, result: dict[str, object] | None, ratings: list[RatingUpdate] | None = None
) -> int:
    """A table of `chat_id` played and ended in two commits, the last one with `result`; returns its id."""
    table = await storage.create_table(chat_id, creator_id=7, settings={"game": "bura"}, seats=SEATS)
    await storage.commit_move(table.table_id, 0, "{}", status=TableStatus.PLAYING)
    await storage.commit_move(
        table.table_id, 1, None, status=TableStatus.FINISHED, ratings=ratings or [], result=result
    )
    return table.table_id


async def test_a_match_end_records_its_result_and_history_reads_the_latest_first(
    storage: Storage, clock: FakeClock
) -> None:
    clock.now = 2_000.0
    first = await finished(storage, -100, {"scores": [11, 7]})
    clock.now = 3_000.0
    rated = [RatingUpdate(user_id=7, game="bura", mu=27.6, sigma=8.07, before=1000, after=1069)]
    second = await finished(storage, -100, {"scores": [3, 11]}, rated)
    await finished(storage, -200, {"scores": [1, 0]})  # another chat's
    cancelled = await storage.create_table(-100, creator_id=7, settings={})
    await storage.commit_move(cancelled.table_id, 0, None, status=TableStatus.FINISHED)  # no result: not a match

    history = await storage.match_history(-100, 10)
    assert [record.table_id for record in history] == [second, first]
    assert history[0] == MatchRecord(
        table_id=second,
        seats=SEATS,
        finished_at=3_000.0,
        result={"scores": [3, 11]},
        changes=(
            RatingChange(table_id=second, chat_id=-100, user_id=7, game="bura", before=1000, after=1069, at=3_000.0),
        ),
    )
    assert history[1].changes == (), "an unrated match has no changes"
    assert [record.table_id for record in await storage.match_history(-100, 1)] == [second]
    assert await storage.match_history(-300, 10) == []


async def test_a_later_commit_without_a_result_keeps_it(storage: Storage) -> None:
    table_id = await finished(storage, -100, {"scores": [11, 7]})
    await storage.commit_move(table_id, 2, None)  # the rematch button taken away, say
    [record] = await storage.match_history(-100, 10)
    assert record.result == {"scores": [11, 7]}


async def test_history_follows_a_group_to_its_supergroup_with_its_rating_changes(storage: Storage) -> None:
    rated = [RatingUpdate(user_id=7, game="bura", mu=27.6, sigma=8.07, before=1000, after=1069)]
    table_id = await finished(storage, -100, {"scores": [11, 7]}, rated)
    await storage.migrate_chat(-100, -1001)
    [record] = await storage.match_history(-1001, 10)
    assert record.table_id == table_id
    assert [change.chat_id for change in record.changes] == [-1001]
    assert [rating.user_id for rating in await storage.chat_ratings(-1001)] == [7], "its /top moved along"
    assert await storage.match_history(-100, 10) == []


async def test_a_forgotten_player_stays_in_history_as_the_placeholder_without_his_rating_change(
    storage: Storage,
) -> None:
    rated = [
        RatingUpdate(user_id=7, game="bura", mu=27.6, sigma=8.07, before=1000, after=1069),
        RatingUpdate(user_id=8, game="bura", mu=22.4, sigma=8.07, before=1000, after=964),
    ]
    await finished(storage, -100, {"scores": [11, 7]}, rated)
    await storage.forget_user(8, "—")
    [record] = await storage.match_history(-100, 10)
    assert [seat.name for seat in record.seats] == ["Аня", "—"]
    assert [change.user_id for change in record.changes] == [7]
