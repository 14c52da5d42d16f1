"""The ratings' part of the storage contract (`RatingStore`, `commit_move`'s `ratings`), run on every backend."""

from __future__ import annotations

import pytest

from bot.storage import RatingChange, RatingUpdate, StaleVersion, Storage, TableStatus
from tests.bot.storage.conftest import FakeClock


def update(user_id: int, mu: float, sigma: float, before: int, after: int, game: str = "bura") -> RatingUpdate:
    return RatingUpdate(user_id=user_id, game=game, mu=mu, sigma=sigma, before=before, after=after)


async def finish(storage: Storage, chat_id: int, ratings: list[RatingUpdate]) -> int:
    """A table of `chat_id` whose match ends, with these ratings, in one commit; returns its id."""
    table = await storage.create_table(chat_id, creator_id=7, settings={})
    await storage.commit_move(table.table_id, 0, "{}", status=TableStatus.FINISHED, ratings=ratings)
    return table.table_id


async def test_a_match_end_writes_the_ratings_and_their_changes_with_its_move(
    storage: Storage, clock: FakeClock
) -> None:
    clock.now = 2_000.0
    table_id = await finish(storage, -100, [update(7, 27.6, 8.07, 1000, 1069), update(8, 22.4, 8.07, 1000, 964)])
    found = await storage.ratings_of("bura", [7, 8, 9])
    assert sorted(found) == [7, 8]
    assert (found[7].mu, found[7].sigma, found[7].matches, found[7].updated_at) == (27.6, 8.07, 1, 2_000.0)
    assert await storage.rating_changes(table_id) == [
        RatingChange(table_id=table_id, chat_id=-100, user_id=7, game="bura", before=1000, after=1069, at=2_000.0),
        RatingChange(table_id=table_id, chat_id=-100, user_id=8, game="bura", before=1000, after=964, at=2_000.0),
    ]
    # The next match replaces the rating and counts one more.
    await finish(storage, -100, [update(7, 29.0, 7.8, 1069, 1112), update(8, 21.0, 7.8, 964, 952)])
    again = await storage.ratings_of("bura", [7])
    assert (again[7].mu, again[7].sigma, again[7].matches) == (29.0, 7.8, 2)
    assert await storage.ratings_of("bk", [7, 8]) == {}, "a rating is the game's own"
    assert await storage.ratings_of("bura", []) == {}


async def test_a_refused_move_writes_no_rating(storage: Storage) -> None:
    table = await storage.create_table(-100, creator_id=7, settings={})
    await storage.commit_move(table.table_id, 0, "{}")
    with pytest.raises(StaleVersion):
        await storage.commit_move(table.table_id, 0, "{}", ratings=[update(7, 30.0, 5.0, 1000, 1200)])
    assert await storage.ratings_of("bura", [7]) == {}
    assert await storage.rating_changes(table.table_id) == []


async def test_ratings_by_user_chat_and_overall_best_first(storage: Storage) -> None:
    # Conservative estimates (mu - 3 sigma): 7 -> 15, 8 -> 5, 9 -> 15 (a tie with 7), 10 -> -5.
    await finish(storage, -100, [update(7, 21.0, 2.0, 0, 0), update(8, 20.0, 5.0, 0, 0)])
    await finish(storage, -200, [update(9, 18.0, 1.0, 0, 0), update(10, 10.0, 5.0, 0, 0)])
    await finish(storage, -200, [update(7, 21.0, 2.0, 0, 0, game="bk"), update(10, 10.0, 5.0, 0, 0, game="bk")])
    assert [(r.game, r.user_id) for r in await storage.chat_ratings(-100)] == [("bura", 7), ("bura", 8)]
    assert [(r.game, r.user_id) for r in await storage.chat_ratings(-200)] == [
        ("bk", 7),
        ("bk", 10),
        ("bura", 9),
        ("bura", 10),
    ]
    assert [r.user_id for r in await storage.chat_ratings(-200, "bura")] == [9, 10]
    assert [r.game for r in await storage.user_ratings(7)] == ["bk", "bura"]
    assert await storage.user_ratings(11) == []
    assert await storage.rating_rank("bura", 7) == (1, 4)
    assert await storage.rating_rank("bura", 9) == (1, 4), "equal estimates share a place"
    assert await storage.rating_rank("bura", 8) == (3, 4)
    assert await storage.rating_rank("bura", 10) == (4, 4)
    assert await storage.rating_rank("bura", 11) is None
    assert await storage.rating_rank("bk", 10) == (2, 2)


async def test_the_overall_top_shows_only_who_lets_it(storage: Storage) -> None:
    for user_id in (7, 8, 9):
        await storage.upsert_user(user_id, f"u{user_id}")
    await finish(storage, -100, [update(7, 21.0, 2.0, 0, 0), update(8, 20.0, 5.0, 0, 0), update(9, 30.0, 1.0, 0, 0)])
    assert await storage.top_ratings("bura", 10) == [], "private by default"
    user = await storage.get_user(7)
    assert user is not None and not user.rating_public
    await storage.set_user_rating_public(7)
    await storage.set_user_rating_public(9)
    user = await storage.get_user(7)
    assert user is not None and user.rating_public
    assert [r.user_id for r in await storage.top_ratings("bura", 10)] == [9, 7]
    assert [r.user_id for r in await storage.top_ratings("bura", 1)] == [9]
    await storage.set_user_rating_public(9, False)
    assert [r.user_id for r in await storage.top_ratings("bura", 10)] == [7]
    assert await storage.top_ratings("bk", 10) == []


async def test_forget_user_deletes_his_ratings_and_their_history(storage: Storage) -> None:
    await storage.upsert_user(7, "Аня")
    table_id = await finish(storage, -100, [update(7, 27.0, 8.0, 0, 0), update(8, 23.0, 8.0, 0, 0)])
    await finish(storage, -100, [update(7, 28.0, 7.0, 0, 0, game="bk"), update(8, 22.0, 7.0, 0, 0, game="bk")])
    forgotten = await storage.forget_user(7, "—")
    assert forgotten.ratings == 2
    assert await storage.user_ratings(7) == []
    assert [c.user_id for c in await storage.rating_changes(table_id)] == [8], "the others' history stays"
    assert sorted(await storage.ratings_of("bura", [7, 8])) == [8]


async def test_the_overall_top_of_every_game_at_once(storage: Storage) -> None:
    for user_id in (7, 8, 9):
        await storage.upsert_user(user_id, f"u{user_id}")
        await storage.set_user_rating_public(user_id)
    await finish(storage, -100, [update(7, 21.0, 2.0, 0, 0), update(8, 20.0, 5.0, 0, 0), update(9, 30.0, 1.0, 0, 0)])
    await finish(storage, -100, [update(8, 21.0, 2.0, 0, 0, game="bk"), update(9, 20.0, 5.0, 0, 0, game="bk")])
    best = await storage.top_ratings(None, 2)
    assert [(r.game, r.user_id) for r in best] == [("bk", 8), ("bk", 9), ("bura", 9), ("bura", 7)]
