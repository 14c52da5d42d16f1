"""Settings read from the environment: the sender's pacing (SEND_INTERVAL, GROUP_PACING)."""

import pytest
from pydantic import ValidationError

from bot.config import Settings, describe_settings_error

TOKEN = "123456789:AAbbCCddEEffGGhh"


def settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> Settings:
    monkeypatch.chdir("/")  # away from any .env of the checkout
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    for name in ("SEND_INTERVAL", "GROUP_PACING"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return Settings()  # the token comes from the environment


def test_pacing_defaults_to_telegram_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    read = settings(monkeypatch)
    assert read.send_interval == 1.0
    assert read.group_pacing is True


def test_pacing_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    read = settings(monkeypatch, SEND_INTERVAL="0.05", GROUP_PACING="false")
    assert read.send_interval == 0.05
    assert read.group_pacing is False


@pytest.mark.parametrize("value", ["-1", "fast", "61"])
def test_a_bad_send_interval_names_its_variable(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    with pytest.raises(ValidationError) as error:
        settings(monkeypatch, SEND_INTERVAL=value)
    assert describe_settings_error(error.value).startswith("SEND_INTERVAL")
