"""Time for the fake Bot API: message dates, flood windows and callback expiry all read one `Clock`.

Tests pass a `FakeClock` and move it by hand, so a 60-second flood window costs no real time.
"""

import time
from typing import Protocol


class Clock(Protocol):
    """Anything that tells the time in Unix seconds."""

    def now(self) -> float: ...


class SystemClock:
    """The wall clock, for manual runs and for e2e tests that let real time pass."""

    def now(self) -> float:
        return time.time()


class FakeClock:
    """A clock that stands still until a test advances it."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a clock does not go back")
        self._now += seconds
