"""Variant: stored tables keep loading as the options grow (a new option has a default that keeps the old rules)."""

from __future__ import annotations

import json
import random

import pytest

from engine.bura.match import Match
from engine.bura.players import play_random_match
from engine.bura.variant import BURA_STANDARD, BURKOZEL, PROFILES, Variant

NEW_FIELDS = ("shokha", "tvaladze_combos")  # [B08] and the PT combos of [B02], added 2026-12


def _old(data: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in data.items() if key not in NEW_FIELDS}


@pytest.mark.parametrize("name", ["BURA_STANDARD", "BURA_PAGAT", "BURA_RU_WIKI", "BURKOZEL", "KOZEL_MONEY"])
def test_a_variant_stored_without_the_new_fields_loads_with_the_old_rules(name: str) -> None:
    stored = json.loads(json.dumps(_old(PROFILES[name].model_dump(mode="json"))))
    assert "shokha" not in stored
    loaded = Variant.model_validate(stored)
    assert loaded == PROFILES[name]
    assert not loaded.shokha and not loaded.tvaladze_combos


def test_an_old_bura_5_table_keeps_the_rules_it_was_stored_with() -> None:
    """A BURA_5 table stored before RULES §11.4's ruling has ``bura: instant_win`` in its variant; it loads and
    replays as it was played (a new table gets the profile without combinations)."""
    stored = _old(PROFILES["BURA_5"].model_dump(mode="json")) | {"bura": "instant_win"}
    assert Variant.model_validate(stored).bura.value == "instant_win"


@pytest.mark.parametrize("variant", [BURA_STANDARD, BURKOZEL], ids=lambda v: v.name)
def test_a_match_stored_without_the_new_fields_replays(variant: Variant) -> None:
    match = Match(variant, 2, "stored")
    play_random_match(match, random.Random(1), max_actions=60)
    data = json.loads(json.dumps(match.to_json()))
    data["variant"] = _old(data["variant"])
    assert Match.from_json(data).snapshot() == match.snapshot()
