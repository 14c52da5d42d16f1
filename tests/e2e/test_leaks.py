"""Leaks: nothing the bot ever showed names a card its reader may not know.

Every text and button label the bot sent (sendMessage and edits, from the fake's request history) is mapped to the
move it was rendered at: it is the payload of an outbox row, and the rows of one commit share a time and carry the
move number in the hand buttons. The match is replayed from its stored action log to that move, and the message
fails if it names a card that was then in the hand of a player other than its reader (the group reads as nobody),
or a card played face down by someone else. The turned-up trump card is public even once drawn, and so are the
cards of a combo shown at the table. A message that announces the end of a deal is read against the deal it ends
as well as the next one.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass

import pytest

from bot.games.bura.cards import card_text
from bot.i18n import Translations
from engine.bura.actions import RespondFaceDown, action_from_json
from engine.bura.cards import Card, deck
from engine.bura.deal import Deal
from engine.bura.match import Match
from tests.botapi import FakeTelegram
from tests.e2e.conftest import BotProcess
from tests.e2e.harness import SEND_INTERVAL, Game, hand_cb, open_game, sent_messages

GROUP = -1  # the reader "seat" of the group: nobody


@pytest.fixture(autouse=True)
def _fast_sender(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEND_INTERVAL", SEND_INTERVAL)


def hidden(deal: Deal, reader: int, finished: bool) -> set[Card]:
    """Cards `reader` may not know in this deal: other players' hands and (while the deal runs) the cards others
    played face down."""
    secret = {card for seat, hand in deal.hands.items() if seat != reader for card in hand}
    if not finished:
        for trick in [*deal.history, *([deal.trick] if deal.trick is not None else [])]:
            for play in trick.plays:
                if play.face_down and play.seat != reader:
                    secret.update(play.cards)
    secret.discard(deal.trump_card)
    for held in [*deal.shown, deal.standing, deal.pending_instant]:
        if held is not None:  # a combo shown at the table is public
            secret.difference_update(held.cards)
    outcome = deal.outcome
    if finished and outcome is not None and outcome.combo is not None and outcome.seat is not None:
        secret.difference_update(deal.hands.get(outcome.seat, ()))  # the combo that ended the deal is shown
    return secret


@dataclass
class Replay:
    """The match after each move: what each reader may not know, per version of the table."""

    first_version: int
    secrets: dict[int, dict[int, set[Card]]]  # version -> reader -> cards

    @classmethod
    def of(cls, state: dict[str, object], first_version: int, players: int) -> Replay:
        actions = [action_from_json(item) for item in state["actions"]]  # type: ignore[attr-defined]
        match = Match.from_json({**state, "actions": []})
        readers = (GROUP, *range(players))
        secrets = {first_version: {r: hidden(match.deal, r, False) for r in readers}}
        for count, action in enumerate(actions, start=1):
            previous = match.deal
            match.replay(action)
            current = {r: hidden(match.deal, r, match.finished) for r in readers}
            if match.deal is not previous:  # the move ended a deal: its announcement speaks of the old one
                current = {r: current[r] & hidden(previous, r, True) for r in readers}
            secrets[first_version + count] = current
        return cls(first_version, secrets)


FINAL = -1  # the version of the match's last commit, whose messages carry no hand button


def labels() -> dict[Card, str]:
    tr = Translations().get("ru")
    return {card: card_text(card, tr).replace("\ufe0f", "") for card in deck(36)}


def named(text: str, names: dict[Card, str]) -> set[Card]:
    text = text.replace("\ufe0f", "")
    return {card for card, label in names.items() if label in text}


def commit_versions(game: Game) -> dict[str, set[int]]:
    """Outbox payload text -> the versions of the commits it was rendered at."""
    rows = game.query("SELECT created_at, payload FROM outbox ORDER BY id")
    version_at: dict[float, int] = {}
    for row in rows:
        markup = json.loads(row["payload"]).get("reply_markup") or {}
        for line in markup.get("inline_keyboard", []):
            for button in line:
                data = hand_cb(button)
                if data is not None and data.table == game.table_id:
                    version_at[row["created_at"]] = data.move
    versions: dict[str, set[int]] = defaultdict(set)
    last = max(version_at, default=None)
    for row in rows:
        payload = json.loads(row["payload"])
        if "text" in payload and row["created_at"] in version_at:
            versions[str(payload["text"])].add(version_at[row["created_at"]])
        elif "text" in payload and last is not None and row["created_at"] > last:
            # The match's last commit: its hands have no buttons left to name its version (issue 37).
            versions[str(payload["text"])].add(FINAL)
    return versions


def leaks(game: Game, replay: Replay, messages: list[tuple[int, str, list[str]]]) -> list[str]:
    names = labels()
    versions = commit_versions(game)
    reader_of = {game.group.id: GROUP} | {user.id: seat for seat, user in game.by_seat.items()}
    found = []
    for chat_id, text, buttons in messages:
        shown = named(" ".join([text, *buttons]), names)
        if not shown:
            continue
        rendered = versions.get(text)
        if not rendered:
            found.append(f"chat {chat_id}: a message naming cards that no move committed: {text!r}")
            continue
        reader = reader_of[chat_id]
        final = max(replay.secrets)
        at = [final if v == FINAL else v for v in rendered]
        secret = set.intersection(*(replay.secrets[v][reader] for v in at if v in replay.secrets))
        if shown & secret:
            cards = " ".join(names[card] for card in sorted(shown & secret, key=str))
            found.append(f"chat {chat_id} (reader {reader}) at move {sorted(rendered)}: {cards} in {text!r}")
    return found


async def test_no_message_of_a_three_player_game_names_a_hidden_card(tg: FakeTelegram, bot: BotProcess) -> None:
    settings = {"match": "p12", "timer": "0", "discards": "closed"}
    game = await open_game(tg, bot.database, players=3, settings=settings)
    assert await game.play_to_end() > 0
    await game.delivered()

    state = game.final_state()
    first = min(v for versions in commit_versions(game).values() for v in versions if v != FINAL)
    replay = Replay.of(state, first, players=3)
    match = Match.from_json(state)
    assert match.finished and match.deal_number > 1
    face_down = [a for a in map(action_from_json, state["actions"]) if isinstance(a, RespondFaceDown)]
    assert face_down, "no card was played face down: the game proves little"

    messages = [(chat, text, buttons) for chat, text, buttons, _ in sent_messages(tg)]
    assert len(messages) > 100
    assert leaks(game, replay, messages) == []

    # The checker itself: a group message naming a card in a hand at the start is caught.
    start_hand = Match.from_json({**state, "actions": []}).deal.hands[0]
    card = next(c for c in start_hand if c != match.deal.trump_card)
    text = next(text for text, versions in commit_versions(game).items() if first in versions)
    assert leaks(game, replay, [(game.group.id, text, [labels()[card]])])
