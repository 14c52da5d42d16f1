"""Issue 35's small guards, each on its own: names shown safely, invitations nobody can make up, canonical numbers
in callback data, alerts within Telegram's 200 characters, membership asked of Telegram once and kept briefly."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from aiogram.exceptions import TelegramBadRequest, TelegramNetworkError
from aiogram.methods import GetChatMember
from aiogram.types import ChatMemberAdministrator, ChatMemberLeft, ChatMemberMember, ChatMemberRestricted, User

from bot.render.common import MAX_ALERT, fit_alert
from bot.render.names import FSI, MAX_NAME, PDI, safe_name
from bot.services.invites import invite_key, invite_payload, invited_table, is_invitation
from bot.telegram.callbacks import HandCb, LobbyCb, LobbyOp, parse_id
from bot.telegram.members import Members, Standing


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Аня", "Аня"),
        ("Anna Smith", "Anna Smith"),
        ("  Anna \n\t Smith  ", "Anna Smith"),
        ("Al\u200bice", "Alice"),  # a zero-width space: two Alices must look like one only if they are one
        ("Al\u200dice", "Alice"),  # a joiner between letters
        ("Ali\u00adce", "Alice"),  # a soft hyphen
        ("\u202eAnna", "Anna"),  # a right-to-left override
        ("\u2066x\u2069", "x"),  # an isolate someone typed himself
        ("👨\u200d👩\u200d👧 Семья", "👨\u200d👩\u200d👧 Семья"),  # the joiner inside an emoji stays
        ("❤️", "❤️"),
        ("\u3164", "👤4567"),  # a Hangul filler: a name that draws nothing
        ("\u200b\u200b\u200b", "👤4567"),
        ("Z" + "\u0301" * 50, "\u0179\u0301\u0301"),  # a stack of combining marks (NFC: Ź and two more)
        ("שלום", f"{FSI}שלום{PDI}"),  # right-to-left letters are isolated from the text around them
        ("Ali عربي", f"{FSI}Ali عربي{PDI}"),
    ],
)
def test_a_name_is_made_safe_to_show(raw: str, shown: str) -> None:
    assert safe_name(raw, 1234567) == shown


def test_a_long_name_is_cut() -> None:
    name = safe_name("Я" * 500, 1)
    assert len(name) == MAX_NAME and name.endswith("…")


def test_invitations_are_signed_and_canonical() -> None:
    key = invite_key("123456:SECRET-token-of-the-bot")
    assert key != invite_key("123456:another-token-of-a-bot")
    payload = invite_payload(key, 42)
    assert is_invitation(payload) and len(payload) <= 64
    assert payload.startswith("j42_")
    assert invited_table(key, payload) == 42
    assert "SECRET" not in payload
    for bad in ("j42", "j42_", payload + "A", payload[:-1], "j042" + payload[3:], f"j43{payload[3:]}", "x" + payload):
        assert invited_table(key, bad) is None, bad
    assert invited_table(invite_key("999:other-bots-token-here"), payload) is None


@pytest.mark.parametrize("text", ["02", "00", "+2", "-2", " 2", "2 ", "2\n", "²", "٣", "", "1" * 20, str(2**63)])
def test_numbers_in_callback_data_are_canonical(text: str) -> None:
    """Issue 35: a forged ``h:02:…`` was read as table 2. Only numbers as we write them are read at all."""
    assert parse_id(text) is None
    assert LobbyCb(op=LobbyOp.JOIN, table=1).pack() == "l:j:1"
    with pytest.raises(ValueError):
        HandCb.unpack(f"h:{text}:1:p:")


def test_numbers_we_write_are_read() -> None:
    assert parse_id("0") == 0 and parse_id("7") == 7 and parse_id(str(2**63 - 1)) == 2**63 - 1
    assert HandCb.unpack("h:2:0:p:").table == 2


def test_an_alert_is_cut_to_telegrams_limit() -> None:
    assert fit_alert(None) is None
    assert fit_alert("short") == "short"
    cut = fit_alert("слово " * 100)
    assert cut is not None and len(cut) <= MAX_ALERT and cut.endswith("…")


class FakeBot:
    """Answers getChatMember from a table of statuses, counting the calls; optionally slow, or failing."""

    def __init__(self, answers: dict[tuple[int, int], Any]) -> None:
        self.answers = answers
        self.calls = 0
        self.delay = 0.0

    async def get_chat_member(self, chat_id: int, user_id: int) -> Any:
        self.calls += 1
        await asyncio.sleep(self.delay)
        answer = self.answers[(chat_id, user_id)]
        if isinstance(answer, Exception):
            raise answer
        return answer


def _user(user_id: int) -> User:
    return User(id=user_id, is_bot=False, first_name="U")


async def test_membership_is_asked_once_and_kept_briefly() -> None:
    now = [0.0]
    method = GetChatMember(chat_id=-1, user_id=1)
    admin: Any = ChatMemberAdministrator.model_construct
    restricted: Any = ChatMemberRestricted.model_construct
    bot = FakeBot(
        {
            (-1, 1): ChatMemberMember(user=_user(1)),
            (-1, 2): ChatMemberLeft(user=_user(2)),
            # Built without their dozen rights (which Bot API versions keep adding): only the status is read.
            (-1, 3): admin(user=_user(3)),
            (-1, 4): restricted(user=_user(4), is_member=True),  # muted, still in
            (-1, 7): restricted(user=_user(7), is_member=False),  # restricted, gone
            (-1, 5): TelegramBadRequest(method=method, message="Bad Request: user not found"),
            (-1, 6): TelegramNetworkError(method=method, message="timeout"),
        }
    )
    members = Members(ttl=60, clock=lambda: now[0])
    tg: Any = bot
    assert await members.standing(tg, -1, 1) is Standing.MEMBER
    assert await members.standing(tg, -1, 2) is Standing.OUTSIDER
    assert await members.standing(tg, -1, 3) is Standing.ADMIN
    assert await members.standing(tg, -1, 4) is Standing.MEMBER
    assert await members.standing(tg, -1, 5) is Standing.OUTSIDER
    assert await members.standing(tg, -1, 6) is Standing.UNKNOWN
    assert await members.standing(tg, -1, 7) is Standing.OUTSIDER
    assert bot.calls == 7
    # Kept: a burst of taps costs nothing more, but what Telegram could not answer is asked again.
    for user_id in (1, 2, 3, 4, 5, 7):
        await members.standing(tg, -1, user_id)
    assert bot.calls == 7
    assert await members.standing(tg, -1, 6) is Standing.UNKNOWN and bot.calls == 8
    now[0] = 61.0  # and kept only briefly: someone who left is known to have left within a minute
    bot.answers[(-1, 1)] = ChatMemberLeft(user=_user(1))
    assert await members.standing(tg, -1, 1) is Standing.OUTSIDER
    assert Standing.UNKNOWN.is_member is None and Standing.ADMIN.is_member and not Standing.OUTSIDER.is_member


async def test_concurrent_questions_about_one_member_share_one_call() -> None:
    bot = FakeBot({(-1, 1): ChatMemberMember(user=_user(1))})
    bot.delay = 0.05
    members = Members()
    tg: Any = bot
    answers = await asyncio.gather(*(members.standing(tg, -1, 1) for _ in range(20)))
    assert set(answers) == {Standing.MEMBER}
    assert bot.calls == 1
