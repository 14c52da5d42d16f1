"""The PostgreSQL password reaches the server as it is, whatever it holds: in DATABASE_URL unencoded (what
`openssl rand -base64` gives, pasted in by hand or by compose) or apart in DATABASE_PASSWORD. Against a real
server that checks it (scram-sha-256 for this test's role)."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from pydantic import ValidationError

from bot.config import Settings, describe_settings_error
from bot.startup import open_storage
from tests.postgres import database_url, server_url

ROLE = "bura_pw"
PASSWORD = "q/Z+8x=@Wm/4k+Tn0v3R/p=="  # / + = as openssl rand -base64 makes, and an @
TOKEN = "123456:abcdefghijklmnopqrstuvwxyz"


@pytest.fixture
async def url() -> AsyncIterator[str]:
    """The URL of a database owned by ROLE, without the password; the server asks ROLE for it."""
    admin = await asyncpg.connect(server_url())
    try:
        hba = Path(await admin.fetchval("SHOW hba_file"))
        if not os.access(hba, os.W_OK):
            pytest.skip("the test server's pg_hba.conf cannot be changed")
        await admin.execute(f"DROP DATABASE IF EXISTS {ROLE}")
        await admin.execute(f"DROP ROLE IF EXISTS {ROLE}")
        await admin.execute("SET password_encryption = 'scram-sha-256'")
        await admin.execute(f"CREATE ROLE {ROLE} LOGIN PASSWORD '{PASSWORD}'")
        await admin.execute(f"CREATE DATABASE {ROLE} OWNER {ROLE}")
        rules = hba.read_text()
        # First match wins: this role, and only it, must give its password (the others stay as they were).
        hba.write_text(f"local all {ROLE} scram-sha-256\nhost all {ROLE} all scram-sha-256\n{rules}")
        await admin.execute("SELECT pg_reload_conf()")
        try:
            bare = database_url(server_url(), ROLE).replace("://postgres:@", f"://{ROLE}@", 1)
            assert f"://{ROLE}@" in bare, bare
            yield bare
        finally:
            hba.write_text(rules)
            await admin.execute("SELECT pg_reload_conf()")
    finally:
        await admin.close()


def with_password(url: str, password: str) -> str:
    return url.replace(f"://{ROLE}@", f"://{ROLE}:{password}@", 1)


def settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> Settings:
    monkeypatch.chdir("/")  # away from any .env of the checkout
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.delenv("DATABASE_PASSWORD", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return Settings()


async def test_the_server_asks_for_the_password(url: str) -> None:
    with pytest.raises(asyncpg.InvalidPasswordError):  # else this file proves nothing
        await asyncpg.connect(url, password="wrong")


@pytest.mark.parametrize("given", ["in the URL", "apart"])
async def test_a_password_with_slashes_and_at_signs_opens_the_database(
    url: str, monkeypatch: pytest.MonkeyPatch, given: str
) -> None:
    if given == "apart":
        read = settings(monkeypatch, DATABASE_URL=url, DATABASE_PASSWORD=PASSWORD)
    else:
        read = settings(monkeypatch, DATABASE_URL=with_password(url, PASSWORD))
    assert read.postgres() == (url, PASSWORD)
    assert PASSWORD not in read.database and "Wm" not in read.database
    storage = await open_storage(read, wait=False)
    try:
        await storage.ping()
    finally:
        await storage.close()


async def test_a_percent_encoded_password_still_works(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    encoded = PASSWORD.replace("/", "%2F").replace("+", "%2B").replace("=", "%3D").replace("@", "%40")
    storage = await open_storage(settings(monkeypatch, DATABASE_URL=with_password(url, encoded)), wait=False)
    await storage.close()


async def test_a_wrong_password_is_one_line_and_exit_code_2(url: str, tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in {"BOT_TOKEN", "DATABASE_PASSWORD"}}
    wrong = PASSWORD.replace("q", "x")
    env.update(BOT_TOKEN=TOKEN, DATABASE_URL=url, DATABASE_PASSWORD=wrong, TELEGRAM_API_BASE="http://127.0.0.1:9")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=60)
    lines = stderr.decode().strip().splitlines()
    assert process.returncode == 2 and len(lines) == 1, stderr.decode()
    assert lines[0].startswith("bura-bot: DATABASE_URL postgresql://"), lines[0]
    assert "password authentication failed" in lines[0]
    assert wrong not in lines[0]


def test_a_password_given_twice_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValidationError) as error:
        settings(monkeypatch, DATABASE_URL=f"postgresql://bura:{PASSWORD}@db/bura", DATABASE_PASSWORD=PASSWORD)
    assert describe_settings_error(error.value) == (
        "DATABASE_PASSWORD must not be set when DATABASE_URL holds a password too (give it once)"
    )


@pytest.mark.parametrize("password", [PASSWORD, "p@ss#word?/x", "plain"])
def test_the_password_is_taken_out_of_the_url_and_never_shown(monkeypatch: pytest.MonkeyPatch, password: str) -> None:
    read = settings(monkeypatch, DATABASE_URL=f"postgresql://bura:{password}@db.internal:5433/bura?sslmode=require")
    assert read.postgres() == ("postgresql://bura@db.internal:5433/bura?sslmode=require", password)
    assert read.database == "DATABASE_URL postgresql://db.internal:5433/bura"
    assert ("DATABASE_PASSWORD", password) in read.secrets()
