"""A member's spam never holds a table up (issue 35, item 4): at Telegram's real limits, time scaled.

The fake Bot API enforces one message a second a chat, twenty a minute a group and thirty a second in all, each
second lasting `SCALE` of one here, and the bot paces itself at the same scale (SEND_INTERVAL). Two people play a
deal at a human pace while a member of the group who does not play sends sixty commands, two a second. Before the
per-user limits and the table's priority over replies, the table's pictures waited two and a half minutes (median;
three at most, in Telegram's seconds) behind the replies.

What is measured is what the group sees: for every message the table committed to the group (its picture, its
announcements), the time from the commit (the outbox row's `created_at`) to the call that showed it in the fake
(a picture coalesced into a later one is shown by that one). The same deal is played once without the spammer, as
the control: the same seed and the same people's pauses commit the same messages, so they are compared one by one.
A member's spam may add at most a second (scaled) to any of them.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
from pathlib import Path

from tests.botapi import FakeTelegram, FloodPolicy
from tests.e2e.conftest import BotProcess
from tests.e2e.harness import Game, open_game
from tests.e2e.test_pacing import no_full_collections_here  # noqa: F401 (a fixture)

SCALE = 0.2  # a second of Telegram's time lasts this long here
SPAM = ("/score", "/help", "/stats", "/top", "/settings", "/new")
SHOWN = frozenset({"sendMessage", "editMessageText", "editMessageReplyMarkup"})
ADDED_AT_MOST = 1.0  # scaled seconds a member's spam may add to a table's update


async def spam(tg: FakeTelegram, game: Game, stop: asyncio.Event) -> int:
    """A member who does not play sends sixty commands to the group, two a (scaled) second."""
    carl = tg.user("Карл", "carl")
    tg.join(carl, game.group)
    sent = 0
    while sent < 60 and not stop.is_set():
        tg.send_message(carl, game.group, SPAM[sent % len(SPAM)])
        sent += 1
        await asyncio.sleep(0.5 * SCALE)
    return sent


async def play_at_human_pace(game: Game, rng: random.Random) -> None:
    """The deal to its end, each tap after a second to three of looking and thinking (scaled)."""
    while (current := await game.match()) is not None:
        version, match = current
        skip = None
        while True:
            tap = await game.wait_tap(match, version, skip)
            await asyncio.sleep(rng.uniform(1.0, 3.0) * SCALE)
            await game.tap(tap)
            if tap.final:
                break
            skip = tap.data


def table_delays(tg: FakeTelegram, game: Game, after: int) -> list[float]:
    """For each message the table committed to the group after outbox row `after`, in commit order: scaled
    seconds from the commit to the call that showed it."""
    group = game.group.id
    shown = [
        (request.time, request.params.get("text"))
        for request in tg.history
        if request.ok and request.method in SHOWN and request.params.get("chat_id") == group
    ]
    taken: set[int] = set()
    rows = game.query(
        "SELECT id, kind, key, payload, created_at, last_error FROM outbox WHERE chat_id = ? AND id > ? ORDER BY id",
        (group, after),
    )
    table = [row for row in rows if row["kind"] in ("send", "edit") and "reply_parameters" not in row["payload"]]
    delivered: dict[int, float] = {}
    for row in table:
        if row["last_error"] is not None:
            continue
        text = json.loads(row["payload"]).get("text")
        found = next(
            (n for n, (at, said) in enumerate(shown) if n not in taken and said == text and at >= row["created_at"]),
            None,
        )
        assert found is not None, f"outbox row {row['id']} was never shown"
        taken.add(found)
        delivered[row["id"]] = shown[found][0]
    delays = []
    for row in table:
        if row["last_error"] == "unchanged":
            continue  # the message showed it already
        if row["last_error"] == "superseded":
            later = next(
                (r for r in rows if r["key"] == row["key"] and r["id"] > row["id"] and r["last_error"] is None),
                None,
            )
            assert later is not None, f"outbox row {row['id']} was superseded by nothing shown"
            if later["kind"] == "delete":
                continue  # the message went away (the lobby, once the deal began)
            at = delivered[later["id"]]
        else:
            assert row["last_error"] is None, (row["id"], row["last_error"])
            at = delivered[row["id"]]
        delays.append((at - row["created_at"]) / SCALE)
    return delays


async def play(tmp_path: Path, spammer: bool) -> tuple[list[float], int, int]:
    """The deal at a human pace, with or without the spammer: the table's delays (scaled seconds), the
    commands sent, and how many of them the bot answered."""
    tmp_path.mkdir()
    async with FakeTelegram(flood_policy=FloodPolicy.scaled(SCALE)) as tg:
        bot = BotProcess(tg, tmp_path, env={"SEND_INTERVAL": str(SCALE)})
        await bot.start()
        try:
            game = await open_game(tg, bot.database, players=2, settings={"match": "one", "timer": "0"})
            await game.delivered(timeout=120)
            [(dealt,)] = game.query("SELECT MAX(id) FROM outbox")
            stop = asyncio.Event()
            spamming = asyncio.create_task(spam(tg, game, stop)) if spammer else None
            await play_at_human_pace(game, random.Random(20261204))
            stop.set()
            sent = await spamming if spamming is not None else 0
            await game.delivered(timeout=120)
            delays = table_delays(tg, game, dealt)
            answered = sum(
                1
                for request in tg.history
                if request.ok and request.method == "sendMessage" and "reply_parameters" in request.params
            )
        finally:
            await bot.stop()
        assert "Traceback" not in bot.output()
        refused = [(r.method, r.params.get("chat_id"), round(r.time, 2)) for r in tg.history if r.error_code == 429]
        assert tg.flood.refused == 0, ("the bot kept to every limit", refused[:20])
    return delays, sent, answered


async def test_a_member_s_spam_adds_at_most_a_second_to_the_table_s_updates(tmp_path: Path) -> None:
    control, _, _ = await play(tmp_path / "control", spammer=False)
    spammed, sent, answered = await play(tmp_path / "spam", spammer=True)
    print(
        f"table updates {len(control)}: control p50 {statistics.median(control):.2f} max {max(control):.2f}, "
        f"spammed p50 {statistics.median(spammed):.2f} max {max(spammed):.2f} (scaled s); "
        f"{sent} commands, {answered} answered"
    )
    assert sent == 60, "the deal lasted as long as the spam"
    assert len(spammed) == len(control) >= 10, "the same deal, message for message"
    added = [with_spam - without for with_spam, without in zip(spammed, control, strict=True)]
    assert max(added) <= ADDED_AT_MOST, (max(added), [round(delay, 2) for delay in added])
    assert 1 <= answered < 20, "some commands were answered, most not: the group's budget is the table's"
