"""Settings read from the environment: the sender's pacing (SEND_INTERVAL, GROUP_PACING), the webhook, the
database engine."""

import secrets

import pytest
from pydantic import ValidationError

from bot.config import Settings, describe_settings_error

TOKEN = "123456789:AAbbCCddEEffGGhh"
SECRET = "c2f9e0a7-4Kq_Zt81xVbN3mLp6RsYwD5h"  # as `openssl rand` or `secrets.token_urlsafe` make them
WEBHOOK_VARIABLES = ("WEBHOOK_URL", "WEBHOOK_SECRET", "WEBHOOK_HOST", "WEBHOOK_PORT")
SEED_VARIABLES = ("BURA_TESTING_ONLY_FIXED_DECK_SEED", "BURA_TEST_SEED", "TEST_SEED", "BURA_TEST_HOOKS", "TEST_HOOKS")


def settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> Settings:
    monkeypatch.chdir("/")  # away from any .env of the checkout
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    for name in ("SEND_INTERVAL", "GROUP_PACING", "HTTP_PORT", "DATABASE_URL", *WEBHOOK_VARIABLES, *SEED_VARIABLES):
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


def test_health_and_metrics_listen_on_this_host_only_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HTTP_HOST", raising=False)
    assert settings(monkeypatch, HTTP_PORT="9090").http_host == "127.0.0.1"
    assert settings(monkeypatch, HTTP_PORT="9090", HTTP_HOST="0.0.0.0").http_host == "0.0.0.0"


def test_no_webhook_url_means_long_polling(monkeypatch: pytest.MonkeyPatch) -> None:
    read = settings(monkeypatch)
    assert (read.webhook_url, read.webhook_secret, read.webhook_path) == (None, None, "/")
    assert (read.webhook_host, read.webhook_port) == ("0.0.0.0", 8080)


def test_the_webhook_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    read = settings(
        monkeypatch,
        WEBHOOK_URL="https://bura.example.com/tg/hook",
        WEBHOOK_SECRET=SECRET,
        WEBHOOK_HOST="127.0.0.1",
        WEBHOOK_PORT="8443",
    )
    assert read.webhook_url == "https://bura.example.com/tg/hook"
    assert read.webhook_secret is not None and read.webhook_secret.get_secret_value() == SECRET
    assert (read.webhook_path, read.webhook_host, read.webhook_port) == ("/tg/hook", "127.0.0.1", 8443)
    assert settings(monkeypatch, WEBHOOK_URL="https://bura.example.com", WEBHOOK_SECRET=SECRET).webhook_path == "/"
    for loopback in ("http://127.0.0.1:8080/hook", "http://localhost/hook", "http://[::1]:9000/"):
        assert settings(monkeypatch, WEBHOOK_URL=loopback, WEBHOOK_SECRET=SECRET).webhook_url == loopback


@pytest.mark.parametrize(
    ("env", "line"),
    [
        (
            {"WEBHOOK_URL": "http://bura.example.com/hook", "WEBHOOK_SECRET": SECRET},
            "WEBHOOK_URL must be an https:// URL (http:// only on a loopback host, for tests)",
        ),
        (
            {"WEBHOOK_URL": "bura.example.com/hook", "WEBHOOK_SECRET": SECRET},
            "WEBHOOK_URL must be an https:// URL (http:// only on a loopback host, for tests)",
        ),
        (
            {"WEBHOOK_URL": "https://bura.example.com/hook"},
            "WEBHOOK_SECRET must be set when WEBHOOK_URL is set (make one with: openssl rand -hex 32)",
        ),
        (
            {"WEBHOOK_URL": "https://bura.example.com/hook", "WEBHOOK_SECRET": SECRET + "!"},
            "WEBHOOK_SECRET must be 1-256 characters: A-Z, a-z, 0-9, _ and - (as Telegram allows)",
        ),
        (
            {"WEBHOOK_URL": "https://bura.example.com/hook", "WEBHOOK_SECRET": "x" * 257},
            "WEBHOOK_SECRET must be 1-256 characters: A-Z, a-z, 0-9, _ and - (as Telegram allows)",
        ),
        (
            {"WEBHOOK_URL": "https://bura.example.com/hook", "WEBHOOK_SECRET": SECRET, "HTTP_PORT": "8080"},
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


@pytest.mark.parametrize(
    ("secret", "reason"),
    [
        ("s", "must be at least 32 characters"),
        ("e2e_webhook-Secret-42", "must be at least 32 characters"),
        ("0123456789abcdef0123456789abcde", "must be at least 32 characters"),  # 31
        ("change-me-to-random-letters", "must be at least 32 characters"),  # .env.example's, once
        ("change-me-to-32-or-more-random-characters", "must be random, not an example or a pattern"),
        ("q7Lm2Xv9-Example-Zp4Rt8Wn3Ks6Yb1Hd0", "must be random, not an example or a pattern"),
        ("a" * 64, "must be random, not an example or a pattern"),
        ("abab" * 10, "must be random, not an example or a pattern"),
        ("0011223344" * 4, "must be random, not an example or a pattern"),  # ten different, but a pattern
        ("K7d-Qp2_xZ" * 4, "must be random, not an example or a pattern"),
        ("1111111111222222222233333333334444444444", "must be random, not an example or a pattern"),
    ],
)
def test_a_weak_webhook_secret_is_refused_in_one_line_without_it(
    monkeypatch: pytest.MonkeyPatch, secret: str, reason: str
) -> None:
    with pytest.raises(ValidationError) as error:
        settings(monkeypatch, WEBHOOK_URL="https://bura.example.com/hook", WEBHOOK_SECRET=secret)
    line = describe_settings_error(error.value)
    assert line == f"WEBHOOK_SECRET {reason} (make one with: openssl rand -hex 32)"  # never the secret itself


def test_secrets_as_the_usual_tools_make_them_are_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    for _ in range(200):
        for secret in (secrets.token_hex(16), secrets.token_hex(32), secrets.token_urlsafe(32)):
            read = settings(monkeypatch, WEBHOOK_URL="https://bura.example.com/hook", WEBHOOK_SECRET=secret)
            assert read.webhook_secret is not None and read.webhook_secret.get_secret_value() == secret


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


@pytest.mark.parametrize(
    "value",
    ["mysql://bura@db/bura", "db.internal/bura", "sqlite:///data/bura.sqlite3", "postgresql://bura@db:port/bura"],
)
def test_a_database_url_of_another_engine_is_one_line(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    with pytest.raises(ValidationError) as error:
        settings(monkeypatch, DATABASE_URL=value)
    assert describe_settings_error(error.value) == (
        "DATABASE_URL must be a postgresql:// URL such as postgresql://bura@localhost:5432/bura"
    )


def test_a_fixed_deck_seed_is_read_only_under_its_test_only_name(monkeypatch: pytest.MonkeyPatch) -> None:
    assert settings(monkeypatch).test_seed is None
    # TEST_SEED may mean anything in a production .env; the old name is gone too.
    assert settings(monkeypatch, TEST_SEED="prod-thing", BURA_TEST_SEED="old").test_seed is None
    assert settings(monkeypatch, BURA_TESTING_ONLY_FIXED_DECK_SEED="e2e-seed-1").test_seed == "e2e-seed-1"


def test_fault_hooks_are_read_only_under_their_prefixed_name(monkeypatch: pytest.MonkeyPatch) -> None:
    assert settings(monkeypatch, TEST_HOOKS="/srv/hooks").test_hooks is None
    assert str(settings(monkeypatch, BURA_TEST_HOOKS="/tmp/hooks").test_hooks) == "/tmp/hooks"
