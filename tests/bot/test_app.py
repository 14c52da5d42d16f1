"""The composition root's helpers that need no network."""

import gc
import subprocess
import sys
import time

from aiogram.methods import Response

from bot.app import CALLED_METHODS, response_models


def test_the_reply_models_held_are_the_ones_aiogram_parses_with() -> None:
    built = response_models()
    gc.collect()
    assert len(built) == len(CALLED_METHODS)
    for method, model in zip(CALLED_METHODS, built, strict=True):
        assert Response[method.__returning__] is model, method.__name__  # type: ignore[name-defined]


STUCK = """
import logging, threading, time
from bot.app import end_by
logging.basicConfig(format="%(levelname)s %(message)s")
threading.Thread(target=time.sleep, args=(60,), name="hung-disk").start()  # not a daemon: Python waits for it
end_by(0.5)
"""


def test_a_process_held_by_a_stuck_thread_ends_at_the_stop_s_deadline() -> None:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", STUCK], capture_output=True, text=True, timeout=30, check=False)
    took = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert took < 15, f"ended after {took:.1f} s"
    assert done.stderr.strip().splitlines() == [
        "WARNING the process still runs 0.5 s after the stop began (threads: MainThread, hung-disk): ending it now"
    ]
