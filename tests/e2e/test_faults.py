"""Faults from outside, against the real bot process: a storm of 429s on tap answers, the Bot API down for
minutes, the bot losing its right to write in the group, a full disk, a second process on the same database, a
database from a newer bot. In each the game goes on to its end with nothing lost, nothing twice, every message
in the chats as it was committed, and the bot never logs a traceback."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.games.bura.buttons import HandOp, pack_cards
from bot.i18n import Translations
from bot.services import TableState
from bot.storage.sqlite.migrations import migrate
from bot.telegram.callbacks import HandCb
from engine.bura.actions import Lead, RespondFaceDown, RespondOpen
from engine.bura.ai import EasyPlayer
from engine.bura.views import view
from tests.botapi import FakeTelegram
from tests.e2e.conftest import PROJECT, SCALED, SEED, TIME_SCALE, BotProcess, Launch
from tests.e2e.harness import SEND_INTERVAL, WAIT, Game, open_game
from tests.matches import bura_match

SETTINGS = {"match": "one", "timer": "0"}
RU = Translations().get("ru")
# Five minutes of Telegram's time, scaled as the bot's pacing and retries are (SEND_INTERVAL 0.05 of a second).
OUTAGE = 300 * float(SEND_INTERVAL)


@pytest.fixture(autouse=True)
def _fast_sender(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEND_INTERVAL", SEND_INTERVAL)


async def tap_unanswered(game: Game) -> int:
    """The player to act makes his move through his buttons without waiting for any answer (none may come);
    returns the version the move was made at, once it is committed."""
    current = await game.match()
    assert current is not None
    version, match = current
    skip = None
    while True:
        tap = await game.wait_tap(match, version, skip)
        game.tg.tap_data(tap.user, tap.message, tap.data)
        if tap.final:
            break
        skip = tap.data
    await game.until(lambda: game.version() > version, f"move {version} to be committed")
    return version


def move_button(game: Game, match_version: int) -> tuple[int, str]:
    """The player to act, and the data of the button that makes his move at once (what his play button would
    carry once his cards are marked)."""
    _, version, state = game.row()
    assert version == match_version and state is not None
    match = bura_match(TableState.from_json(state).match)
    seat = match.to_act()
    assert seat is not None
    action = EasyPlayer(match.variant).choose(view(match, seat))
    assert isinstance(action, Lead | RespondOpen | RespondFaceDown), action
    op = HandOp.FACE_DOWN if isinstance(action, RespondFaceDown) else HandOp.PLAY
    return seat, HandCb.data(game.table_id, version, op, pack_cards(list(action.cards)))


def chats_read_as_committed(game: Game) -> None:
    for chat in game.chats():
        assert game.shown(chat) == game.committed(chat), chat.id
    given_up = game.query("SELECT id, last_error FROM outbox WHERE last_error LIKE 'gave up%'")
    assert not given_up, [tuple(row) for row in given_up]


async def test_429s_on_tap_answers_lose_no_tap(tg: FakeTelegram, bot: BotProcess) -> None:
    """Every answer refused with a 429 for six moves: each move is made all the same (it is committed before
    it is answered); the answers come when Telegram lets them, or not at all, and the game goes on."""
    game = await open_game(tg, bot.database, players=2, settings=SETTINGS)
    tg.inject_429("answerCallbackQuery", 1.0, seed=1, retry_after=1)
    made = [await tap_unanswered(game) for _ in range(6)]
    assert made == list(range(made[0], made[0] + 6)), "every tapped move was made, in turn"
    refused = [r for r in tg.history if r.method == "answerCallbackQuery" and r.error_code == 429]
    assert len(refused) >= 6
    tg.stop_injecting("answerCallbackQuery")
    assert await game.play_to_end() > 0
    await game.delivered()
    assert len(game.final_state()["actions"]) >= 6
    chats_read_as_committed(game)


async def test_the_bot_api_down_for_five_minutes_loses_nothing(tg: FakeTelegram, bot: BotProcess) -> None:
    """Telegram down (every call a 502) for five minutes of its time, with a move tapped meanwhile: once it is
    back the tap is applied, every message arrives in order, nothing was given up."""
    game = await open_game(tg, bot.database, players=2, settings=SETTINGS)
    for _ in range(2):
        assert await game.play_move()
    await game.delivered()
    _, version, _ = game.row()
    seat, data = move_button(game, version)
    tg.down = True
    hand = game.hand(game.by_seat[seat])
    assert hand is not None
    tg.tap_data(game.by_seat[seat], hand, data)  # his app queues the tap; Telegram hands it over when back
    await asyncio.sleep(OUTAGE)
    failed = sum(1 for r in tg.history if r.error_code == 502)
    assert failed >= 5, "the bot kept trying"
    tg.down = False
    await game.until(lambda: game.version() > version, "the tap made during the outage")
    assert await game.play_to_end() > 0
    await game.delivered()
    chats_read_as_committed(game)


async def test_a_move_timer_starts_only_when_the_hand_is_shown(tg: FakeTelegram, launch: Launch) -> None:
    """Telegram takes updates but delivers no message for longer than the move timer: the player whose turn it
    is cannot see it, so his timer waits; once his hand arrives he has his whole time and plays himself. (The
    game's clock at TIME_SCALE: the 30 s are a second and a half here.)"""
    bot = await launch(SEED, SCALED)
    game = await open_game(tg, bot.database, players=2, settings={"match": "one", "timer": "30"})
    await game.delivered()
    _, version, _ = game.row()
    tg.down = frozenset({"sendMessage", "editMessageText", "editMessageReplyMarkup"})
    seat, data = move_button(game, version)
    hand = game.hand(game.by_seat[seat])
    assert hand is not None
    answer = await tg.wait_answer(tg.tap_data(game.by_seat[seat], hand, data), timeout=WAIT)
    assert not answer.show_alert
    waiting = game.query("SELECT wait_chat FROM timers WHERE table_id = ?", (game.table_id,))
    assert waiting and waiting[0]["wait_chat"] is not None, "the next player's timer waits for his hand"
    await asyncio.sleep(40 * TIME_SCALE)  # past the 30 s timer, in the game's seconds (TIME_SCALE)
    assert game.version() == version + 1, "no move was made for a player who could not see his turn"
    tg.down = False
    await game.delivered()
    assert await game.play_move(), "his own move, in his own time"
    events = game.query("SELECT payload FROM events WHERE table_id = ?", (game.table_id,))
    assert not any('"timeout"' in row["payload"] for row in events)


@pytest.mark.parametrize("told", [True, False], ids=["told", "found out"])
async def test_the_bot_loses_and_regains_its_right_to_write(tg: FakeTelegram, bot: BotProcess, told: bool) -> None:
    """An admin takes the bot's right to send in the group: the table pauses (at once when Telegram tells the bot,
    at its next refused message when it does not), the players are told in private, a tap changes nothing; with
    the right back the game goes on where it stopped, and the group reads every message in order."""
    game = await open_game(tg, bot.database, players=2, settings=SETTINGS)
    for _ in range(2):
        assert await game.play_move()
    await game.delivered()
    tg.restrict_bot(game.group, tell=told)
    if not told:
        assert await game.play_move(), "the move is made; its table message is refused, and the table pauses"
    for user in game.people:
        await tg.wait_for(
            lambda user=user: any("на паузе" in text for text in game.private_texts()[user.first_name]),  # type: ignore[misc]
            WAIT,
            f"{user.first_name} told of the pause",
        )
    _, version, _ = game.row()
    seat, data = move_button(game, version)
    hand = game.hand(game.by_seat[seat])
    assert hand is not None
    refused = await tg.wait_answer(tg.tap_data(game.by_seat[seat], hand, data), timeout=WAIT)
    assert refused.show_alert and "паузе" in (refused.text or "")
    assert game.version() == version, "no move while the group cannot see it"
    tg.unrestrict_bot(game.group, tell=told)
    await tg.wait_for(lambda: any("снова может писать" in text for text in game.group_texts()), WAIT, "the resume")
    assert await game.play_to_end() > 0
    await game.delivered()
    chats_read_as_committed(game)
    refusals = [r for r in tg.history if r.error_code == 400 and r.params.get("chat_id") == game.group.id]
    assert bool(refusals) is not told, "told, the bot sent nothing it could not; else it found out by a refusal"


async def test_a_full_disk_refuses_the_tap_clearly_and_loses_nothing(
    tg: FakeTelegram, launch: Launch, tmp_path: Path
) -> None:
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    bot = await launch(SEED, {"BURA_TEST_HOOKS": str(hooks)})
    game = await open_game(tg, bot.database, players=2, settings=SETTINGS)
    assert await game.play_move()
    await game.delivered()
    _, version, state = game.row()
    (hooks / "disk-full").touch()
    calls = len(tg.history)
    seat, data = move_button(game, version)
    player = game.by_seat[seat]
    hand = game.hand(player)
    assert hand is not None
    refused = await tg.wait_answer(tg.tap_data(player, hand, data), timeout=WAIT)
    assert (
        refused.show_alert and refused.text == "Не получилось сохранить: ход не сделан. Попробуйте ещё раз чуть позже."
    )
    await asyncio.sleep(2.5)  # more than the sender's poll: nothing is sent again and again
    assert game.row() == ("playing", version, state)
    meanwhile = [r.method for r in tg.history[calls:] if r.method not in {"getUpdates", "answerCallbackQuery"}]
    assert meanwhile == [], meanwhile
    (hooks / "disk-full").unlink()
    accepted = await tg.wait_answer(tg.tap_data(player, hand, data), timeout=WAIT)
    assert not accepted.show_alert
    await game.until(lambda: game.version() > version, "the move, once the disk has room")
    assert await game.play_to_end() > 0
    await game.delivered()
    chats_read_as_committed(game)


async def _run_bot(cwd: Path, database: Path, tg: FakeTelegram) -> tuple[int, str]:
    env = {key: value for key, value in os.environ.items() if key not in {"BOT_TOKEN", "TELEGRAM_API_BASE"}}
    env.update(BOT_TOKEN=tg.token, TELEGRAM_API_BASE=tg.base_url, DATABASE_PATH=str(database), PYTHONPATH=str(PROJECT))
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=cwd, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    try:
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=WAIT)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    assert process.returncode is not None
    return process.returncode, stderr.decode()


async def test_a_second_process_on_the_same_database_stops_with_one_line(
    tg: FakeTelegram, bot: BotProcess, tmp_path: Path
) -> None:
    await tg.wait_for(lambda: tg.calls("setMyCommands"), WAIT, "the first bot to start")
    code, stderr = await _run_bot(tmp_path, bot.database, tg)
    assert code == 2
    assert len(stderr.strip().splitlines()) == 1, stderr
    assert "another bot process" in stderr and f"pid {bot.process.pid if bot.process else '?'}" in stderr
    assert bot.process is not None and bot.process.returncode is None, "the first one runs on"


@pytest.mark.parametrize("rename", [False, True])
async def test_a_database_from_a_newer_bot_stops_it_with_one_line(
    tg: FakeTelegram, tmp_path: Path, rename: bool
) -> None:
    database = tmp_path / "future.sqlite3"
    with sqlite3.connect(database, isolation_level=None) as db:
        migrate(db, 0.0)
        db.execute("INSERT INTO schema_version VALUES (99, 'from the future', 0)")
        if rename:
            db.execute("ALTER TABLE outbox RENAME TO deliveries")
    before = database.read_bytes()
    code, stderr = await _run_bot(tmp_path, database, tg)
    assert code == 2
    assert len(stderr.strip().splitlines()) == 1, stderr
    assert "schema version 99" in stderr
    assert database.read_bytes() == before, "left as it was"
    assert not tg.calls("getUpdates"), "it never started"
