"""Inline keyboards as the Bot API's ``reply_markup`` JSON, which is what the outbox stores and sends.

Plain typed dicts, not aiogram's models: a hand is re-rendered on every tap, and building its buttons as
pydantic models (then dumping them back to JSON) was the costliest part of a move (BENCHMARKS.md, "The bot
under load"). Telegram's own checks of the result are in the fake Bot API (tests/botapi/params.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict


class Button(TypedDict):
    """An inline button that sends its callback data back to the bot."""

    text: str
    callback_data: str


class LinkButton(TypedDict):
    """An inline button that opens a link (a t.me deep link: the bot's private chat, or adding it to a group)."""

    text: str
    url: str


class WebAppInfo(TypedDict):
    """The page a web_app button opens."""

    url: str


class WebAppButton(TypedDict):
    """An inline button that opens the Mini App (Telegram allows it in private chats only)."""

    text: str
    web_app: WebAppInfo


class Keyboard(TypedDict):
    """An inline keyboard: rows of buttons."""

    inline_keyboard: list[list[Button]]


class LinkKeyboard(TypedDict):
    """An inline keyboard that may hold links too."""

    inline_keyboard: list[list[Button | LinkButton]]


def button(text: str, callback_data: str) -> Button:
    return {"text": text, "callback_data": callback_data}


def link(text: str, url: str) -> LinkButton:
    return {"text": text, "url": url}


def web_app_button(text: str, url: str) -> WebAppButton:
    return {"text": text, "web_app": {"url": url}}


def keyboard(rows: Iterable[list[Button]]) -> Keyboard:
    return {"inline_keyboard": list(rows)}


def link_keyboard(rows: Iterable[list[Button | LinkButton]]) -> LinkKeyboard:
    return {"inline_keyboard": list(rows)}


def buttons(markup: Keyboard) -> list[Button]:
    """Every button of the keyboard, row by row."""
    return [each for row in markup["inline_keyboard"] for each in row]
