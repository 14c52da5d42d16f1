"""Locales: every key in every language with the same placeholders, and plurals that read right."""

import re
from pathlib import Path

import pytest
from fluent.syntax import FluentParser, ast, visitor

from bot.config import SUPPORTED_LANGUAGES
from bot.i18n import Translations, default_locales_dir, language_for_telegram

LOCALES = default_locales_dir()


class _Variables(visitor.Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_VariableReference(self, node: ast.VariableReference) -> None:  # noqa: N802 -- fluent's API
        self.names.add(node.id.name)
        self.generic_visit(node)


def _messages(language: str) -> dict[str, frozenset[str]]:
    """Message id -> the variables it uses, from every .ftl file of a language."""
    messages: dict[str, frozenset[str]] = {}
    for path in sorted((LOCALES / language).glob("*.ftl")):
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


def test_every_message_the_code_names_exists() -> None:
    """A string in bot/ that looks like a message of a locale family ("flow-…", "hand-…") must be a message: a
    removed or misspelt key would show users its bare name."""
    root = Path(__file__).resolve().parents[2]
    keys = {
        entry.id.name
        for path in (root / "locales" / "ru").glob("*.ftl")
        for entry in FluentParser().parse(path.read_text(encoding="utf-8")).body
        if isinstance(entry, ast.Message)
    }
    families = {key.split("-")[0] for key in keys}
    named = {
        (path.name, literal)
        for path in (root / "bot").rglob("*.py")
        for literal in re.findall(r'(?<!name=)"([a-z][a-z0-9_]*(?:-[a-z0-9_]+)+)"', path.read_text(encoding="utf-8"))
        if literal.split("-")[0] in families
    }
    assert len(named) > 100  # the scan sees the code's messages
    assert {(path, literal) for path, literal in named if literal not in keys} == set()
