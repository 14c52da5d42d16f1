"""Бура, Буркозёл and Козёл at the table: hand keyboard, table and event texts, moves without a tap, stats."""

from bot.games.bura.cards import BACK, card_button, card_text, cards_text
from bot.games.bura.events import render_announcements
from bot.games.bura.hand import render_hand
from bot.games.bura.table import render_table

__all__ = ["BACK", "card_button", "card_text", "cards_text", "render_announcements", "render_hand", "render_table"]
