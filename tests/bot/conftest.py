"""Fixtures shared by the bot's tests: the fake Bot API's own (a fake clock, the server on it, an aiogram Bot
talking to it), for the tests of the bot's calls over HTTP (test_api.py)."""

from tests.botapi.conftest import bot, clock, tg

__all__ = ["bot", "clock", "tg"]
