"""Issue 37, point 3: the hand tells how the deal ended and why (the call the group hears), and a tap made stale
by an opponent's call says who did what."""

from __future__ import annotations

from bot.games.bura.events import deal_result, stale_call
from bot.i18n import Translator
from bot.table_settings import TableSettings
from engine.bura.actions import Claim, DeclareCombo, Lead, RespondFaceDown
from engine.bura.cards import cards
from engine.bura.combos import Combo
from engine.bura.variant import BURA_STANDARD
from tests.bot.render.conftest import NAMES, claim_match, molodka_match
from tests.engine.bura.stack import stacked_match


def test_the_hand_tells_a_claim_with_its_count_before_the_deals_result(ru: Translator, en: Translator) -> None:
    """It said only «Сдачу берёт Аня.», and the next deal's clock ran."""
    events = claim_match().apply(Claim(0))
    lines = deal_result(events, NAMES, ru, teams=False, settings=TableSettings())
    assert lines[0] == "Аня: «Вскрываюсь!»"
    assert lines[1].endswith("= 35 очков из 31 ✅")
    assert lines.index("Сдачу берёт Аня.") > 1
    assert not any("Сдача 2" in line for line in lines)  # the hand shows the new deal itself
    english = deal_result(claim_match().apply(Claim(0)), NAMES, en, teams=False, settings=TableSettings())
    assert english[0] == "Аня: “31!”" and english[1].endswith("= 35 points of 31 ✅")


def test_the_hand_tells_a_false_claim(ru: Translator) -> None:
    match = stacked_match(BURA_STANDARD, [{"hands": {0: "QS JS 7S", 1: "TC 7H 8C"}, "trump": "9D"}], dealer=1)
    match.apply(Lead(0, cards("QS JS 7S")))
    match.apply(RespondFaceDown(1, cards("TC 7H 8C")))
    lines = deal_result(match.apply(Claim(0)), NAMES, ru, teams=False, settings=TableSettings())
    assert lines[1].endswith("= 15 очков из 31 ❌")
    assert "Аня: вскрытие ложное — сдача проиграна." in lines and "Сдачу берёт Борис." in lines


def test_the_hand_tells_a_dealt_bura(ru: Translator, en: Translator) -> None:
    match = stacked_match(BURA_STANDARD, [{"hands": {0: "QS 7S AC", 1: "6D 7D 8D"}, "trump": "9D"}], dealer=1)
    lines = deal_result(match.start_events, NAMES, ru, teams=False, settings=TableSettings())
    assert lines[:2] == ["Борис: «Бура!» — 6♦️ 7♦️ 8♦️", "Сдачу берёт Борис."]
    english = deal_result(match.start_events, NAMES, en, teams=False, settings=TableSettings())
    assert english[0].startswith("Борис: “Bura!”")


def test_the_hand_tells_a_stop(ru: Translator) -> None:
    events = molodka_match().apply(DeclareCombo(1, Combo.MOLODKA))
    lines = deal_result(events, NAMES, ru, teams=False, settings=TableSettings())
    assert lines == ["Борис: «Стоп!» — молодка 6♥️ 7♥️ 8♥️", "Борис забирает ход."]


def test_a_tap_made_stale_by_a_stop_says_who_took_the_lead(ru: Translator, en: Translator) -> None:
    match = molodka_match()
    assert stale_call(match, 0, NAMES, ru) is None  # nothing called yet
    match.apply(DeclareCombo(1, Combo.MOLODKA))
    assert stale_call(match, 0, NAMES, ru) == "Поздно: Борис говорит «Стоп!» и забирает ход."
    assert stale_call(match, 0, NAMES, en) == "Too late: Борис called “Stop!” and takes the lead."
    assert stale_call(match, 1, NAMES, ru) is None  # his own call: the generic line
    assert stale_call(match, 0, {0: "Аня", 1: "<b>Боб</b>"}, ru) == "Поздно: <b>Боб</b> говорит «Стоп!» и забирает ход."


def test_a_tap_made_stale_by_a_claim_says_the_deal_is_over(ru: Translator) -> None:
    match = claim_match()
    match.apply(Claim(0))
    assert stale_call(match, 1, NAMES, ru) == "Поздно: Аня вскрывается — эта сдача окончена."
