"""Settings of a bot process, read from the environment or `.env` (pydantic-settings)."""

import ipaddress
import logging
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.logs import token_secrets

SUPPORTED_LANGUAGES = ("ru", "en")
_WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
_WEBAPP_NAME = re.compile(r"[A-Za-z0-9_]{3,30}")  # a Mini App's short name, as BotFather's /newapp takes it
MIN_WEBHOOK_SECRET = 32
MAKE_A_SECRET = "make one with: openssl rand -hex 32"
# Whoever knows the webhook's secret posts updates as any user: one copied from an example is no secret.
_EXAMPLE_WORDS = ("change", "example", "secret", "random", "letters", "password", "webhook", "token", "xxxx")
# Different characters: `openssl rand -hex 32` gives about 16, token_urlsafe(32) about 30; 32 random hex digits
# show 7 or fewer once in 28 million (9 or fewer: once in 10,000, which refused real secrets).
_MIN_VARIETY = 8


def _looks_random(secret: str) -> bool:
    """No example's words, enough different characters, and no block repeated (`abc123abc123...`)."""
    lowered = secret.lower()
    if any(word in lowered for word in _EXAMPLE_WORDS) or len(set(secret)) < _MIN_VARIETY:
        return False
    return not any(
        secret == (secret[:period] * len(secret))[: len(secret)] for period in range(1, len(secret) // 2 + 1)
    )


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _public_url(value: str | None, refusal: str) -> str | None:
    """A URL Telegram reaches (WEBHOOK_URL, WEBAPP_URL): https://, or http:// on a loopback host (tests against the
    fake Bot API); blank is unset."""
    if value is None or not value.strip():
        return None
    url = urlsplit(value.strip())
    loopback = url.hostname is not None and _is_loopback(url.hostname)
    if not url.hostname or not (url.scheme == "https" or (url.scheme == "http" and loopback)):
        raise ValueError(refusal)
    return value.strip()


class Settings(BaseSettings):
    """Everything a self-hosting admin can configure."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    bot_token: SecretStr
    telegram_api_base: str = "https://api.telegram.org"
    database_path: Path = Path("./data/bura.sqlite3")
    database_url: SecretStr | None = None
    """DATABASE_URL: postgresql://user@host:port/database to keep everything in PostgreSQL, which several
    instances of the bot may share (with webhooks: only one process may poll a token); unset, SQLite at
    DATABASE_PATH. A password in it (user:password@) may hold any character, even an unencoded / @ + =."""
    database_password: SecretStr | None = Field(None, validate_default=True)
    """DATABASE_PASSWORD: the PostgreSQL password, handed to the server as it is (never pasted into a URL), for
    one such as `openssl rand -base64 32` makes. Not with a password in DATABASE_URL."""
    log_level: str = "INFO"
    default_language: str = "ru"
    test_seed: str | None = Field(None, validation_alias="bura_testing_only_fixed_deck_seed")
    """BURA_TESTING_ONLY_FIXED_DECK_SEED: tests only. Every table is shuffled from this seed instead of a random
    one, so whoever knows it knows every hand; announced with a warning at start. (Once BURA_TEST_SEED or
    TEST_SEED, a name a production .env may hold for something else: neither is read any more.)"""
    test_hooks: Path | None = Field(None, validation_alias="bura_test_hooks")
    """BURA_TEST_HOOKS: tests only. A folder whose files make the database fail or stop where a real fault would
    (bot/storage/faults.py `FaultHooks`); announced with a warning at start. (Plain TEST_HOOKS, a name a
    production .env may hold for something else, is not read.)"""
    send_interval: float = Field(1.0, ge=0.0, le=60.0)
    """SEND_INTERVAL: seconds between two messages to one chat; Telegram's other limits scale with it (a group
    gets 20 messages per 60 x this, the bot 25 per this). Keep 1.0 against real Telegram: a faster bot is
    throttled. Tests against the fake Bot API set it low so a game takes seconds, not minutes."""
    time_scale: float = Field(1.0, ge=0.01, le=1.0)
    """TIME_SCALE: how long a second of the game's own clock lasts, in real seconds: move timers and their
    reminders, the away player's short timer, a computer's thinking time and an idle lobby's expiry run at this
    scale, as SEND_INTERVAL scales Telegram's limits. Players still read the configured times («⏳ 1:00»,
    «Осталось 30 с»). Keep 1.0; tests against the fake Bot API set it low so that no test waits real seconds for
    a game rule."""
    group_pacing: bool = True
    """GROUP_PACING: false drops the 20-messages-a-minute ceiling per group (tests only, like SEND_INTERVAL)."""
    http_port: int | None = Field(None, ge=1, le=65535)
    """HTTP_PORT: serve /healthz and /metrics (Prometheus) on this port; unset, no HTTP server."""
    http_host: str = "127.0.0.1"
    """HTTP_HOST: the address of that server: this host only by default (Prometheus in another container needs
    0.0.0.0, on a port no proxy forwards: the figures are the bot's, not the public's)."""
    webhook_url: str | None = None
    """WEBHOOK_URL: receive updates by webhook at this public https:// URL instead of long polling (unset: long
    polling). Telegram POSTs them there; the bot serves the URL's path on WEBHOOK_HOST:WEBHOOK_PORT, behind the
    proxy that holds the TLS certificate. http:// only on a loopback host (tests against the fake Bot API)."""
    webhook_secret: SecretStr | None = Field(None, validate_default=True)
    """WEBHOOK_SECRET: required with WEBHOOK_URL. Telegram sends it with every update and the bot refuses a
    request without it: whoever knows it posts updates as any user. 32-256 random characters (A-Z, a-z, 0-9, _
    and -); a short one, an example's or a pattern is refused."""
    webhook_host: str = "0.0.0.0"
    """WEBHOOK_HOST: the address the webhook server listens on (all interfaces by default, as a container needs)."""
    webhook_port: int = Field(8080, ge=1, le=65535, validate_default=True)
    """WEBHOOK_PORT: its port. It serves /healthz and /metrics too, but only to this host (not through a proxy):
    for anyone else, HTTP_PORT."""
    webapp_url: str | None = None
    """WEBAPP_URL: the public https:// URL of the Mini App (issue 40, in progress), as BotFather's Mini App is
    set to; unset, there is no Mini App and nothing of it is served. The bot serves it under /webapp/ (its page
    at /webapp/, its API at /webapp/api/): on the webhook's server when WEBHOOK_URL is set, else on a server of
    its own at WEBAPP_HOST:WEBAPP_PORT; the proxy that holds the certificate forwards /webapp/ there. http://
    only on a loopback host (tests)."""
    webapp_name: str | None = None
    """WEBAPP_NAME: the Mini App's short name, as registered with @BotFather `/newapp` (3-30 characters: A-Z, a-z,
    0-9 and _). With it, the group's table carries «🎴 Стол», a t.me/<bot>/<name>?startapp= link that opens the
    Mini App at that table right in the group (a group takes no web_app button); without it, only the private
    hands carry «🎴 Открыть стол». It needs WEBAPP_URL, the page it opens: set without it, the bot refuses to start
    (a Mini App left half on is a mistake to see at once, not a link that silently never shows)."""
    webapp_host: str = "0.0.0.0"
    """WEBAPP_HOST: the address of the Mini App's own server (without WEBHOOK_URL; all interfaces by default)."""
    webapp_port: int = Field(8081, ge=1, le=65535, validate_default=True)
    """WEBAPP_PORT: its port (without WEBHOOK_URL; with it, the Mini App is on the webhook's server)."""
    webapp_auth_seconds: int = Field(86400, ge=60, le=7 * 86400)
    """WEBAPP_AUTH_SECONDS: how long the Mini App's initData (Telegram's signed word of who opened it) is taken,
    from its auth_date: a leaked one is good for this long at most. A day by default."""
    retention_days: int = Field(30, ge=0, le=36500)
    """RETENTION_DAYS: the messages the bot delivered and finished tables' game states (every hand dealt) and
    move logs are deleted this many days later; 0 keeps them for good. Tallies and each table's row are kept
    (README, "What the bot keeps")."""
    computer_processes: int = Field(1, ge=0, le=64)
    """COMPUTER_PROCESSES: worker processes where hard computer players think (0: a thread of the bot, which then
    answers every tap about 5 ms later while one thinks). One worker makes about nine of the heaviest hard decisions
    a second (the first move of a two-player Бура deal, BENCHMARKS.md)."""

    @field_validator("bot_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        # A BotFather token is "<bot id>:<secret>"; catching a pasted typo here beats a 401 later.
        bot_id, sep, secret = value.get_secret_value().strip().partition(":")
        if not sep or not bot_id.isdigit() or len(secret) < 10 or any(c.isspace() for c in secret):
            raise ValueError("must look like 123456789:AA... (the token from @BotFather)")
        return SecretStr(f"{bot_id}:{secret}")

    @field_validator("telegram_api_base")
    @classmethod
    def _api_base_is_http(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("must be an http(s) URL such as https://api.telegram.org")
        return value.rstrip("/")

    @field_validator("database_url")
    @classmethod
    def _database_url_is_postgres(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value().strip():
            return None
        url = value.get_secret_value().strip()
        try:
            parts = urlsplit(split_database_url(url)[0])
            well_formed = parts.scheme in ("postgresql", "postgres") and (parts.port or 0) >= 0
        except ValueError:  # a port that is no number
            well_formed = False
        if not well_formed:
            raise ValueError("must be a postgresql:// URL such as postgresql://bura@localhost:5432/bura")
        return SecretStr(url)

    @field_validator("database_password")
    @classmethod
    def _database_password_once(cls, value: SecretStr | None, info: ValidationInfo) -> SecretStr | None:
        if value is None or not value.get_secret_value():
            return None
        url = info.data.get("database_url")
        if url is not None and split_database_url(url.get_secret_value())[1] is not None:
            raise ValueError("must not be set when DATABASE_URL holds a password too (give it once)")
        return value

    @field_validator("webhook_url")
    @classmethod
    def _webhook_url_is_https(cls, value: str | None) -> str | None:
        return _public_url(value, "must be an https:// URL (http:// only on a loopback host, for tests)")

    @field_validator("webhook_secret")
    @classmethod
    def _webhook_secret_shape(cls, value: SecretStr | None, info: ValidationInfo) -> SecretStr | None:
        if value is None or not value.get_secret_value():
            if info.data.get("webhook_url") is not None:
                raise ValueError(f"must be set when WEBHOOK_URL is set ({MAKE_A_SECRET})")
            return None
        secret = value.get_secret_value()
        if not _WEBHOOK_SECRET.fullmatch(secret):
            raise ValueError("must be 1-256 characters: A-Z, a-z, 0-9, _ and - (as Telegram allows)")
        if info.data.get("webhook_url") is not None:  # unused without it (a .env made for both modes)
            if len(secret) < MIN_WEBHOOK_SECRET:
                raise ValueError(f"must be at least {MIN_WEBHOOK_SECRET} characters ({MAKE_A_SECRET})")
            if not _looks_random(secret):
                raise ValueError(f"must be random, not an example or a pattern ({MAKE_A_SECRET})")
        return value

    @field_validator("webhook_port")
    @classmethod
    def _webhook_port_is_free(cls, value: int, info: ValidationInfo) -> int:
        if info.data.get("webhook_url") is not None and info.data.get("http_port") == value:
            raise ValueError("must differ from HTTP_PORT (the webhook's server serves /healthz and /metrics too)")
        return value

    @field_validator("webapp_url")
    @classmethod
    def _webapp_url_is_https(cls, value: str | None) -> str | None:
        return _public_url(
            value, "must be an https:// URL, as Telegram opens Mini Apps (http:// only on a loopback host)"
        )

    @field_validator("webapp_name")
    @classmethod
    def _webapp_name_shape(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None or not value.strip():
            return None
        name = value.strip()
        if not _WEBAPP_NAME.fullmatch(name):
            raise ValueError("must be the Mini App's short name from @BotFather: 3-30 characters, A-Z, a-z, 0-9 and _")
        if info.data.get("webapp_url") is None:
            raise ValueError("must not be set without WEBAPP_URL (the Mini App's page, which the link opens)")
        return name

    @field_validator("webapp_port")
    @classmethod
    def _webapp_port_is_free(cls, value: int, info: ValidationInfo) -> int:
        own_server = info.data.get("webapp_url") is not None and info.data.get("webhook_url") is None
        if own_server and info.data.get("http_port") == value:
            raise ValueError("must differ from HTTP_PORT (/healthz and /metrics are not for the public)")
        return value

    @property
    def database(self) -> str:
        """Where the database is, for messages to the admin (never the password)."""
        if self.database_url is None:
            return f"DATABASE_PATH {self.database_path}"
        url = urlsplit(self.postgres()[0])
        where = f"{url.hostname or 'localhost'}{f':{url.port}' if url.port else ''}{url.path}"
        return f"DATABASE_URL postgresql://{where}"

    def postgres(self) -> tuple[str, str | None]:
        """DATABASE_URL without its password, and the password (DATABASE_PASSWORD's, or the URL's), which asyncpg
        is given apart, as it is."""
        assert self.database_url is not None
        url, password = split_database_url(self.database_url.get_secret_value())
        if self.database_password is not None:
            password = self.database_password.get_secret_value()
        return url, password

    def secrets(self) -> list[tuple[str, str]]:
        """What no log line may show, by name: the bot token (whole, and its secret part), the webhook's secret,
        the database's password."""
        found = token_secrets(self.bot_token.get_secret_value())
        if self.webhook_secret is not None:
            found.append(("WEBHOOK_SECRET", self.webhook_secret.get_secret_value()))
        if self.database_url is not None:
            password = self.postgres()[1]
            if password:
                found.append(("DATABASE_PASSWORD", password))
        return found

    @property
    def webhook_path(self) -> str:
        """The path the webhook server serves: WEBHOOK_URL's."""
        if self.webhook_url is None:
            return "/"
        return urlsplit(self.webhook_url).path or "/"

    @field_validator("log_level")
    @classmethod
    def _known_log_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in logging.getLevelNamesMapping():
            raise ValueError("must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
        return level

    @field_validator("default_language")
    @classmethod
    def _supported_language(cls, value: str) -> str:
        language = value.strip().lower()
        if language not in SUPPORTED_LANGUAGES:
            raise ValueError(f"must be one of {', '.join(SUPPORTED_LANGUAGES)}")
        return language


def split_database_url(url: str) -> tuple[str, str | None]:
    """A postgresql:// URL as (the URL without its password, the password, percent-decoded; None if it has
    none). The password may hold any character, even an unencoded / @ + = as `openssl rand -base64` makes (a
    URL parser cuts it at the first /): the user's part ends at the URL's last @."""
    scheme, sep, rest = url.partition("://")
    user_part, at, location = rest.rpartition("@")
    if not sep or not at:
        return url, None
    user, _, password = user_part.partition(":")
    bare = f"{scheme}://{user}@{location}" if user else f"{scheme}://{location}"
    return bare, unquote(password) if password else None


def describe_settings_error(error: ValidationError) -> str:
    """One line for the admin: which variable is wrong and why; never the secret value itself."""
    first = error.errors(include_input=False, include_url=False)[0]
    variable = "_".join(str(part) for part in first["loc"]).upper() or "configuration"
    if first["type"] == "missing":
        return f"{variable} is not set: put it in the environment or in .env"
    reason = first["msg"].removeprefix("Value error, ")
    return f"{variable} {reason}" if reason.startswith("must") else f"{variable}: {reason}"
