"""/help: the rules of the table the chat plays, as its game tells them (given), then the commands."""

from __future__ import annotations

from bot.i18n import Translator


def render_help(game_help: str, tr: Translator) -> str:
    """How this chat's game is played (`game_help`, its adapter's text for the chat's settings: for Bura the
    cards, a trick, drawing, the points, claims and false claims or the count at the end, the combinations the
    rules have), then what to send to the bot, how ratings work and how a deal is checked."""
    keys = ("flow-help-commands", "ratings-help", "history-help", "fairness-help")
    return game_help + "\n\n" + "\n".join(tr.t(key) for key in keys)
