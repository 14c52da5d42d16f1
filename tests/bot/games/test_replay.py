"""«Как это было» (issue 38) in words: a finished deal told to one player in private, trick by trick (Бура) or
turn by turn (Бурако), naming no card the engine's record does not (which names only what he saw)."""

from __future__ import annotations

import random
import re

import pytest

from bot.games.bura.cards import card_text as bura_card
from bot.games.bura.game import BURA
from bot.games.buraco.cards import card_text as buraco_card
from bot.games.buraco.game import BURACO
from bot.i18n import Translations, Translator
from bot.render.common import MAX_TEXT
from engine.bura.cards import deck as bura_deck
from engine.bura.match import Match as BuraMatch
from engine.bura.players import random_step
from engine.bura.replay import replay_deal as bura_record
from engine.bura.variant import PROFILES
from engine.buraco.cards import deck as buraco_deck
from engine.buraco.match import Match as BuracoMatch
from engine.buraco.replay import replay_deal as buraco_record
from tests.botapi.html import parse_html
from tests.engine.bura.test_replay import claimed_after_a_face_down_answer
from tests.engine.buraco.test_replay import computer
from tests.engine.buraco.test_replay import stacked as stacked_buraco

NAMES = {0: "Аня", 1: "Борис <b>", 2: "Вика", 3: "Гена"}  # a name is user input: escaped


@pytest.fixture(scope="module")
def ru() -> Translator:
    return Translations().get("ru")


@pytest.fixture(scope="module")
def en() -> Translator:
    return Translations().get("en")


def test_a_claimed_bura_deal_in_russian(ru: Translator) -> None:
    texts = BURA.replay(claimed_after_a_face_down_answer(), 1, 0, NAMES, ru)
    assert texts == [
        "\n".join(
            [
                "🎞 <b>Как это было: сдача 1</b>",
                "Сдаёт Борис &lt;b&gt;, козырь — бубны ♦️ (8♦️). Первым ходит Аня.",
                "Ваши карты: 6♠️ 10♥️ Т♥️",
                "Взятка 1: Аня Т♥️ 10♥️ · Борис &lt;b&gt; 🂠→10♠️ 🂠→6♣️ → Аня",
                "   вы добираете: 9♣️ К♥️",
                "Аня: «Вскрываюсь!»",
                "Взятки, 4 карты: Т♥️ 10♥️ · втёмную (2): 🂠→10♠️ 🂠→6♣️ = 31 очко из 31 ✅",
                "У вас на руках остаются: 6♠️ 9♣️ К♥️",
                "<b>Итог</b>",
                "Сдачу берёт Аня.",
                "Матч: Аня 1 (+1) · Борис &lt;b&gt; 0",
                "🂠 — карта, сброшенная втёмную; 🂠→ перед картой — её открыли вам, вскрытие или конец сдачи.",
            ]
        )
    ]


def test_the_other_side_of_the_deal_in_english(en: Translator) -> None:
    (text,) = BURA.replay(claimed_after_a_face_down_answer(), 1, 1, NAMES, en) or []
    assert "Your cards: 7♠️ 10♠️ 6♣️" in text
    assert "Trick 1: Аня A♥️ 10♥️ · Борис &lt;b&gt; 🂠→10♠️ 🂠→6♣️ → Аня" in text
    assert "   you draw: 9♠️ Q♥️" in text
    assert "Still in your hand: 7♠️ 9♠️ Q♥️" in text
    assert "9♣️" not in text and "K♥️" not in text  # Аня's draws are hers alone


def test_a_buraco_deal_turn_by_turn(ru: Translator, en: Translator) -> None:
    match = stacked_buraco()
    (*texts,) = BURACO.replay(match, 1, 0, NAMES, ru) or []
    text = "\n".join(texts)
    assert texts[0].startswith("🎞 <b>Как это было: сдача 1</b>\nСдаёт Гена, начинает Аня.\nВаши карты: ")
    assert (
        "<b>Аня</b>: берёт из колоды, открывает Д♦️ в сброс и берёт следующую, выкладывает ряд 1: 3♥️ 4♥️ 5♥️, "
        "сбрасывает Т♣️\n   вам из колоды: В♠️\n   у вас на руках: 9♠️ В♠️ Д♠️ 5♣️ 5♣️ 6♣️ 10♥️ 6♦️\n"
        "<b>Борис &lt;b&gt;</b>: забирает сброс (2 карты), "
    ) in text
    assert "\n   взятый сброс: Д♦️ Т♣️\n" in text
    assert "<b>Итог</b>" in text and "Сдача 1 окончена: вышли Аня и Вика." in text
    english = "\n".join(BURACO.replay(match, 1, 1, NAMES, en) or [])
    assert english.startswith("🎞 <b>How it went: deal 1</b>\nГена deals, Аня starts.\n")
    assert "   you draw: 3♦️\n   in your hand: 3♦️ 4♦️ K♦️\n" in english
    assert "J♠️" not in english  # Аня's draw is hers alone


def test_none_where_the_engine_has_no_replay(ru: Translator) -> None:
    bura = claimed_after_a_face_down_answer()
    assert BURA.replay(bura, 2, 0, NAMES, ru) is None
    assert BURA.replay(bura, 0, 0, NAMES, ru) is None
    assert BURA.replay(bura, 1, 5, NAMES, ru) is None
    buraco = stacked_buraco()
    assert BURACO.replay(buraco, 2, 0, NAMES, ru) is None
    assert BURACO.replay(buraco, 1, 4, NAMES, ru) is None


SUIT = "(?:♠️|♣️|♥️|♦️)"
LABEL = rf"(?<![0-9])(?:10|[2-9]|[A-ZА-Я]){SUIT}"


def named_cards(text: str, labels: dict[str, object]) -> set[object]:
    """The cards a text names (a joker's 🃏 aside): every rank+suit label in it."""
    return {labels[found] for found in re.findall(LABEL, text)}


def check_texts(texts: list[str], allowed: set[object], labels: dict[str, object]) -> None:
    assert named_cards(texts[0], labels), "the first message names the hand as dealt"
    for text in texts:
        assert len(text) <= MAX_TEXT
        parse_html(text)  # Telegram's HTML: every tag closed, nothing unsupported
        named = named_cards(text, labels)
        assert named <= allowed, f"the text names {named - allowed}"


CASES = [
    (name, players)
    for name, variant in PROFILES.items()
    for players in range(variant.min_players, variant.max_players + 1)
]


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{name}-{n}" for name, n in CASES])
def test_every_bura_replay_renders_within_limits_naming_only_its_records_cards(
    name: str, players: int, ru: Translator, en: Translator
) -> None:
    variant = PROFILES[name]
    rng = random.Random(players)
    match = BuraMatch(variant, players, f"render/{name}")
    while not match.finished and match.deal_number <= 3:
        match.apply(random_step(match, rng))
    over = match.deal_number if match.finished else match.deal_number - 1
    for tr in (ru, en):
        labels: dict[str, object] = {bura_card(card, tr): card for card in bura_deck(variant.deck_size)}
        for deal in range(1, over + 1):
            for seat in range(players):
                record = bura_record(match, deal, seat)
                texts = BURA.replay(match, deal, seat, NAMES, tr)
                assert (texts is None) == (record is None)
                if record is not None and texts is not None:
                    check_texts(texts, set(record.cards()), labels)


@pytest.mark.parametrize("seed", range(2))
def test_every_buraco_replay_renders_within_limits_naming_only_its_records_cards(
    seed: int, ru: Translator, en: Translator
) -> None:
    match = BuracoMatch(f"render/{seed}", target=1500)
    while not match.finished and match.deal_number < 1:
        computer(match)
    for tr in (ru, en):
        labels: dict[str, object] = {buraco_card(card, tr): card for card in buraco_deck() if card.suit is not None}
        for seat in range(4):
            record = buraco_record(match, 1, seat)
            texts = BURACO.replay(match, 1, seat, NAMES, tr)
            assert record is not None and texts is not None
            check_texts(texts, set(record.cards()), labels)
