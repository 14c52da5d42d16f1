"""Очко's board for the Mini App (bot/games/ochko/web.py, issue 40): its moves are the hand keyboard's buttons
(🔄 aside), its status the hand's lines with the engine's refusal, and over random sessions it names no card its
viewer may not see: a spectator only what the public view shows, a seat besides his own cards, a dark card never
until it is settled."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.games.board import DOWN, Board
from bot.games.ochko.buttons import Op
from bot.games.ochko.cards import card_text
from bot.games.ochko.game import OCHKO
from bot.i18n import Translations, Translator
from bot.render.keyboard import buttons
from bot.services.replays import deals_over
from bot.services.state import TableState
from bot.table_settings import TableSettings
from bot.telegram.callbacks import HandCb
from engine.ochko.actions import Action, Leave
from engine.ochko.cards import Card
from engine.ochko.errors import Reason
from engine.ochko.match import Match, Phase
from engine.ochko.variant import OCHKO_STANDARD, BankerDraw
from engine.ochko.views import table_view, view
from tests.bot.games.boards import board_of, keyboard_of
from tests.engine.ochko.stack import pack, play, table

TRANSLATIONS = Translations()
RU, EN = TRANSLATIONS.get("ru"), TRANSLATIONS.get("en")
NAMES = {0: "Аня", 1: "Борис <b>&", 2: "Вика"}


def board(
    match: Match,
    seat: int | None,
    tr: Translator = RU,
    *,
    selection: str = "",
    paused: bool = False,
    refusal: Reason | None = None,
    names: dict[int, str] = NAMES,
) -> Board:
    return board_of(OCHKO, match, seat, names, tr, selection=selection, paused=paused, refusal=refusal)


def keyboard_moves(
    match: Match, seat: int, tr: Translator = RU, *, selection: str = "", paused: bool = False
) -> list[tuple[str, str]]:
    """The hand keyboard's buttons, 🔄 aside, as (text, data)."""
    markup = keyboard_of(OCHKO, match, seat, NAMES, tr, selection=selection, paused=paused)
    return [
        (str(each["text"]), each["callback_data"])
        for each in buttons(markup)
        if HandCb.unpack(each["callback_data"]).op != Op.REFRESH
    ]


def board_moves(match: Match, seat: int, tr: Translator = RU, *, selection: str = "") -> list[tuple[str, str]]:
    return [(action.text, action.data) for action in board(match, seat, tr, selection=selection).actions]


def phase(match: Match) -> Phase:
    return table_view(match).phase


def knock_table() -> Match:
    """V17: both players bust every round; the bank reaches 10 × B₀ before round 4 and the banker is asked."""
    match = table(pack("TS TC 6D", "9S TH 9C TD"))
    play(match, "stake 10; bet 10; hit; bet 10; hit; bet 30; hit; bet 30; hit; bet 5; hit; bet 5; hit")
    return match


# -- the moves are the keyboard's ------------------------------------------------------------------------------


@pytest.mark.parametrize("tr", [RU, EN], ids=["ru", "en"])
def test_the_moves_are_the_keyboards_in_every_phase(tr: Translator) -> None:
    """Staking, knocking, betting (with the stepper), drawing (a dark card offered), the banker's draw: the same
    buttons, text and data, as the hand keyboard without 🔄; nothing for a seat that waits."""
    match = table(pack("TS 8C 9C", "9D KC 8H 7S"))  # V7
    assert phase(match) is Phase.STAKE
    stake = board_moves(match, 0, tr)
    assert stake == keyboard_moves(match, 0, tr) and len(stake) > 4
    play(match, "stake 10")
    assert phase(match) is Phase.BET
    for selection in ("", "4", "999", "x"):
        bet = board_moves(match, 1, tr, selection=selection)
        assert bet == keyboard_moves(match, 1, tr, selection=selection)
    assert any(text.startswith("✅") for text, _ in bet)
    for seat in (0, 2):
        assert board_moves(match, seat, tr) == [] == keyboard_moves(match, seat, tr)
    play(match, "bet 5")
    assert phase(match) is Phase.PLAY
    drawing = board_moves(match, 1, tr)
    assert drawing == keyboard_moves(match, 1, tr) and len(drawing) == 3  # Ещё, Хватит, В тёмную
    play(match, "dark")
    assert phase(match) is Phase.BANKER
    banker = board_moves(match, 0, tr)
    assert banker == keyboard_moves(match, 0, tr) and len(banker) == 2  # Ещё, Хватит
    knocking = knock_table()
    assert phase(knocking) is Phase.KNOCK
    knock = board_moves(knocking, 0, tr)
    assert knock == keyboard_moves(knocking, 0, tr) and len(knock) == 2  # Стук, Сдавать


def test_the_russian_buttons_read_as_the_hand_says_them() -> None:
    match = table(pack("TS 8C 9C", "9D KC 8H 7S"))
    play(match, "stake 10; bet 5")
    assert [text for text, _ in board_moves(match, 1)] == ["Ещё", "Хватит", "В тёмную"]
    knocking = knock_table()
    assert [text for text, _ in board_moves(knocking, 0)] == ["🔔 Стук", "Сдавать"]


def test_a_paused_table_and_a_spectator_get_no_moves() -> None:
    match = table(pack("TS 8C 9C"))
    play(match, "stake 10")
    paused = board(match, 1, paused=True)
    assert paused.actions == () == tuple(keyboard_moves(match, 1, paused=True))
    assert any("паузе" in line for line in paused.status)
    spectator = board(match, None)
    assert spectator.actions == () and spectator.hand == ()
    assert spectator.status == ("Ставку делает Борис <b>&.",)  # the turn, a name as plain text


# -- what it shows -------------------------------------------------------------------------------------------


def test_a_refusal_is_told_in_the_status() -> None:
    match = table(pack("TS 8C 9C", "9D 6H JS"), options=OCHKO_STANDARD.with_options(banker_draw=BankerDraw.S3_15_17))
    play(match, "stake 10; bet 5; stand")
    shown = board(match, 0, refusal=Reason.BANKER_MUST_HIT)
    assert "Так нельзя: По правилам стола банкующий при таком счёте обязан брать." in shown.status
    assert not any("</b>" in line or "&lt;" in line for line in shown.status)  # plain text, the name as it is
    assert board(match, 0).status == shown.status[:-1]
    english = board(match, 0, EN, refusal=Reason.BANKER_MUST_HIT)
    assert len(english.status) == len(shown.status) and english.status != shown.status


def test_the_table_the_seats_and_a_dark_card_face_down() -> None:
    match = table(pack("TS 8C 9C", "9D KC 8H 7S"))  # V7
    play(match, "stake 10; bet 5")
    mine = board(match, 1)
    assert [each.face.code for each in mine.hand] == ["TS", "9D"]
    assert mine.hand[0].face.rank == "10" and mine.hand[0].face.suit == "S"
    assert all(not each.marked and each.data is None for each in mine.hand)
    assert "Ваши карты: 10♠️ 9♦️ — 19" in mine.status
    assert mine.title == "Очко · кон 1 · банк 1 из 3"
    bank = {pile.key: pile for section in mine.sections for pile in section.piles}
    assert bank["bank"].note == "10 (начальный 10) · кон 1" and bank["bank"].cards == ()
    assert bank["stock"].layout == "stack" and bank["stock"].count == match.options.pack - 4 - 1
    assert [face.code for face in bank["banker"].cards] == ["9C"] and bank["banker"].note == "9 очков"
    boris = mine.seats[1]
    assert boris.you and boris.acting and boris.cards == 2 and boris.name == "Борис <b>&"
    assert boris.lines == ("100 фишек", "ставка 5")
    anya = mine.seats[0]
    assert not anya.you and not anya.acting and anya.cards == 1 and "банкующий" in anya.lines
    assert anya.lines[0] == "90 фишек"  # the bank came out of her chips
    assert mine.score == ("Фишки: 1. Борис <b>& — 100 · 1. Вика — 100 · 3. Аня — 90",)
    play(match, "dark")
    dark = board(match, 1)
    assert dark.hand[-1].face == DOWN and [each.face.code for each in dark.hand] == ["TS", "9D", None]
    assert "KC" not in json.dumps(dark.to_json()) and "К♣️" not in json.dumps(dark.to_json(), ensure_ascii=False)
    play(match, "hit")  # the banker draws and the hands are settled: Борис's is shown to all, the dark card too
    spectator = board(match, None)
    piles = {pile.key: pile for section in spectator.sections for pile in section.piles}
    assert [face.code for face in piles["hand-1"].cards] == ["TS", "9D", "KC"]


def test_the_deals_over_are_the_rounds_with_a_replay() -> None:
    """The deals over that the page offers (the services' count, which the API puts on the board) are the rounds
    over: each has its «Как это было», the one being played not yet."""
    settings = TableSettings(profile="ochko")
    match = OCHKO.new_match(settings, 3, "board-deals")
    state = TableState(match=match, settings=settings, title="Друзья", computers=frozenset(), game=OCHKO)
    rng = random.Random("board-deals")
    while not match.finished:
        over = deals_over(state)
        assert over == OCHKO.deal_number(match) - 1
        if over:
            assert OCHKO.replay(match, over, 1, NAMES, RU) is not None
        assert OCHKO.replay(match, over + 1, 1, NAMES, RU) is None
        seat = match.to_act()
        assert seat is not None
        match.apply(rng.choice(match.legal_actions(seat)))
    ended = board(match, None)
    assert deals_over(state) == match.round_no and ended.status == ("Игра окончена.",)
    assert OCHKO.replay(match, deals_over(state), 1, NAMES, RU) is not None


# -- no leaks, over random sessions --------------------------------------------------------------------------


def faces(data: Any) -> Iterator[dict[str, Any]]:
    """Every card face in a board's JSON."""
    if isinstance(data, dict):
        if "code" in data and "suit" in data:
            yield data
        for each in data.values():
            yield from faces(each)
    elif isinstance(data, list):
        for each in data:
            yield from faces(each)


def public(match: Match) -> set[Card]:
    seen = table_view(match)
    cards = set(seen.banker_cards) | {card for hand in seen.shown if hand for card in hand}
    return cards | ({seen.marker} if seen.marker is not None else set())


def dark_cards(match: Match) -> set[Card]:
    return {match.hands[seat][-1] for seat in match.dark if match.hands.get(seat)}


def check(shown: Board, allowed: set[Card], match: Match, tr: Translator) -> None:
    data = shown.to_json()
    text = json.dumps(data, ensure_ascii=False)
    codes = {each["code"] for each in faces(data) if each["code"] is not None}
    assert codes <= {card.code for card in allowed}, (codes, text)
    everything = {card for hand in match.hands.values() for card in hand} | set(match.pack) | set(match.returned)
    for card in everything - allowed:
        assert card_text(card, tr) not in text, (card, text)
    assert not codes & {card.code for card in dark_cards(match)}


CONFIGS = [("ochko", 2, "ru"), ("ochko", 5, "en"), ("oczko", 4, "ru"), ("ochko1", 6, "ru"), ("ochko1", 3, "en")]


@pytest.mark.parametrize(("profile", "players", "language"), CONFIGS)
def test_a_board_names_only_what_its_viewer_may_see(profile: str, players: int, language: str) -> None:
    tr = TRANSLATIONS.get(language)
    settings = TableSettings(profile=profile, language=language)
    names = {seat: f"Игрок{seat}" for seat in range(players)}
    checked = 0
    for number in range(3):
        rng = random.Random(f"board-{profile}-{players}-{number}")
        match = OCHKO.new_match(settings, players, f"board-{profile}-{players}-{number}")
        moves = 0
        while not match.finished and moves < 200:
            moves += 1
            seat = match.to_act()
            assert seat is not None
            action: Action
            if rng.random() < 0.01 and sum(match.present) > 2:
                action = Leave(rng.choice([s for s in range(players) if match.present[s]]))
            else:
                action = rng.choice(match.legal_actions(seat))
            match.apply(action)
            allowed = public(match)
            spectator = board(match, None, tr, names=names)
            json.dumps(spectator.to_json())
            check(spectator, allowed, match, tr)
            for each in range(players):
                selection = rng.choice(["", str(rng.randrange(1, 200))])
                mine = board(match, each, tr, selection=selection, names=names)
                check(mine, allowed | set(view(match, each).seen), match, tr)
                moves_now = [(action.text, action.data) for action in mine.actions]
                assert moves_now == keyboard_moves(match, each, tr, selection=selection)
                checked += 1
    assert checked > 100
