"""The bot's processes for the e2e tests, forked from one that has already imported it.

`python -m bot` spends some three seconds (more on a busy machine) importing aiogram before it reads a setting,
and the e2e tests start it hundreds of times (the crash tests some thirty times each): that import was a good
part of the suite's wall time. So each test process keeps one server that imports `bot.__main__` and `bot.app`
once and forks a child for every start; the child takes the environment, working folder and log the test gives
it and runs `bot.__main__.main()`, in its own process with its own pid, killed, stopped and waited for like the
subprocess it replaces (a SIGKILL is a real SIGKILL, a SIGTERM reaches the bot's own handler). The server runs
nothing of the bot itself (no event loop, no thread, no setting read), so every child starts as fresh as
`python -m bot` would, minus the import; `random` reseeds itself in a forked child. The bot's own spawned
workers (COMPUTER_PROCESSES) start from scratch, as always.

Under pytest only (the benchmarks keep `python -m bot`); BURA_E2E_EXEC=1 starts every bot as `python -m bot`
again, and so does BURA_PROFILE (cProfile in front). The tests that are about the process itself start `python
-m bot` themselves: tests/bot/test_main.py, the SIGTERM test of tests/e2e/test_stop.py, the second process of
tests/e2e/test_faults.py, tests/e2e/test_secrets.py.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

# Runs as `python -c`, so that no module of the tests is its __main__ (a spawned worker imports the parent's).
SERVER = r"""
import json, os, select, signal, sys, traceback

import bot.__main__
import bot.app  # noqa: F401  (the slow import, once)

wake_r, wake_w = os.pipe()
os.set_blocking(wake_r, False)
os.set_blocking(wake_w, False)
signal.set_wakeup_fd(wake_w)
signal.signal(signal.SIGCHLD, lambda *_: None)
children = set()


def say(message):
    data = (json.dumps(message) + "\n").encode()
    while data:
        data = data[os.write(1, data):]


def child(request):
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.close(wake_r)
        os.close(wake_w)
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        os.close(null)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = [bot.__main__.__file__, *request["args"]]
        sys.modules["__main__"] = bot.__main__  # as under `python -m bot`: spawned workers import it by name
    except BaseException:
        traceback.print_exc()
        os._exit(70)
    # As `python -m bot` ends: SystemExit unwinds out of this loop and the interpreter exits the usual way
    # (non-daemon threads joined, atexit handlers, the log flushed); an exception is printed, exit code 1.
    sys.exit(bot.__main__.main(request["args"]))


pending = b""
while True:
    ready = select.select([0, wake_r], [], [])[0]
    if wake_r in ready:
        try:
            while os.read(wake_r, 512):
                pass
        except BlockingIOError:
            pass
        while children:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                break
            children.discard(pid)
            say({"exit": pid, "code": os.waitstatus_to_exitcode(status)})
    if 0 in ready:
        data = os.read(0, 65536)
        if not data:
            os._exit(0)
        pending += data
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            request = json.loads(line)
            pid = os.fork()
            if pid == 0:
                child(request)
            children.add(pid)
            say({"pid": pid})
"""


class Forked:
    """A bot process forked by the server: the part of asyncio.subprocess.Process the tests use."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.exited = threading.Event()

    def send_signal(self, signum: int) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):  # reaped, its exit not yet read
                os.kill(self.pid, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    async def wait(self) -> int:
        while not self.exited.is_set():
            await asyncio.sleep(0.01)
        assert self.returncode is not None
        return self.returncode


class ForkServer:
    def __init__(self) -> None:
        self.server = subprocess.Popen(
            [sys.executable, "-c", SERVER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=Path(__file__).resolve().parents[2],
        )
        self.lock = threading.Lock()
        self.replies: queue.Queue[int] = queue.Queue()
        self.children: dict[int, Forked] = {}
        self.exits: dict[int, int] = {}  # reported before the fork's reply was read
        threading.Thread(target=self._read, daemon=True).start()
        atexit.register(self.close)

    def _read(self) -> None:
        assert self.server.stdout is not None
        for line in self.server.stdout:
            message: dict[str, Any] = json.loads(line)
            if "pid" in message:  # fork() waits for it, holding the lock
                self.replies.put(int(message["pid"]))
                continue
            with self.lock:
                pid, code = int(message["exit"]), int(message["code"])
                forked = self.children.pop(pid, None)
                if forked is None:
                    self.exits[pid] = code
                    continue
            forked.returncode = code
            forked.exited.set()

    def fork(self, env: dict[str, str], cwd: Path, log: Path, args: list[str]) -> Forked:
        assert self.server.stdin is not None and self.server.poll() is None, "the fork server died"
        request = {"env": env, "cwd": str(cwd), "log": str(log), "args": args}
        with self.lock:  # one fork at a time: the replies come in order
            self.server.stdin.write((json.dumps(request) + "\n").encode())
            self.server.stdin.flush()
            pid = self.replies.get(timeout=120)
            forked = Forked(pid)
            if pid in self.exits:
                forked.returncode = self.exits.pop(pid)
                forked.exited.set()
            else:
                self.children[pid] = forked
        return forked

    def close(self) -> None:
        if self.server.stdin is not None:
            self.server.stdin.close()
        try:
            self.server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.server.kill()


_server: ForkServer | None = None
_starting = threading.Lock()


def _the_server() -> ForkServer:
    global _server
    with _starting:
        if _server is None or _server.server.poll() is not None:
            _server = ForkServer()
        return _server


def enabled() -> bool:
    """Under pytest only: the benchmarks that start the bot (tests/benchmarks) keep `python -m bot`."""
    env = os.environ
    return bool(env.get("PYTEST_CURRENT_TEST") and not env.get("BURA_E2E_EXEC") and not env.get("BURA_PROFILE"))


def warm_up() -> None:
    """Start the server now, in the background, so that its import overlaps with other work."""
    if enabled():
        threading.Thread(target=_the_server, daemon=True).start()


async def start_bot(env: dict[str, str], cwd: Path, log: Path, args: tuple[str, ...] = ()) -> Forked:
    """`python -m bot *args` with this environment, in this folder, its output to `log`."""
    return await asyncio.to_thread(lambda: _the_server().fork(env, cwd, log, list(args)))
