"""/verify export end to end (issue 38, docs/fairness.md): a finished match's data for the verifier comes as a file
(sendDocument, uploaded through the outbox), a reply to the command with a caption in the chat's language; the
verifier checks the file as a player saves it, and a card changed in it fails. In a group and in the private chat
of a game against the computer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.storage import TableStatus
from engine.verify import verify
from tests.botapi import Chat, FakeTelegram, Message, User
from tests.botapi.state import Upload
from tests.e2e.conftest import Launch, Start
from tests.e2e.players import greedy, seat_players
from tests.e2e.test_game import MOVE_WAIT
from tests.e2e.test_play import one_deal_played_alone

ROOT = Path(__file__).resolve().parents[2]
FAIR = ""  # no fixed deck seed: the bot shuffles fair, as it does for people (test_fairness.py)


async def export_of(tg: FakeTelegram, user: User, chat: Chat, topic: int | None = None) -> tuple[Message, bytes]:
    """`user` writes /verify export in `chat`: the bot's document that answers it, and the file's bytes."""
    said = tg.send_message(user, chat, "/verify export", topic=topic)

    def answered() -> Message | None:
        return next(
            (m for m in tg.messages(chat, from_bot=True) if m.message_id > said.message_id and m.document is not None),
            None,
        )

    document = await tg.wait_for(answered, MOVE_WAIT, "the match's file")
    assert document.reply_to is not None and document.reply_to.message_id == said.message_id
    return document, tg.document(document)


def run_verifier(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.verify", str(path)], cwd=ROOT, capture_output=True, text=True, check=False
    )


def check_file(document: Message, content: bytes, table_id: int, tmp_path: Path) -> dict[str, Any]:
    """The file as the verifier gets it: named by its game and table, JSON, every card verified; a card changed in
    it, and it fails. Returns the export."""
    assert document.document is not None
    name = f"bura-match-{table_id}.json"
    assert (document.document.file_name, document.document.mime_type) == (name, "application/json")
    assert document.document.to_api()["file_size"] == len(content)
    assert f"python -m engine.verify {name}" in (document.caption or "")
    data: dict[str, Any] = json.loads(content)
    good, lines = verify(data)
    assert good, lines
    saved = tmp_path / name
    saved.write_bytes(content)
    checked = run_verifier(saved)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    deck = data["deals"][0]["deck"]
    deck[0], deck[-1] = deck[-1], deck[0]
    changed = tmp_path / f"changed-{name}"
    changed.write_text(json.dumps(data), encoding="utf-8")
    refused = run_verifier(changed)
    assert refused.returncode == 1 and "verdict: NOT verified" in refused.stdout, refused.stdout + refused.stderr
    return data


@pytest.mark.parametrize(
    ("language", "reveal", "check"), [("ru", "Сид сдачи 1", "Проверить"), ("en", "Seed of deal 1", "To check it")]
)
async def test_a_finished_match_is_sent_as_a_file_the_verifier_checks(
    tg: FakeTelegram, start: Start, tmp_path: Path, language: str, reveal: str, check: str
) -> None:
    storage = await start(FAIR)
    title = "Бура у Ани" if language == "ru" else "Friday cards"
    players = await seat_players(
        tg, storage, 2, title=title, settings=[("match", "one")], language=language, may_end=True
    )
    if (await players.table()).status is TableStatus.PLAYING:  # a random deck may end it as it is dealt
        await players.play_deal(greedy)
    await players.group_says(reveal, "/verify 1")  # the match's one deal is over, and so is the match
    assert (await players.table()).status is TableStatus.FINISHED

    document, content = await export_of(tg, players.user(1), players.group)
    assert check in (document.caption or "") and title in (document.caption or ""), document.caption
    assert [entity["type"] for entity in document.caption_entities] == ["code"]
    assert not document.notified, "a reply: whoever asked is looking"
    data = check_file(document, content, players.table_id, tmp_path)
    assert data["players"] == 2
    # Uploaded as Telegram takes a file: a part of a multipart form.
    [request] = tg.calls("sendDocument")
    assert isinstance(request.params["document"], Upload)


async def test_a_game_against_the_computer_is_exported_in_the_private_chat(
    tg: FakeTelegram, launch: Launch, tmp_path: Path
) -> None:
    anna = tg.user("Аня", "anna", language_code="ru")
    bot, table = await one_deal_played_alone(tg, launch, tmp_path, anna, FAIR)
    chat = tg.private_chat(anna)
    document, content = await export_of(tg, anna, chat)
    assert "Проверить" in (document.caption or ""), document.caption
    check_file(document, content, table.table_id, tmp_path)
    assert "Traceback" not in bot.output()
