"""What the lobby and /help say of a table of the Bura family: its rules in a line, its rules told in full,
who may sit and which settings it lets the table change."""

from __future__ import annotations

from typing import Final

from bot.games.bura.common import match_goal
from bot.i18n import Translator
from bot.table_settings import PENALTY_TABLES, PROFILE_VARIANTS, DiscardChoice, Profile, TableSettings
from engine.bura.variant import BuraCombo, Discards

# Буркозёл and Козёл на очки keep their penalty table (RULES §12.4), Козёл its pot of 20 deals: only Бура
# chooses the match.
_FIXED_MATCH: Final = PENALTY_TABLES | {Profile.KOZEL}


def rules_parts(settings: TableSettings, tr: Translator) -> list[str]:
    """ "Бура (классика), 3 карты на руках, до 31", "матч до 11 побед"."""
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
    return [tr.t("list-separator").join(game), match_goal(variant.match, tr)]


def help_text(settings: TableSettings, tr: Translator) -> str:
    """How the table's game is played: the cards, a trick, drawing, the points, claims and false claims or the
    count at the end, the combinations the rules have."""
    variant = settings.variant()
    if variant.claim_threshold is not None:
        return tr.t(
            "flow-help-bura",
            hand=variant.hand_size,
            face_down="no" if variant.discards is Discards.OPEN else "yes",
            target=variant.claim_threshold,
        )
    rules = tr.t("flow-help-playout", game=tr.t("game-name", profile=settings.profile.value), hand=variant.hand_size)
    if variant.bura is BuraCombo.INSTANT_WIN and variant.hand_size == 4:
        rules += "\n" + tr.t("flow-help-four-trumps")
    if variant.shokha:
        rules += "\n" + tr.t("flow-help-shokha")  # RULES §3.4
    if variant.tvaladze_combos:
        rules += "\n" + tr.t("flow-help-tvaladze-combos")  # RULES §13 KOZEL_TVALADZE
    return rules


def fixed_settings(settings: TableSettings) -> frozenset[str]:
    return frozenset({"match"}) if settings.profile in _FIXED_MATCH else frozenset()


def player_range(settings: TableSettings) -> tuple[int, int]:
    variant = PROFILE_VARIANTS[settings.profile]
    return variant.min_players, variant.max_players
