"""A real PostgreSQL for the tests: `BURA_TEST_POSTGRES_URL` if set (a system server), else one started from the
`pgserver` wheel (PostgreSQL's own binaries, installed by pip with the test extras) in a temporary folder, once
per test run, stopped and deleted at its end. Each test gets a database of its own (`fresh_database`)."""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import tempfile
import threading
import warnings
from urllib.parse import urlsplit, urlunsplit

import asyncpg

_lock = threading.Lock()
_url: str | None = None
_names = itertools.count(1)


def server_url() -> str:
    """The URL of the test server's maintenance database (started on first use)."""
    global _url
    with _lock:
        if _url is None:
            configured = os.environ.get("BURA_TEST_POSTGRES_URL")
            if configured:
                _url = configured
            else:
                with warnings.catch_warnings():
                    # platformdirs warns, at pgserver's import, of a machine without XDG_RUNTIME_DIR (CI's).
                    warnings.simplefilter("ignore")
                    from pgserver.postgres_server import get_server

                folder = tempfile.mkdtemp(prefix="bura-pg-")
                server = get_server(folder, cleanup_mode="stop")
                atexit.register(shutil.rmtree, folder, ignore_errors=True)
                _url = str(server.get_uri())
        return _url


def database_url(url: str, name: str) -> str:
    """The same server, another database."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


async def fresh_database() -> str:
    """A new empty database on the test server; returns its URL."""
    url = server_url()
    name = f"bura_test_{os.getpid()}_{next(_names)}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return database_url(url, name)
