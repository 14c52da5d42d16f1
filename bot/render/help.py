"""/help: the rules of the table the chat plays (its settings), then the commands."""

from __future__ import annotations

from bot.i18n import Translator
from bot.table_settings import Profile, TableSettings
from engine.bura.variant import BuraCombo, Discards


def render_help(settings: TableSettings, tr: Translator) -> str:
    """How this chat's game is played — the cards, a trick, drawing, the points, claims and false claims or the
    count at the end, the combinations the rules have — and what to send to the bot."""
    if settings.profile is Profile.BURACO:
        return f"{tr.t('flow-help-buraco')}\n\n{tr.t('flow-help-commands')}"
    variant = settings.variant()
    if variant.claim_threshold is not None:
        rules = tr.t(
            "flow-help-bura",
            hand=variant.hand_size,
            face_down="no" if variant.discards is Discards.OPEN else "yes",
            target=variant.claim_threshold,
        )
    else:
        rules = tr.t(
            "flow-help-playout", game=tr.t("game-name", profile=settings.profile.value), hand=variant.hand_size
        )
        if variant.bura is BuraCombo.INSTANT_WIN and variant.hand_size == 4:
            rules += "\n" + tr.t("flow-help-four-trumps")
    return f"{rules}\n\n{tr.t('flow-help-commands')}"
