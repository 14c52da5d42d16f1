"""Rendering: views, events and settings turned into Telegram HTML texts and inline keyboards.

Pure functions of data: no I/O, no Bot calls, no rules decided here (STYLE: "the renderer never decides a rule").
Every word comes from the locales through a ``Translator``; every user-supplied name is HTML-escaped.
"""

from bot.render.cards import BACK, card_button, card_text, cards_text
from bot.render.events import render_announcements
from bot.render.hand import render_hand
from bot.render.lobby import render_lobby, render_settings
from bot.render.reasons import reason_text
from bot.render.table import render_table

__all__ = [
    "BACK",
    "card_button",
    "card_text",
    "cards_text",
    "reason_text",
    "render_announcements",
    "render_hand",
    "render_lobby",
    "render_settings",
    "render_table",
]
