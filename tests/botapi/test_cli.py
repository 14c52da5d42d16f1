"""`python -m tests.botapi.server` serves the fake Bot API on its own, for trying a bot by hand."""

import asyncio
import sys
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[2]


async def test_the_server_runs_from_the_command_line() -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.botapi.server",
        "--port",
        "0",
        "--token",
        "77:cli",
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        assert process.stdout is not None
        banner = (await asyncio.wait_for(process.stdout.readline(), 10)).decode()
        base_url = banner.split()[4]
        assert base_url.startswith("http://127.0.0.1:")
        async with aiohttp.ClientSession() as http, http.get(f"{base_url}/bot77:cli/getMe") as response:
            body = await response.json()
        assert body["ok"] and body["result"]["id"] == 77
    finally:
        process.terminate()
        await process.wait()
