"""Benchmark: a game at Telegram's real limits, as the players live it.

Run: ``.venv/bin/python -m tests.benchmarks.real_limits`` (a two-player match to 11 at the default settings)
and ``--game burkozel`` (one four-player Буркозёл deal, two against two).

The fake Bot API enforces Telegram's flood limits (a message a second a chat with bursts of three, 20 a minute
a group, 30 a second in all; edits count) with time scaled: a second of Telegram's time lasts ``--scale`` of a
second here (0.1 by default), and the bot paces itself at the same scale (SEND_INTERVAL). The people play at a
human pace: 1-4 (scaled) seconds before each tap. With ``--busy-group`` (on by default) another group asks the
bot for /help ten times every 30 (scaled) seconds, so its own budget is always spent.

It prints, in Telegram's time (scaled seconds):

- how long each player waited to see that it was his turn: from the commit of the move before to his hand
  showing his move (p50, p95, max);
- the Bot API calls per trick, by method, and the 429s Telegram answered (0 when the bot keeps the limits);
- how long the match took.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from tests.botapi import FakeTelegram, FloodPolicy
from tests.e2e.conftest import BotProcess
from tests.e2e.harness import Game, open_game

GAMES = {
    "bura": (2, {}),  # the default settings: Бура, a match to 11 won deals, a 60 s move timer
    "burkozel": (4, {"profile": "bk"}),
}


async def busy_group(tg: FakeTelegram, scale: float, stop: asyncio.Event) -> int:
    owner, other = tg.user("Дима", "dima"), tg.user("Ева", "eva")
    group = tg.group("Другая", owner=owner, members=[other])
    tg.add_bot(group)
    asked = 0
    while not stop.is_set():
        for _ in range(10):
            tg.send_message(owner, group, "/help")
            asked += 1
        await asyncio.sleep(30 * scale)
    return asked


async def play(game: Game, scale: float, rng: random.Random, deals: int | None) -> list[float]:
    """Play until the match ends (or `deals` deals are over); returns each turn's wait, scaled."""
    loop = asyncio.get_running_loop()
    waits: list[float] = []
    shown_after = loop.time()
    while (current := await game.match()) is not None:
        version, match = current
        if deals is not None and len(match.outcomes) >= deals:
            break
        skip = None
        first = True
        while True:
            tap = await game.wait_tap(match, version, skip)
            if first:
                waits.append((loop.time() - shown_after) / scale)
                first = False
            await asyncio.sleep(rng.uniform(1.0, 4.0) * scale)
            await game.tap(tap)
            if tap.final:
                break
            skip = tap.data
        # (at once with this bot, which answers after the commit; an older one answered before it)
        await game.until(lambda version=version: game.version() > version, "the move's commit")  # type: ignore[misc]
        shown_after = loop.time()
    return waits


def tricks(game: Game) -> int:
    rows = game.query("SELECT payload FROM events WHERE table_id = ?", (game.table_id,))
    return sum('"type":"TrickTaken"' in row["payload"] for row in rows)


async def run(args: argparse.Namespace) -> None:
    players, settings = GAMES[args.game]
    deals = 1 if args.game == "burkozel" else None
    with tempfile.TemporaryDirectory() as folder:
        async with FakeTelegram(flood_policy=FloodPolicy.scaled(args.scale)) as tg:
            env = {"SEND_INTERVAL": str(args.scale)}
            if args.bot_path:
                env["PYTHONPATH"] = args.bot_path  # another version of the bot (a worktree), for before and after
            bot = BotProcess(tg, Path(folder), env=env)
            await bot.start()
            try:
                game = await open_game(tg, bot.database, players=players, settings=settings)
                stop = asyncio.Event()
                spender = asyncio.create_task(busy_group(tg, args.scale, stop)) if args.busy_group else None
                started = time.monotonic()
                calls_before = len(tg.history)
                waits = await play(game, args.scale, random.Random(args.seed), deals)
                took = (time.monotonic() - started) / args.scale
                stop.set()
                asked = await spender if spender is not None else 0
                await game.delivered(timeout=120)
                calls = Counter(
                    request.method
                    for request in tg.history[calls_before:]
                    if request.params.get("chat_id") in {chat.id for chat in game.chats()}
                    or "callback_query_id" in request.params
                )
                taken = tricks(game)
            finally:
                await bot.stop()
        refused = sum(1 for request in tg.history if request.error_code == 429)
    cuts = statistics.quantiles(waits, n=100, method="inclusive")
    print(f"== {args.game}, {players} players, time scaled by {args.scale} (figures in Telegram's seconds)")
    print(f"turns                   {len(waits)}   ({took:.0f} s of play, {taken} tricks)")
    print(f"wait to see one's turn  p50 {cuts[49]:.2f} s   p95 {cuts[94]:.2f} s   max {max(waits):.2f} s")
    per_trick = ", ".join(f"{method} {count / max(1, taken):.1f}" for method, count in calls.most_common())
    print(f"Bot API calls per trick {sum(calls.values()) / max(1, taken):.1f}   ({per_trick})")
    print(f"429s from Telegram      {refused}")
    if args.busy_group:
        print(f"busy group              asked /help {asked} times (its 20 a minute always spent)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="bura")
    parser.add_argument("--scale", type=float, default=0.1, help="seconds here per second of Telegram's time")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--busy-group", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--bot-path", help="run the bot from this checkout (e.g. a git worktree of an older commit)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
