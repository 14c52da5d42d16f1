"""Renderers: card labels, the table, the hand keyboard, the lobby and settings menu, announcements, alerts.

Views come from real engine matches (stacked decks for scenarios, random play for the rest).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from bot.i18n import Translations, Translator
from bot.render import (
    BACK,
    card_text,
    cards_text,
    reason_text,
    render_announcements,
    render_hand,
    render_lobby,
    render_settings,
    render_table,
)
from bot.render.keyboard import Keyboard, buttons
from bot.render.lobby import SETTING_CHOICES, SETTING_FIELDS, next_code
from bot.storage import MAX_ID
from bot.table_settings import ComputerLevel, MatchChoice, Profile, TableSettings
from bot.telegram.callbacks import MAX_CALLBACK_BYTES, HandCb, HandOp, LobbyCb, LobbyOp, SettingCb, unpack_cards
from engine.actions import Claim, DeclareCombo, Lead, Pass, RespondFaceDown, RespondOpen
from engine.cards import Card, Suit, cards
from engine.combos import Combo
from engine.deal import Phase
from engine.errors import Reason
from engine.match import Match
from engine.players import random_step
from engine.variant import BURA_STANDARD
from engine.views import SeatView, public_view, view
from tests.botapi.html import parse_html
from tests.engine.stack import stacked_match

NAMES = {0: "Аня", 1: "Борис", 2: "Вика", 3: "Гена"}
TABLE_ID = MAX_ID  # as long as a table id can get (the database holds no larger number)
MOVE = 99999


@pytest.fixture(scope="module")
def ru() -> Translator:
    return Translations().get("ru")


@pytest.fixture(scope="module")
def en() -> Translator:
    return Translations().get("en")


def hand_buttons(markup: Keyboard) -> list[tuple[str, HandCb]]:
    return [(button["text"], HandCb.unpack(button["callback_data"])) for button in buttons(markup)]


def actions(markup: Keyboard) -> list[tuple[str, HandCb]]:
    """The buttons that are not card toggles."""
    return [(text, cb) for text, cb in hand_buttons(markup) if cb.op is not HandOp.TOGGLE]


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


# -- cards ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "russian", "english"),
    [
        ("AS", "Т♠", "A♠"),
        ("KC", "К♣", "K♣"),
        ("QH", "Д♥️", "Q♥️"),
        ("JD", "В♦️", "J♦️"),
        ("TS", "10♠", "10♠"),
        ("9H", "9♥️", "9♥️"),
        ("6C", "6♣", "6♣"),
    ],
)
def test_card_labels_in_both_languages(ru: Translator, en: Translator, code: str, russian: str, english: str) -> None:
    card = Card.parse(code)
    assert card_text(card, ru) == russian
    assert card_text(card, en) == english


def test_trumps_are_marked_and_red_suits_stand_out(ru: Translator) -> None:
    assert card_text(Card.parse("TD"), ru, Suit.DIAMONDS) == "10♦️★"
    assert card_text(Card.parse("TS"), ru, Suit.DIAMONDS) == "10♠"
    assert cards_text(cards("QS 7S 9D"), ru, Suit.DIAMONDS) == "Д♠ 7♠ 9♦️★"
    assert "\ufe0f" in card_text(Card.parse("7H"), ru) and "\ufe0f" not in card_text(Card.parse("7S"), ru)


# -- the hand keyboard ---------------------------------------------------------------------------------------

# RULES §6.5 worked example: trump ♦, seat 0 leads Q♠ 7♠, seat 1 holds 9♦ J♠ 6♥.
WORKED = {"hands": {0: "QS 7S AH", 1: "9D JS 6H", 2: "KD 8D 9S"}, "trump": "7D", "stock": "TS KS 6S AS 8S 7H"}


def worked_match() -> Match:
    return stacked_match(BURA_STANDARD, [WORKED], players=3, dealer=2)


def hand(match: Match, seat: int, tr: Translator, selection: str = "") -> tuple[str, Keyboard]:
    return render_hand(
        view(match, seat), NAMES, tr, table_id=TABLE_ID, move=MOVE, title="Друзья", selection=cards(selection)
    )


def test_the_leader_sees_lead_buttons_only_for_legal_leads(ru: Translator) -> None:
    match = worked_match()
    assert match.to_act() == 0
    text, markup = hand(match, 0, ru)
    assert "Ваш ход" in text
    assert actions(markup) == [
        ("Отметьте карты для хода", HandCb(table=TABLE_ID, move=MOVE, op=HandOp.PLAY, cards="")),
        ("Вскрываюсь!", HandCb(table=TABLE_ID, move=MOVE, op=HandOp.CLAIM)),  # legal, if foolish, with no tricks
        ("🔄", HandCb(table=TABLE_ID, move=MOVE, op=HandOp.REFRESH)),
    ]
    _, markup = hand(match, 0, ru, "QS 7S")
    assert actions(markup)[0] == ("Ходить (2)", HandCb(table=TABLE_ID, move=MOVE, op=HandOp.PLAY, cards="7SQS"))
    _, markup = hand(match, 0, ru, "QS AH")  # two suits: no such lead, the tap lets the service explain
    assert actions(markup)[0] == ("⛔ Ходить (2)", HandCb(table=TABLE_ID, move=MOVE, op=HandOp.PLAY, cards="QSAH"))


def test_card_buttons_carry_the_selection_after_the_tap(ru: Translator) -> None:
    match = worked_match()
    _, markup = hand(match, 0, ru, "7S")
    toggles = [(text, cb.cards) for text, cb in hand_buttons(markup) if cb.op is HandOp.TOGGLE]
    assert toggles == [("✅ 7♠", ""), ("Д♠", "7SQS"), ("Т♥️", "7SAH")]


def test_selecting_the_two_cards_of_a_legal_answer_offers_to_beat_with_them(ru: Translator) -> None:
    match = worked_match()
    match.apply(Lead(0, cards("QS 7S")))
    text, markup = hand(match, 1, ru, "9D JS")
    assert "Ответьте 2 картами" in text
    assert "Д♠ 7♠" in text
    beat, discard, refresh = actions(markup)
    assert beat == ("Бить (2 из 2)", HandCb(table=TABLE_ID, move=MOVE, op=HandOp.PLAY, cards="JS9D"))
    assert RespondOpen(1, cards("JS 9D")) in view(match, 1).legal
    assert discard == ("Сбросить втёмную", HandCb(table=TABLE_ID, move=MOVE, op=HandOp.FACE_DOWN, cards="JS9D"))
    assert refresh[1].op is HandOp.REFRESH


def test_an_incomplete_or_overfull_answer_says_what_is_missing(ru: Translator) -> None:
    match = worked_match()
    match.apply(Lead(0, cards("QS 7S")))
    _, markup = hand(match, 1, ru, "9D")
    assert actions(markup)[:-1] == [
        ("Отметьте ещё 1 карту", HandCb(table=TABLE_ID, move=MOVE, op=HandOp.PLAY, cards="9D")),
        # UX.md: the face-down button is there from the start; tapped with the wrong marks it says why in an alert
        ("Сбросить втёмную", HandCb(table=TABLE_ID, move=MOVE, op=HandOp.FACE_DOWN, cards="9D")),
    ]
    _, markup = hand(match, 1, ru, "9D JS 6H")
    assert actions(markup)[:-1] == [
        ("Снимите отметку с 1 карты", HandCb(table=TABLE_ID, move=MOVE, op=HandOp.PLAY, cards="JS6H9D")),
        ("Сбросить втёмную", HandCb(table=TABLE_ID, move=MOVE, op=HandOp.FACE_DOWN, cards="JS6H9D")),
    ]


def test_an_open_answer_that_does_not_beat_says_so(ru: Translator) -> None:
    """RULES §6.4/§6.6: in classic Бура an answer that cannot beat may still go face up; its button does not
    promise to beat («Отдать открыто»), and the face-down one stands beside it."""
    match = worked_match()
    match.apply(Lead(0, cards("QS 7S")))
    assert RespondOpen(1, cards("JS 6H")) in view(match, 1).legal
    _, markup = hand(match, 1, ru, "JS 6H")
    give, discard = actions(markup)[:-1]
    assert give == ("Отдать открыто (2 из 2)", HandCb(table=TABLE_ID, move=MOVE, op=HandOp.PLAY, cards="JS6H"))
    assert discard == ("Сбросить втёмную", HandCb(table=TABLE_ID, move=MOVE, op=HandOp.FACE_DOWN, cards="JS6H"))


def test_a_waiting_player_gets_cards_without_actions(ru: Translator) -> None:
    match = worked_match()
    text, markup = hand(match, 2, ru, "KD")
    assert "Ходит Аня." in text
    assert [cb.op for _, cb in actions(markup)] == [HandOp.REFRESH]
    toggles = [text for text, cb in hand_buttons(markup) if cb.op is HandOp.TOGGLE]
    assert toggles == ["9♠", "8♦️★", "✅ К♦️★"]  # trumps gathered at the right


def test_the_hand_header_names_the_table_if_it_has_a_name(ru: Translator) -> None:
    match = worked_match()
    assert hand(match, 2, ru)[0].splitlines()[0] == "Стол «Друзья» · козырь ♦️ · в колоде 27"
    text, _ = render_hand(view(match, 2), NAMES, ru, table_id=1, move=1, title="")
    assert text.splitlines()[0] == "Козырь ♦️ · в колоде 27"


def test_stale_cards_in_the_selection_are_ignored(ru: Translator) -> None:
    match = worked_match()
    _, markup = hand(match, 0, ru, "KD QS")  # K♦ is not in seat 0's hand
    assert actions(markup)[0] == ("Ходить (1)", HandCb(table=TABLE_ID, move=MOVE, op=HandOp.PLAY, cards="QS"))


def molodka_match() -> Match:
    """Seat 1 holds a молодка (three hearts, trump ♦) and may take the lead from seat 0 with «Стоп!»."""
    return stacked_match(BURA_STANDARD, [{"hands": {0: "QS 7S AC", 1: "6H 7H 8H"}, "trump": "9D"}], dealer=1)


def test_a_molodka_holder_is_offered_stop_and_pass(ru: Translator) -> None:
    match = molodka_match()
    legal = view(match, 1).legal
    assert DeclareCombo(1, Combo.MOLODKA) in legal and Pass(1) in legal
    text, markup = hand(match, 1, ru)
    assert "У вас молодка" in text
    assert [(label, cb.op) for label, cb in actions(markup)] == [
        ("Стоп! (молодка)", HandOp.COMBO),
        ("Не объявлять", HandOp.PASS),
        ("🔄", HandOp.REFRESH),
    ]


def test_stop_is_announced_with_the_seized_lead_and_the_forced_lead_shown(ru: Translator) -> None:
    match = molodka_match()
    before = public_view(match)
    events = match.apply(DeclareCombo(1, Combo.MOLODKA))
    texts = render_announcements(events, NAMES, ru, trump=before.trump, teams=False)
    assert texts == ["Борис: «Стоп!» молодка 6♥️ 7♥️ 8♥️\nБорис перехватывает ход у игрока Аня."]
    text, _ = hand(match, 1, ru)
    assert "заходите картами комбинации 6♥️ 7♥️ 8♥️" in text
    table = render_table(public_view(match), NAMES, ru, title="", settings=TableSettings())
    assert "Показано: Борис — молодка 6♥️ 7♥️ 8♥️" in table


def claim_match() -> Match:
    """Seat 0 leads Т♠ 10♠ К♠ (25); seat 1 throws 10♣ 7♥ 8♣ face down: seat 0's pile holds 35, 3 face down."""
    match = stacked_match(BURA_STANDARD, [{"hands": {0: "AS TS KS", 1: "TC 7H 8C"}, "trump": "9D"}], dealer=1)
    match.apply(Lead(0, cards("AS TS KS")))
    match.apply(RespondFaceDown(1, cards("TC 7H 8C")))
    return match


def test_the_claim_button_appears_when_a_claim_is_legal(ru: Translator) -> None:
    match = claim_match()
    assert Claim(0) in view(match, 0).legal
    _, markup = hand(match, 0, ru)
    assert ("Вскрываюсь!", HandCb(table=TABLE_ID, move=MOVE, op=HandOp.CLAIM)) in actions(markup)
    _, markup = hand(match, 1, ru)
    assert HandOp.CLAIM not in [cb.op for _, cb in actions(markup)]


def test_a_claim_is_announced_with_the_revealed_pile_and_its_outcome(ru: Translator) -> None:
    match = claim_match()
    face_down_in_table = render_table(public_view(match), NAMES, ru, title="", settings=TableSettings())
    assert "10♣" not in face_down_in_table and BACK in face_down_in_table  # the last trick shows backs
    before = public_view(match)
    events = match.apply(Claim(0))
    (text,) = render_announcements(events, NAMES, ru, trump=before.trump, teams=False, settings=TableSettings())
    assert "Аня: «Вскрываюсь!»" in text
    assert "Взятки: Т♠ 10♠ К♠ 🂠→10♣ 🂠→7♥️ 🂠→8♣ = 35 очков ✅" in text
    assert "Сдачу берёт Аня." in text
    assert "Матч: Аня 1 · Борис 0" in text  # without the scores before, no change is shown
    assert "<b>Сдача 2</b>" in text  # the next deal starts in the same message
    assert_telegram_html(text)


def test_a_false_claim_is_announced_as_lost(ru: Translator, en: Translator) -> None:
    match = stacked_match(BURA_STANDARD, [{"hands": {0: "QS JS 7S", 1: "TC 7H 8C"}, "trump": "9D"}], dealer=1)
    match.apply(Lead(0, cards("QS JS 7S")))
    match.apply(RespondFaceDown(1, cards("TC 7H 8C")))
    before = public_view(match)
    events = match.apply(Claim(0))
    (text,) = render_announcements(events, NAMES, ru, trump=before.trump, teams=False)
    assert "= 15 очков ❌ нужно 31" in text
    assert "Аня: вскрытие ложное — сдача проиграна.\nСдачу берёт Борис." in text
    (english,) = render_announcements(events, NAMES, en, trump=before.trump, teams=False)
    assert "= 15 points ❌ 31 needed" in english and "Борис takes the deal." in english


def test_a_claim_with_no_tricks_shows_a_dash_and_the_score_shows_what_changed(ru: Translator) -> None:
    settings = TableSettings(match=MatchChoice.PENALTY_12)
    match = stacked_match(settings.variant(), [{"hands": {0: "QS JS 7S", 1: "TC 7H 8C"}, "trump": "9D"}], dealer=1)
    before = public_view(match)
    events = match.apply(Claim(0))
    (text,) = render_announcements(
        events, NAMES, ru, trump=before.trump, teams=False, settings=settings, scores_before=before.scores
    )
    assert "Взятки: — = 0 очков ❌ нужно 31" in text
    assert "Штрафные (до 12): Борис 0 · Аня 2 (+2)" in text


def test_an_instant_bura_is_announced_at_the_start(ru: Translator) -> None:
    match = stacked_match(BURA_STANDARD, [{"hands": {0: "QS 7S AC", 1: "6D 7D 8D"}, "trump": "9D"}], dealer=1)
    (text,) = render_announcements(match.start_events, NAMES, ru, trump=None, teams=False)
    assert "<b>Сдача 1</b>. Сдаёт Борис, козырь 9♦️★. Первым ходит Аня." in text
    assert "Борис: «Бура!» бура 6♦️★ 7♦️★ 8♦️★" in text
    assert "Сдачу берёт Борис." in text


def test_final_claim_window_offers_claim_and_pass(ru: Translator) -> None:
    rng = random.Random(7)
    for game in range(200):
        match = Match(BURA_STANDARD, 2, f"final/{game}")
        while not match.finished and match.deal.phase is not Phase.FINAL_CLAIM:
            match.apply(random_step(match, rng))
        if match.finished:
            continue
        seat = match.to_act()
        assert seat is not None
        text, markup = hand(match, seat, ru)
        assert "Последняя взятка ваша" in text
        assert [(label, cb.op) for label, cb in actions(markup)] == [
            ("Вскрываюсь!", HandOp.CLAIM),
            ("Не вскрываться", HandOp.PASS),
            ("🔄", HandOp.REFRESH),
        ]
        return
    pytest.fail("no final claim window in 200 random games")


def random_views(games: int, settings: TableSettings, players: int, seed: str) -> Iterable[tuple[Match, SeatView]]:
    rng = random.Random(seed)
    for game in range(games):
        match = Match(settings.variant(), players, f"{seed}/{game}")
        for _ in range(150):
            if match.finished:
                break
            for seat in match.active:
                yield match, view(match, seat)
            match.apply(random_step(match, rng))


@pytest.mark.parametrize(
    ("profile", "players"), [(Profile.BURA, 3), (Profile.BURKOZEL, 2), (Profile.KOZEL, 3), (Profile.BURA_5, 2)]
)
def test_every_legal_action_has_its_button_and_nothing_else_plays(
    ru: Translator, profile: Profile, players: int
) -> None:
    """Selecting the cards of any legal lead or answer offers exactly that action; ops match view.legal."""
    for _match, seat_view in random_views(3, TableSettings(profile=profile), players, f"legal/{profile}"):
        legal = seat_view.legal
        for action in legal:
            if not isinstance(action, Lead | RespondOpen | RespondFaceDown):
                continue
            _, markup = render_hand(
                seat_view, NAMES, ru, table_id=TABLE_ID, move=MOVE, title="t", selection=action.cards
            )
            assert_keyboard_limits(markup)
            played = {
                (cb.op, frozenset(unpack_cards(cb.cards)))
                for label, cb in actions(markup)
                if cb.op in (HandOp.PLAY, HandOp.FACE_DOWN) and not label.startswith("⛔")
            }
            op = HandOp.FACE_DOWN if isinstance(action, RespondFaceDown) else HandOp.PLAY
            assert (op, frozenset(action.cards)) in played
            for op_played, chosen in played:  # every playing button is a legal action
                kind = RespondFaceDown if op_played is HandOp.FACE_DOWN else (Lead, RespondOpen)
                assert any(isinstance(a, kind) and frozenset(a.cards) == chosen for a in legal)
        _, markup = render_hand(seat_view, NAMES, ru, table_id=TABLE_ID, move=MOVE, title="t")
        ops = {cb.op for _, cb in actions(markup)}
        assert (HandOp.CLAIM in ops) == any(isinstance(a, Claim) for a in legal)
        assert (HandOp.COMBO in ops) == any(isinstance(a, DeclareCombo) for a in legal)
        assert (HandOp.PASS in ops) == any(isinstance(a, Pass) for a in legal)
        assert (HandOp.PLAY in ops) == any(isinstance(a, Lead | RespondOpen | RespondFaceDown) for a in legal)


# -- the table -----------------------------------------------------------------------------------------------


def test_the_table_shows_the_trick_with_backs_and_the_beating_set(ru: Translator) -> None:
    match = worked_match()
    match.apply(Lead(0, cards("QS 7S")))
    match.apply(RespondOpen(1, cards("9D JS")))
    text = render_table(public_view(match), NAMES, ru, title="Друзья", settings=TableSettings(), deadline_text="0:45")
    assert text.splitlines()[:3] == [
        "🃏 <b>Друзья</b> · Бура · сдача 1 · матч до 11 побед",
        "Козырь ♦️ (под колодой 7♦️★) · в колоде 27 карт",
        "Сдавал Вика · отвечает Вика ⏳ 0:45",
    ]
    assert "  Аня  Д♠ 7♠\n  Борис  9♦️★ В♠   ← бьёт" in text
    assert "Взятки: Аня 0 · Борис 0 · Вика 0" in text
    assert "Матч: Аня 0 · Борис 0 · Вика 0" in text
    assert "Очки" not in text  # strict rules hide captured points
    match.apply(RespondFaceDown(2, cards("KD 8D")))
    text = render_table(public_view(match), NAMES, ru, title="", settings=TableSettings())
    assert "Взятка 1 → Борис: Аня Д♠ 7♠ · Борис 9♦️★ В♠ · Вика 🂠 🂠" in text
    assert "К♦️" not in text and "8♦️" not in text
    assert_telegram_html(text)
    # The next trick is led: the last one taken stays on view above it (a computer leads a second after it takes).
    match.apply(next(action for action in match.legal_actions(1) if isinstance(action, Lead)))
    lines = render_table(public_view(match), NAMES, ru, title="", settings=TableSettings()).splitlines()
    taken = lines.index("Взятка 1 → Борис: Аня Д♠ 7♠ · Борис 9♦️★ В♠ · Вика 🂠 🂠")
    assert lines[taken + 1] == "<b>Взятка 2</b>" and lines[taken + 2].startswith("  Борис  ")


def test_a_finished_match_names_its_winner(ru: Translator) -> None:
    settings = TableSettings(match=MatchChoice.SINGLE_DEAL)
    match = stacked_match(settings.variant(), [{"hands": {0: "QS 7S AC", 1: "6D 7D 8D"}, "trump": "9D"}], dealer=1)
    assert match.finished  # Борис was dealt a bura
    text = render_table(public_view(match), NAMES, ru, title="", settings=settings)
    assert "одна сдача" in text.splitlines()[0]
    assert "Матч окончен." in text and text.endswith("🏆 Борис выигрывает матч!")
    assert "Матч:" not in text  # a single deal has no running score


def test_casual_tables_show_points_and_penalty_matches_are_labelled(ru: Translator) -> None:
    settings = TableSettings(casual=True, match=MatchChoice.PENALTY_12)
    match = Match(settings.variant(), 2, "casual")
    text = render_table(public_view(match), NAMES, ru, title="", settings=settings)
    assert "Очки: Аня 0 · Борис 0" in text
    assert "Штрафные (до 12): Аня 0 · Борис 0" in text
    assert "до 12 штрафных" in text.splitlines()[0]


def test_pairs_are_shown_as_pairs_of_names(ru: Translator, en: Translator) -> None:
    settings = TableSettings(profile=Profile.BURKOZEL)
    match = Match(settings.variant(), 4, "pairs")
    assert match.teams
    text = render_table(public_view(match), NAMES, ru, title="", settings=settings)
    assert "Взятки: Аня и Вика 0 · Борис и Гена 0" in text
    assert "Буркозёл" in text.splitlines()[0]
    assert "Teams" not in text
    english = render_table(public_view(match), NAMES, en, title="", settings=settings)
    assert "Tricks: Аня & Вика 0 · Борис & Гена 0" in english


def test_pot_matches_show_chips_and_the_pot(ru: Translator) -> None:
    settings = TableSettings(profile=Profile.KOZEL)
    match = Match(settings.variant(), 3, "pot")
    text = render_table(public_view(match), NAMES, ru, title="", settings=settings)
    assert "Фишки: Аня −1 · Борис −1 · Вика −1 · в банке 3" in text  # everyone antes
    assert "на банк, 20 сдач" in text.splitlines()[0]


EVIL = {0: "<b>Аня & Co</b>", 1: "Борис</i>", 2: '"Вика"', 3: "<script>"}


def test_names_are_escaped_everywhere(ru: Translator) -> None:
    match = claim_match()
    table = render_table(public_view(match), EVIL, ru, title="<i>t", settings=TableSettings(), deadline_text="<1>")
    assert "&lt;b&gt;Аня &amp; Co&lt;/b&gt;" in table and "Борис&lt;/i&gt;" in table and "&lt;i&gt;t" in table
    assert_telegram_html(table)
    text, _ = render_hand(view(match, 0), EVIL, ru, table_id=1, move=1, title="<i>t")
    assert "&lt;i&gt;t" in text
    assert_telegram_html(text)
    before = public_view(match)
    for announcement in render_announcements(match.apply(Claim(0)), EVIL, ru, trump=before.trump, teams=False):
        assert "&lt;b&gt;Аня &amp; Co&lt;/b&gt;" in announcement
        assert_telegram_html(announcement)
    lobby, _ = render_lobby(TableSettings(), [(EVIL[0], False), (EVIL[3], True)], ru, table_id=1, creator=EVIL[0])
    assert "&lt;script&gt;" in lobby and "<script>" not in lobby
    assert_telegram_html(lobby)


def test_every_text_is_telegram_html_and_callbacks_parse_back(ru: Translator, en: Translator) -> None:
    for tr in (ru, en):
        for settings, players in ((TableSettings(), 3), (TableSettings(profile=Profile.BURKOZEL), 4)):
            rng = random.Random(f"html/{tr.language}/{players}")
            match = Match(settings.variant(), players, f"html/{players}")
            events = list(match.start_events)
            trump: Suit | None = None
            for _ in range(400):
                if match.finished:
                    break
                for text in render_announcements(events, NAMES, tr, trump=trump, teams=match.teams, settings=settings):
                    assert_telegram_html(text)
                table = render_table(public_view(match), NAMES, tr, title="x", settings=settings, deadline_text="1:00")
                assert_telegram_html(table)
                for seat in match.active:
                    text, markup = render_hand(view(match, seat), NAMES, tr, table_id=TABLE_ID, move=MOVE, title="x")
                    assert_telegram_html(text)
                    assert_keyboard_limits(markup)
                    for _, cb in hand_buttons(markup):
                        assert cb.table == TABLE_ID and cb.move == MOVE
                trump = match.deal.trump
                events = match.apply(random_step(match, rng))


# -- lobby and settings -------------------------------------------------------------------------------------


def test_the_lobby_lists_players_and_offers_its_buttons(ru: Translator) -> None:
    text, markup = render_lobby(
        TableSettings(), [("Аня", False), ("Борис", False), ("Компьютер 1", True)], ru, table_id=7, creator="Аня"
    )
    assert text.splitlines() == [
        "🃏 Бура — набираем стол (2–6 игроков)",
        "Правила: классика, 3 карты на руках, до 31 · матч до 11 побед · ход 60 с",
        "Игроки: Аня (создатель), Борис, 🤖 Компьютер 1 (играет просто)",
    ]
    ops = []
    for button in buttons(markup):
        callback = LobbyCb.unpack(button["callback_data"])
        assert callback.table == 7
        ops.append(callback.op)
    assert ops == [
        LobbyOp.JOIN,
        LobbyOp.LEAVE,
        LobbyOp.START,
        LobbyOp.SETTINGS,
        LobbyOp.CANCEL,
        LobbyOp.ADD_COMPUTER,
        LobbyOp.REMOVE_COMPUTER,  # a computer sits: it may be asked to leave
    ]
    assert_keyboard_limits(markup)
    empty, markup = render_lobby(TableSettings(), [], ru, table_id=7, creator="Аня")
    assert "Игроки: пока никого" in empty
    assert LobbyOp.REMOVE_COMPUTER not in [LobbyCb.unpack(b["callback_data"]).op for b in buttons(markup)]


def test_lobby_rules_follow_the_profile(en: Translator) -> None:
    text, _ = render_lobby(TableSettings(profile=Profile.BURKOZEL, move_seconds=0), [], en, table_id=1, creator="x")
    assert "Rules: Burkozel, 4 cards in hand, by points, no claims · to 12 penalty points · no timer" in text


def test_the_lobby_names_its_game_and_its_computers_level(ru: Translator) -> None:
    settings = TableSettings(profile=Profile.BURKOZEL, computer_level=ComputerLevel.HARD)
    text, _ = render_lobby(settings, [("Аня", False), ("Компьютер 1", True)], ru, table_id=1, creator="Аня")
    assert text.splitlines()[0] == "🃏 Буркозёл — набираем стол (2–4 игрока)"
    assert text.splitlines()[-1] == "Игроки: Аня (создатель), 🤖 Компьютер 1 (играет сильно)"


def apply_setting(settings: TableSettings, key: str, code: str) -> TableSettings:
    return TableSettings.model_validate({**settings.model_dump(mode="json"), SETTING_FIELDS[key]: code})


def test_each_settings_button_cycles_its_setting_through_every_choice(ru: Translator) -> None:
    for key, choices in SETTING_CHOICES.items():
        settings = TableSettings()
        seen = []
        for _ in choices:
            _, markup = render_settings(settings, ru, table_id=TABLE_ID)
            assert_keyboard_limits(markup)
            taps = {}
            for button in buttons(markup):
                callback = SettingCb.unpack(button["callback_data"])
                assert callback.table == TABLE_ID
                taps[callback.key] = (button["text"], callback.value)
            assert taps["done"][1] == ""
            text, code = taps[key]
            assert "setting-" not in text  # every value has its words
            assert code == next_code(settings, key)
            settings = apply_setting(settings, key, code)
            seen.append(code)
        assert sorted(seen) == sorted(choices)  # all of them, and back where it started
        assert settings == TableSettings()


def test_the_match_setting_is_offered_only_where_the_table_may_choose(ru: Translator) -> None:
    _, markup = render_settings(TableSettings(profile=Profile.KOZEL), ru, table_id=1)
    keys = [SettingCb.unpack(b["callback_data"]).key for b in buttons(markup)]
    assert "match" not in keys and "profile" in keys and keys[-1] == "done"


# -- reasons ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("reason", list(Reason))
def test_every_reason_has_a_short_alert_in_both_languages(ru: Translator, en: Translator, reason: Reason) -> None:
    for tr in (ru, en):
        text = reason_text(reason, tr)
        assert text != f"reason-{reason.value}"
        assert 0 < len(text) <= 200
    assert reason_text(reason, ru) != reason_text(reason, en)
