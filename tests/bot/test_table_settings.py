"""A table's settings: what every game shares, the game's own choices as codes, and rows stored before."""

from __future__ import annotations

import json

from bot.games.bura.settings import MatchChoice, Profile, variant
from bot.table_settings import TableSettings
from engine.bura.variant import ROBBER, Discards

# A chat's settings as the bot stored them before games declared their own (Бура's at the top level).
OLD_ROW = (
    '{"profile": "pagat", "match": "r21", "move_seconds": 30, "discards": "closed", "casual": true,'
    ' "computer_takeover": false, "computer_level": "hard"}'
)


def test_settings_stored_before_load_to_the_same_settings() -> None:
    settings = TableSettings.model_validate({"language": "en", **json.loads(OLD_ROW)})
    assert settings == TableSettings(
        profile=Profile.BURA_PAGAT,
        move_seconds=30,
        language="en",
        computer_takeover=False,
        computer_level="hard",
        options={"match": "r21", "discards": "closed", "casual": "1"},
    )
    rules = variant(settings)
    assert rules.match == ROBBER and rules.discards is Discards.FACE_DOWN_OPTIONAL and not rules.hide_captured_points
    assert TableSettings.model_validate(settings.model_dump(mode="json")) == settings, "and stored again, the same"
    strict = TableSettings.model_validate({"casual": False, "match": None})
    assert strict.options == {"casual": "0"} and variant(strict).hide_captured_points


def test_a_choice_the_rules_do_not_have_is_kept_for_when_they_come_back() -> None:
    chosen = TableSettings().with_code("match", MatchChoice.SINGLE_DEAL)
    elsewhere = chosen.with_code("profile", "buraco")
    assert elsewhere.profile == "buraco" and elsewhere.option("match", "r11") == "one"
    assert variant(elsewhere.with_code("profile", Profile.BURA)).match.kind.value == "single_deal"
    assert TableSettings().option("match", "r11") == "r11"


def test_shared_settings_have_codes_both_ways() -> None:
    settings = TableSettings()
    for key, code in (("timer", "300"), ("language", "en"), ("takeover", "0"), ("level", "hard")):
        assert settings.with_code(key, code).code(key) == code
    assert settings.with_code("timer", "300").move_seconds == 300
    assert settings.with_code("takeover", "0").computer_takeover is False
