"""What the bot tells of its games: /help (how the chat's game is played, then the commands), /rules (a game's
rules alone) and the names a game may be asked for by (/new бурако, /new buraco)."""

from __future__ import annotations

import re

from bot.games.registry import PROFILES, game_for
from bot.i18n import Translations, Translator
from bot.render.help import render_help
from bot.services.core import TableCore
from bot.table_settings import PROFILE_KEY, TableSettings


def help_text(settings: TableSettings, tr: Translator) -> str:
    """/help: how the game the settings choose is played, as its adapter tells it, then the commands."""
    return render_help(game_for(settings).help_text(settings, tr), tr)


def _name_key(name: str) -> str:
    """A game's name as typed: any case, ё as е, punctuation and brackets as spaces."""
    return " ".join(re.sub(r"[^\w]+", " ", name.lower().replace("ё", "е")).split())


def game_names(translations: Translations) -> dict[str, str]:
    """Every name a game may be asked for by (/new бурако, /new buraco, /new буркозёл): its profile's code, its
    menu name with and without what the brackets say, its short name, in every language. Where two profiles share
    a name («Бура»), the first of the menu takes it."""
    names: dict[str, str] = {}
    for profile in PROFILES:
        said = [profile]
        for language in translations.languages:
            tr = translations.get(language)
            menu = tr.t(f"setting-profile-{profile}")
            said += [menu, menu.split("(", 1)[0], tr.t(f"game-name-{profile}")]
        for name in said:
            names.setdefault(_name_key(name), profile)
    return names


class GuideService:
    def __init__(self, core: TableCore) -> None:
        self.core = core
        self._games = game_names(core.translations)

    def game_named(self, name: str) -> str | None:
        """The profile (game) a name typed after /new asks for, or None."""
        return self._games.get(_name_key(name))

    async def help(self, chat_id: int, tr: Translator | None = None) -> str:
        """/help: how the chat's game is played (its settings' game), then the commands; in the chat's language
        unless `tr` is given."""
        settings = await self.core.chat_settings(chat_id)
        tr = tr or self.core.translations.get(settings.language)
        return help_text(settings, tr)

    async def rules(self, chat_id: int, tr: Translator | None = None, profile: str | None = None) -> str:
        """/rules: how a game is played and counted — `profile`'s, else the chat's table's (its lobby's settings
        are the chat's), in the chat's language unless `tr` is given."""
        settings = await self.core.chat_settings(chat_id)
        tr = tr or self.core.translations.get(settings.language)
        if profile is not None and profile in PROFILES:
            settings = settings.with_code(PROFILE_KEY, profile)
        return game_for(settings).help_text(settings, tr)
