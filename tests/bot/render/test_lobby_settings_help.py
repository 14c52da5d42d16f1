"""The lobby, the settings as lists of choices, /help that follows the table's rules, and the refusals."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot.games.bura.settings import MatchChoice, Profile, variant
from bot.i18n import Translator
from bot.render.keyboard import Keyboard, buttons
from bot.render.lobby import (
    BACK_KEY,
    OPEN_CHOICES,
    LobbyPlayer,
    menu_row,
    render_lobby,
    render_remove_choices,
    render_setting_choices,
    render_settings,
)
from bot.render.reasons import reason_text
from bot.services.guide import help_text
from bot.services.settings_menu import game_terms
from bot.table_settings import ComputerLevel, TableSettings
from bot.telegram.callbacks import LobbyCb, LobbyOp, RemoveCb, SettingCb
from engine.bura.errors import Reason
from tests.bot.render.conftest import TABLE_ID, assert_keyboard_limits, assert_telegram_html


def lobby(
    settings: TableSettings, players: Sequence[LobbyPlayer], tr: Translator, *, table_id: int
) -> tuple[str, Keyboard]:
    """The lobby as the lobby service draws it: told its game's terms."""
    return render_lobby(settings, game_terms(settings, tr), players, tr, table_id=table_id)


def settings_menu(settings: TableSettings, tr: Translator, *, table_id: int) -> tuple[str, Keyboard]:
    return render_settings(settings, game_terms(settings, tr), tr, table_id=table_id)


def test_the_lobby_lists_players_and_offers_its_buttons(ru: Translator) -> None:
    players = [LobbyPlayer("Аня", 1, creator=True), LobbyPlayer("Борис", 2), LobbyPlayer("🤖 Компьютер", None)]
    text, markup = lobby(TableSettings(), players, ru, table_id=7)
    assert text.splitlines() == [
        "🃏 Бура — собираем стол (2–6 игроков)",
        "Правила: Бура (классика), 3 карты на руках, вскрываются на 31 · матч до 11 побед · 1 мин на ход",
        "Игроки: Аня (собирает стол), Борис, 🤖 Компьютер (слабый)",
    ]
    ops = [LobbyCb.unpack(button["callback_data"]).op for button in buttons(markup)]
    assert ops == [
        LobbyOp.JOIN,
        LobbyOp.LEAVE,
        LobbyOp.START,
        LobbyOp.SETTINGS,
        LobbyOp.CANCEL,
        LobbyOp.ADD_COMPUTER,
        LobbyOp.REMOVE_COMPUTER,  # a computer sits: it may be asked to leave
        LobbyOp.REMOVE_PLAYER,  # Борис sits beside the creator: he may be removed
    ]
    assert_keyboard_limits(markup)
    empty, markup = lobby(TableSettings(), [], ru, table_id=7)
    assert "Игроки: пока никого" in empty
    ops = [LobbyCb.unpack(b["callback_data"]).op for b in buttons(markup)]
    assert LobbyOp.REMOVE_COMPUTER not in ops and LobbyOp.REMOVE_PLAYER not in ops


def test_the_creator_is_known_by_his_id_not_his_name(ru: Translator) -> None:
    """Two people called Alice: only the one who opened the table is marked as its creator (issue 35)."""
    players = [LobbyPlayer("Alice", 1, creator=True), LobbyPlayer("Alice", 2)]
    text, markup = lobby(TableSettings(), players, ru, table_id=7)
    assert text.splitlines()[-1] == "Игроки: Alice (собирает стол), Alice"
    text, markup = render_remove_choices(players, ru, table_id=7)
    assert text == "Кого убрать из-за стола?"
    rows = markup["inline_keyboard"]
    assert [row[0]["text"] for row in rows] == ["✖️ Alice", "↩️ Назад"]
    assert RemoveCb.unpack(rows[0][0]["callback_data"]) == RemoveCb(table=7, user=2)
    assert_keyboard_limits(markup)


def test_lobby_rules_follow_the_profile_with_times_in_one_unit(en: Translator, ru: Translator) -> None:
    text, _ = lobby(TableSettings(profile=Profile.BURKOZEL, move_seconds=0), [], en, table_id=1)
    assert "Rules: Burkozel, 4 cards in hand, points decide the deal · to 12 penalty points · no move timer" in text
    text, _ = lobby(TableSettings(move_seconds=300), [], ru, table_id=1)
    assert "5 мин на ход" in text and "300" not in text
    text, _ = lobby(TableSettings(move_seconds=30), [], ru, table_id=1)
    assert "30 с на ход" in text


def test_the_lobby_names_its_game_and_its_computers_level(ru: Translator) -> None:
    settings = TableSettings(profile=Profile.BURKOZEL, computer_level=ComputerLevel.HARD)
    players = [
        LobbyPlayer("Аня", 1, creator=True),
        LobbyPlayer("🤖 Компьютер 1", None),
        LobbyPlayer("🤖 Компьютер 2", None),
    ]
    text, _ = lobby(settings, players, ru, table_id=1)
    assert text.splitlines()[0] == "🃏 Буркозёл — собираем стол (2–4 игрока)"
    assert text.splitlines()[-1] == "Игроки: Аня (собирает стол), 🤖 Компьютер 1 (сильный), 🤖 Компьютер 2 (сильный)"


def test_the_settings_menu_shows_each_value_and_a_row_opens_its_choices(ru: Translator) -> None:
    text, markup = settings_menu(TableSettings(), ru, table_id=TABLE_ID)
    assert_keyboard_limits(markup)
    rows = {
        SettingCb.unpack(b["callback_data"]).key: (b["text"], SettingCb.unpack(b["callback_data"]).value)
        for b in buttons(markup)
    }
    assert rows["profile"] == ("Правила: Бура (классика)", OPEN_CHOICES)
    assert rows["timer"] == ("Время на ход: 1 мин", OPEN_CHOICES)
    assert rows["takeover"] == ("Если игрок ушёл: играет компьютер", OPEN_CHOICES)
    assert rows["casual"] == ("Свои очки: не показывать", OPEN_CHOICES)
    assert rows["done"][1] == ""
    assert "Нажмите на строку, чтобы выбрать значение." in text


def test_the_menu_has_the_rules_then_the_games_own_settings_then_every_tables(ru: Translator) -> None:
    keys = [row.key for row in game_terms(TableSettings(), ru).menu]
    assert keys == ["profile", "match", "discards", "casual", "timer", "language", "takeover", "level"]
    keys = [row.key for row in game_terms(TableSettings(profile="buraco"), ru).menu]
    assert keys == ["profile", "timer", "language", "takeover", "level"]


@pytest.mark.parametrize("key", ["profile", "match", "discards", "casual", "timer", "language", "takeover", "level"])
def test_every_setting_lists_its_choices_described_with_the_current_one_marked(
    ru: Translator, en: Translator, key: str
) -> None:
    settings = TableSettings()
    for tr in (ru, en):
        row = menu_row(game_terms(settings, tr), key)
        assert row is not None
        text, markup = render_setting_choices(row, tr, table_id=TABLE_ID)
        assert_keyboard_limits(markup)
        assert_telegram_html(text)
        taps = [SettingCb.unpack(b["callback_data"]) for b in buttons(markup)]
        assert [tap.value for tap in taps[:-1]] == list(row.choices)
        assert taps[-1].key == BACK_KEY
        labels = [b["text"] for b in buttons(markup)][:-1]
        assert sum(label.startswith("✅ ") for label in labels) == 1, "the current value is marked"
        assert all("setting-" not in label for label in labels)
        lines = text.splitlines()[1:]
        assert len(lines) == len(row.choices) and all(" — " in line for line in lines), "each described"
        for tap in taps[:-1]:  # and each choice is a value the settings take, shown as the current one then
            chosen = settings.with_code(key, tap.value)
            assert menu_row(game_terms(chosen, tr), key) == row._replace(current=tap.value)


def profile_choices(tr: Translator) -> str:
    row = menu_row(game_terms(TableSettings(), tr), "profile")
    assert row is not None
    return render_setting_choices(row, tr, table_id=1)[0]


def test_rule_sets_are_named_by_what_they_are(ru: Translator, en: Translator) -> None:
    text = profile_choices(ru)
    assert "Бура (как на pagat.com)" in text and "Козёл (на фишки)" in text and "Pagat" not in text
    assert "Бурако" in text
    text = profile_choices(en)
    assert "Bura (pagat.com rules)" in text and "Kozel (for chips)" in text


def test_the_match_setting_is_offered_only_where_the_table_may_choose(ru: Translator) -> None:
    for fixed in (Profile.KOZEL, Profile.BURKOZEL, Profile.KOZEL_POINTS):
        _, markup = settings_menu(TableSettings(profile=fixed), ru, table_id=1)
        keys = [SettingCb.unpack(b["callback_data"]).key for b in buttons(markup)]
        assert "match" not in keys and "profile" in keys and keys[-1] == "done"
    assert (
        variant(TableSettings(profile=Profile.KOZEL_POINTS, options={"match": MatchChoice.ROBBER})).match.kind.value
        == "burkozel"
    )


def test_help_follows_the_tables_rules(ru: Translator, en: Translator) -> None:
    bura = help_text(TableSettings(), ru)
    assert "<b>Бура</b>" in bura and "по 3 карты" in bura and "«Вскрываюсь!»" in bura
    assert "ложное вскрытие" in bura and "добирают из колоды" in bura and "молодка" in bura
    assert "/new" in bura and "/play" in bura
    burkozel = help_text(TableSettings(profile=Profile.BURKOZEL), ru)
    assert "<b>Буркозёл</b>" in burkozel and "Вскрываюсь" not in burkozel and "не вскрываются" in burkozel
    assert "Четыре козыря" in burkozel
    five = help_text(TableSettings(profile=Profile.BURA_5), ru)
    assert "по 5 карт," in five and "Четыре козыря" not in five  # RULES §11.4: no combinations
    pagat = help_text(TableSettings(profile=Profile.BURA_PAGAT), en)
    assert "face down if you like" not in pagat, "face-up discards only there"
    assert "“Claim 31!”" in help_text(TableSettings(), en)
    points = help_text(TableSettings(profile=Profile.KOZEL_POINTS), ru)
    assert "<b>Козёл на очки</b>" in points and "Четыре козыря" not in points  # RULES §13: no instant wins
    assert "Шоха — 6♠️: бьёт любую карту" in points and "Москва (четыре туза и десятки" in points  # §3.4, §13
    for settings in (
        TableSettings(),
        TableSettings(profile=Profile.KOZEL),
        TableSettings(profile=Profile.KOZEL_POINTS),
    ):
        assert_telegram_html(help_text(settings, ru))


@pytest.mark.parametrize("reason", list(Reason))
def test_every_reason_has_a_short_alert_in_both_languages(ru: Translator, en: Translator, reason: Reason) -> None:
    for tr in (ru, en):
        text = reason_text(reason, tr)
        assert text != f"reason-{reason.value}"
        assert 0 < len(text) <= 200
