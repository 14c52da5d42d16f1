"""What `python -m bot` needs before aiogram is imported: startup errors, opening the database, the healthcheck.

Kept free of aiogram on purpose: importing aiogram's types takes seconds, more than a Docker HEALTHCHECK allows.
"""

import sqlite3
from contextlib import closing

from bot.config import Settings
from bot.storage import SqliteStorage, StartupRefused
from bot.storage.sqlite import FaultHooks
from bot.storage.sqlite.migrations import LATEST


class StartupError(Exception):
    """The bot cannot start for a reason the admin can fix; `python -m bot` prints it as one line."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


async def open_storage(settings: Settings) -> SqliteStorage:
    """The bot's database, locked for this process; a refusal (another process, a newer schema) exits 2."""
    hooks = FaultHooks(settings.test_hooks) if settings.test_hooks is not None else None
    try:
        return await SqliteStorage.open(settings.database_path, hooks=hooks)
    except StartupRefused as error:
        raise StartupError(f"DATABASE_PATH {settings.database_path}: {error}", exit_code=2) from error
    except (OSError, sqlite3.Error) as error:
        raise StartupError(f"DATABASE_PATH {settings.database_path}: cannot open the database: {error}") from error


async def healthcheck(settings: Settings) -> None:
    """Raise `StartupError` unless the database opens and its schema is one this bot knows.

    With no bot running it opens the database as the bot would (and creates it); beside a running bot (Docker
    runs the check inside the bot's container) it only reads, without the lock that bot holds."""
    try:
        storage = await open_storage(settings)
    except StartupError as error:
        if error.exit_code != 2:
            raise
    else:
        await storage.close()
        return
    path = settings.database_path
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)) as db:
            row = db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
    except sqlite3.Error as error:
        raise StartupError(f"DATABASE_PATH {path}: cannot read the database: {error}") from error
    version = int(row[0]) if row else 0
    if version > LATEST:
        raise StartupError(f"DATABASE_PATH {path}: schema version {version} is newer than this bot's ({LATEST})", 2)
