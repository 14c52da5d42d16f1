"""Every word a user reads, through Project Fluent: what every game says in `locales/<language>/*.ftl`, each
game's own texts beside its adapter in `bot/games/<game>/locales/<language>/*.ftl`.

Keys are translated first and then formatted with their arguments, so plurals follow the CLDR rules of the
language (Russian has three forms: 1 карта, 2 карты, 5 карт). A key missing from a language falls back to the
default language; a key missing everywhere comes back as the key itself and is logged, never raised, so a
missing string cannot break a move.
"""

import logging
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from fluent.runtime import FluentBundle, FluentResource

from bot.config import SUPPORTED_LANGUAGES

logger = logging.getLogger(__name__)

# Telegram's language_code is an IETF tag; players whose app speaks one of these read Russian far more easily
# than English, and the game itself is a Russian one.
RUSSIAN_READERS = frozenset({"ru", "uk", "be", "kk"})
FORMATTED_KEPT = 20_000  # formatted messages a translator keeps (per language)


def default_locales_dir() -> Path:
    """`locales/` beside the package: in a checkout, or in site-packages where the wheel installs it
    (pyproject.toml ships it as package data); else in the working directory."""
    beside_package = Path(__file__).resolve().parent.parent / "locales"
    return beside_package if beside_package.is_dir() else Path.cwd() / "locales"


def default_games_dir() -> Path:
    """`bot/games/`, whose every game keeps its texts in `<game>/locales/<language>/` (package data of the wheel
    too, so found the same way in a checkout and in an install)."""
    return Path(__file__).resolve().parent / "games"


def language_for_telegram(code: str | None, default: str = "ru") -> str:
    """The language to speak to a Telegram user: "ru", "uk", "be", "kk" -> ru, other known codes -> en.

    No code at all (Telegram omits it sometimes) gives the default language of the bot.
    """
    if not code:
        return default
    primary = code.replace("_", "-").split("-", 1)[0].lower()
    return "ru" if primary in RUSSIAN_READERS else "en"


class Translator:
    """The messages of one language (with the fallback chain behind it): `t("cards-count", count=5)`."""

    def __init__(self, language: str, bundles: Iterable[FluentBundle]) -> None:
        self.language = language
        self._bundles = tuple(bundles)
        self._formatted: dict[tuple[str, tuple[tuple[str, type, Any], ...]], str] = {}  # see t()

    def t(self, key: str, **args: Any) -> str:
        # A hand or a table is rendered after every tap from a few dozen messages, most of them with the same
        # arguments as last time (card names, counts, the players' names): Fluent formats each one once.
        try:
            cache_key = (key, tuple((name, type(value), value) for name, value in sorted(args.items())))
            cached = self._formatted.get(cache_key)
        except TypeError:  # an unhashable argument: format it every time
            return self._format(key, args)
        if cached is None:
            if len(self._formatted) >= FORMATTED_KEPT:
                self._formatted.clear()
            cached = self._formatted[cache_key] = self._format(key, args)
        return cached

    def _format(self, key: str, args: Mapping[str, Any]) -> str:
        for bundle in self._bundles:
            if not bundle.has_message(key):
                continue
            message = bundle.get_message(key)
            if message.value is None:
                continue
            text, errors = bundle.format_pattern(message.value, dict(args))
            for error in errors:
                logger.warning("i18n %s/%s: %s", self.language, key, error)
            return str(text)
        logger.warning("i18n %s: no message %r in any language", self.language, key)
        return key

    def has(self, key: str) -> bool:
        return any(bundle.has_message(key) for bundle in self._bundles)

    def own(self, game: str, key: str, **args: Any) -> str:
        """A shared text that a game may say its own way: ``<key>-<game>`` where its locales have it (Очко's player
        who walks away leaves the table, he loses no deal), else ``key``."""
        mine = f"{key}-{game}"
        return self.t(mine if game and self.has(mine) else key, **args)


class Translations:
    """All languages of the bot, loaded once at start; hands out a `Translator` per language."""

    def __init__(
        self,
        locales_dir: Path | None = None,
        default_language: str = "ru",
        languages: Iterable[str] = SUPPORTED_LANGUAGES,
        games_dir: Path | None = None,
    ) -> None:
        directory = locales_dir or default_locales_dir()
        games = games_dir or default_games_dir()
        self.default_language = default_language
        self.languages = tuple(languages)
        if default_language not in self.languages:
            raise ValueError(f"default language {default_language!r} is not one of {self.languages}")
        bundles = {language: _load_bundle(directory, games, language) for language in self.languages}
        self._translators: Mapping[str, Translator] = {
            language: Translator(
                language,
                [bundles[language]] + ([bundles[default_language]] if language != default_language else []),
            )
            for language in self.languages
        }

    def get(self, language: str | None) -> Translator:
        """The translator of a language; an unknown or missing one gives the default language."""
        return self._translators.get(language or self.default_language) or self.default

    @property
    def default(self) -> Translator:
        return self._translators[self.default_language]

    def for_telegram_language(self, code: str | None) -> Translator:
        return self.get(language_for_telegram(code, self.default_language))


def locale_files(directory: Path, games: Path, language: str) -> list[Path]:
    """A language's .ftl files: the shared ones, then every game's (whichever games there are)."""
    return sorted((directory / language).glob("*.ftl")) + sorted(games.glob(f"*/locales/{language}/*.ftl"))


def _load_bundle(directory: Path, games: Path, language: str) -> FluentBundle:
    if not any((directory / language).glob("*.ftl")):
        raise FileNotFoundError(f"no .ftl files for language {language!r} in {directory}")
    files = locale_files(directory, games, language)
    # No Unicode isolation marks: Telegram shows them as stray characters around names and numbers.
    bundle = FluentBundle([language], use_isolating=False)
    for path in files:
        bundle.add_resource(FluentResource(path.read_text(encoding="utf-8")))
    return bundle
