"""The lobby's settings menu (⚙️, /settings): what a table may change, and a choice in it.

The menu is built from the settings every table has (`bot.table_settings.SHARED_CHOICES`) and the game's own
(``GameAdapter.own_settings``), the rules (profile) first. It stands in the lobby's message until «Готово» brings
the lobby back; who may use it (the table's creator or a group admin, before the deal) is the lobby's rule for
all its managed buttons, checked there (`LobbyService.managed_button`). A choice is the chat's setting, kept for
its next tables too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import ValidationError

from bot.games.registry import PROFILES, game_for, profile_of
from bot.i18n import Translator
from bot.render.lobby import (
    BACK_KEY,
    DONE_KEY,
    OPEN_CHOICES,
    GameTerms,
    SettingRow,
    menu_row,
    render_setting_choices,
    render_settings,
)
from bot.services.context import Actor, IsAdmin, Reply
from bot.services.core import TableCore
from bot.storage import JsonObject, OutboxMessage, Table
from bot.table_settings import PROFILE_KEY, SHARED_CHOICES, ComputerLevel, TableSettings

if TYPE_CHECKING:  # the menu stands in the lobby's message, and the lobby's terms are the menu's (no cycle at run)
    from bot.services.lobby import LobbyService


def stored(settings: TableSettings) -> JsonObject:
    """A chat's settings as stored (its language is a column of its own)."""
    return settings.model_dump(mode="json", exclude={"language"})


def with_level(settings: TableSettings, level: ComputerLevel | None) -> tuple[TableSettings, JsonObject | None]:
    """The settings with the computers' `level` (a table setting), and what to store of them if they changed."""
    if level is None or level is settings.computer_level:
        return settings, None
    changed = settings.model_copy(update={"computer_level": level})
    return changed, stored(changed)


def game_terms(settings: TableSettings, tr: Translator) -> GameTerms:
    """What the lobby shows of the game the settings choose (its rules line in the reader's language) and the
    settings menu: the rules (every game's profiles), the game's own settings, then those every table has."""
    game = game_for(settings)
    profile = profile_of(settings)
    own_settings = game.own_settings(settings)
    shared = {own.key: own.default for own in own_settings if own.key in SHARED_CHOICES}  # a game's defaults
    menu = [
        SettingRow(PROFILE_KEY, PROFILES, profile),
        *(
            SettingRow(own.key, own.choices, settings.option(own.key, own.default))
            for own in own_settings
            if own.key not in shared
        ),
        *(
            SettingRow(key, choices, settings.code(key, shared.get(key)), game.key)
            for key, choices in SHARED_CHOICES.items()
        ),
    ]
    return GameTerms(game.rules_parts(settings, tr), game.player_range(settings), profile, tuple(menu))


class SettingsMenuService:
    def __init__(self, core: TableCore, lobby: LobbyService) -> None:
        self.core = core
        self.lobby = lobby

    async def command(self, chat_id: int, actor: Actor, *, is_admin: IsAdmin, update_id: int | None = None) -> Reply:
        """/settings: the lobby message turns into the settings menu (creator or admin, before the deal)."""

        async def show(table: Table, tr: Translator) -> Reply:
            return await self.show(table, update_id, self.core.actor_translator(actor))

        refusals = ("flow-settings-no-lobby", "flow-settings-playing")
        return await self.lobby.managed_command(chat_id, actor, is_admin, update_id, refusals, show)

    async def open(
        self, table_id: int, chat_id: int, actor: Actor, *, is_admin: IsAdmin, update_id: int | None = None
    ) -> Reply:
        """The lobby's ⚙️ button: its message becomes the settings menu (creator or admin, before the deal; the
        tapper is remembered, as by every lobby button)."""
        tr = self.core.actor_translator(actor)
        await self.core.remember(actor)

        async def show(table: Table) -> Reply:
            return await self.show(table, update_id, tr)

        return await self.lobby.managed_button(table_id, chat_id, actor, is_admin, tr, show)

    async def show(self, table: Table, update_id: int | None, tr: Translator | None = None) -> Reply:
        """The lobby message becomes the settings menu, in the language of whoever opened it (choosing the
        table's language changes the table, not the screen being read)."""
        settings = await self.core.chat_settings(table.chat_id)
        tr = tr or self.core.translations.get(settings.language)
        text, markup = render_settings(settings, game_terms(settings, tr), tr, table_id=table.table_id)
        await self.lobby.redraw(table, self.lobby.lobby_payload(table, text, markup), update_id)
        return Reply()

    async def choose(
        self,
        table_id: int,
        key: str,
        value: str,
        chat_id: int,
        actor: Actor,
        *,
        update_id: int | None = None,
        is_admin: IsAdmin,
    ) -> Reply:
        """A settings button: a row opens its list of choices (``value`` OPEN_CHOICES); a choice sets ``key``
        to ``value`` (the button carries the value it sets, so a doubled tap sets the same thing) and returns
        to the menu; BACK_KEY returns to the menu, DONE_KEY to the lobby. A key the table's menu has not (a setting
        its game does not declare) or a value that setting does not offer is refused and changes nothing. Creator
        or admin, before the deal (asked before the table's lock)."""
        core = self.core
        tr = core.actor_translator(actor)

        async def choose(table: Table) -> Reply:
            settings = await core.chat_settings(chat_id)
            changed: JsonObject | None = None  # the chat's settings changed: set with the menu that shows them
            language: str | None = None
            if key == BACK_KEY:
                return await self.show(table, update_id, tr)
            row = menu_row(game_terms(settings, tr), key)
            message: OutboxMessage
            if key == DONE_KEY:
                message = self.lobby.lobby_message(table, settings, core.translations.get(settings.language))
            elif row is None:  # a setting this table's game does not have (a stale or forged button)
                return Reply(tr.t("flow-stale-button"), alert=True)
            elif value == OPEN_CHOICES:
                text, markup = render_setting_choices(row, tr, table_id=table.table_id)
                message = self.lobby.lobby_payload(table, text, markup)
            else:
                if value not in row.choices:
                    return Reply(tr.t("flow-stale-button"), alert=True)
                try:
                    settings = settings.with_code(key, value)
                except ValidationError:
                    return Reply(tr.t("flow-stale-button"), alert=True)
                changed = stored(settings)
                language = settings.language if key == "language" else None
                text, markup = render_settings(settings, game_terms(settings, tr), tr, table_id=table.table_id)
                message = self.lobby.lobby_payload(table, text, markup)
            await self.lobby.redraw(table, message, update_id, chat_settings=changed, chat_language=language)
            return Reply()

        return await self.lobby.managed_button(table_id, chat_id, actor, is_admin, tr, choose)
