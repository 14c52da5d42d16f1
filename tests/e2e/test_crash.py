"""Crashes: the bot is killed (SIGKILL) at some thirty moments of one game and restarted each time; the game ends
exactly as an uninterrupted run with the same seed and the same people ends. On SQLite and on PostgreSQL (where a
restarted process takes over at once what its dead predecessor on the same host held).

Exactly means: the same stored match (action log, outcomes, scores), the same event log, private chats that read
the same, message for message, and a group that reads the same but for the repeats the one window allows (below).
So no move is lost or applied twice, no tap answered as accepted is lost, and no announcement is lost.

The moments are chosen by watching the bot rather than by sleeping. Gates in front of the fake's methods hold the
bot's requests while a kill is prepared, so the kill lands where we say: before the bot read the tap, after it
read it, in the middle of the move's group commit (the writer holds it: BURA_TEST_HOOKS), after the commit with
nothing delivered, inside the tap's answer (never reaching Telegram), right after the answer reached Telegram
(the bot never heard back), after the first messages of the move were delivered and the rest were not, right
after a group announcement reached Telegram, and after a card was marked. A held request dies with the process.

The one window no bot can close: a send that Telegram accepted but whose reply the crash cut off. After the
restart the bot cannot tell whether the message arrived (the Bot API has no idempotent send), so it sends it
again: at most that one message of the chat repeats. The kills right after a group send land in that window on
purpose; each may repeat one group message, and no more.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest

from bot.games.bura.buttons import HandOp
from engine.bura.deal import Phase
from engine.bura.match import Match
from tests.botapi import CallbackQuery, FakeTelegram
from tests.e2e.conftest import BotProcess
from tests.e2e.harness import SEND_INTERVAL, WAIT, Game, Tap, intent, open_game
from tests.postgres import fresh_database

Json = dict[str, Any]
SETTINGS = {"match": "p12", "timer": "0"}  # a match of some ten deals, no move timer
MESSAGE_METHODS = ("sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage")
SETTLE = 0.3  # after a restart: the updates left in the inbox are handled within this


@pytest.fixture(autouse=True)
def _fast_sender(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEND_INTERVAL", SEND_INTERVAL)


class Moment(StrEnum):
    UNREAD = "the tap is queued, the bot has not read it"
    READ = "the bot has read the tap"
    MID_COMMIT = "the move's group commit is under way in the writer, not on the disk"
    COMMITTED = "the move is committed, nothing delivered, the tap not answered"
    IN_ANSWER = "the move is committed; the tap's answer is on its way and never reaches Telegram"
    ANSWERED = "the tap's answer reached Telegram; the bot never heard back"
    PARTLY = "the first message of the move delivered, the rest not"
    GROUP_SEND = "a group announcement reached Telegram; the bot never heard back"
    REDRAW = "a card is marked, the hand not redrawn"


class Gate:
    """Holds the bot's requests to some methods in the fake while a kill is prepared; a held request is never
    answered. With `land`, a held request is carried out first and only its reply is held (Telegram did it,
    the bot never hears of it)."""

    def __init__(self, tg: FakeTelegram, methods: tuple[str, ...]) -> None:
        self.passes: int | None = None  # None: open; n: let n more requests through, hold the rest
        self.land = False
        self.only_chat: int | None = None  # hold only requests to this chat
        self.held = 0
        self.changed = asyncio.Event()
        for method in methods:
            tg.api.handlers[method] = self._wrap(tg.api.handlers[method])

    def _wrap(self, handler: Callable[[Json], Awaitable[Any]]) -> Callable[[Json], Awaitable[Any]]:
        async def gated(params: Json) -> Any:
            if self.passes is None or (self.only_chat is not None and params.get("chat_id") != self.only_chat):
                return await handler(params)
            if self.passes > 0:
                self.passes -= 1
                return await handler(params)
            if self.land:
                await handler(params)
            self.held += 1
            self.changed.set()
            await asyncio.Event().wait()  # cancelled when the bot's connection dies
            return None

        return gated

    def close(self, after: int = 0, *, land: bool = False, only_chat: int | None = None) -> None:
        self.passes, self.held, self.land, self.only_chat = after, 0, land, only_chat

    def open(self) -> None:
        self.passes = None
        self.land = False
        self.only_chat = None

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
    if op == HandOp.CLAIM:
        return "claim"
    if op in (HandOp.PLAY, HandOp.FACE_DOWN):
        return "lead" if match.deal.phase is Phase.LEAD else "answer+draw"
    return op.name.lower()


class Crasher:
    """Plays the game as `Game.play_move` does, killing the bot at the planned taps."""

    ROTATION = (
        Moment.COMMITTED,
        Moment.UNREAD,
        Moment.MID_COMMIT,
        Moment.ANSWERED,
        Moment.READ,
        Moment.IN_ANSWER,
        Moment.PARTLY,
    )
    CLAIMS = (Moment.GROUP_SEND, Moment.COMMITTED, Moment.GROUP_SEND, Moment.PARTLY, Moment.GROUP_SEND)

    def __init__(self, game: Game, bot: BotProcess, messages: Gate, answers: Gate, hooks: Path) -> None:
        self.game = game
        self.bot = bot
        self.messages = messages
        self.answers = answers
        self.hooks = hooks
        self.tg = game.tg
        self.first_version = game.version()
        self.done: set[tuple[int, bool]] = set()
        self.kills: list[tuple[int, str, Moment]] = []

    def plan(self, version: int, match: Match, tap: Tap) -> Moment | None:
        """Which moment to kill at, if any, for this tap: every fourth move in rotation, the first claims, and
        the first card marked in every twentieth move (a restart costs seconds: aiogram imports slowly)."""
        index = version - self.first_version
        if (version, tap.final) in self.done:
            return None
        if not tap.final:
            return Moment.REDRAW if index % 20 == 5 else None
        seat = match.to_act()
        assert seat is not None
        claims = sum(kind == "claim" for _, kind, _ in self.kills)
        if intent(match, seat)[0] == HandOp.CLAIM and claims < len(self.CLAIMS):
            return self.CLAIMS[claims]
        if index % 4 == 1:
            return self.ROTATION[(index // 4) % len(self.ROTATION)]
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
                    break  # a tap handled again after a restart beat this one to it: look again
                if tap.final:
                    assert self.game.version() > version, "a tap answered as accepted is on the disk"
                    break
                skip = tap.data

    async def kill_at(self, moment: Moment, tap: Tap, version: int) -> None:
        messages, answers = self.messages, self.answers
        if moment is Moment.GROUP_SEND:
            messages.close(land=True, only_chat=self.game.group.id)
        else:
            messages.close(after=1 if moment is Moment.PARTLY else 0)
        if moment in (Moment.IN_ANSWER, Moment.ANSWERED):
            answers.close(land=moment is Moment.ANSWERED)
        if moment is Moment.MID_COMMIT:
            (self.hooks / "hold-commit").touch()
        query = self.tg.tap_data(tap.user, tap.message, tap.data)
        if moment is Moment.READ:
            await self.tg.wait_for(lambda: self.read(query), WAIT, "the bot to read the tap")
        elif moment is Moment.MID_COMMIT:
            await self.game.until(lambda: (self.hooks / "commit-held").exists(), "the commit to be held", WAIT)
        elif moment is Moment.COMMITTED:
            await self.game.until(lambda: self.game.version() > version, "the commit", WAIT)
        elif moment is Moment.IN_ANSWER:
            await answers.holding()
        elif moment is Moment.ANSWERED:
            await answers.holding()
            assert query.answer is not None and not query.answer.show_alert
        elif moment is Moment.REDRAW:
            await self.tg.wait_answer(query, WAIT)
        elif moment in (Moment.PARTLY, Moment.GROUP_SEND):
            await messages.holding()
            await asyncio.sleep(0.05)  # the bot records the delivered message before it sends the next
        if moment is Moment.MID_COMMIT:
            assert self.game.version() == version, "held in the middle: not committed"
        if moment in (Moment.COMMITTED, Moment.IN_ANSWER, Moment.ANSWERED, Moment.PARTLY, Moment.GROUP_SEND):
            assert self.game.version() == version + 1, moment
        await self.restart()
        if moment in (Moment.IN_ANSWER, Moment.ANSWERED):
            assert self.game.version() > version, "the move whose answer was under way survived the crash"

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
        self.messages.open()
        self.answers.open()
        for name in ("hold-commit", "commit-held"):
            (self.hooks / name).unlink(missing_ok=True)
        await self.bot.start()
        await self.tg.wait_for(lambda: not self.tg.world.updates, WAIT, "the new process to read the queued taps")
        await self.game.delivered()
        await asyncio.sleep(SETTLE)
        await self.game.delivered()


async def play(tmp_path: Path, crash: bool, engine: str) -> Run:
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    env = {"BURA_TEST_HOOKS": str(hooks)}
    if engine == "postgres":
        env["DATABASE_URL"] = await fresh_database()
    async with FakeTelegram(flood_limits=False) as tg:
        bot = BotProcess(tg, tmp_path, env=env)
        messages = Gate(tg, MESSAGE_METHODS)
        answers = Gate(tg, ("answerCallbackQuery",))
        await bot.start()
        try:
            game = await open_game(tg, env.get("DATABASE_URL", bot.database), players=2, settings=SETTINGS)
            if crash:
                crasher = Crasher(game, bot, messages, answers, hooks)
                await crasher.play()
            else:
                await game.play_to_end()
            run = await finish(game)
            game.close()
            if crash:
                run.kills = crasher.kills
        finally:
            if bot.process is not None:
                await bot.stop()
        assert "Traceback" not in bot.output(), bot.output()
        assert not tg.crashes, tg.crashes[0]
    return run


def repeats(shown: list[str], reference: list[str]) -> list[str]:
    """What `shown` has beyond `reference`, which it must hold in order: the messages shown twice."""
    extra = Counter(shown) - Counter(reference)
    remaining = iter(shown)
    assert all(any(message == seen for seen in remaining) for message in reference), "a message lost or reordered"
    return list(extra.elements())


@pytest.mark.parametrize("engine", ["sqlite", "postgres"])
async def test_a_game_killed_at_every_moment_ends_as_an_uninterrupted_one(tmp_path: Path, engine: str) -> None:
    (tmp_path / "reference").mkdir()
    (tmp_path / "crashed").mkdir()
    # Side by side: the reference is done long before the crashed run's restarts are.
    reference, crashed = await asyncio.gather(
        play(tmp_path / "reference", crash=False, engine=engine), play(tmp_path / "crashed", crash=True, engine=engine)
    )

    assert len(crashed.kills) >= 30, crashed.kills
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
    assert crashed.private == reference.private  # every hand and note once, in its last text
    sends = sum(moment is Moment.GROUP_SEND for _, _, moment in crashed.kills)
    repeated = repeats(crashed.group, reference.group)
    assert len(repeated) <= sends, repeated  # every announcement in order; at most one repeat a send cut off
    assert all(text in reference.group for text in repeated), "a repeat is a message that was meant to be there"
