"""Benchmark: a game at Telegram's real limits, as the players live it.

Run: ``.venv/bin/python -m tests.benchmarks.real_limits`` (a two-player match to 11 at the default settings),
``--game burkozel`` (one four-player Буркозёл deal, two against two), ``--game computer`` (a person against a
computer in a group, the match to 11, or ``--deals`` of it), ``--game buraco`` (a Бурако deal of one person and
three computers; the person draws from the stock and discards) and ``--game play`` (a match against the computer
with /play in the private chat). ``--in-group``: the people play from the hands the group shows them alone
(«🃏 Мои карты», issue 37); their turn is then seen there, and their private hands still ring.

The fake Bot API enforces Telegram's flood limits (a message a second a chat with bursts of three, 20 a minute
a group, 30 a second in all; edits count) with time scaled: a second of Telegram's time lasts ``--scale`` of a
second here (0.1 by default), and the bot paces itself at the same scale (SEND_INTERVAL). The people play at a
human pace: 1-4 (scaled) seconds before each tap (``--pace``). With ``--busy-group`` (on by default) another group
asks the bot for /help ten times every 30 (scaled) seconds, so its own budget is always spent.

It prints, in Telegram's time (scaled seconds):

- how long each player waited to see that it was his turn: from the commit of the move before to his hand
  showing his move (p50, p95, max), and the share of the turns that came to another player which rang his
  phone (a new notifying hand message) within 2 s;
- with ``--game play``: how long after the computer's move is committed its move is visible in the one game
  message (p50, p95, max);
- the Bot API calls per trick, by method, and the 429s Telegram answered (0 when the bot keeps the limits);
- how long the match took;
- what the group saw (issue 37): the tricks whose result never reached the group in any message it was shown
  (a picture of the table of that deal, or an announcement of the deal: the table's edits coalesce under the
  group's budget), how long after their move the calls and results (the group's ringing messages of the table)
  reached it (p50, p99, max), and how many group messages rang, per deal.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import math
import random
import re
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from bot.games.buraco.buttons import Op
from bot.services import TableState
from bot.storage import TableStatus
from engine.buraco.deal import Phase
from tests.botapi import FakeTelegram, FloodPolicy, Message, User
from tests.e2e.conftest import BotProcess
from tests.e2e.harness import Game, Tap, busy_group, open_game
from tests.e2e.players import Players, greedy, moved_past
from tests.e2e.reader import BotDatabase
from tests.matches import buraco_match

GAMES = {
    "bura": (2, 0, {}),  # the default settings: Бура, a match to 11 won deals, a 60 s move timer
    "burkozel": (4, 0, {"profile": "bk"}),
    "computer": (1, 1, {}),  # one person against a computer in the group: its moves come a second apart
    "buraco": (1, 3, {"profile": "buraco"}),  # one person, three computers: its deal is some sixty turns
}


@dataclass
class Turns:
    """Each turn's wait to see it, and for the turns that came to another player (his phone should ring) the
    wait until a new notifying hand message showed it, or None when it came as a silent edit."""

    waits: list[float] = field(default_factory=list)
    pings: list[float | None] = field(default_factory=list)


def rang(game: Game, user: User, hand: Message, hand_ids: dict[int, int]) -> bool:
    """His turn rang his phone: his private hand (not the one the group shows him alone, which never rings) is a
    new message since he last tapped, sent with a notification."""
    private = game.private_hand(user) if user.id in game.in_group else hand
    return private is not None and private.message_id != hand_ids.get(user.id) and private.notified


async def ringing(
    game: Game, user: User, hand: Message, hand_ids: dict[int, int], since: float, scale: float, think: float
) -> float | None:
    """While he thinks over the turn he sees (`think` seconds): when (scaled, from `since`) his phone rang for it,
    if within 2 s; None if it did not. Playing from his private hand, the hand he sees is the ring; from the hand
    the group shows him alone, the ring is his private hand's, which may come a moment later."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    rung: float | None = None
    while True:
        if rung is None and rang(game, user, hand, hand_ids):
            rung = (loop.time() - since) / scale
        if loop.time() - start >= think and (rung is not None or loop.time() - since >= 2.0 * scale):
            break
        await asyncio.sleep(0.005)
    return rung if rung is not None and rung <= 2.0 else None


def remember(game: Game, user: User, hand: Message, hand_ids: dict[int, int]) -> None:
    private = game.private_hand(user) if user.id in game.in_group else hand
    if private is not None:
        hand_ids[user.id] = private.message_id


async def play(
    game: Game, scale: float, rng: random.Random, deals: int | None, pace: tuple[float, float] = (1.0, 4.0)
) -> Turns:
    """Play until the match ends (or `deals` deals are over); each turn's wait, scaled."""
    loop = asyncio.get_running_loop()
    turns = Turns()
    shown_after = loop.time()
    last_mover: int | None = None
    hand_ids: dict[int, int] = {}  # user id -> the message id his hand had when he last tapped it
    while (current := await game.match()) is not None:
        version, match = current
        if deals is not None and len(match.outcomes) >= deals:
            break
        mover = match.to_act()
        if mover not in game.by_seat:  # a computer's turn: it moves by itself
            await game.until(lambda version=version: game.version() > version, "the computer's move")  # type: ignore[misc]
            shown_after, last_mover = loop.time(), mover
            continue
        skip = None
        first = True
        while True:
            tap = await game.wait_tap(match, version, skip)
            think = rng.uniform(*pace) * scale
            if first:
                wait = (loop.time() - shown_after) / scale
                turns.waits.append(wait)
                if mover != last_mover:  # his turn came: a new message must ring his phone
                    turns.pings.append(await ringing(game, tap.user, tap.message, hand_ids, shown_after, scale, think))
                    think = 0.0
                first = False
            remember(game, tap.user, tap.message, hand_ids)
            await asyncio.sleep(think)
            await game.tap(tap)
            if tap.final:
                break
            skip = tap.data
        # (at once with this bot, which answers after the commit; an older one answered before it)
        await game.until(lambda version=version: game.version() > version, "the move's commit")  # type: ignore[misc]
        shown_after = loop.time()
        last_mover = mover
    return turns


async def play_buraco(
    game: Game, scale: float, rng: random.Random, deals: int | None, pace: tuple[float, float] = (1.0, 4.0)
) -> Turns:
    """A Бурако deal (or `deals` of them) to its score; the people draw from the stock (or keep the first card)
    and discard their first card; the computers play by themselves. Each person's wait to see his turn, scaled."""
    loop = asyncio.get_running_loop()
    turns = Turns()
    shown_after = loop.time()
    hand_ids: dict[int, int] = {}
    while True:
        status, version, state = game.row()
        if status != TableStatus.PLAYING.value or state is None:
            break
        match = buraco_match(TableState.from_json(state).match)
        if match.deal_number >= (deals or 1):
            break
        seat = match.to_act()
        user = game.by_seat.get(seat) if seat is not None else None
        if seat is None or user is None:  # a computer's turn: one commit
            await game.until(lambda version=version: game.version() > version, "a computer's turn")  # type: ignore[misc]
            shown_after = loop.time()
            continue
        phase = match.deal.phase
        ops = (Op.KEEP,) if phase is Phase.FIRST_CHOICE else (Op.STOCK,) if phase is not Phase.MELD else (Op.TOGGLE,)
        move = game.shown_move(seat, version)  # the move his buttons name (his own, not the table's)
        message, data = await buraco_button(game, user, move, ops)
        think = rng.uniform(*pace) * scale
        if phase is Phase.DRAW:  # his turn begins: how long until he saw it, and whether it rang (the deal's first
            # turn goes on with a choice, FIRST_CHOICE, on the card he drew: the same turn)
            turns.waits.append((loop.time() - shown_after) / scale)
            turns.pings.append(await ringing(game, user, message, hand_ids, shown_after, scale, think))
            think = 0.0
        remember(game, user, message, hand_ids)
        await asyncio.sleep(think)
        await game.tap(Tap(user, message, data, final=phase is not Phase.MELD))
        if phase is Phase.MELD:
            message, data = await buraco_button(game, user, move, (Op.DISCARD,))
            await asyncio.sleep(rng.uniform(*pace) * scale)
            await game.tap(Tap(user, message, data, final=True))
        await game.until(lambda version=version: game.version() > version, "the move's commit")  # type: ignore[misc]
        shown_after = loop.time()
    return turns


async def buraco_button(game: Game, user: User, version: int, ops: tuple[str, ...]) -> tuple[Message, str]:
    """His hand once it shows a button for move `version` with the first of `ops` it has; its data."""
    _, message, data = await game.tg.wait_for(
        lambda: game.button_for(user, version, ops), 60, f"{user.first_name}'s {ops}"
    )
    return message, data


@dataclass
class GroupView:
    """What the group saw of a match, in Telegram's seconds."""

    deals: int = 0
    tricks: int = 0
    unseen: list[tuple[int, int]] = field(default_factory=list)  # (deal, trick) whose result never reached it
    turns: int = 0  # Бурако: turns ended by a discard
    unseen_turns: list[tuple[int, int]] = field(default_factory=list)  # (deal, turn) no picture of it reached it
    delays: list[float] = field(default_factory=list)  # commit of a ringing announcement -> its delivery
    rang: int = 0  # group messages of the table that rang
    undelivered: int = 0  # ringing announcements never delivered


def group_view(game: Game, tg: FakeTelegram, scale: float, since: float) -> GroupView:
    """What the group saw from `since` (the start of play, wall clock) on: read from the bot's database (events,
    the outbox as delivered) and the fake's history of calls."""
    seen = GroupView()
    names = {
        row["seat"]: row["name"]
        for row in game.query("SELECT seat, name FROM seats WHERE table_id = ?", (game.table_id,))
    }
    events = game.query("SELECT payload, created_at FROM events WHERE table_id = ? ORDER BY seq", (game.table_id,))
    rows = game.query(
        "SELECT kind, ref, payload, created_at, done, last_error FROM outbox WHERE chat_id = ? AND table_id = ?"
        " ORDER BY id",
        (game.group.id, game.table_id),
    )
    shown = [
        (row["created_at"], str(json.loads(row["payload"]).get("text", "")), row["ref"])
        for row in rows
        if row["done"] and row["last_error"] is None
    ]
    starts: dict[int, float] = {}
    taken: list[tuple[int, int, int, float]] = []  # deal, trick number, taker, when
    discards: list[tuple[int, int, float]] = []  # Бурако: deal, seat, when a turn ended
    deal = 0
    for event in events:
        payload = json.loads(event["payload"])
        if payload.get("type") == "Discarded":
            discards.append((deal, int(payload["seat"]), event["created_at"]))
        if payload.get("type") == "DealStarted":
            deal = int(payload.get("deal_number", payload.get("number", 0)))
            starts[deal] = event["created_at"]
        elif payload.get("type") == "TrickTaken":
            taken.append((deal, int(payload["trick_number"]), int(payload["seat"]), event["created_at"]))
    seen.deals, seen.tricks = len(starts), len(taken)
    for deal, number, seat, at in taken:
        name = re.escape(names.get(seat, "?"))
        # This bot: «3. Аня 8♣️ · Борис 9♣️ → Борис» (the deal's result: «Взятка 3: ... → Борис»); before issue 37:
        # «Взятка 3 → Борис: ...» (the last trick only).
        result = re.compile(
            rf"^(?:{number}\. .* → {name}|(?:Взятка|Trick) {number}: .* → {name}"
            rf"|(?:Взятка|Trick) {number} → {name}:.*)$",
            re.MULTILINE,
        )
        until = starts.get(deal + 1, math.inf)
        header = re.compile(rf"(?:сдача|deal) {deal}\b")
        if not any(
            when >= at - 1e-3
            and result.search(text)
            and (header.search(text.split("\n", 1)[0]) if ref == "table" else when <= until + 1e-3)
            for when, text, ref in shown
        ):
            seen.unseen.append((deal, number))
    # Бурако (issue 37): the table's last round of turns, a line a seat («<b>Аня</b>: берёт из колоды, сбрасывает
    # 7♥️»), and a deal's result its last round: a turn was seen when a message the group was shown tells its line
    # after the turn and before that seat's next.
    seen.turns = len(discards)
    told = [(when, text, ref is None) for when, text, ref in shown]
    for index, (deal, seat, at) in enumerate(discards):
        name = re.escape(html.escape(names.get(seat, "?")))
        line = re.compile(rf"^<b>{name}</b>: .*(?:сбрасывает|discards) ", re.MULTILINE)
        until = next((when for d, s2, when in discards[index + 1 :] if s2 == seat), math.inf)
        # The commit that ends a deal may hold the next deal's first turns (a computer's): its result, a message
        # of that commit, tells the turn that its table already shows the next one of.
        if not any(
            at - 1e-3 <= when and (when < until or (news and when <= until + 1e-3)) and line.search(text)
            for when, text, news in told
        ):
            seen.unseen_turns.append((deal, index + 1))
    sent = [
        request
        for request in tg.history
        if request.ok
        and request.method == "sendMessage"
        and request.params.get("chat_id") == game.group.id
        and request.time >= since
    ]
    seen.rang = sum(1 for request in sent if not request.params.get("disable_notification"))
    for row in rows:
        payload = json.loads(row["payload"])
        if row["kind"] != "send" or row["ref"] is not None or payload.get("disable_notification"):
            continue
        text = payload.get("text")
        delivered = next((r.time for r in sent if r.params.get("text") == text and r.time >= row["created_at"]), None)
        if delivered is None:
            seen.undelivered += 1
        else:
            seen.delays.append((delivered - row["created_at"]) / scale)
    return seen


def tricks(game: Game) -> int:
    rows = game.query("SELECT payload FROM events WHERE table_id = ?", (game.table_id,))
    return sum('"type":"TrickTaken"' in row["payload"] for row in rows)


async def run(args: argparse.Namespace) -> None:
    players, computers, settings = GAMES[args.game]
    deals = 1 if args.game == "burkozel" else args.deals
    with tempfile.TemporaryDirectory() as folder:
        async with FakeTelegram(flood_policy=FloodPolicy.scaled(args.scale)) as tg:
            env = {"SEND_INTERVAL": str(args.scale)}
            if args.bot_path:
                env["PYTHONPATH"] = args.bot_path  # another version of the bot (a worktree), for before and after
            bot = BotProcess(tg, Path(folder), env=env)
            await bot.start()
            try:
                game = await open_game(tg, bot.database, players=players, settings=settings, computers=computers)
                since = time.time()
                if args.in_group:
                    for user in game.by_seat.values():
                        await game.show_in_group(user)
                stop = asyncio.Event()
                spender = asyncio.create_task(busy_group(tg, args.scale, stop)) if args.busy_group else None
                started = time.monotonic()
                calls_before = len(tg.history)
                playing = play_buraco if args.game == "buraco" else play
                turns = await playing(game, args.scale, random.Random(args.seed), deals, args.pace)
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
                view = group_view(game, tg, args.scale, since)
            finally:
                await bot.stop()
        refused = sum(1 for request in tg.history if request.error_code == 429)
    waits = turns.waits
    cuts = statistics.quantiles(waits, n=100, method="inclusive")
    rung = [wait for wait in turns.pings if wait is not None and wait <= 2.0]
    where = ", from the hands in the group" if args.in_group else ""
    print(f"== {args.game}, {players} players{where}, time scaled by {args.scale} (figures in Telegram's seconds)")
    print(f"turns                   {len(waits)}   ({took:.0f} s of play, {taken} tricks)")
    print(f"wait to see one's turn  p50 {cuts[49]:.2f} s   p95 {cuts[94]:.2f} s   max {max(waits):.2f} s")
    print(
        f"turns that rang in 2 s  {len(rung)} of {len(turns.pings)} that came to another player"
        f" ({100 * len(rung) / max(1, len(turns.pings)):.1f}%; {turns.pings.count(None)} silent)"
    )
    per_trick = ", ".join(f"{method} {count / max(1, taken):.1f}" for method, count in calls.most_common())
    print(f"Bot API calls per trick {sum(calls.values()) / max(1, taken):.1f}   ({per_trick})")
    print(f"429s from Telegram      {refused}")
    deals = max(1, view.deals)
    print(
        f"tricks never shown      {len(view.unseen)} of {view.tricks} in {view.deals} deals"
        f" ({len(view.unseen) / deals:.1f} a deal): {view.unseen[:12]}{' ...' if len(view.unseen) > 12 else ''}"
    )
    if view.turns:
        unseen = view.unseen_turns
        print(
            f"turns never shown       {len(unseen)} of {view.turns} in {view.deals} deals (Бурако: the table's last"
            f" round): {unseen[:12]}{' ...' if len(unseen) > 12 else ''}"
        )
    if view.delays:
        late = (
            statistics.quantiles(view.delays, n=100, method="inclusive") if len(view.delays) > 1 else view.delays * 99
        )
        print(
            f"calls/results shown in  p50 {late[49]:.1f} s   p99 {late[98]:.1f} s   max {max(view.delays):.1f} s"
            f"   ({len(view.delays)} messages, {view.undelivered} never)"
        )
    print(f"group messages that rang {view.rang / deals:.1f} a deal ({view.rang} in all)")
    if args.busy_group:
        print(f"busy group              asked /help {asked} times (a few answered: the per-user limit)")


async def run_play(args: argparse.Namespace) -> None:
    """/play at the real limits: a person at a human pace against the computer in the private chat; how long
    after the computer's move is committed (its thinking done) the one game message shows it."""
    rng = random.Random(args.seed)
    loop = asyncio.get_running_loop()
    with tempfile.TemporaryDirectory() as folder:
        async with FakeTelegram(flood_policy=FloodPolicy.scaled(args.scale)) as tg:
            bot = BotProcess(tg, Path(folder), env={"SEND_INTERVAL": str(args.scale)})
            await bot.start()
            delays: list[float] = []
            try:
                async with BotDatabase(bot.database) as storage:
                    anna = tg.user("Аня", "anna")
                    chat = tg.private_chat(anna)
                    await tg.wait_bot_message(chat, after=tg.start_bot(anna), timeout=30)
                    await tg.wait_bot_message(chat, after=tg.send_message(anna, chat, "/play"), timeout=30)
                    found = await storage.get_open_table(chat.id)
                    assert found is not None
                    players = Players(tg, storage, {0: anna}, found.table_id)
                    committed: dict[int, float] = {}
                    watching = asyncio.create_task(watch_versions(storage, found.table_id, committed))
                    started = loop.time()
                    while (table := await players.table()).status is TableStatus.PLAYING:
                        match = await players.match()
                        if args.deals is not None and len(match.outcomes) >= args.deals:
                            break
                        if match.to_act() == 0:
                            await asyncio.sleep(rng.uniform(1.0, 4.0) * args.scale)
                            await players.move(greedy)
                            continue
                        version = table.version
                        game = await tg.wait_for(lambda: players.hand(anna), 30, "the game message")
                        await tg.wait_for(partial(moved_past, game, version), 60, "the computer's move")
                        shown = loop.time()
                        while version + 1 not in committed:
                            await asyncio.sleep(0.005)
                        delays.append((shown - committed[version + 1]) / args.scale)
                    took = (loop.time() - started) / args.scale
                    watching.cancel()
            finally:
                await bot.stop()
        refused = sum(1 for request in tg.history if request.error_code == 429)
    cuts = statistics.quantiles(delays, n=100, method="inclusive")
    print(f"== /play against the computer, time scaled by {args.scale} (figures in Telegram's seconds)")
    print(f"computer moves          {len(delays)}   ({took:.0f} s of play)")
    print(f"its move visible after  p50 {cuts[49]:.2f} s   p95 {cuts[94]:.2f} s   max {max(delays):.2f} s")
    print(f"429s from Telegram      {refused}")


async def watch_versions(storage: BotDatabase, table_id: int, committed: dict[int, float]) -> None:
    """When each version of the table was first seen committed (polled every 5 ms)."""
    loop = asyncio.get_running_loop()
    while True:
        table = await storage.get_table(table_id)
        if table is not None and table.version not in committed:
            committed[table.version] = loop.time()
        await asyncio.sleep(0.005)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=[*sorted(GAMES), "play"], default="bura")
    parser.add_argument("--deals", type=int, help="with --game play or computer: stop after this many deals")
    parser.add_argument("--scale", type=float, default=0.1, help="seconds here per second of Telegram's time")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument(
        "--pace",
        type=lambda text: tuple(float(part) for part in text.split(",")),
        default=(1.0, 4.0),
        help="LOW,HIGH: (scaled) seconds a person takes before each tap, 1,4 by default; 0.3,1 for quick players",
    )
    parser.add_argument("--busy-group", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--in-group", action="store_true", help="the people play from the hands the group shows them")
    parser.add_argument("--bot-path", help="run the bot from this checkout (e.g. a git worktree of an older commit)")
    args = parser.parse_args()
    asyncio.run(run_play(args) if args.game == "play" else run(args))


if __name__ == "__main__":
    main()
