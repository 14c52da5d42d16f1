"""What `python -m bot` needs before aiogram is imported: startup errors, opening the database, the healthcheck.

Kept free of aiogram on purpose: importing aiogram's types takes seconds, more than a Docker HEALTHCHECK allows.
"""

import sqlite3

from bot.config import Settings
from bot.storage import SqliteStorage


class StartupError(Exception):
    """The bot cannot start for a reason the admin can fix; `python -m bot` prints it as one line."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


async def open_storage(settings: Settings) -> SqliteStorage:
    try:
        return await SqliteStorage.open(settings.database_path)
    except (OSError, sqlite3.Error) as error:
        raise StartupError(f"DATABASE_PATH {settings.database_path}: cannot open the database: {error}") from error


async def healthcheck(settings: Settings) -> None:
    """Raise `StartupError` unless the database opens and reads (the settings were loaded by the caller)."""
    storage = await open_storage(settings)
    try:
        await storage.ping()
    except sqlite3.Error as error:
        raise StartupError(f"DATABASE_PATH {settings.database_path}: cannot read the database: {error}") from error
    finally:
        await storage.close()
