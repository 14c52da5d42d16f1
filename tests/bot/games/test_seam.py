"""The seam between the bot and its games (issue: Buraco Aberto, "a third game would add one folder under
engine/ and one adapter under bot/games/, and touch nothing else but the lobby's list of games")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.games.registry import GAMES, game_for
from bot.i18n import Translations
from bot.render.lobby import rules_text, setting_keys
from bot.services.lobby import game_terms, help_text
from bot.table_settings import Profile, TableSettings

ROOT = Path(__file__).resolve().parents[3]
# The lobby's list of games: the entries (``Profile``, with the Bura family's variants they choose) and the
# adapters that play them. Nothing else outside a game's own folder names a game.
LOBBY_LIST = {"bot/games/registry.py", "bot/table_settings.py"}
GAME_PACKAGES = ("engine.bura", "engine.buraco", "bot.games.bura", "bot.games.buraco")


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_only_the_games_own_folders_and_the_lobbys_list_import_a_game() -> None:
    offenders = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(("bot/games/bura/", "bot/games/buraco/")) or relative in LOBBY_LIST:
            continue
        named = {m for m in _imports(path) if m.startswith(GAME_PACKAGES) or m.endswith((".bura", ".buraco"))}
        if named:
            offenders.append(f"{relative}: {sorted(named)}")
    assert offenders == []


def test_the_renderers_are_told_the_game_and_ask_no_registry() -> None:
    """What `render/` shows of a game (rules, players, help) comes in from the services (issue 36)."""
    offenders = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "bot" / "render").rglob("*.py"))
        if any(module.startswith("bot.games") for module in _imports(path))
    ]
    assert offenders == []


def test_every_lobby_entry_is_played_by_exactly_one_game() -> None:
    played = [profile for game in GAMES.values() for profile in game.profiles]
    assert sorted(played) == sorted(Profile)
    for profile in Profile:
        assert profile in game_for(TableSettings(profile=profile)).profiles


@pytest.mark.parametrize("profile", list(Profile))
def test_the_lobby_and_help_ask_the_tables_game(profile: Profile) -> None:
    """The rules line, the settings a table may change, /help and who may sit come from the game's adapter."""
    tr = Translations().get("ru")
    settings = TableSettings(profile=profile)
    game = game_for(settings)
    terms = game_terms(settings, tr)
    assert rules_text(settings, terms, tr).startswith(tr.t("tally-separator").join(game.rules_parts(settings, tr)))
    assert help_text(settings, tr).startswith(game.help_text(settings, tr))
    assert not set(setting_keys(terms)) & game.fixed_settings(settings)
    least, most = game.player_range(settings)
    assert 1 <= least <= most
    seats = game.seats(settings)
    assert seats is None or most <= seats
