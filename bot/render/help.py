"""/help: the rules of the table the chat plays (its settings), as its game tells them, then the commands."""

from __future__ import annotations

from bot.games.registry import game_for
from bot.i18n import Translator
from bot.table_settings import TableSettings


def render_help(settings: TableSettings, tr: Translator) -> str:
    """How this chat's game is played — for Bura the cards, a trick, drawing, the points, claims and false claims
    or the count at the end, the combinations the rules have — and what to send to the bot."""
    return f"{game_for(settings).help_text(settings, tr)}\n\n{tr.t('flow-help-commands')}"
