"""The verifiable shuffle end to end (issue 38, docs/fairness.md): the lobby shows the match's commitment before
any hand is dealt, a deal's result reveals its seed, and `python -m engine.verify` checks the match from the JSON
that /verify export sends, in Russian and in English."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import TableStatus
from tests.botapi import FakeTelegram, Message
from tests.e2e.conftest import Start
from tests.e2e.players import buttons, greedy, hand_cb, seat_players
from tests.e2e.test_export import export_of

ROOT = Path(__file__).resolve().parents[2]
SHORT = re.compile(r"([0-9a-f]{16})…")
FAIR = ""  # no fixed deck seed: the bot shuffles fair, as it does for people


def _bot_messages(chat_messages: dict[int, Message]) -> list[Message]:
    """Every message the bot sent to a chat, deleted ones too, oldest first."""
    return sorted((m for m in chat_messages.values() if m.from_bot), key=lambda m: m.message_id)


@pytest.mark.parametrize(("language", "reveal"), [("ru", "Сид сдачи 1"), ("en", "Seed of deal 1")])
async def test_a_fair_match_is_committed_revealed_and_verified(
    tg: FakeTelegram, start: Start, tmp_path: Path, language: str, reveal: str
) -> None:
    storage = await start(FAIR)
    title = "Бура у Ани" if language == "ru" else "Friday cards"
    players = await seat_players(
        tg, storage, 2, title=title, settings=[("match", "one")], language=language, may_end=True
    )
    group = players.group

    # The lobby showed the match's commitment (it is deleted at the deal), sent before any hand.
    lobby = next(m for m in _bot_messages(group.messages) if "🔐" in (m.text or "") and "/seed" in (m.text or ""))
    shown = SHORT.search(lobby.text or "")
    assert shown is not None, lobby.text
    commitment = shown.group(1)
    # A hand is a protected message (with its buttons, or showing a deal that ended as it was dealt).
    hands = [
        m
        for user in (players.user(0), players.user(1))
        for m in _bot_messages(tg.private_chat(user).messages)
        if m.protected or any(hand_cb(b) for b in buttons(m))
    ]
    assert hands and lobby.date <= min(m.date for m in hands)

    # One deal (a one-deal match): its result reveals its seed, short, with /verify 1. A random deck may end it as
    # it is dealt (a dealt «Бура»): then there is nothing to play.
    if (await players.table()).status is TableStatus.PLAYING:
        await players.play_deal(greedy)
    result = await players.group_says(reveal, "/verify 1")
    revealed = SHORT.search((result.text or "").split(reveal, 1)[1])
    assert revealed is not None, result.text

    anna = players.user(0)
    deal = await players.command(anna, "/verify 1", "🔐")
    assert revealed.group(1) in deal and "python -m engine.verify" in deal

    _, content = await export_of(tg, anna, group)  # a file now (test_export.py)
    exported = content.decode()
    data = json.loads(exported)
    assert data["match_commitment"].startswith(commitment)
    assert data["deals"][0]["seed"].startswith(revealed.group(1))
    path = tmp_path / "export.json"
    path.write_text(exported, encoding="utf-8")
    checked = subprocess.run(
        [sys.executable, "-m", "engine.verify", str(path)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
