"""How far one tap travels through the house: ``python -m tests.benchmarks.tap_path``.

A table of two is dealt (the services over SQLite, as tests/bot/test_services.py builds them); then one tap that
plays a legal lead is traced from ``GameService.tap`` until it is answered (the move committed), and again with
its messages delivered. It prints the project's files the tap passes, the distinct functions and the calls made
in them (``bot/`` and ``engine/``; the standard library and aiogram are not counted). Figures, not a test: the
house's depth is recorded in BENCHMARKS.md.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import FrameType
from typing import Any

from tests.bot.test_services import a_legal_play, a_world, playing_table

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (str(ROOT / "bot") + "/", str(ROOT / "engine") + "/")


class Trace:
    """Calls into the project's own code, from every thread, while it is on."""

    def __init__(self) -> None:
        self.calls: Counter[tuple[str, str]] = Counter()

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            path = frame.f_code.co_filename
            if path.startswith(PACKAGES):
                self.calls[(str(Path(path).relative_to(ROOT)), frame.f_code.co_qualname)] += 1

    async def around(self, step: Callable[[], Awaitable[object]]) -> None:
        sys.setprofile(self)
        threading.setprofile(self)
        try:
            await step()
        finally:
            sys.setprofile(None)
            threading.setprofile(None)

    def report(self, title: str) -> None:
        files = Counter[str]()
        for (path, _), count in self.calls.items():
            files[path] += count
        print(f"{title}: {len(files)} files, {len(self.calls)} functions, {sum(self.calls.values())} calls")
        for path, count in files.most_common():
            functions = sum(1 for (file, _) in self.calls if file == path)
            print(f"  {count:6d} calls  {functions:3d} functions  {path}")


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with a_world(Path(folder)) as world:
            table = await playing_table(world)
            actor, data = a_legal_play(table)
            answered = Trace()
            await answered.around(lambda: world.tables.game.tap(data, actor, update_id=10))
            answered.report("a tap, until it is answered (the move committed)")
            delivered = Trace()
            await delivered.around(world.deliver)
            delivered.report("then its messages delivered")


if __name__ == "__main__":
    asyncio.run(main())
