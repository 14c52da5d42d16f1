"""Crashes: the bot is killed (SIGKILL) at a score of moments in one game and restarted each time; the game ends
exactly as an uninterrupted run with the same seed and the same people ends.

Exactly means: the same stored match (action log, outcomes, scores), the same event log, and chats that read the
same, message for message. So no move is lost or applied twice, and no announcement is lost or shown twice.

The moments are chosen by watching the bot rather than by sleeping. A gate in front of the fake's message methods
holds every message the bot tries to deliver while a kill is being prepared, so the kill lands where we say:
before the bot read the tap, after it read it, after it committed the move but before anything was delivered,
after it answered the tap, or after the first messages of the move were delivered and the rest were not. A held
request dies with the process: it never reaches the chat, as a request cut off by a crash never does.

What this does not cover: a kill in the instant between Telegram accepting a sendMessage and the bot recording
that it did. No bot can tell after a restart whether such a message arrived (the Bot API has no idempotent send),
so the outbox delivers at least once; the gate keeps the kills out of that window.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import HandOp
from engine.deal import Phase
from engine.match import Match
from tests.botapi import CallbackQuery, FakeTelegram
from tests.e2e.conftest import BotProcess
from tests.e2e.harness import SEND_INTERVAL, WAIT, Game, Tap, intent, open_game

Json = dict[str, Any]
SETTINGS = {"match": "p12", "timer": "0"}  # a match of some ten deals, no move timer
MESSAGE_METHODS = ("sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage")
SETTLE = 0.3  # after a restart: the redelivered taps are handled within this


@pytest.fixture(autouse=True)
def _fast_sender(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEND_INTERVAL", SEND_INTERVAL)


class Moment(StrEnum):
    UNREAD = "the tap is queued, the bot has not read it"
    READ = "the bot has read the tap"
    COMMITTED = "the move is committed, nothing delivered"
    ANSWERED = "the tap is answered (at once: its move may not be committed yet), nothing delivered"
    PARTLY = "the first message of the move delivered, the rest not"
    REDRAW = "a card is marked, the hand not redrawn"


class Gate:
    """Holds the bot's message requests in the fake while a kill is prepared; a held request fails for ever."""

    def __init__(self, tg: FakeTelegram) -> None:
        self.passes: int | None = None  # None: open; n: let n more message requests through, hold the rest
        self.held = 0
        self.changed = asyncio.Event()
        for method in MESSAGE_METHODS:
            tg.api.handlers[method] = self._wrap(tg.api.handlers[method])

    def _wrap(self, handler: Callable[[Json], Awaitable[Any]]) -> Callable[[Json], Awaitable[Any]]:
        async def gated(params: Json) -> Any:
            if self.passes is not None:
                if self.passes > 0:
                    self.passes -= 1
                else:
                    self.held += 1
                    self.changed.set()
                    await asyncio.Event().wait()  # cancelled when the bot's connection dies
            return await handler(params)

        return gated

    def close(self, after: int = 0) -> None:
        self.passes, self.held = after, 0

    def open(self) -> None:
        self.passes = None

    async def holding(self) -> None:
        while not self.held:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), WAIT)


@dataclass
class Run:
    state: Json
    events: list[Json]
    group: list[str]
    private: dict[str, list[str]]
    kills: list[tuple[int, str, Moment]] = field(default_factory=list)


async def finish(game: Game) -> Run:
    await game.delivered()
    events = [json.loads(row["payload"]) for row in game.query("SELECT payload FROM events ORDER BY seq")]
    return Run(game.final_state(), events, game.shown(game.group), game.private_texts())


def kind_of(match: Match, op: HandOp) -> str:
    """What the move does: a claim, a lead (the bot dies mid-trick), or the answer that ends a trick (and draws)."""
    if op is HandOp.CLAIM:
        return "claim"
    if op in (HandOp.PLAY, HandOp.FACE_DOWN):
        return "lead" if match.deal.phase is Phase.LEAD else "answer+draw"
    return op.name.lower()


class Crasher:
    """Plays the game as `Game.play_move` does, killing the bot at the planned taps."""

    ROTATION = (Moment.COMMITTED, Moment.UNREAD, Moment.ANSWERED, Moment.READ, Moment.PARTLY)

    def __init__(self, game: Game, bot: BotProcess, gate: Gate) -> None:
        self.game = game
        self.bot = bot
        self.gate = gate
        self.tg = game.tg
        self.first_version = game.version()
        self.done: set[tuple[int, bool]] = set()
        self.kills: list[tuple[int, str, Moment]] = []

    def plan(self, version: int, match: Match, tap: Tap) -> Moment | None:
        """Which moment to kill at, if any, for this tap: every eighth move in rotation, the first four claims,
        and the first card marked in every thirtieth move (a restart costs seconds: aiogram imports slowly)."""
        index = version - self.first_version
        if (version, tap.final) in self.done:
            return None
        if not tap.final:
            return Moment.REDRAW if index % 30 == 5 else None
        seat = match.to_act()
        assert seat is not None
        claims = sum(kind == "claim" for _, kind, _ in self.kills)
        if intent(match, seat)[0] is HandOp.CLAIM and claims < 4:
            return Moment.PARTLY if claims % 2 else Moment.COMMITTED
        if index % 8 == 1:
            return self.ROTATION[(index // 8) % len(self.ROTATION)]
        return None

    async def play(self) -> None:
        while (current := await self.game.match()) is not None:
            version, match = current
            skip: str | None = None
            while True:
                tap = await self.game.wait_tap(match, version, skip)
                moment = self.plan(version, match, tap)
                if moment is not None:
                    self.done.add((version, tap.final))
                    seat = match.to_act()
                    assert seat is not None
                    self.kills.append((version, kind_of(match, intent(match, seat)[0]), moment))
                    await self.kill_at(moment, tap, version)
                    break  # the move is read again from the database: it may or may not have been made
                answer = await self.tg.wait_answer(self.tg.tap_data(tap.user, tap.message, tap.data), WAIT)
                if answer.show_alert:
                    break  # a tap redelivered after a restart beat this one to it: look again
                if tap.final:
                    break
                skip = tap.data

    async def kill_at(self, moment: Moment, tap: Tap, version: int) -> None:
        self.gate.close(after=1 if moment is Moment.PARTLY else 0)
        query = self.tg.tap_data(tap.user, tap.message, tap.data)
        if moment is Moment.READ:
            await self.tg.wait_for(lambda: self.read(query), WAIT, "the bot to read the tap")
        elif moment is Moment.COMMITTED:
            await self.game.until(lambda: self.game.version() > version, "the commit", WAIT)
        elif moment in (Moment.ANSWERED, Moment.REDRAW):
            await self.tg.wait_answer(query, WAIT)
        elif moment is Moment.PARTLY:
            await self.gate.holding()
            await asyncio.sleep(0.05)  # the bot records the delivered message before it sends the next
        if moment in (Moment.COMMITTED, Moment.PARTLY):
            assert self.game.version() == version + 1, moment
        await self.restart()

    def read(self, query: CallbackQuery) -> bool:
        return any(
            update.get("callback_query", {}).get("id") == query.id
            for request in self.tg.calls("getUpdates")
            if request.ok
            for update in request.result
        )

    async def restart(self) -> None:
        process = self.bot.process
        assert process is not None
        process.kill()
        await process.wait()
        self.bot.process = None
        self.gate.open()
        await self.bot.start()
        await self.tg.wait_for(lambda: not self.tg.world.updates, WAIT, "the new process to read the queued taps")
        await self.game.delivered()
        await asyncio.sleep(SETTLE)
        await self.game.delivered()


async def play(tmp_path: Path, crash: bool) -> Run:
    async with FakeTelegram(flood_limits=False) as tg:
        bot = BotProcess(tg, tmp_path)
        gate = Gate(tg)
        await bot.start()
        try:
            game = await open_game(tg, bot.database, players=2, settings=SETTINGS)
            if crash:
                crasher = Crasher(game, bot, gate)
                await crasher.play()
            else:
                await game.play_to_end()
            run = await finish(game)
            if crash:
                run.kills = crasher.kills
        finally:
            if bot.process is not None:
                await bot.stop()
        assert "Traceback" not in bot.output(), bot.output()
        assert not tg.crashes, tg.crashes[0]
    return run


async def test_a_game_killed_at_every_moment_ends_as_an_uninterrupted_one(tmp_path: Path) -> None:
    (tmp_path / "reference").mkdir()
    (tmp_path / "crashed").mkdir()
    # Side by side: the reference is done long before the crashed run's restarts are.
    reference, crashed = await asyncio.gather(
        play(tmp_path / "reference", crash=False), play(tmp_path / "crashed", crash=True)
    )

    assert len(crashed.kills) >= 20, crashed.kills
    assert set(Moment) <= {moment for _, _, moment in crashed.kills}, crashed.kills
    assert {"claim", "lead", "answer+draw"} <= {kind for _, kind, _ in crashed.kills}, crashed.kills
    assert crashed.state["actions"] == reference.state["actions"]  # no move lost or made twice
    assert crashed.state == reference.state
    final = Match.from_json(crashed.state)
    expected = Match.from_json(reference.state)
    assert final.finished and (final.outcomes, final.scores, final.winners) == (
        expected.outcomes,
        expected.scores,
        expected.winners,
    )
    assert crashed.events == reference.events
    assert crashed.group == reference.group  # every announcement once, in order, every message in its last text
    assert crashed.private == reference.private
