"""Card labels, the group's table message and the announcements, in Russian and in English."""

from __future__ import annotations

import random

import pytest

from bot.games.bura import BACK, card_text, cards_text, render_announcements, render_hand, render_table
from bot.games.bura.cards import card_button, suit_name
from bot.games.bura.settings import MatchChoice, Profile, variant
from bot.i18n import Translator
from bot.table_settings import TableSettings
from engine.bura.actions import Claim, DeclareCombo, Lead, RespondFaceDown, RespondOpen
from engine.bura.cards import Card, cards
from engine.bura.combos import Combo
from engine.bura.match import Match
from engine.bura.players import random_step
from engine.bura.variant import BURA_STANDARD
from engine.bura.views import last_trick, public_view, view
from engine.core.cards import Suit
from tests.bot.render.conftest import (
    MOVE,
    NAMES,
    TABLE_ID,
    assert_keyboard_limits,
    assert_telegram_html,
    claim_match,
    hand_buttons,
    molodka_match,
    worked_match,
)
from tests.engine.bura.stack import stacked_match

# -- cards -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "russian", "english"),
    [
        ("AS", "Т♠️", "A♠️"),
        ("KC", "К♣️", "K♣️"),
        ("QH", "Д♥️", "Q♥️"),
        ("JD", "В♦️", "J♦️"),
        ("TS", "10♠️", "10♠️"),
        ("9H", "9♥️", "9♥️"),
        ("6C", "6♣️", "6♣️"),
    ],
)
def test_card_labels_in_both_languages(ru: Translator, en: Translator, code: str, russian: str, english: str) -> None:
    card = Card.parse(code)
    assert card_text(card, ru) == russian
    assert card_text(card, en) == english


def test_all_four_suits_are_drawn_alike_and_trumps_are_marked_on_buttons(ru: Translator, en: Translator) -> None:
    assert all("\ufe0f" in card_text(Card.parse(code), ru) for code in ("7S", "7C", "7H", "7D"))
    assert card_button(Card.parse("TD"), ru, Suit.DIAMONDS) == "10♦️★"
    assert card_button(Card.parse("TS"), ru, Suit.DIAMONDS) == "10♠️"
    assert cards_text(cards("QS 7S 9D"), ru) == "Д♠️ 7♠️ 9♦️", "no mark in a text: the trump is named in words"
    assert suit_name(Suit.DIAMONDS, ru) == "бубны ♦️" and suit_name(Suit.SPADES, en) == "spades ♠️"


# -- the table ---------------------------------------------------------------------------------------------------


def test_the_table_shows_the_trick_with_backs_and_the_beating_set(ru: Translator) -> None:
    match = worked_match()
    match.apply(Lead(0, cards("QS 7S")))
    match.apply(RespondOpen(1, cards("9D JS")))
    text = render_table(public_view(match), NAMES, ru, title="Друзья", settings=TableSettings(), deadline_text="0:45")
    assert text.splitlines()[:3] == [
        "🃏 <b>Друзья</b> · Бура · сдача 1 · матч до 11 побед",
        "Козырь — бубны ♦️ (под колодой 7♦️) · в колоде 27 карт",
        "Сдаёт Вика · отвечает Вика ⏳ 0:45",
    ]
    assert "  Аня  Д♠️ 7♠️\n  Борис  9♦️ В♠️   ← бьёт" in text
    assert "Взятки: Аня 0 · Борис 0 · Вика 0" in text
    assert "Матч: Аня 0 · Борис 0 · Вика 0" in text
    assert "Очки" not in text  # strict rules hide captured points
    match.apply(RespondFaceDown(2, cards("KD 8D")))
    text = render_table(public_view(match), NAMES, ru, title="", settings=TableSettings())
    assert "1. Аня Д♠️ 7♠️ · Борис 9♦️ В♠️ · Вика 🂠 🂠 → Борис" in text
    assert "К♦️" not in text and "8♦️" not in text
    assert_telegram_html(text)
    # The next trick is led: the tricks taken stay on view above it (a computer leads a second after it takes).
    match.apply(next(action for action in match.legal_actions(1) if isinstance(action, Lead)))
    lines = render_table(public_view(match), NAMES, ru, title="", settings=TableSettings()).splitlines()
    taken = lines.index("1. Аня Д♠️ 7♠️ · Борис 9♦️ В♠️ · Вика 🂠 🂠 → Борис")
    assert lines[taken + 1] == "<b>Взятка 2</b>" and lines[taken + 2].startswith("  Борис  ")


def play_tricks(match: Match, tricks: int, seed: int = 5) -> None:
    """Random legal moves (no claims) until `tricks` tricks of the deal are taken."""
    rng = random.Random(seed)
    while len(public_view(match).history) < tricks:
        seat = match.to_act()
        assert seat is not None
        moves = [action for action in match.legal_actions(seat) if not isinstance(action, Claim)]
        match.apply(rng.choice(moves))


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_table_shows_every_trick_of_the_deal_so_far(language: str, ru: Translator, en: Translator) -> None:
    """Issue 37: edits of the table coalesce under the group's budget, so the one that arrives tells every trick
    taken in the deal, a line each, with hidden answers still hidden."""
    tr = {"ru": ru, "en": en}[language]
    match = worked_match()
    match.apply(Lead(0, cards("QS 7S")))
    match.apply(RespondOpen(1, cards("9D JS")))
    match.apply(RespondFaceDown(2, cards("KD 8D")))
    play_tricks(match, 4)
    shown = public_view(match)
    text = render_table(shown, NAMES, tr, title="", settings=TableSettings())
    lines = text.splitlines()
    taken = [line for line in lines if line[:1].isdigit() and "→" in line]
    assert [line.split(".")[0] for line in taken] == ["1", "2", "3", "4"]
    first = {
        "ru": "1. Аня Д♠️ 7♠️ · Борис 9♦️ В♠️ · Вика 🂠 🂠 → Борис",
        "en": "1. Аня Q♠️ 7♠️ · Борис 9♦️ J♠️ · Вика 🂠 🂠 → Борис",
    }
    assert taken[0] == first[language]
    for line, trick in zip(taken, shown.history, strict=True):
        assert line.endswith(f"→ {NAMES[trick.owner]}")
        assert cards_text(trick.lead, tr) in line
    assert "К♦️" not in text and "8♦️" not in text, "a face-down answer stays face down"
    assert_telegram_html(text)


def test_a_long_deal_s_tricks_fit_in_one_message(ru: Translator) -> None:
    """Six players with long names: the older tricks shrink to who took them, the last keeps its cards."""
    settings = TableSettings()
    match = Match(variant(settings), 6, "long")
    names = {seat: f"{'Длинноеимя' * 10}{seat}" for seat in range(6)}  # Telegram allows 128
    play_tricks(match, 5, seed=3)
    text = render_table(public_view(match), names, ru, title="", settings=settings)
    assert len(text) <= 4096
    assert text.startswith("🃏"), "the header is not cut off"
    assert all(f"\n{number} → " in text for number in range(1, 5)), "the older tricks say who took them"
    assert "\n5. " in text


def test_the_table_in_english(en: Translator) -> None:
    match = worked_match()
    text = render_table(public_view(match), NAMES, en, title="", settings=TableSettings(), deadline_text="1:00")
    assert text.splitlines()[1:3] == [
        "Trump: diamonds ♦️ (7♦️ under the stock) · 27 cards in the stock",
        "Вика dealt · Аня to lead ⏳ 1:00",
    ]


def test_a_table_that_ended_says_how_and_shows_no_clock(ru: Translator) -> None:
    """UX: after /stop the table does not go on saying «ходит Аня ⏳ 1:00» for ever."""
    match = worked_match()
    text = render_table(
        public_view(match),
        NAMES,
        ru,
        title="",
        settings=TableSettings(),
        deadline_text="1:00",
        ended="⏹ Аня останавливает игру.",
    )
    assert text.splitlines()[2] == "⏹ Аня останавливает игру."
    assert "⏳" not in text and "ходит" not in text


def test_a_finished_match_names_its_winner(ru: Translator) -> None:
    settings = TableSettings(options={"match": MatchChoice.SINGLE_DEAL})
    match = stacked_match(variant(settings), [{"hands": {0: "QS 7S AC", 1: "6D 7D 8D"}, "trump": "9D"}], dealer=1)
    assert match.finished  # Борис was dealt a bura
    text = render_table(public_view(match), NAMES, ru, title="", settings=settings)
    assert "одна сдача" in text.splitlines()[0]
    assert "Матч окончен." in text and text.endswith("🏆 Борис выигрывает матч!")
    assert "Матч:" not in text  # a single deal has no running score


def test_casual_tables_show_points_and_penalty_matches_are_labelled(ru: Translator) -> None:
    settings = TableSettings(options={"casual": "1", "match": MatchChoice.PENALTY_12})
    match = Match(variant(settings), 2, "casual")
    text = render_table(public_view(match), NAMES, ru, title="", settings=settings)
    assert "Очки: Аня 0 · Борис 0" in text
    assert "Штрафные (до 12): Аня 0 · Борис 0" in text
    assert "до 12 штрафных" in text.splitlines()[0]


def test_pairs_are_shown_as_pairs_of_names(ru: Translator, en: Translator) -> None:
    settings = TableSettings(profile=Profile.BURKOZEL)
    match = Match(variant(settings), 4, "pairs")
    assert match.teams
    text = render_table(public_view(match), NAMES, ru, title="", settings=settings)
    assert "Взятки: Аня и Вика 0 · Борис и Гена 0" in text
    assert "Буркозёл" in text.splitlines()[0]
    english = render_table(public_view(match), NAMES, en, title="", settings=settings)
    assert "Tricks: Аня & Вика 0 · Борис & Гена 0" in english


def test_pot_matches_show_chips_and_the_pot(ru: Translator) -> None:
    settings = TableSettings(profile=Profile.KOZEL)
    match = Match(variant(settings), 3, "pot")
    text = render_table(public_view(match), NAMES, ru, title="", settings=settings)
    assert "Фишки: Аня −1 · Борис −1 · Вика −1 · в банке 3" in text  # everyone antes
    assert "на банк, 20 сдач" in text.splitlines()[0]


# -- announcements ---------------------------------------------------------------------------------------------


def test_stop_is_one_line_naming_the_combination_then_the_lead_taken(ru: Translator, en: Translator) -> None:
    match = molodka_match()
    events = match.apply(DeclareCombo(1, Combo.MOLODKA))
    assert render_announcements(events, NAMES, ru, teams=False) == [
        "Борис: «Стоп!» — молодка 6♥️ 7♥️ 8♥️\nБорис забирает ход."
    ]
    assert render_announcements(events, NAMES, en, teams=False) == [
        "Борис: “Stop!” — molodka 6♥️ 7♥️ 8♥️\nБорис takes the lead."
    ]
    table = render_table(public_view(match), NAMES, ru, title="", settings=TableSettings())
    assert "Показано: Борис — молодка 6♥️ 7♥️ 8♥️" in table


def test_a_claim_is_announced_grouped_and_counted_against_its_target(ru: Translator, en: Translator) -> None:
    match = claim_match()
    face_down_in_table = render_table(public_view(match), NAMES, ru, title="", settings=TableSettings())
    assert "10♣️" not in face_down_in_table and BACK in face_down_in_table  # the last trick shows backs
    events = match.apply(Claim(0))
    (text,) = render_announcements(events, NAMES, ru, teams=False, settings=TableSettings())
    assert "Аня: «Вскрываюсь!»" in text
    assert "Взятки, 6 карт: Т♠️ 10♠️ К♠️ · втёмную (3): 🂠→10♣️ 🂠→7♥️ 🂠→8♣️ = 35 очков из 31 ✅" in text
    assert "Сдачу берёт Аня." in text
    assert "Матч: Аня 1 · Борис 0" in text  # without the scores before, no change is shown
    assert "<b>Сдача 2</b>" in text  # the next deal starts in the same message
    assert_telegram_html(text)
    (english,) = render_announcements(events, NAMES, en, teams=False, settings=TableSettings())
    assert "Аня: “31!”" in english and "= 35 points of 31 ✅" in english


def test_a_false_claim_is_announced_as_lost(ru: Translator, en: Translator) -> None:
    match = stacked_match(BURA_STANDARD, [{"hands": {0: "QS JS 7S", 1: "TC 7H 8C"}, "trump": "9D"}], dealer=1)
    match.apply(Lead(0, cards("QS JS 7S")))
    match.apply(RespondFaceDown(1, cards("TC 7H 8C")))
    events = match.apply(Claim(0))
    (text,) = render_announcements(events, NAMES, ru, teams=False)
    assert "= 15 очков из 31 ❌" in text
    assert "Аня: вскрытие ложное — сдача проиграна.\nСдачу берёт Борис." in text
    (english,) = render_announcements(events, NAMES, en, teams=False)
    assert "= 15 points of 31 ❌" in english and "Борис takes the deal." in english


def test_a_claim_with_no_tricks_shows_a_dash_and_the_score_shows_what_changed(ru: Translator) -> None:
    settings = TableSettings(options={"match": MatchChoice.PENALTY_12})
    match = stacked_match(variant(settings), [{"hands": {0: "QS JS 7S", 1: "TC 7H 8C"}, "trump": "9D"}], dealer=1)
    before = public_view(match)
    events = match.apply(Claim(0))
    (text,) = render_announcements(events, NAMES, ru, teams=False, settings=settings, scores_before=before.scores)
    assert "Взятки, 0 карт: — = 0 очков из 31 ❌" in text
    assert "Штрафные (до 12): Борис 0 · Аня 2 (+2)" in text


def test_an_instant_bura_is_said_once(ru: Translator) -> None:
    match = stacked_match(BURA_STANDARD, [{"hands": {0: "QS 7S AC", 1: "6D 7D 8D"}, "trump": "9D"}], dealer=1)
    (text,) = render_announcements(match.start_events, NAMES, ru, teams=False)
    assert "<b>Сдача 1</b>. Сдаёт Борис, козырь — бубны ♦️ (9♦️). Первым ходит Аня." in text
    assert "Борис: «Бура!» — 6♦️ 7♦️ 8♦️" in text and "бура 6" not in text
    assert "Сдачу берёт Борис." in text


def test_the_trick_that_ends_a_deal_leads_its_result(ru: Translator) -> None:
    """A deal's last trick: the table shows the next deal at once, so the result names the trick."""
    rng = random.Random(3)
    for game in range(200):
        match = Match(BURA_STANDARD, 2, f"last/{game}")
        deal = match.deal
        while match.deal is deal and not match.finished:
            events = match.apply(random_step(match, rng))
        final = last_trick(deal)
        if not deal.history or any(type(e).__name__ == "Claimed" for e in events):
            continue
        texts = render_announcements(events, NAMES, ru, teams=False, final_trick=final)
        joined = "\n".join(texts)
        assert f"Взятка {final.number if final else 0}: " in joined
        assert joined.index("Взятка") < joined.index("Сдача 2") if "Сдача 2" in joined else True
        return
    pytest.fail("no deal ended on a trick in 200 games")


EVIL = {0: "<b>Аня & Co</b>", 1: "Борис</i>", 2: '"Вика"', 3: "<script>"}


def test_names_are_escaped_everywhere(ru: Translator) -> None:
    match = claim_match()
    table = render_table(public_view(match), EVIL, ru, title="<i>t", settings=TableSettings(), deadline_text="<1>")
    assert "&lt;b&gt;Аня &amp; Co&lt;/b&gt;" in table and "Борис&lt;/i&gt;" in table and "&lt;i&gt;t" in table
    assert_telegram_html(table)
    text, _ = render_hand(view(match, 0), EVIL, ru, table_id=1, move=1, title="<i>t")
    assert "&lt;i&gt;t" in text
    assert_telegram_html(text)
    for announcement in render_announcements(match.apply(Claim(0)), EVIL, ru, teams=False):
        assert "&lt;b&gt;Аня &amp; Co&lt;/b&gt;" in announcement
        assert_telegram_html(announcement)


def test_every_text_is_telegram_html_and_callbacks_parse_back(ru: Translator, en: Translator) -> None:
    for tr in (ru, en):
        for settings, players in ((TableSettings(), 3), (TableSettings(profile=Profile.BURKOZEL), 4)):
            rng = random.Random(f"html/{tr.language}/{players}")
            match = Match(variant(settings), players, f"html/{players}")
            events = list(match.start_events)
            for _ in range(400):
                if match.finished:
                    break
                for text in render_announcements(events, NAMES, tr, teams=match.teams, settings=settings):
                    assert_telegram_html(text)
                table = render_table(public_view(match), NAMES, tr, title="x", settings=settings, deadline_text="1:00")
                assert_telegram_html(table)
                for seat in match.active:
                    text, markup = render_hand(view(match, seat), NAMES, tr, table_id=TABLE_ID, move=MOVE, title="x")
                    assert_telegram_html(text)
                    assert_keyboard_limits(markup)
                    for _, callback in hand_buttons(markup):
                        assert callback.table == TABLE_ID and callback.move == MOVE
                events = match.apply(random_step(match, rng))
