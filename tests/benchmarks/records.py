"""JSON-lines files of benchmark records, plain or gzip-compressed (a name ending in ``.gz``): read, resumed, appended.

The kept results (docs/lab/results/) are compressed; a run may write either kind. A record is flushed as it is
written, so a run stopped at any moment leaves every record before the stop readable: a compressed file cut short
is read up to the cut and written again whole before anything is appended to it.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, cast


def _open(path: Path, mode: str) -> IO[str]:
    if path.suffix == ".gz":
        return cast(IO[str], gzip.open(path, mode + "t", encoding="utf-8"))
    return path.open(mode, encoding="utf-8")


def read(path: Path | None) -> list[dict[str, Any]]:
    """Every record of ``path`` in file order (none if there is no file)."""
    if path is None or not path.exists():
        return []
    lines: list[str] = []
    cut = False
    with _open(path, "r") as stream:
        try:
            for line in stream:
                if line.strip():
                    lines.append(line)
        except (EOFError, gzip.BadGzipFile, zlib.error):
            cut = True  # a run stopped while writing: what was flushed before is whole
    if cut:
        lines = [line for line in lines if line.endswith("\n")]
        whole = path.with_suffix(".whole" + path.suffix)
        with _open(whole, "w") as stream:
            stream.writelines(lines)
        whole.replace(path)
    return [json.loads(line) for line in lines]


@contextmanager
def appending(path: Path) -> Iterator[IO[str]]:
    """``path`` open for appending records (a compressed file gains a gzip member, which readers take in order);
    write each one with :func:`append`."""
    with _open(path, "a") as stream:
        yield stream


def append(stream: IO[str], records: Iterable[dict[str, Any]], *, compact: bool = True) -> None:
    """Write ``records``, one JSON line each (``compact``: without spaces), and flush them, so that a stop after
    this call keeps them."""
    stream.writelines(_line(record, compact) for record in records)
    stream.flush()


def _line(record: dict[str, Any], compact: bool = True) -> str:
    return json.dumps(record, separators=(",", ":") if compact else None) + "\n"
