"""The Mini App's credentials: Telegram's initData checked as the Bot API says, and the table token."""

from __future__ import annotations

import re

import pytest

from bot.services.invites import invite_key, invite_payload
from bot.webapp.initdata import InitDataRefused, Refusal, verify_init_data
from bot.webapp.tokens import MAX_TOKEN, table_key, table_link, table_token, token_table
from tests.webapp_auth import signed

TOKEN = "123456789:AAbbCCddEEffGGhhIIjjKKllMMnn"
OTHER_TOKEN = "987654321:ZZyyXXwwVVuuTTssRRqqPPooNNmm"
NOW = 1_760_000_000.0
DAY = 86400.0


ANNA = {"id": 1, "first_name": "Аня", "last_name": "<3", "language_code": "ru"}


def refusal(init_data: str, *, token: str = TOKEN, now: float = NOW) -> Refusal:
    with pytest.raises(InitDataRefused) as refused:
        verify_init_data(token, init_data, now=now, max_age=DAY)
    return refused.value.reason


def test_a_signed_fresh_init_data_names_its_user() -> None:
    viewer = verify_init_data(TOKEN, signed(TOKEN, ANNA, NOW - 60, query_id="AAH"), now=NOW, max_age=DAY)
    assert (viewer.user_id, viewer.first_name, viewer.last_name, viewer.language_code) == (1, "Аня", "<3", "ru")
    assert viewer.actor.user_id == 1 and viewer.actor.language_code == "ru"


def test_init_data_signed_with_another_token_is_forged() -> None:
    assert refusal(signed(OTHER_TOKEN, ANNA, NOW)) is Refusal.FORGED


def test_init_data_whose_user_was_changed_is_forged() -> None:
    good = signed(TOKEN, ANNA, NOW)
    tampered = good.replace("%22id%22%3A1%2C", "%22id%22%3A2%2C")
    assert tampered != good
    assert refusal(tampered) is Refusal.FORGED


def test_init_data_older_than_the_window_is_expired() -> None:
    assert refusal(signed(TOKEN, ANNA, NOW - DAY - 1)) is Refusal.EXPIRED
    assert refusal(signed(TOKEN, ANNA, NOW + 3600)) is Refusal.EXPIRED  # from the future: not this clock's
    verify_init_data(TOKEN, signed(TOKEN, ANNA, NOW - DAY + 1), now=NOW, max_age=DAY)


def test_init_data_without_a_user_or_with_a_bot_is_refused() -> None:
    assert refusal(signed(TOKEN, None, NOW)) is Refusal.NO_USER
    assert refusal(signed(TOKEN, {**ANNA, "is_bot": True}, NOW)) is Refusal.NO_USER
    assert refusal(signed(TOKEN, {**ANNA, "id": "1"}, NOW)) is Refusal.NO_USER


def test_malformed_init_data_is_refused() -> None:
    assert refusal("") is Refusal.MISSING
    assert refusal("no pairs here") is Refusal.MALFORMED
    assert refusal("a=1&" * 2000) is Refusal.MALFORMED
    good = signed(TOKEN, ANNA, NOW)
    assert refusal(f"{good}&user=%7B%22id%22%3A2%7D") is Refusal.MALFORMED  # a key twice


def test_a_refusal_never_carries_the_init_data() -> None:
    good = signed(OTHER_TOKEN, ANNA, NOW)
    with pytest.raises(InitDataRefused) as refused:
        verify_init_data(TOKEN, good, now=NOW, max_age=DAY)
    assert str(refused.value) == "forged"


def test_a_table_token_names_its_table_and_nothing_else() -> None:
    key = table_key(TOKEN)
    for table_id in (1, 42, 2**62):
        token = table_token(key, table_id)
        assert len(token) <= MAX_TOKEN and re.fullmatch(r"[A-Za-z0-9_-]+", token)
        assert token_table(key, token) == table_id
    token = table_token(key, 42)
    assert token_table(table_key(OTHER_TOKEN), token) is None  # another bot's
    assert token_table(key, token.replace("t42_", "t43_")) is None
    assert token_table(key, "t042_" + token.partition("_")[2]) is None
    assert token_table(key, token + "A") is None
    # An invitation's MAC is no table token (another key, another message).
    mac = invite_payload(invite_key(TOKEN), 42).partition("_")[2]
    assert token_table(key, f"t42_{mac}") is None


def test_a_table_link_opens_the_mini_app_with_the_token() -> None:
    key = table_key(TOKEN)
    link = table_link("bura_bot", "table", key, 42)
    assert link == f"https://t.me/bura_bot/table?startapp={table_token(key, 42)}"
