"""What the renderer tests share: translators, names, matches from stacked decks, keyboard helpers."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from bot.games.bura import render_hand
from bot.games.bura.buttons import HandOp
from bot.games.bura.settings import variant
from bot.i18n import Translations, Translator
from bot.render.keyboard import Keyboard, buttons
from bot.storage import MAX_ID
from bot.table_settings import TableSettings
from bot.telegram.callbacks import MAX_CALLBACK_BYTES, HandCb
from engine.bura.actions import Lead, RespondFaceDown
from engine.bura.cards import cards
from engine.bura.match import Match
from engine.bura.players import random_step
from engine.bura.variant import BURA_STANDARD
from engine.bura.views import SeatView, view
from tests.botapi.html import parse_html
from tests.engine.bura.stack import stacked_match

NAMES = {0: "Аня", 1: "Борис", 2: "Вика", 3: "Гена"}
TABLE_ID = MAX_ID  # as long as a table id can get (the database holds no larger number)
MOVE = 99999


@pytest.fixture(scope="session")
def ru() -> Translator:
    return Translations().get("ru")


@pytest.fixture(scope="session")
def en() -> Translator:
    return Translations().get("en")


def hand_buttons(markup: Keyboard) -> list[tuple[str, HandCb]]:
    return [(button["text"], HandCb.unpack(button["callback_data"])) for button in buttons(markup)]


def actions(markup: Keyboard) -> list[tuple[str, HandCb]]:
    """The buttons that are not card toggles."""
    return [(text, cb) for text, cb in hand_buttons(markup) if cb.op != HandOp.TOGGLE]


def cb(op: HandOp, cards_code: str = "") -> HandCb:
    return HandCb(table=TABLE_ID, move=MOVE, op=op, cards=cards_code)


def assert_telegram_html(text: str) -> None:
    """Telegram's own HTML rules (raises on an unknown tag, bad nesting or a stray '<'), within 4096 chars."""
    plain, _ = parse_html(text)
    assert len(plain) <= 4096


def assert_keyboard_limits(markup: Keyboard) -> None:
    rows = markup["inline_keyboard"]
    assert sum(len(row) for row in rows) <= 100
    for row in rows:
        assert 1 <= len(row) <= 8
        for button in row:
            assert 1 <= len(button["callback_data"].encode()) <= MAX_CALLBACK_BYTES


# RULES §6.5 worked example: trump ♦, seat 0 leads Q♠ 7♠, seat 1 holds 9♦ J♠ 6♥.
WORKED = {"hands": {0: "QS 7S AH", 1: "9D JS 6H", 2: "KD 8D 9S"}, "trump": "7D", "stock": "TS KS 6S AS 8S 7H"}


def worked_match() -> Match:
    return stacked_match(BURA_STANDARD, [WORKED], players=3, dealer=2)


def hand(match: Match, seat: int, tr: Translator, selection: str = "", **options: object) -> tuple[str, Keyboard]:
    return render_hand(
        view(match, seat),
        NAMES,
        tr,
        table_id=TABLE_ID,
        move=MOVE,
        title="Друзья",
        selection=cards(selection),
        **options,  # type: ignore[arg-type]
    )


def molodka_match() -> Match:
    """Seat 1 holds a молодка (three hearts, trump ♦) and may take the lead from seat 0 with «Стоп!»."""
    return stacked_match(BURA_STANDARD, [{"hands": {0: "QS 7S AC", 1: "6H 7H 8H"}, "trump": "9D"}], dealer=1)


def claim_match() -> Match:
    """Seat 0 leads Т♠ 10♠ К♠ (25); seat 1 throws 10♣ 7♥ 8♣ face down: seat 0's pile holds 35, 3 face down."""
    match = stacked_match(BURA_STANDARD, [{"hands": {0: "AS TS KS", 1: "TC 7H 8C"}, "trump": "9D"}], dealer=1)
    match.apply(Lead(0, cards("AS TS KS")))
    match.apply(RespondFaceDown(1, cards("TC 7H 8C")))
    return match


def random_views(games: int, settings: TableSettings, players: int, seed: str) -> Iterable[tuple[Match, SeatView]]:
    rng = random.Random(seed)
    for game in range(games):
        match = Match(variant(settings), players, f"{seed}/{game}")
        for _ in range(150):
            if match.finished:
                break
            for seat in match.active:
                yield match, view(match, seat)
            match.apply(random_step(match, rng))
