"""What the timer's move is said to be (issue 37, point 4): a verb after «бот», in the right case and number."""

from __future__ import annotations

import pytest

from bot.games.bura.game import BURA
from bot.games.buraco.game import BURACO
from bot.i18n import Translations
from engine.bura.actions import Lead, Pass, RespondFaceDown
from engine.bura.cards import cards as bura_cards
from engine.buraco.actions import Action, AddToRun, Discard, DrawStock, NewRun, TakePile
from engine.buraco.cards import cards
from engine.core.cards import Suit


@pytest.mark.parametrize(
    ("language", "count", "said"),
    [
        ("ru", 1, "бот сбросил 1 карту втёмную"),
        ("ru", 2, "бот сбросил 2 карты втёмную"),
        ("ru", 5, "бот сбросил 5 карт втёмную"),
        ("en", 1, "the bot discarded 1 card face down"),
        ("en", 3, "the bot discarded 3 cards face down"),
    ],
)
def test_bura_says_face_down_cards_in_the_accusative(language: str, count: int, said: str) -> None:
    tr = Translations().get(language)
    face_down = RespondFaceDown(0, tuple(bura_cards("6S 7S 8S 9S 10S")[:count]))
    note = tr.t("flow-timeout-move", name="Аня", played=BURA.played_text([face_down], tr))
    assert said in note, note


def test_bura_says_what_was_led_and_a_pass() -> None:
    tr = Translations().get("ru")
    assert BURA.played_text([Lead(0, tuple(bura_cards("KS")))], tr).startswith("сыграл К")
    assert BURA.played_text([Pass(0)], tr) == "ничего не объявил"


def test_buraco_says_the_turn_as_verbs() -> None:
    ru, en = Translations().get("ru"), Translations().get("en")
    seven, ten = cards("7H 10C")
    assert BURACO.played_text([DrawStock(0), Discard(0, ten)], ru) == "взял карту из колоды, сбросил 10♣️"
    three, four, five, six = cards("3S 4S 5S 6S")
    turn: list[Action] = [
        DrawStock(0),
        NewRun(0, Suit.SPADES, 3, (three, four, five)),
        AddToRun(0, 0, 0, six, 3),
        Discard(0, seven),
    ]
    assert BURACO.played_text(turn, ru) == "взял карту из колоды, выложил ряд, сбросил 7♥️"
    assert BURACO.played_text(turn, en) == "drew from the stock, laid a run, discarded 7♥️"
    added: list[Action] = [TakePile(0), AddToRun(0, 0, 1, six, 3), AddToRun(0, 0, 1, five, 2), Discard(0, seven)]
    assert BURACO.played_text(added, ru) == "забрал сброс, дополнил ряд, сбросил 7♥️"
    laid = NewRun(0, Suit.SPADES, 3, (three, four, five))
    two: list[Action] = [DrawStock(0), laid, laid]
    assert BURACO.played_text(two, ru) == "взял карту из колоды, выложил 2 ряда"
    note = ru.t("flow-timeout-move", name="Аня", played=BURACO.played_text([DrawStock(0), Discard(0, ten)], ru))
    assert "время вышло — бот взял карту из колоды, сбросил 10♣️" in note
