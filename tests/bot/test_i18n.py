"""Locales: every key in every language with the same placeholders, and plurals that read right."""

import re
from pathlib import Path

import pytest
from fluent.syntax import FluentParser, ast, visitor

from bot.config import SUPPORTED_LANGUAGES
from bot.games.base import Setting
from bot.games.registry import GAMES, PROFILES
from bot.i18n import Translations, default_games_dir, default_locales_dir, language_for_telegram, locale_files
from bot.table_settings import SHARED_CHOICES, TableSettings

LOCALES = default_locales_dir()
GAMES_DIR = default_games_dir()
ROOT = Path(__file__).resolve().parents[2]


class _Variables(visitor.Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_VariableReference(self, node: ast.VariableReference) -> None:  # noqa: N802 -- fluent's API
        self.names.add(node.id.name)
        self.generic_visit(node)


def _messages(language: str, files: list[Path] | None = None) -> dict[str, frozenset[str]]:
    """Message id -> the variables it uses, from every .ftl file of a language (shared and every game's), or from
    ``files``; a message defined twice fails."""
    messages: dict[str, frozenset[str]] = {}
    for path in files if files is not None else locale_files(LOCALES, GAMES_DIR, language):
        resource = FluentParser(with_spans=False).parse(path.read_text(encoding="utf-8"))
        junk = [entry.content for entry in resource.body if isinstance(entry, ast.Junk)]
        assert not junk, f"{path}: syntax errors in {junk}"
        for entry in resource.body:
            if isinstance(entry, ast.Message):
                assert entry.id.name not in messages, f"{path}: {entry.id.name} defined twice"
                variables = _Variables()
                variables.visit(entry)
                messages[entry.id.name] = frozenset(variables.names)
    return messages


@pytest.fixture(scope="module")
def translations() -> Translations:
    return Translations(LOCALES, default_language="ru")


def test_the_locales_folder_is_found() -> None:
    assert (LOCALES / "ru" / "bot.ftl").is_file()
    assert {path.parts[-4] for path in locale_files(LOCALES, GAMES_DIR, "ru") if "games" in path.parts} == set(GAMES)


def _game_owned(key: str) -> bool:
    """A key only a game says: its name and rules by profile, its own settings (not a default it declares for a
    shared one), its texts by its key."""
    own = {setting.key for profile in PROFILES for setting in _own_settings(profile)} - set(SHARED_CHOICES)
    prefixes = (
        *(f"setting-profile-{profile}" for profile in PROFILES),
        *(f"setting-{name}-" for name in own),
        *(f"setting-name-{name}" for name in own),
        *(f"{game}-" for game in GAMES),
        *(f"flow-help-{game}" for game in GAMES),
        "game-name-",
    )
    return key.startswith(prefixes)


def _own_settings(profile: str) -> list[Setting]:
    settings = TableSettings(profile=profile)
    return [setting for game in GAMES.values() if profile in game.profiles for setting in game.own_settings(settings)]


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_the_shared_locales_name_no_game_and_each_game_names_itself(language: str) -> None:
    """A third game adds its texts in its own folder: the shared files say only what every game says (issue:
    a third game is two folders)."""
    shared = set(_messages(language, sorted((LOCALES / language).glob("*.ftl"))))
    assert sorted(key for key in shared if _game_owned(key)) == []
    assert not {"setting-profile-bura", "game-name-bk", "setting-match-r11", "buraco-turn", "flow-help-bura"} & shared
    for game in GAMES.values():
        folder = GAMES_DIR / type(game).__module__.split(".")[2] / "locales" / language  # bot.games.<folder>.game
        own = set(_messages(language, sorted(folder.glob("*.ftl"))))
        for profile in game.profiles:
            named = {f"game-name-{profile}", f"setting-profile-{profile}", f"setting-profile-{profile}-about"}
            assert named <= own, (game.key, profile)


@pytest.mark.parametrize("language", [lang for lang in SUPPORTED_LANGUAGES if lang != "ru"])
def test_every_key_exists_in_every_language_with_the_same_placeholders(language: str) -> None:
    russian, other = _messages("ru"), _messages(language)
    assert sorted(set(russian) - set(other)) == [], f"missing in {language}"
    assert sorted(set(other) - set(russian)) == [], "missing in ru"
    different = {key: (russian[key], other[key]) for key in russian if russian[key] != other[key]}
    assert different == {}


@pytest.mark.parametrize(
    ("count", "expected"),
    [(1, "1 карта"), (2, "2 карты"), (5, "5 карт"), (11, "11 карт"), (21, "21 карта"), (22, "22 карты")],
)
def test_russian_plurals(translations: Translations, count: int, expected: str) -> None:
    assert translations.get("ru").t("cards-count", count=count) == expected


@pytest.mark.parametrize(("count", "expected"), [(1, "1 card"), (2, "2 cards"), (11, "11 cards")])
def test_english_plurals(translations: Translations, count: int, expected: str) -> None:
    assert translations.get("en").t("cards-count", count=count) == expected


def test_messages_with_several_plurals(translations: Translations) -> None:
    ru = translations.get("ru")
    assert ru.t("rules-hand", count=3) + ", " + ru.t("match-robber", target=11) == "3 карты на руках, матч до 11 побед"
    assert ru.t("match-robber", target=21) == "матч до 21 победы"
    assert (
        ru.t("table-trump", suit="бубны ♦️", card="7♦️", stock=21)
        == "Козырь — бубны ♦️ (под колодой 7♦️) · в колоде 21 карта"
    )
    assert ru.t("lobby-title", game="Бура", min=2, max=6) == "🃏 Бура — собираем стол (2–6 игроков)"
    assert ru.t("lobby-title", game="Буркозёл", min=2, max=4) == "🃏 Буркозёл — собираем стол (2–4 игрока)"


def test_no_isolation_marks_around_arguments(translations: Translations) -> None:
    assert translations.get("ru").t("hand-waiting", name="Аня") == "Ходит Аня."


def test_unknown_language_and_missing_key_fall_back(tmp_path: Path) -> None:
    (tmp_path / "ru").mkdir()
    (tmp_path / "en").mkdir()
    (tmp_path / "ru" / "bot.ftl").write_text("only-ru = только по-русски\nboth = оба\n", encoding="utf-8")
    (tmp_path / "en" / "bot.ftl").write_text("both = both\n", encoding="utf-8")
    translations = Translations(tmp_path, default_language="ru")
    assert translations.get("en").t("both") == "both"
    assert translations.get("en").t("only-ru") == "только по-русски"
    assert translations.get("de").t("both") == "оба"
    assert translations.get(None).language == "ru"
    assert translations.get("en").t("nowhere") == "nowhere"


@pytest.mark.parametrize(
    ("code", "language"),
    [("ru", "ru"), ("uk", "ru"), ("be", "ru"), ("kk", "ru"), ("ru-RU", "ru"), ("en", "en"), ("pt-br", "en")],
)
def test_telegram_language_codes(code: str, language: str) -> None:
    assert language_for_telegram(code) == language


def test_no_telegram_language_gives_the_default(translations: Translations) -> None:
    assert language_for_telegram(None, default="en") == "en"
    assert translations.for_telegram_language("uk").language == "ru"
    assert translations.for_telegram_language("de").language == "en"


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_every_message_the_code_names_exists(language: str) -> None:
    """A string in bot/ (a game's folder too) that looks like a message of a locale family ("flow-…", "hand-…")
    must be a message of every language: a removed or misspelt key would show users its bare name."""
    keys = set(_messages(language))
    families = {key.split("-")[0] for key in keys}
    named = {
        (path.relative_to(ROOT).as_posix(), literal)
        for path in (ROOT / "bot").rglob("*.py")
        for _, literal in re.findall(
            r"""(?<!name=)(["'])([a-z][a-z0-9_]*(?:-[a-z0-9_]+)+)\1""", path.read_text(encoding="utf-8")
        )
        if literal.split("-")[0] in families
    }
    assert len(named) > 100  # the scan sees the code's messages
    assert any(path.startswith("bot/games/bura/") for path, _ in named), "and the games' own"
    assert {(path, literal) for path, literal in named if literal not in keys} == set()
