"""The seam between the bot and its games (issue: Buraco Aberto, "a third game would add one folder under
engine/ and one adapter under bot/games/, and touch nothing else but the lobby's list of games")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.games.registry import GAMES, PROFILES, game_for
from bot.i18n import Translations
from bot.render.lobby import rules_text
from bot.services.guide import help_text
from bot.services.settings_menu import game_terms
from bot.table_settings import PROFILE_KEY, SHARED_CHOICES, TableSettings

ROOT = Path(__file__).resolve().parents[3]
# The lobby's list of games: the adapters and the profiles they play. Nothing else outside a game's own folders
# names a game.
LOBBY_LIST = {"bot/games/registry.py"}
SHARED_ENGINE = "core"


def _packages(folder: Path) -> set[str]:
    return {path.parent.name for path in folder.glob("*/__init__.py")}


# Every game there is, found rather than listed: a package under engine/ but its core, one under bot/games/.
ENGINE_GAMES = _packages(ROOT / "engine") - {SHARED_ENGINE}
BOT_GAMES = _packages(ROOT / "bot" / "games")
GAME_PACKAGES = {f"engine.{name}": name for name in ENGINE_GAMES} | {f"bot.games.{name}": name for name in BOT_GAMES}


def _imports(path: Path) -> set[str]:
    """The modules a file imports, ``from a import b`` as both ``a`` and ``a.b`` (``b`` may be a module)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def _game_of(module: str) -> str | None:
    """The game whose package ``module`` is or lies in, None for shared code."""
    return next(
        (game for package, game in GAME_PACKAGES.items() if module == package or module.startswith(package + ".")),
        None,
    )


def test_the_games_are_found() -> None:
    assert {"bura", "buraco"} <= ENGINE_GAMES and {"bura", "buraco"} <= BOT_GAMES
    assert SHARED_ENGINE not in ENGINE_GAMES


def test_only_the_games_own_folders_and_the_lobbys_list_import_a_game() -> None:
    offenders = []
    for path in sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "engine").rglob("*.py")]):
        relative = path.relative_to(ROOT).as_posix()
        if relative in LOBBY_LIST:
            continue
        own = _game_of(".".join(path.relative_to(ROOT).with_suffix("").parts))  # its own game: bura for engine.bura.*
        named = {module for module in _imports(path) if _game_of(module) not in (None, own)}
        if named:
            offenders.append(f"{relative}: {sorted(named)}")
    assert offenders == []


def test_the_renderers_are_told_the_game_and_ask_no_registry() -> None:
    """What `render/` shows of a game (rules, players, help, the settings menu) comes in from the services."""
    offenders = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "bot" / "render").rglob("*.py"))
        if any(module.startswith("bot.games") for module in _imports(path))
    ]
    assert offenders == []


def test_every_lobby_entry_is_played_by_exactly_one_game() -> None:
    assert len(PROFILES) == len(set(PROFILES))
    assert tuple(profile for game in GAMES.values() for profile in game.profiles) == PROFILES
    for profile in PROFILES:
        assert profile in game_for(TableSettings(profile=profile)).profiles
    assert game_for(TableSettings()).profiles[0] == PROFILES[0], "a table that names no rules plays the default"


@pytest.mark.parametrize("profile", PROFILES)
def test_the_lobby_and_help_ask_the_tables_game(profile: str) -> None:
    """The rules line, the settings a table may change, /help and who may sit come from the game's adapter."""
    tr = Translations().get("ru")
    settings = TableSettings(profile=profile)
    game = game_for(settings)
    terms = game_terms(settings, tr)
    assert rules_text(settings, terms, tr).startswith(tr.t("tally-separator").join(game.rules_parts(settings, tr)))
    assert help_text(settings, tr).startswith(game.help_text(settings, tr))
    own = game.own_settings(settings)
    mine = [setting.key for setting in own if setting.key not in SHARED_CHOICES]  # the rest: defaults of shared ones
    assert [row.key for row in terms.menu] == [PROFILE_KEY, *mine, *SHARED_CHOICES]
    for setting in own:
        assert setting.default in setting.choices
    assert terms.profile == profile and not tr.t(f"game-name-{profile}").startswith("game-name-")
    least, most = game.player_range(settings)
    assert 1 <= least <= most
    seats = game.seats(settings)
    assert seats is None or most <= seats
