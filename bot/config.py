"""Settings of a bot process, read from the environment or `.env` (pydantic-settings)."""

from pathlib import Path

from pydantic import SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything a self-hosting admin can configure."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    bot_token: SecretStr
    telegram_api_base: str = "https://api.telegram.org"
    database_path: Path = Path("./data/bura.sqlite3")
    log_level: str = "INFO"
    default_language: str = "ru"

    @field_validator("bot_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        # A BotFather token is "<bot id>:<secret>"; catching a pasted typo here beats a 401 later.
        bot_id, sep, secret = value.get_secret_value().partition(":")
        if not sep or not bot_id.isdigit() or len(secret) < 10:
            raise ValueError("BOT_TOKEN must look like 123456789:AA... (the token from @BotFather)")
        return value
