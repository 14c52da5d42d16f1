"""A local Telegram Bot API server for end-to-end tests: `FakeTelegram` and the people who use it.

from tests.botapi import FakeClock, FakeTelegram

async with FakeTelegram(clock=FakeClock()) as tg:   # tg.base_url, tg.token for the bot
    alice = tg.user("Alice", "alice")
    tg.start_bot(alice, payload="table-1")
    reply = await tg.wait_bot_message(tg.private_chat(alice))
"""

from tests.botapi.clock import Clock, FakeClock, SystemClock
from tests.botapi.limits import FloodControl, FloodPolicy
from tests.botapi.server import FakeTelegram
from tests.botapi.state import CallbackAnswer, CallbackQuery, Chat, Message, Request, User

__all__ = [
    "CallbackAnswer",
    "CallbackQuery",
    "Chat",
    "Clock",
    "FakeClock",
    "FakeTelegram",
    "FloodControl",
    "FloodPolicy",
    "Message",
    "Request",
    "SystemClock",
    "User",
]
