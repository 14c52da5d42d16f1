"""Settings read from the environment: the sender's pacing (SEND_INTERVAL, GROUP_PACING), the webhook, the
database engine."""

import pytest
from pydantic import ValidationError

from bot.config import Settings, describe_settings_error

TOKEN = "123456789:AAbbCCddEEffGGhh"
WEBHOOK_VARIABLES = ("WEBHOOK_URL", "WEBHOOK_SECRET", "WEBHOOK_HOST", "WEBHOOK_PORT")


def settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> Settings:
    monkeypatch.chdir("/")  # away from any .env of the checkout
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    for name in ("SEND_INTERVAL", "GROUP_PACING", "HTTP_PORT", "DATABASE_URL", *WEBHOOK_VARIABLES):
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


def test_no_webhook_url_means_long_polling(monkeypatch: pytest.MonkeyPatch) -> None:
    read = settings(monkeypatch)
    assert (read.webhook_url, read.webhook_secret, read.webhook_path) == (None, None, "/")
    assert (read.webhook_host, read.webhook_port) == ("0.0.0.0", 8080)


def test_the_webhook_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    read = settings(
        monkeypatch,
        WEBHOOK_URL="https://bura.example.com/tg/hook",
        WEBHOOK_SECRET="A-z_09",
        WEBHOOK_HOST="127.0.0.1",
        WEBHOOK_PORT="8443",
    )
    assert read.webhook_url == "https://bura.example.com/tg/hook"
    assert read.webhook_secret is not None and read.webhook_secret.get_secret_value() == "A-z_09"
    assert (read.webhook_path, read.webhook_host, read.webhook_port) == ("/tg/hook", "127.0.0.1", 8443)
    assert settings(monkeypatch, WEBHOOK_URL="https://bura.example.com", WEBHOOK_SECRET="s").webhook_path == "/"
    for loopback in ("http://127.0.0.1:8080/hook", "http://localhost/hook", "http://[::1]:9000/"):
        assert settings(monkeypatch, WEBHOOK_URL=loopback, WEBHOOK_SECRET="s").webhook_url == loopback


@pytest.mark.parametrize(
    ("env", "line"),
    [
        (
            {"WEBHOOK_URL": "http://bura.example.com/hook", "WEBHOOK_SECRET": "s"},
            "WEBHOOK_URL must be an https:// URL (http:// only on a loopback host, for tests)",
        ),
        (
            {"WEBHOOK_URL": "bura.example.com/hook", "WEBHOOK_SECRET": "s"},
            "WEBHOOK_URL must be an https:// URL (http:// only on a loopback host, for tests)",
        ),
        (
            {"WEBHOOK_URL": "https://bura.example.com/hook"},
            "WEBHOOK_SECRET must be set when WEBHOOK_URL is set (1-256 characters: A-Z, a-z, 0-9, _ and -)",
        ),
        (
            {"WEBHOOK_URL": "https://bura.example.com/hook", "WEBHOOK_SECRET": "not allowed!"},
            "WEBHOOK_SECRET must be 1-256 characters: A-Z, a-z, 0-9, _ and - (as Telegram allows)",
        ),
        (
            {"WEBHOOK_URL": "https://bura.example.com/hook", "WEBHOOK_SECRET": "x" * 257},
            "WEBHOOK_SECRET must be 1-256 characters: A-Z, a-z, 0-9, _ and - (as Telegram allows)",
        ),
        (
            {"WEBHOOK_URL": "https://bura.example.com/hook", "WEBHOOK_SECRET": "s", "HTTP_PORT": "8080"},
            "WEBHOOK_PORT must differ from HTTP_PORT (the webhook's server serves /healthz and /metrics too)",
        ),
    ],
)
def test_a_bad_webhook_setting_is_one_line_without_the_secret(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], line: str
) -> None:
    with pytest.raises(ValidationError) as error:
        settings(monkeypatch, **env)
    assert describe_settings_error(error.value) == line


def test_a_webhook_secret_without_a_url_is_harmless(monkeypatch: pytest.MonkeyPatch) -> None:
    read = settings(monkeypatch, WEBHOOK_SECRET="s", HTTP_PORT="8080")
    assert read.webhook_url is None and read.http_port == 8080


def test_sqlite_unless_a_database_url_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    read = settings(monkeypatch)
    assert read.database_url is None
    assert read.database == "DATABASE_PATH data/bura.sqlite3"


def test_a_database_url_chooses_postgresql_and_is_never_shown_with_its_password(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read = settings(monkeypatch, DATABASE_URL="postgresql://bura:pa55word@db.internal:5433/bura")
    assert read.database_url is not None
    assert read.database == "DATABASE_URL postgresql://db.internal:5433/bura"
    assert "pa55word" not in repr(read)


@pytest.mark.parametrize("value", ["mysql://bura@db/bura", "db.internal/bura", "sqlite:///data/bura.sqlite3"])
def test_a_database_url_of_another_engine_is_one_line(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    with pytest.raises(ValidationError) as error:
        settings(monkeypatch, DATABASE_URL=value)
    assert describe_settings_error(error.value) == (
        "DATABASE_URL must be a postgresql:// URL such as postgresql://bura:secret@localhost:5432/bura"
    )
