"""What `python -m bot` needs before aiogram is imported: startup errors, opening the database, the healthcheck.

Kept free of aiogram on purpose: importing aiogram's types takes seconds, more than a Docker HEALTHCHECK allows.
"""

import asyncio
import logging
import sqlite3
from contextlib import closing

from bot.config import Settings
from bot.storage import SqliteStorage, StartupRefused, Storage, StorageUnavailable
from bot.storage.faults import FaultHooks
from bot.storage.sqlite.migrations import LATEST

logger = logging.getLogger(__name__)

CONNECT_BACKOFF_CAP = 30.0  # seconds between two tries to reach a database server that is not up yet


class StartupError(Exception):
    """The bot cannot start for a reason the admin can fix; `python -m bot` prints it as one line."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


async def open_storage(settings: Settings, *, wait: bool = True) -> Storage:
    """The bot's database: PostgreSQL at DATABASE_URL (a server not up yet is waited for, unless `wait` is
    False), or SQLite at DATABASE_PATH, locked for this process. A refusal (another process on the SQLite file,
    a newer schema) exits 2."""
    if settings.database_url is not None:
        return await _open_postgres(settings, wait)
    return await _open_sqlite(settings)


async def _open_postgres(settings: Settings, wait: bool) -> Storage:
    from bot.storage.postgres import PostgresStorage  # asyncpg only where it is used

    url, password = settings.postgres()  # the password apart: it may hold any character
    failures = 0
    while True:
        try:
            return await PostgresStorage.open(url, hooks=_hooks(settings), password=password)
        except StartupRefused as error:
            raise StartupError(f"{settings.database}: {error}", exit_code=2) from error
        except StorageUnavailable as error:
            if not wait or _refused_for_good(error.cause):
                raise StartupError(f"{settings.database}: cannot open the database: {error.cause}") from error
            failures += 1
            delay = min(CONNECT_BACKOFF_CAP, 2.0**failures)
            logger.warning("cannot reach %s (%s); retrying in %.0f s", settings.database, error.cause, delay)
            await asyncio.sleep(delay)


def _hooks(settings: Settings) -> FaultHooks | None:
    return FaultHooks(settings.test_hooks) if settings.test_hooks is not None else None


def _refused_for_good(cause: BaseException) -> bool:
    """The server answered and said no (a wrong password, no such database): waiting would not help."""
    import asyncpg

    return isinstance(
        cause,
        asyncpg.exceptions.InvalidAuthorizationSpecificationError
        | asyncpg.exceptions.InvalidPasswordError
        | asyncpg.exceptions.InvalidCatalogNameError,
    )


async def _open_sqlite(settings: Settings) -> SqliteStorage:
    hooks = _hooks(settings)
    try:
        return await SqliteStorage.open(settings.database_path, hooks=hooks)
    except StartupRefused as error:
        raise StartupError(f"DATABASE_PATH {settings.database_path}: {error}", exit_code=2) from error
    except (OSError, sqlite3.Error) as error:
        raise StartupError(f"DATABASE_PATH {settings.database_path}: cannot open the database: {error}") from error


async def healthcheck(settings: Settings) -> None:
    """Raise `StartupError` unless the database opens and its schema is one this bot knows.

    With no bot running it opens the database as the bot would (and creates it); beside a running bot (Docker
    runs the check inside the bot's container) it only reads, without the lock that bot holds. PostgreSQL is
    only read: the server answers, and its schema is one this bot knows."""
    if settings.database_url is not None:
        await _check_postgres(settings)
        return
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


async def _check_postgres(settings: Settings) -> None:
    import asyncpg

    from bot.storage.postgres.migrations import LATEST as POSTGRES_LATEST

    url, password = settings.postgres()
    try:
        db = await asyncio.wait_for(asyncpg.connect(url, password=password), 10)
        try:
            version = await db.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        finally:
            await db.close()
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise StartupError(f"{settings.database}: cannot read the database: {error}") from error
    if int(version) > POSTGRES_LATEST:
        raise StartupError(f"{settings.database}: schema version {version} is newer than this bot's", 2)
