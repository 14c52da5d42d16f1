"""The verifiable shuffle at the table (issue 38, docs/fairness.md): the lobby commits, /seed, the match is
dealt by ``FairShuffle``, a deal's result reveals its seed and no more, /verify, and the master never leaves."""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.services import Reply, fairness
from bot.services.computer import COMPUTER_SECONDS
from bot.services.fairness import MatchFile, lobby_chain
from bot.services.settings_menu import stored
from bot.storage import OutboxKind, Table, TableStatus
from bot.table_settings import PROFILE_KEY, TableSettings
from bot.telegram.callbacks import LobbyOp
from bot.telegram.calls import UPLOAD
from engine.core.fair import FairShuffle
from engine.verify import verify as verify_export
from tests.bot import test_services
from tests.bot.test_computer import _anna_moves as first_legal_move
from tests.bot.test_services import ANNA, BORIS, GROUP, World, admin, started, state_of, tap

world = test_services.world  # a real SQLite storage, a recording Bot API, a fake clock

ROOT = Path(__file__).resolve().parents[2]


async def _fair_lobby(world: World, settings: TableSettings | None = None) -> Table:
    """Anna's lobby with Boris seated, in a bot without a fixed deck seed (so the shuffle is fair)."""
    world.tables.core.test_seed = None
    await started(world, ANNA, BORIS)
    await world.storage.upsert_chat(GROUP, language="ru")
    if settings is not None:
        await world.storage.set_chat_settings(GROUP, stored(settings))
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    await tap(world, LobbyOp.JOIN, BORIS, update_id=2)
    return await world.table()


async def _play_out(world: World, deals: int | None = None) -> Table:
    """The players tap their first legal move until the match is over, or ``deals`` are over."""
    for _ in range(3000):
        table = await _last(world)
        if table.status is TableStatus.FINISHED:
            return table
        state = state_of(table)
        if deals is not None and state.game.fair_over(state.match) >= deals:
            return table
        seat = state.match.to_act()
        assert seat is not None
        user = next(s.user_id for s in table.seats if s.seat == seat)
        await first_legal_move(world, table.table_id, GROUP, seat, ANNA if user == ANNA.user_id else BORIS)
        await world.deliver()
    raise AssertionError("the match did not end")


async def _last(world: World) -> Table:
    table = await world.storage.get_open_table(GROUP) or await world.storage.last_finished_table(GROUP)
    assert table is not None
    return table


async def _verify(world: World, chat_id: int, argument: str) -> str:
    """/verify's answer as a text (every answer is one, but a match's export)."""
    answer = await world.tables.fairness.verify(chat_id, argument)
    assert isinstance(answer, str), answer
    return answer


def _sent(world: World) -> str:
    return "\n".join(json.dumps(call.payload, ensure_ascii=False) for call in world.api.calls)


async def test_the_lobby_shows_the_commitment_and_keeps_the_secret_in_its_settings(world: World) -> None:
    table = await _fair_lobby(world)
    await world.deliver()
    found = lobby_chain(table)
    assert found is not None
    chain, word = found
    lobby = world.api.texts(GROUP)[-1]
    assert chain.match_commitment.hex()[:16] in lobby and "/verify" in lobby and word in lobby
    assert chain.master.hex() not in _sent(world)
    verify = await _verify(world, GROUP, "")
    assert chain.match_commitment.hex() in verify
    assert f"{ANNA.user_id}-{word}" in verify and f"{BORIS.user_id}-{word}" in verify  # the defaults, shown


async def test_a_fixed_deck_seed_deals_as_before_and_shows_nothing(world: World) -> None:
    await started(world, ANNA, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)
    await world.deliver()
    assert lobby_chain(await world.table()) is None
    assert "🔐" not in world.api.texts(GROUP)[-1]


async def test_seed_sets_the_players_seed_and_the_match_is_dealt_by_it(world: World) -> None:
    table = await _fair_lobby(world)
    found = lobby_chain(table)
    assert found is not None
    chain, word = found
    reply = await world.tables.fairness.set_seed(GROUP, ANNA, "  мой   сид ", update_id=3)
    assert reply.text is not None and "мой сид" in reply.text
    # From his private chat, a player seeds the lobby he sits in.
    assert (await world.tables.fairness.set_seed(BORIS.user_id, BORIS, "b", update_id=4)).text
    assert (await world.tables.fairness.set_seed(BORIS.user_id, BORIS, "bob", update_id=5)).text
    assert "«bob»" in await _verify(world, GROUP, "")
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=6)).alert
    await world.deliver()
    playing = await world.table()
    state = state_of(playing)
    fair = state.game.fair(state.match)
    assert fair == FairShuffle(chain, ("мой сид", "bob"))
    # The first message of the match names its commitment and the seeds, fixed from now on.
    texts = world.api.texts(GROUP)
    start = next(text for text in texts if "🔐" in text and "bob" in text)
    assert fair.match_commitment[:16] in start
    refused = await world.tables.fairness.set_seed(GROUP, BORIS, "late", update_id=7)
    assert refused.text == world.tables.core.translations.get("ru").t("fair-seed-started")
    assert f"{ANNA.user_id}-{word}" not in await _verify(world, GROUP, "")


async def test_seed_refuses_one_who_does_not_sit(world: World) -> None:
    await _fair_lobby(world)
    stranger = test_services.VIKA
    reply = await world.tables.fairness.set_seed(GROUP, stranger, "x", update_id=3)
    assert reply.text == world.tables.core.translations.get("en").t("fair-seed-no-lobby")
    assert (await world.tables.fairness.set_seed(GROUP, ANNA, "x" * 65, update_id=4)).text


async def test_a_deals_result_reveals_its_seed_and_never_the_next_one_nor_the_master(world: World) -> None:
    table = await _fair_lobby(world)
    found = lobby_chain(table)
    assert found is not None
    master = found[0].master.hex()
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=3)).alert
    await world.deliver()
    table = await _play_out(world, deals=2)
    state = state_of(table)
    fair = state.game.fair(state.match)
    assert fair is not None
    sent = _sent(world)
    over = state.game.fair_over(state.match)
    assert over >= 2
    shown = [deal for deal in range(1, over + 1) if f"{fair.seed(deal)[:16]}…" in sent]
    # Each deal's seed, short, under its result; a move that ends two deals at once (the next one over as it is
    # dealt: a dealt «Бура», a redeal) shows the later one's, which reveals the earlier by hashing.
    assert shown and shown[-1] == over
    for deal in range(1, over + 1):
        revealed_by = next(later for later in shown if later >= deal)
        assert f"/verify {revealed_by}" in sent
        seed = bytes.fromhex(fair.seed(revealed_by))
        for _ in range(revealed_by - deal):
            seed = hashlib.sha256(seed).digest()
        assert seed.hex() == fair.seed(deal)
    for later in (over + 1, over + 2):
        assert fair.seed(later)[:16] not in sent  # the next deal's commitment is never shown before it is over
    assert master not in sent
    # /verify N gives deal N in full; a deal still on is refused.
    for junk in ("²", "٣", "-1", "0", "9" * 40, "1.5"):  # refused, never raised on
        assert await _verify(world, GROUP, junk) == world.tables.core.translations.get("ru").t(
            "fair-deal-unknown", count=state.game.fair_deal(state.match)
        )
    deal_text = await _verify(world, GROUP, "1")
    assert fair.seed(1) in deal_text and fair.commitment(1) in deal_text
    assert hashlib.sha256(bytes.fromhex(fair.seed(1))).hexdigest() == fair.commitment(1)
    assert fair.seed(over + 1) not in await _verify(world, GROUP, str(over + 1))
    assert fair.seed(over + 1) not in await _verify(world, GROUP, "")
    not_yet = world.tables.core.translations.get("ru").t("fair-export-not-yet")
    assert await _verify(world, GROUP, "export") == not_yet  # it shows every card: not mid-match


async def test_a_whole_match_reveals_the_last_seed_verifies_and_never_shows_the_master(
    world: World, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    table = await _fair_lobby(world, TableSettings().with_code("match", "one"))
    found = lobby_chain(table)
    assert found is not None
    master = found[0].master.hex()
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=3)).alert
    await world.deliver()
    table = await _play_out(world)
    state = state_of(table)
    fair = state.game.fair(state.match)
    assert fair is not None and state.match.finished
    last = state.game.fair_deal(state.match)
    assert f"{fair.seed(last)[:16]}…" in _sent(world)  # the last deal's seed, under the match's result
    # The master is in no outbox row, no message and no log line.
    with sqlite3.connect(tmp_path / "bura.sqlite3") as db:
        rows = [str(payload) for (payload,) in db.execute("SELECT payload FROM outbox")]
    assert len(rows) > 5 and not any(master in row for row in rows)  # the lobby, the table, hands, the result
    assert master not in _sent(world)
    assert master not in caplog.text
    # The export is a file the standalone verifier checks, in the chat's language, and without the master.
    exported = await world.tables.fairness.verify(GROUP, "export")
    assert isinstance(exported, MatchFile), exported
    assert exported.filename == f"bura-match-{table.table_id}.json"
    assert master not in exported.content and master not in exported.caption
    data = json.loads(exported.content)
    assert data["deals"][-1]["seed"] == fair.seed(last)
    command = f"python -m engine.verify {exported.filename}"
    assert f"<code>{command}</code>" in exported.caption and "Проверить" in exported.caption
    _checks(tmp_path / exported.filename, exported.content)
    # A card changed in the file, and it no longer verifies.
    deck = data["deals"][0]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    good, lines = verify_export(data)
    assert not good and "deal 1: FAILED: card 1 dealt differs from the seed's order" in lines
    # Sent through the outbox: a silent reply to the command, in its forum topic, once per update.
    await world.tables.fairness.send_file(GROUP, exported, update_id=50, reply_to=9, thread_id=77)
    await world.tables.fairness.send_file(GROUP, exported, update_id=50, reply_to=9, thread_id=77)  # redelivered
    await world.deliver()
    [sent] = [call for call in world.api.to(GROUP) if UPLOAD in call.payload]
    assert sent.kind is OutboxKind.SEND
    assert sent.payload[UPLOAD] == {
        "filename": exported.filename,
        "mime_type": "application/json",
        "text": exported.content,
    }
    assert sent.payload["caption"] == exported.caption and sent.payload["disable_notification"]
    assert sent.payload["reply_parameters"]["message_id"] == 9 and sent.payload["message_thread_id"] == 77
    # A new lobby in the group: the export is still the last match over's, now in English.
    await world.storage.upsert_chat(GROUP, language="en")
    await world.tables.lobby.open(GROUP, ANNA, update_id=51)
    again = await world.tables.fairness.verify(GROUP, "export")
    assert isinstance(again, MatchFile) and again.content == exported.content
    assert "To check it" in again.caption and f"<code>{command}</code>" in again.caption


def _checks(path: Path, content: str) -> None:
    """`python -m engine.verify` on the file as a player saves it: every card verified."""
    path.write_text(content, encoding="utf-8")
    checked = subprocess.run(
        [sys.executable, "-m", "engine.verify", str(path)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "verdict: every card verified" in checked.stdout


async def test_an_export_too_large_for_the_outbox_is_told_not_sent(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _fair_lobby(world, TableSettings().with_code("match", "one"))
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=3)).alert
    await world.deliver()
    await _play_out(world)
    file = await world.tables.fairness.verify(GROUP, "export")
    assert isinstance(file, MatchFile)
    size = len(file.content.encode())  # a one-deal match dealt at random: a KB or less when it ends as dealt
    monkeypatch.setattr(fairness, "UPLOAD_MOST", size - 1)
    told = await _verify(world, GROUP, "export")
    assert f"({-(-size // 1024)} КБ, можно {(size - 1) // 1024} КБ)" in told, told


async def test_export_of_a_table_without_a_fair_shuffle_or_of_none(world: World) -> None:
    ru = world.tables.core.translations.get("ru")
    await world.storage.upsert_chat(GROUP, language="ru")
    assert await _verify(world, GROUP, "export") == ru.t("fair-no-table")
    await started(world, ANNA, BORIS)
    await world.tables.lobby.open(GROUP, ANNA, update_id=1)  # a fixed deck seed deals it: nothing to verify
    assert await _verify(world, GROUP, "export") == ru.t("fair-unverifiable")
    await tap(world, LobbyOp.JOIN, BORIS, update_id=2)
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=3)).alert
    assert await _verify(world, GROUP, "export") == ru.t("fair-unverifiable")


async def test_a_game_against_the_computer_is_exported_in_the_private_chat(world: World, tmp_path: Path) -> None:
    world.tables.core.test_seed = None
    await started(world, ANNA)
    await world.storage.set_chat_settings(ANNA.user_id, stored(TableSettings().with_code("match", "one")))
    await world.tables.lobby.play_alone(ANNA, None, update_id=1)
    await world.deliver()
    # A random deck: the one deal may end as it is dealt (a dealt «Бура», RULES §7), and the match with it.
    table = await world.storage.get_open_table(ANNA.user_id) or await world.storage.last_finished_table(ANNA.user_id)
    assert table is not None
    tr = await world.tables.core.chat_translator(ANNA.user_id)  # her app's language
    if table.status is not TableStatus.FINISHED:
        assert await _verify(world, ANNA.user_id, "export") == tr.t("fair-export-not-yet")
    for _ in range(3000):
        current = await world.storage.get_table(table.table_id)
        assert current is not None
        if current.status is TableStatus.FINISHED:
            break
        if state_of(current).match.to_act() == 0:
            await first_legal_move(world, table.table_id, ANNA.user_id)
        else:
            world.time.now += COMPUTER_SECONDS
            await world.tables.timers.fire_due()
        await world.deliver()
    else:
        raise AssertionError("the match did not end")
    exported = await world.tables.fairness.verify(ANNA.user_id, "export")
    assert isinstance(exported, MatchFile), exported
    assert exported.filename == f"bura-match-{table.table_id}.json"
    assert exported.caption == tr.t(
        "export-caption", title=state_of(table).title, command=f"python -m engine.verify {exported.filename}"
    )
    _checks(tmp_path / exported.filename, exported.content)


async def test_play_against_the_computer_is_fair_and_says_so_first(world: World) -> None:
    world.tables.core.test_seed = None
    await started(world, ANNA)
    await world.tables.lobby.play_alone(ANNA, None, update_id=1)
    await world.deliver()
    table = await world.storage.get_open_table(ANNA.user_id)
    assert table is not None
    state = state_of(table)
    fair = state.game.fair(state.match)
    assert fair is not None
    first = world.api.texts(ANNA.user_id)[0]
    assert fair.match_commitment[:16] in first
    assert fair.match_commitment in await _verify(world, ANNA.user_id, "")


@pytest.mark.parametrize("profile", ["bura", "bk", "kozel", "b5", "buraco", "ochko"])
async def test_every_game_is_dealt_fair(world: World, profile: str) -> None:
    await _fair_lobby(world, TableSettings().with_code(PROFILE_KEY, profile))
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=3)).alert
    state = state_of(await world.table())
    fair = state.game.fair(state.match)
    assert fair is not None and len(fair.player_seeds) == len((await world.table()).seats)


async def test_a_stopped_table_reveals_the_seed_of_the_deal_it_leaves_unfinished(world: World) -> None:
    """/stop ends the match mid-deal: no later deal will be dealt, so the group learns that deal's seed at once."""
    await _fair_lobby(world)
    assert not (await tap(world, LobbyOp.START, ANNA, update_id=3)).alert
    await world.deliver()
    table = await world.table()
    state = state_of(table)
    fair = state.game.fair(state.match)
    assert fair is not None and state.game.fair_over(state.match) == 0
    seed = fair.seed(state.game.fair_deal(state.match))
    assert seed[:16] not in _sent(world)
    assert await world.tables.game.stop(GROUP, ANNA, is_admin=admin(False), update_id=4) == Reply()
    await world.deliver()
    said = [call.payload["text"] for call in world.api.to(GROUP) if call.kind is OutboxKind.SEND]
    [stopped] = [text for text in said if text.startswith("⏹ Аня")]  # the group's message (the table shows it too)
    assert f"Сид сдачи 1: <code>{seed[:16]}…</code> · /verify 1" in stopped, stopped
