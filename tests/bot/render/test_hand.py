"""The hand message and its keyboard: what the moment asks, what the marks lack, the claim asked twice, the
forced lead in one tap, the story of what just happened; in Russian and in English."""

from __future__ import annotations

import random

import pytest

from bot.games.base import HandStory
from bot.games.bura import render_hand
from bot.games.bura.buttons import HandOp, unpack_cards
from bot.games.bura.hand import CARDS_A_ROW
from bot.games.bura.settings import Profile
from bot.i18n import Translator
from bot.table_settings import TableSettings
from engine.bura.actions import Claim, DeclareCombo, Lead, Pass, RespondFaceDown, RespondOpen
from engine.bura.cards import cards
from engine.bura.combos import Combo
from engine.bura.deal import Phase
from engine.bura.errors import Reason
from engine.bura.match import Match
from engine.bura.players import random_step
from engine.bura.variant import BURA_5, BURA_STANDARD
from engine.bura.views import view
from tests.bot.render.conftest import (
    MOVE,
    NAMES,
    TABLE_ID,
    actions,
    assert_keyboard_limits,
    assert_telegram_html,
    cb,
    claim_match,
    hand,
    hand_buttons,
    molodka_match,
    random_views,
    worked_match,
)
from tests.engine.bura.stack import stacked_match


def test_the_leader_is_told_what_to_do_and_gets_a_lead_button_only_for_a_legal_lead(ru: Translator) -> None:
    match = worked_match()
    assert match.to_act() == 0
    text, markup = hand(match, 0, ru)
    assert "Ваш ход: отметьте карты одной масти и нажмите «Ходить»." in text
    assert text.count("тметьте") == 1  # the hint is a line of the text, once, not a button
    assert actions(markup) == [("🔄 Обновить", cb(HandOp.REFRESH))]
    _, markup = hand(match, 0, ru, "QS 7S")
    assert actions(markup)[0] == ("Ходить (2)", cb(HandOp.PLAY, "7SQS"))
    text, markup = hand(match, 0, ru, "QS AH")  # two suits: no such lead, and the text says why
    assert [c.op for _, c in actions(markup)] == [HandOp.REFRESH]
    assert "Эти карты так не сыграть." in text
    text, _ = hand(match, 0, ru, "QS AH", story=HandStory(refusal=Reason.MIXED_SUITS))
    assert "Заходить можно только картами одной масти." in text  # the engine's reason, from the service


def test_a_partial_lead_says_it_may_grow(ru: Translator, en: Translator) -> None:
    match = worked_match()
    text, markup = hand(match, 0, ru, "7S")
    assert "Можно отметить ещё 1 карту — или ходите отмеченными." in text
    assert actions(markup)[0] == ("Ходить (1)", cb(HandOp.PLAY, "7S"))
    text, _ = hand(match, 0, en, "7S")
    assert "You may mark 1 more card — or lead the ones marked." in text


def test_card_buttons_carry_the_selection_after_the_tap_four_a_row(ru: Translator) -> None:
    match = worked_match()
    _, markup = hand(match, 0, ru, "7S")
    toggles = [(text, c.cards) for text, c in hand_buttons(markup) if c.op == HandOp.TOGGLE]
    assert toggles == [("✅ 7♠️", ""), ("Д♠️", "7SQS"), ("Т♥️", "7SAH")]
    five = stacked_match(BURA_5, [{"hands": {0: "AS TS KS QS JS", 1: "6H 7H 8H 9H TH"}, "trump": "9D"}], dealer=1)
    _, markup = hand(five, 0, ru)
    rows = [[b["text"] for b in row] for row in markup["inline_keyboard"]]
    assert [len(row) for row in rows[:2]] == [CARDS_A_ROW, 1], "five cards: four a row, then one"


def test_suits_are_drawn_alike_the_trump_named_in_words_and_marked_on_buttons_only(
    ru: Translator, en: Translator
) -> None:
    match = worked_match()
    text, markup = hand(match, 2, ru)
    assert text.splitlines()[0] == "Стол «Друзья» · козырь — бубны ♦️ · в колоде 27"
    assert "★" not in text
    toggles = [label for label, c in hand_buttons(markup) if c.op == HandOp.TOGGLE]
    assert toggles == ["9♠️", "8♦️★", "К♦️★"], "trumps gathered at the right, marked on their buttons"
    english, _ = hand(match, 2, en)
    assert english.splitlines()[0] == "Table “Друзья” · trump: diamonds ♦️ · 27 in the stock"


def test_an_answer_offers_beat_and_face_down(ru: Translator) -> None:
    match = worked_match()
    match.apply(Lead(0, cards("QS 7S")))
    text, markup = hand(match, 1, ru, "9D JS")
    assert "Ответьте 2 картами: побейте или сбросьте втёмную." in text
    assert "  Аня  Д♠️ 7♠️" in text
    beat, discard, refresh = actions(markup)
    assert beat == ("Бить (2 из 2)", cb(HandOp.PLAY, "JS9D"))
    assert RespondOpen(1, cards("JS 9D")) in view(match, 1).legal
    assert discard == ("Сбросить втёмную", cb(HandOp.FACE_DOWN, "JS9D"))
    assert refresh[1].op == HandOp.REFRESH


def test_an_incomplete_or_overfull_answer_says_what_is_missing_in_the_text(ru: Translator) -> None:
    match = worked_match()
    match.apply(Lead(0, cards("QS 7S")))
    text, markup = hand(match, 1, ru, "9D")
    assert "Отметьте ещё 1 карту." in text
    # the face-down button is there from the start; tapped with the wrong marks it says why in an alert
    assert actions(markup)[:-1] == [("Сбросить втёмную", cb(HandOp.FACE_DOWN, "9D"))]
    text, markup = hand(match, 1, ru, "9D JS 6H")
    assert "Снимите отметку с 1 карты." in text
    assert actions(markup)[:-1] == [("Сбросить втёмную", cb(HandOp.FACE_DOWN, "JS6H9D"))]


def test_an_open_answer_that_does_not_beat_says_so(ru: Translator) -> None:
    """RULES §6.4/§6.6: in classic Бура an answer that cannot beat may still go face up; its button does not
    promise to beat («Сбросить открыто»), and the face-down one stands beside it."""
    match = worked_match()
    match.apply(Lead(0, cards("QS 7S")))
    assert RespondOpen(1, cards("JS 6H")) in view(match, 1).legal
    _, markup = hand(match, 1, ru, "JS 6H")
    give, discard = actions(markup)[:-1]
    assert give == ("Сбросить открыто (2 из 2)", cb(HandOp.PLAY, "JS6H"))
    assert discard == ("Сбросить втёмную", cb(HandOp.FACE_DOWN, "JS6H"))


def test_a_waiting_player_gets_cards_without_actions(ru: Translator) -> None:
    match = worked_match()
    text, markup = hand(match, 2, ru, "KD")
    assert "Ходит Аня." in text
    assert [c.op for _, c in actions(markup)] == [HandOp.REFRESH]


def test_stale_cards_in_the_selection_are_ignored(ru: Translator) -> None:
    match = worked_match()
    _, markup = hand(match, 0, ru, "KD QS")  # K♦ is not in seat 0's hand
    assert actions(markup)[0] == ("Ходить (1)", cb(HandOp.PLAY, "QS"))


def test_a_molodka_holder_is_offered_stop_in_one_tap_and_pass(ru: Translator) -> None:
    match = molodka_match()
    legal = view(match, 1).legal
    assert DeclareCombo(1, Combo.MOLODKA) in legal and Pass(1) in legal
    text, markup = hand(match, 1, ru)
    assert "У вас молодка — нажмите «Стоп!», чтобы забрать ход." in text
    assert [(label, c.op) for label, c in actions(markup)] == [
        ("Стоп! (молодка)", HandOp.COMBO),
        ("Не объявлять", HandOp.PASS),
        ("🔄 Обновить", HandOp.REFRESH),
    ]


def test_a_forced_lead_after_stop_is_one_tap_and_offers_no_claim(ru: Translator, en: Translator) -> None:
    """RULES §9.3: the seizer leads his molodka whole: one button plays it (no cards to mark); with no trick
    taken there is no claim to offer."""
    match = molodka_match()
    match.apply(DeclareCombo(1, Combo.MOLODKA))
    text, markup = hand(match, 1, ru)
    assert "Ваш ход: заходите показанной комбинацией 6♥️ 7♥️ 8♥️." in text
    assert actions(markup)[0] == ("Зайти молодкой 6♥️ 7♥️ 8♥️", cb(HandOp.PLAY, "6H7H8H"))
    assert HandOp.TOGGLE not in [c.op for _, c in hand_buttons(markup)]  # nothing to mark
    assert HandOp.CLAIM_ASK not in [c.op for _, c in actions(markup)]
    assert Lead(1, cards("6H 7H 8H")) in view(match, 1).legal
    _, english = hand(match, 1, en)
    assert actions(english)[0][0] == "Lead the molodka 6♥️ 7♥️ 8♥️"


def test_no_claim_with_no_trick_taken(ru: Translator) -> None:
    """A claim with no trick is false by construction: the button is not offered, though the rules allow it."""
    match = worked_match()
    assert Claim(0) in view(match, 0).legal
    _, markup = hand(match, 0, ru)
    assert HandOp.CLAIM_ASK not in [c.op for _, c in actions(markup)]


def test_a_claim_asks_once_and_sits_alone_on_the_last_row(ru: Translator, en: Translator) -> None:
    match = claim_match()
    assert Claim(0) in view(match, 0).legal
    text, markup = hand(match, 0, ru, "9D")
    rows = markup["inline_keyboard"]
    assert [b["text"] for b in rows[-1]] == ["Вскрываюсь!"], "alone, at the bottom"
    assert actions(markup)[-1][1] == cb(HandOp.CLAIM_ASK, "")
    assert "Набрали 31? Можно вскрыться — кнопка внизу." in text
    text, markup = hand(match, 0, ru, confirm_claim=True)
    assert text.splitlines()[-1] == "Вскрыться? Взяток: 1. Если в них меньше 31 очка, сдача проиграна."
    assert hand_buttons(markup) == [("✅ Вскрываюсь", cb(HandOp.CLAIM)), ("Отмена", cb(HandOp.TOGGLE))]
    _, english = hand(match, 0, en)
    assert english["inline_keyboard"][-1][0]["text"] == "Claim 31!"
    _, markup = hand(match, 1, ru)
    assert HandOp.CLAIM_ASK not in [c.op for _, c in actions(markup)]


def test_the_final_claim_window_asks_and_offers_pass(ru: Translator) -> None:
    rng = random.Random(7)
    for game in range(300):
        match = Match(BURA_STANDARD, 2, f"final/{game}")
        while not match.finished and match.deal.phase is not Phase.FINAL_CLAIM:
            match.apply(random_step(match, rng))
        if match.finished:
            continue
        seat = match.to_act()
        assert seat is not None
        text, markup = hand(match, seat, ru)
        assert "Последняя взятка ваша: вскрываетесь?" in text
        assert [(label, c.op) for label, c in actions(markup)] == [
            ("Не вскрываться", HandOp.PASS),
            ("🔄 Обновить", HandOp.REFRESH),
            ("Вскрываюсь!", HandOp.CLAIM_ASK),
        ]
        return
    pytest.fail("no final claim window in 300 random games")


def test_the_hand_tells_the_last_trick_and_the_notes_it_is_given(ru: Translator) -> None:
    match = worked_match()
    match.apply(Lead(0, cards("QS 7S")))
    match.apply(RespondOpen(1, cards("9D JS")))
    match.apply(RespondFaceDown(2, cards("KD 8D")))
    story = HandStory(notes=["⏳ Время вышло — бот сыграл за вас: 2 карты втёмную."])
    text, _ = hand(match, 2, ru, story=story)
    assert "⏳ Время вышло — бот сыграл за вас: 2 карты втёмную." in text
    assert "Взятка 1: Аня Д♠️ 7♠️ · Борис 9♦️ В♠️ · Вика 🂠→К♦️ 🂠→8♦️ → Борис" in text, "she knows her own"
    other, _ = hand(match, 0, ru)
    assert "Взятка 1: Аня Д♠️ 7♠️ · Борис 9♦️ В♠️ · Вика 🂠 🂠 → Борис" in other, "the others see backs"
    assert "Ваши взятки: 0" in text


def test_a_paused_table_shows_the_hand_without_a_move(ru: Translator) -> None:
    match = worked_match()
    text, markup = hand(match, 0, ru, paused=True)
    assert text.endswith("⏸ Игра на паузе: бот не может писать в группе.")
    assert actions(markup) == [("🔄 Обновить", cb(HandOp.REFRESH))]
    assert not [c for _, c in hand_buttons(markup) if c.op == HandOp.TOGGLE]


def test_a_private_game_carries_the_table_in_the_hand(ru: Translator) -> None:
    match = worked_match()
    text, _ = hand(match, 0, ru, story=HandStory(table_text="🃏 <b>Бура</b> · сдача 1", notes=["Сдача 1."]))
    lines = text.splitlines()
    assert lines[0] == "🃏 <b>Бура</b> · сдача 1" and "Стол «" not in text
    assert lines[2] == "Сдача 1."


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
            text, markup = render_hand(
                seat_view, NAMES, ru, table_id=TABLE_ID, move=MOVE, title="t", selection=action.cards
            )
            assert_keyboard_limits(markup)
            assert_telegram_html(text)
            played = {
                (c.op, frozenset(unpack_cards(c.cards)))
                for _, c in actions(markup)
                if c.op in (HandOp.PLAY, HandOp.FACE_DOWN)
            }
            op = HandOp.FACE_DOWN if isinstance(action, RespondFaceDown) else HandOp.PLAY
            assert (op, frozenset(action.cards)) in played
            for op_played, chosen in played:  # every playing button is a legal action, but face down's
                if op_played == HandOp.FACE_DOWN:
                    assert any(isinstance(a, RespondFaceDown) for a in legal)
                    continue
                assert any(isinstance(a, Lead | RespondOpen) and frozenset(a.cards) == chosen for a in legal)
        _, markup = render_hand(seat_view, NAMES, ru, table_id=TABLE_ID, move=MOVE, title="t")
        ops = {c.op for _, c in actions(markup)}
        tricks = seat_view.table.tricks_won[seat_view.side]
        assert (HandOp.CLAIM_ASK in ops) == (any(isinstance(a, Claim) for a in legal) and tricks > 0)
        assert (HandOp.COMBO in ops) == any(isinstance(a, DeclareCombo) for a in legal)
        assert (HandOp.PASS in ops) == any(isinstance(a, Pass) for a in legal)
