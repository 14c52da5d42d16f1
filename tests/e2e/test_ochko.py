"""Очко end to end (issue 39): a group's session of three people and a computer for a whole orbit of banks,
through the fake Bot API and the real bot process.

The shuffle seed (``SEED``) was found offline with the same scripted choices (``scripted``) and the easy computer:
with it the session has a bank broken, a bank that grows tenfold and is closed by a person's «Стук», and ends after
four banks, one a seat, at the ★ rules (the knock allowed from 10 × B₀). The people tap their hand buttons: the
smallest bank, «Весь банк» (or all their chips), «Ещё» below 17 and «Хватит» from 17, «Стук» when asked.

Checked: whenever a person is to act, his hand rings (sent with a notification, at the bottom of his chat) and
offers the button of his move; each settlement reaches the group as a message of its own commit, with the hands
shown, the amount and the bank after; «Стук!», the broken bank and the session's standings are told; «Как это
было» sends a round to a player's private chat, and /history lists the session by its chips.
"""

from __future__ import annotations

import asyncio
import json
from functools import partial

from bot.games.ochko.buttons import HandButton
from bot.services import TableState
from bot.services.state import seat_names
from bot.storage import TableStatus
from bot.telegram.callbacks import HandCb
from engine.ochko.actions import action_from_json
from engine.ochko.events import BankClosed, BankEnd, Event, LastRound, LastRoundWhy, SessionEnded, Settled
from engine.ochko.match import Match
from tests.botapi import FakeTelegram, Message, User
from tests.e2e.conftest import SCALED, Launch
from tests.e2e.harness import WAIT, Game, buttons, hand_cb, open_game
from tests.matches import ochko_match
from tests.ochko import button_of, scripted

SEED = "ochko-e2e-1789"  # found by playing ``scripted`` and the easy computer offline (see the module's docstring)
SESSION_SECONDS = 60.0
COMPUTER = 3  # the computer added after the three people


def offered(game: Game, user: User, move: int, wanted: HandButton) -> tuple[Message, str] | None:
    """The user's hand and the data of its button for ``wanted``, once the hand shows ``move``."""
    hand = game.hand(user)
    if hand is None:
        return None
    for each in buttons(hand):
        data = hand_cb(each)
        if data is not None and (data.move, data.op, data.cards) == (move, wanted.op.value, wanted.payload()):
            return hand, str(each["callback_data"])
    return None


async def play_session(game: Game) -> int:
    """The session to its end, the people tapping; returns how many of their turns rang."""
    tg = game.tg
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SESSION_SECONDS
    rang = 0
    while True:
        assert loop.time() < deadline, "the session did not end"
        status, version, state = game.row()
        assert state is not None
        match = ochko_match(TableState.from_json(state).match)
        if status != TableStatus.PLAYING.value or match.finished:
            return rang
        seat = match.to_act()
        assert seat is not None
        user = game.by_seat.get(seat)
        if user is None:
            await game.until(lambda v=version: game.version() > v, "the computer's move")  # type: ignore[misc]
            continue
        wanted = button_of(scripted(match, seat))
        move = game.shown_move(seat, version)
        hand, data = await tg.wait_for(
            partial(offered, game, user, move, wanted), WAIT, f"{user.first_name}'s {wanted} at move {move}"
        )
        # The turn rang his phone: his hand was sent anew with a notification, and is the last of his chat.
        assert hand.notified, hand.text
        assert tg.messages(tg.private_chat(user), from_bot=True)[-1] is hand, "his hand is at the bottom"
        assert HandCb.unpack(data).table == game.table_id
        rang += 1
        answer = await tg.wait_answer(tg.tap_data(user, hand, data), timeout=WAIT)
        assert not answer.show_alert, answer.text
        await game.until(lambda v=version: game.version() > v, f"{user.first_name}'s {wanted}")  # type: ignore[misc]


def replayed_events(data: dict[str, object]) -> list[Event]:
    """The session's events, replayed from its stored log."""
    match = Match.from_json({**data, "actions": []})
    events: list[Event] = list(match.start_events)
    for item in data["actions"]:  # type: ignore[attr-defined]
        events += match.apply(action_from_json(item))
    return events


async def test_three_people_and_a_computer_play_an_orbit_of_banks(tg: FakeTelegram, launch: Launch) -> None:
    bot = await launch(SEED, SCALED)
    game = await open_game(tg, bot.database, players=3, settings={"profile": "ochko", "timer": "0"}, computers=1)
    table = await game.table()
    assert [seat.user_id is None for seat in table.seats] == [False, False, False, True]
    rang = await play_session(game)
    await game.delivered()
    names = seat_names(table.seats)
    match = ochko_match(TableState.from_json(json.dumps(game.final_state())).match)
    assert match.finished and match.banks_held == 4, "one orbit: a bank a seat"
    events = replayed_events(match.to_json())
    settled = [event for event in events if isinstance(event, Settled)]
    assert rang > 10 and settled
    texts = game.group_texts()
    # Each settlement reaches the group in a message: who, how much, the hand shown, the bank after.
    for event in settled:
        name = names[event.seat]
        said = f"{name} {'выигрывает' if event.player_won else 'проигрывает'} {event.amount}: "
        after = f"в банке {event.bank} · {name}: {event.chips} фиш"
        assert any(said in text and after in text for text in texts), (said, after)
    lines = [line for text in texts for line in text.split("\n")]
    assert sum(line.startswith(("✅ ", "❌ ")) for line in lines) == len(settled), "one line a settlement, once"
    knocks = [e for e in events if isinstance(e, LastRound) and e.why is LastRoundWhy.KNOCKED]
    assert knocks and knocks[0].banker != COMPUTER, "a person knocks"
    assert any(f"{names[knocks[0].banker]}: «Стук!»" in text for text in texts)
    broken = [e for e in events if isinstance(e, BankClosed) and e.why is BankEnd.BROKEN]
    assert broken and all(any("срывает банк" in text for text in texts) for _ in broken)
    (ended_event,) = [e for e in events if isinstance(e, SessionEnded)]
    best = max(range(4), key=lambda seat: ended_event.chips[seat])
    final = next(text for text in texts if "Игра окончена. Итог по фишкам:" in text)
    assert f"1. {names[best]} — {ended_event.chips[best]}" in final, final
    # «🔎 Как это было» under a round's last settlement: the round as the tapper saw it, in his private chat.
    ended = next(m for m in tg.messages(game.group, from_bot=True) if "Как это было" in str(m.button_texts))
    person = game.by_seat[0]  # the first banker: in round 1, as everyone
    private = tg.private_chat(person)
    seen = tg.messages(private, from_bot=True)[-1]
    answer = await tg.wait_answer(tg.tap(person, ended, "🔎 Как это было"), timeout=WAIT)
    assert not answer.show_alert, answer.text

    def replayed() -> str | None:
        sent = [m.text or "" for m in tg.messages(private, from_bot=True) if m.message_id > seen.message_id]
        return sent[0] if sent else None

    replay = await tg.wait_for(replayed, WAIT, "the round's replay")
    assert replay.startswith("🎞 Как это было: кон 1") and "Карта банкующего" in replay, replay
    # /history lists the session by its chips.
    asked = tg.send_message(person, game.group, "/history")

    def history() -> str | None:
        found = [m.text or "" for m in tg.messages(game.group, from_bot=True) if m.message_id > asked.message_id]
        return next((text for text in found if text.startswith("📜")), None)

    listed = await tg.wait_for(history, WAIT, "/history")
    assert f"Фишки: 1. {names[best]} — {ended_event.chips[best]}" in listed, listed
    # The session counts in each person's Очко tally.
    played = game.query("SELECT user_id, game, value FROM tallies WHERE name = 'matches_played'")
    assert sorted((row["game"], row["value"]) for row in played) == [("ochko", 1)] * 3
