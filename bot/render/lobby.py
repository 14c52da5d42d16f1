"""The lobby message (UX.md "The lobby") and the table settings menu.

The menu shows each setting with its value; a row opens that setting's list of choices, each with a line of
what it means and the current one marked, and a choice's button carries its short code (``SettingCb(key,
value)``; the shared ones in bot/table_settings.py, a game's own declared by its adapter).

What the game says of itself (its rules line, how many may sit, the rules it is played by, the settings a table of
it may change) comes in as `GameTerms`, made by the lobby service from the registry and the game's adapter: the
renderer names no game.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Final, NamedTuple

from bot.i18n import Translator
from bot.render.keyboard import Button, Keyboard, button, keyboard
from bot.table_settings import TIMER_KEY, TableSettings
from bot.telegram.callbacks import GameCb, GameOp, LobbyCb, LobbyOp, RemoveCb, SettingCb

DONE_KEY: Final = "done"  # SettingCb(key="done", value=""): back to the lobby
BACK_KEY: Final = "menu"  # SettingCb(key="menu", value=""): from a list of choices back to the settings menu
OPEN_CHOICES: Final = "?"  # SettingCb(key=<setting>, value="?"): open that setting's list of choices


def move_time(seconds: int, tr: Translator) -> str:
    """A move timer in one unit the way people say it: «30 с», «1 мин», «5 мин»; «без таймера»."""
    if not seconds:
        return tr.t("rules-no-timer")
    if seconds % 60:
        return tr.t("time-seconds", count=seconds)
    return tr.t("time-minutes", count=seconds // 60)


def choice_name(key: str, code: str, tr: Translator, game: str = "") -> str:
    """The name of a setting's value (the move timer's from its seconds)."""
    if key == "timer" and code.isdigit():
        return move_time(int(code), tr)
    value_key = f"setting-{key}-{code}"
    return tr.own(game, value_key) if tr.has(value_key) else code


class SettingRow(NamedTuple):
    """A row of the settings menu: a setting's key, its codes in the order they are offered, the current one."""

    key: str
    choices: tuple[str, ...]
    current: str
    game: str = ""  # the table's game, whose texts may name a shared setting's values its own way


class GameTerms(NamedTuple):
    """What the lobby shows of the game a table's settings choose, as the registry and its adapter tell it."""

    rules: Sequence[str]  # the line of rules but for the move timer, in the reader's language
    players: tuple[int, int]  # how many may sit: at least, at most (computers count)
    profile: str  # the rules the table plays ("bk"): the game's name is ``game-name-<profile>``
    menu: Sequence[SettingRow] = ()  # the settings the table may change, in the menu's order


def menu_row(game: GameTerms, key: str) -> SettingRow | None:
    """The menu's row of a setting, None for one the table may not change (or no setting at all)."""
    return next((row for row in game.menu if row.key == key), None)


def rules_text(settings: TableSettings, game: GameTerms, tr: Translator) -> str:
    """ "Бура (классика), 3 карты на руках, до 31 · матч до 11 побед · 1 мин на ход"."""
    row = menu_row(game, TIMER_KEY)  # the timer as the menu shows it: where never chosen, the game's default
    seconds = int(row.current) if row is not None else settings.seconds()
    timer = tr.t("rules-timer", time=move_time(seconds, tr)) if seconds else tr.t("rules-no-timer")
    return tr.t("tally-separator").join([*game.rules, timer])


class LobbyPlayer(NamedTuple):
    """A seat in the lobby as it is shown: the name (raw: the renderer escapes it), and who sits there."""

    name: str
    user_id: int | None  # None: a computer
    creator: bool = False  # the table's creator, known by user id (two people may share a name)

    @property
    def is_computer(self) -> bool:
        return self.user_id is None


def render_lobby(
    settings: TableSettings,
    game: GameTerms,
    players: Sequence[LobbyPlayer],
    tr: Translator,
    *,
    table_id: int,
    fairness: str | None = None,
) -> tuple[str, Keyboard]:
    """The gathering table: the game, its rules, who sits (computers marked with their level, the creator named),
    the shuffle's commitment (``fairness``, issue 38: its line as the fairness service words it) and the lobby
    buttons («Убрать игрока» once someone besides the creator sits)."""
    least, most = game.players
    lines = [
        tr.t("lobby-title", game=tr.t(f"game-name-{game.profile}"), min=least, max=most),
        tr.t("lobby-rules-line", rules=rules_text(settings, game, tr)),
    ]
    seated = []
    level = tr.t(f"setting-level-{settings.computer_level.value}")
    for player in players:
        label = html.escape(player.name)
        if player.is_computer:
            label = tr.t("lobby-computer", name=label, level=level)
        elif player.creator:
            label = tr.t("lobby-creator", name=label)
        seated.append(label)
    if seated:
        lines.append(tr.t("lobby-players", players=tr.t("list-separator").join(seated)))
    else:
        lines.append(tr.t("lobby-players-none"))
    if fairness:
        lines.append(fairness)

    def make(key: str, op: LobbyOp) -> Button:
        return button(tr.t(key), LobbyCb(op=op, table=table_id).pack())

    rows = [
        [make("lobby-button-join", LobbyOp.JOIN), make("lobby-button-leave", LobbyOp.LEAVE)],
        [
            make("lobby-button-start", LobbyOp.START),
            make("lobby-button-settings", LobbyOp.SETTINGS),
            make("lobby-button-cancel", LobbyOp.CANCEL),
        ],
        [make("lobby-button-add-computer", LobbyOp.ADD_COMPUTER)],
    ]
    if any(player.is_computer for player in players):
        rows[-1].append(make("lobby-button-remove-computer", LobbyOp.REMOVE_COMPUTER))
    if removable(players):
        rows.append([make("lobby-button-remove-player", LobbyOp.REMOVE_PLAYER)])
    return "\n".join(lines), keyboard(rows)


def removable(players: Sequence[LobbyPlayer]) -> list[LobbyPlayer]:
    """The people the creator may remove from the lobby: everyone seated but himself (computers have their own
    button)."""
    return [player for player in players if not player.is_computer and not player.creator]


def render_remove_choices(players: Sequence[LobbyPlayer], tr: Translator, *, table_id: int) -> tuple[str, Keyboard]:
    """The lobby message as the list of people the creator may remove, a button each, and «Назад»."""
    rows = [
        [button(tr.t("lobby-remove-one", name=player.name), RemoveCb(table=table_id, user=player.user_id).pack())]
        for player in removable(players)
        if player.user_id is not None
    ]
    rows.append([button(tr.t("settings-back"), SettingCb(table=table_id, key=DONE_KEY, value="").pack())])
    return tr.t("lobby-remove-title"), keyboard(rows)


def render_settings(settings: TableSettings, game: GameTerms, tr: Translator, *, table_id: int) -> tuple[str, Keyboard]:
    """The settings menu: one row per setting, showing its value; a tap opens that setting's list of choices."""
    rows = []
    for row in game.menu:
        value = choice_name(row.key, row.current, tr, row.game)
        text = tr.t("settings-button", name=tr.t(f"setting-name-{row.key}"), value=value)
        rows.append([button(text, SettingCb(table=table_id, key=row.key, value=OPEN_CHOICES).pack())])
    done = SettingCb(table=table_id, key=DONE_KEY, value="").pack()
    rows.append([button(tr.t("settings-done"), done)])
    rules = rules_text(settings, game, tr)
    lines = [tr.t("settings-title"), tr.t("lobby-rules-line", rules=rules), tr.t("settings-hint")]
    return "\n".join(lines), keyboard(rows)


def render_setting_choices(setting: SettingRow, tr: Translator, *, table_id: int) -> tuple[str, Keyboard]:
    """One setting's choices, each with a line of what it means and the current one marked; a tap sets it."""
    key, current = setting.key, setting.current
    lines = [tr.t("settings-choose", name=tr.t(f"setting-name-{key}"))]
    rows = []
    for code in setting.choices:
        name = choice_name(key, code, tr, setting.game)
        about_key = f"setting-{key}-{code}-about"
        about = tr.own(setting.game, about_key) if tr.has(about_key) else ""
        marked = tr.t("settings-current", value=name) if code == current else name
        lines.append(tr.t("settings-choice-line", value=marked, about=about) if about else marked)
        rows.append([button(marked, SettingCb(table=table_id, key=key, value=code).pack())])
    rows.append([button(tr.t("settings-back"), SettingCb(table=table_id, key=BACK_KEY, value="").pack())])
    return "\n".join(lines), keyboard(rows)


def game_buttons(profiles: Sequence[str], tr: Translator, op: GameOp, per_row: int = 2) -> list[list[Button]]:
    """A button a game (each profile the bot hosts, by its menu name), two a row: the greeting's «which game?»
    and /rules' choice."""
    row: list[Button] = []
    rows = []
    for profile in profiles:
        row.append(button(tr.t(f"setting-profile-{profile}"), GameCb(op=op, profile=profile).pack()))
        if len(row) == per_row:
            rows.append(row)
            row = []
    return rows + ([row] if row else [])
