"""The lobby message (UX.md "The lobby") and the table settings menu.

Each settings button cycles one setting to its next value: its callback carries that value's short code
(``SettingCb(key, value)``, codes as in bot/table_settings.py). :data:`SETTING_CHOICES` lists the codes of
every key and :data:`SETTING_FIELDS` the ``TableSettings`` field each key sets, so the handler can check and
apply a tapped value without another table of its own.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Final

from bot.config import SUPPORTED_LANGUAGES
from bot.i18n import Translator
from bot.render.common import match_goal
from bot.render.keyboard import Button, Keyboard, button, keyboard
from bot.table_settings import (
    MOVE_SECONDS_CHOICES,
    ComputerLevel,
    DiscardChoice,
    MatchChoice,
    Profile,
    TableSettings,
)
from bot.telegram.callbacks import LobbyCb, LobbyOp, SettingCb
from engine.variant import Discards

DONE_KEY: Final = "done"  # SettingCb(key="done", value=""): back to the lobby

SETTING_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "profile": tuple(profile.value for profile in Profile),
    "match": tuple(choice.value for choice in MatchChoice),
    "timer": tuple(str(seconds) for seconds in MOVE_SECONDS_CHOICES),
    "discards": tuple(choice.value for choice in DiscardChoice),
    "language": tuple(SUPPORTED_LANGUAGES),
    "casual": ("0", "1"),
    "takeover": ("1", "0"),
    "level": tuple(level.value for level in ComputerLevel),
}

# Settings key -> TableSettings field: a tapped ``SettingCb(key, value)`` sets that field to the value's code.
SETTING_FIELDS: Final[dict[str, str]] = {
    "profile": "profile",
    "match": "match",
    "timer": "move_seconds",
    "discards": "discards",
    "language": "language",
    "casual": "casual",
    "takeover": "computer_takeover",
    "level": "computer_level",
}

# Only Бура profiles let the table choose the match model (bot/table_settings.py MatchChoice).
_FIXED_MATCH: Final = frozenset({Profile.BURKOZEL, Profile.KOZEL})


def current_code(settings: TableSettings, key: str) -> str:
    """The code of a setting's current value."""
    codes = {
        "profile": settings.profile.value,
        "match": settings.match.value,
        "timer": str(settings.move_seconds),
        "discards": settings.discards.value,
        "language": settings.language,
        "casual": "1" if settings.casual else "0",
        "takeover": "1" if settings.computer_takeover else "0",
        "level": settings.computer_level.value,
    }
    return codes[key]


def next_code(settings: TableSettings, key: str) -> str:
    """The code a tap on the setting's button moves to (the first choice after an unlisted value)."""
    choices = SETTING_CHOICES[key]
    code = current_code(settings, key)
    return choices[(choices.index(code) + 1) % len(choices)] if code in choices else choices[0]


def rules_text(settings: TableSettings, tr: Translator) -> str:
    """ "классика, 3 карты на руках, до 31 · матч до 11 побед · ход 60 с"."""
    variant = settings.variant()
    game = [tr.t(f"setting-profile-{settings.profile.value}"), tr.t("rules-hand", count=variant.hand_size)]
    if variant.claim_threshold is not None:
        game.append(tr.t("rules-claim", target=variant.claim_threshold))
    else:
        game.append(tr.t("rules-playout"))
    if settings.discards is DiscardChoice.OPEN or (
        settings.discards is DiscardChoice.CLOSED and variant.discards is not Discards.OPEN
    ):
        game.append(tr.t(f"rules-discards-{settings.discards.value}"))
    if settings.casual:
        game.append(tr.t("rules-casual"))
    parts = [tr.t("list-separator").join(game), match_goal(variant.match, tr)]
    seconds = settings.move_seconds
    parts.append(tr.t("rules-timer", seconds=seconds) if seconds else tr.t("rules-no-timer"))
    return tr.t("tally-separator").join(parts)


def render_lobby(
    settings: TableSettings,
    players: Sequence[tuple[str, bool]],
    tr: Translator,
    *,
    table_id: int,
    creator: str,
) -> tuple[str, Keyboard]:
    """The gathering table: the game, its rules, who sits (computers marked with their level, the creator named)
    and the lobby buttons."""
    lines = [
        tr.t(
            "lobby-title",
            game=tr.t("game-name", profile=settings.profile.value),
            min=settings.min_players,
            max=settings.max_players,
        ),
        tr.t("lobby-rules-line", rules=rules_text(settings, tr)),
    ]
    seated = []
    for name, is_computer in players:
        label = html.escape(name)
        if is_computer:
            label = tr.t("lobby-computer", name=label, level=tr.t(f"setting-level-{settings.computer_level.value}"))
        elif name == creator:
            label = tr.t("lobby-creator", name=label)
        seated.append(label)
    if seated:
        lines.append(tr.t("lobby-players", players=tr.t("list-separator").join(seated)))
    else:
        lines.append(tr.t("lobby-players-none"))

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
    if any(is_computer for _, is_computer in players):
        rows[-1].append(make("lobby-button-remove-computer", LobbyOp.REMOVE_COMPUTER))
    return "\n".join(lines), keyboard(rows)


def render_settings(settings: TableSettings, tr: Translator, *, table_id: int) -> tuple[str, Keyboard]:
    """The settings menu: one button per setting, showing its value; a tap moves it to the next value."""
    keys = [key for key in SETTING_CHOICES if not (key == "match" and settings.profile in _FIXED_MATCH)]
    rows = []
    for key in keys:
        code = current_code(settings, key)
        value_key = f"setting-{key}-{code}"
        value = tr.t(value_key) if tr.has(value_key) else code
        text = tr.t("settings-button", name=tr.t(f"setting-name-{key}"), value=value)
        data = SettingCb(table=table_id, key=key, value=next_code(settings, key)).pack()
        rows.append([button(text, data)])
    done = SettingCb(table=table_id, key=DONE_KEY, value="").pack()
    rows.append([button(tr.t("settings-done"), done)])
    lines = [tr.t("settings-title"), tr.t("lobby-rules-line", rules=rules_text(settings, tr)), tr.t("settings-hint")]
    return "\n".join(lines), keyboard(rows)
