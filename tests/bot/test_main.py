"""`python -m bot` as the admin meets it: one line and exit 2 for bad settings, a healthcheck, a running bot."""

import asyncio
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.storage import OutboxKind, OutboxMessage, SqliteStorage

TOKEN = "123456:abcdefghijklmnopqrstuvwxyz"


def _env(tmp_path: Path, **variables: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in {"BOT_TOKEN", "TELEGRAM_API_BASE"}}
    env["DATABASE_PATH"] = str(tmp_path / "data" / "bura.sqlite3")
    env.update(variables)
    return env


async def _run_bot(tmp_path: Path, *args: str, **variables: str) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        cwd=tmp_path,  # away from any .env of the checkout
        env=_env(tmp_path, **variables),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode is not None
    return process.returncode, stderr.decode()


def _one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


async def test_a_missing_token_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    code, stderr = await _run_bot(tmp_path)
    assert code == 2
    assert "BOT_TOKEN is not set" in _one_line(stderr)


@pytest.mark.parametrize("token", ["", "abc", "987654", "bot:abcdefghijklmnop", "123:short"])
async def test_a_malformed_token_is_one_line_and_exit_code_2(tmp_path: Path, token: str) -> None:
    code, stderr = await _run_bot(tmp_path, BOT_TOKEN=token)
    assert code == 2
    line = _one_line(stderr)
    assert "BOT_TOKEN" in line
    if token:
        assert token not in line, "the secret is never echoed"


async def test_a_bad_setting_names_its_variable(tmp_path: Path) -> None:
    code, stderr = await _run_bot(tmp_path, BOT_TOKEN=TOKEN, DEFAULT_LANGUAGE="fr")
    assert code == 2
    assert _one_line(stderr).startswith("bura-bot: DEFAULT_LANGUAGE must be one of")


async def test_a_webhook_url_without_its_secret_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    code, stderr = await _run_bot(tmp_path, BOT_TOKEN=TOKEN, WEBHOOK_URL="https://bura.example.com/hook")
    assert code == 2
    assert _one_line(stderr) == "bura-bot: WEBHOOK_SECRET must be set when WEBHOOK_URL is set" + (
        " (make one with: openssl rand -hex 32)"
    )


async def test_the_example_webhook_secret_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    example = (Path(__file__).resolve().parents[2] / ".env.example").read_text(encoding="utf-8")
    [secret] = [line.partition("=")[2] for line in example.splitlines() if line.startswith("WEBHOOK_SECRET=")]
    code, stderr = await _run_bot(
        tmp_path, BOT_TOKEN=TOKEN, WEBHOOK_URL="https://bura.example.com/hook", WEBHOOK_SECRET=secret
    )
    assert code == 2
    assert _one_line(stderr).startswith("bura-bot: WEBHOOK_SECRET must be ")


async def test_a_database_path_that_is_a_folder_is_one_line_and_exit_code_2_every_time(tmp_path: Path) -> None:
    # aiosqlite's thread, left to end by itself after the failed connect, once answered the closed event loop
    # in 3-5 starts of 10: a traceback after the line, and exit code 1.
    folder = tmp_path / "folder"
    folder.mkdir()
    for _ in range(10):
        code, stderr = await _run_bot(
            tmp_path, BOT_TOKEN=TOKEN, DATABASE_PATH=str(folder), TELEGRAM_API_BASE="http://127.0.0.1:9"
        )
        assert code == 2, stderr
        assert _one_line(stderr) == f"bura-bot: DATABASE_PATH {folder}: cannot open the database: unable to open" + (
            " database file"
        )


async def test_healthcheck_opens_the_database(tmp_path: Path) -> None:
    code, stderr = await _run_bot(tmp_path, "--healthcheck", BOT_TOKEN=TOKEN)
    assert (code, stderr) == (0, "")
    assert (tmp_path / "data" / "bura.sqlite3").is_file()


async def test_healthcheck_fails_on_an_unusable_database_path(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    code, stderr = await _run_bot(
        tmp_path, "--healthcheck", BOT_TOKEN=TOKEN, DATABASE_PATH=str(tmp_path / "file" / "bura.sqlite3")
    )
    assert code == 1
    assert "DATABASE_PATH" in _one_line(stderr)


class FakeBotApi:
    """Just enough of the Bot API for a bot with no handlers: getMe, getUpdates, sendMessage."""

    def __init__(self, *, authorized: bool = True) -> None:
        self.authorized = authorized
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.polled = asyncio.Event()
        self.sent = asyncio.Event()

    async def handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        # aiogram posts forms; the bot's lean path (bot/telegram/api.py) posts JSON, as Telegram accepts both.
        data = await request.json() if request.content_type == "application/json" else dict(await request.post())
        self.calls.append((method, data))
        if not self.authorized or request.match_info["token"] != TOKEN:
            return web.json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401)
        result: Any
        if method == "getMe":
            result = {"id": 123456, "is_bot": True, "first_name": "Бура", "username": "bura_bot"}
        elif method == "getUpdates":
            self.polled.set()
            await asyncio.sleep(0.2)
            result = []
        elif method == "sendMessage":
            self.sent.set()
            chat_id = int(str(data["chat_id"]))
            result = {"message_id": 1, "date": 0, "chat": {"id": chat_id, "type": "private"}, "text": data["text"]}
        else:
            result = True
        return web.json_response({"ok": True, "result": result})


@pytest.fixture
async def api_server() -> AsyncIterator[tuple[FakeBotApi, str]]:
    api = FakeBotApi()
    app = web.Application()
    app.router.add_post("/bot{token}/{method}", api.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    yield api, f"http://{host}:{port}"
    await runner.cleanup()


async def test_the_bot_polls_delivers_the_outbox_and_stops_on_sigterm(
    tmp_path: Path, api_server: tuple[FakeBotApi, str]
) -> None:
    api, base = api_server
    async with await SqliteStorage.open(tmp_path / "data" / "bura.sqlite3") as storage:
        await storage.enqueue([OutboxMessage(chat_id=5, kind=OutboxKind.SEND, payload={"text": "привет"})])
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=_env(tmp_path, BOT_TOKEN=TOKEN, TELEGRAM_API_BASE=base, LOG_LEVEL="WARNING"),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await asyncio.wait_for(asyncio.gather(api.polled.wait(), api.sent.wait()), timeout=60)
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    assert process.returncode == 0, stderr.decode()
    assert "Traceback" not in stderr.decode()
    [(_, sent)] = [(method, data) for method, data in api.calls if method == "sendMessage"]
    assert (str(sent["chat_id"]), sent["text"], sent["parse_mode"]) == ("5", "привет", "HTML")
    async with await SqliteStorage.open(tmp_path / "data" / "bura.sqlite3") as storage:
        assert await storage.fetch_outbox(now=1e12) == []


async def test_a_token_telegram_rejects_is_one_line_and_exit_code_2(
    tmp_path: Path, api_server: tuple[FakeBotApi, str]
) -> None:
    api, base = api_server
    api.authorized = False
    code, stderr = await _run_bot(tmp_path, BOT_TOKEN=TOKEN, TELEGRAM_API_BASE=base, LOG_LEVEL="INFO")
    assert code == 2
    assert "rejected by Telegram" in _one_line(stderr), "the refusal alone, even with the log at INFO"


@pytest.mark.parametrize("variable", ["WEBHOOK_PORT", "HTTP_PORT"])
async def test_a_port_in_use_is_one_line_and_exit_code_2(
    tmp_path: Path, api_server: tuple[FakeBotApi, str], variable: str
) -> None:
    _, base = api_server
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        webhook = {
            "WEBHOOK_URL": "http://127.0.0.1:8443/hook",
            "WEBHOOK_SECRET": "Wq3-x9_Lz0vB7nM2kR5tY8uP1oI4eA6s",
            "WEBHOOK_HOST": "127.0.0.1",
            "WEBHOOK_PORT": port if variable == "WEBHOOK_PORT" else "0",
        }
        env = webhook if variable == "WEBHOOK_PORT" else {"HTTP_PORT": port}
        code, stderr = await _run_bot(tmp_path, BOT_TOKEN=TOKEN, TELEGRAM_API_BASE=base, LOG_LEVEL="INFO", **env)
    assert code == 2
    assert _one_line(stderr).startswith(f"bura-bot: {variable} {port}: cannot listen on 127.0.0.1: "), stderr
