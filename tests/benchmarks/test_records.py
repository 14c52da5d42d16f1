"""The benchmarks' record files: plain or gzip, appended and resumed, a compressed one cut short read up to the cut."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.benchmarks import records


@pytest.mark.parametrize("name", ["pairs.jsonl", "pairs.jsonl.gz"])
def test_records_are_appended_over_runs_and_read_back_in_order(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    assert records.read(path) == []
    for start in (0, 2):
        with records.appending(path) as stream:
            for n in range(start, start + 2):
                records.append(stream, [{"pair": n, "won": n % 2}])
    assert records.read(path) == [{"pair": n, "won": n % 2} for n in range(4)]


def test_a_compressed_file_cut_short_keeps_what_was_flushed_and_takes_appends_again(tmp_path: Path) -> None:
    path = tmp_path / "pairs.jsonl.gz"
    with records.appending(path) as stream:
        for n in range(3):
            records.append(stream, [{"pair": n}])
    path.write_bytes(path.read_bytes()[:-8])  # the run stopped before the gzip trailer was written
    assert records.read(path) == [{"pair": n} for n in range(3)]
    with records.appending(path) as stream:
        records.append(stream, [{"pair": 3}])
    assert records.read(path) == [{"pair": n} for n in range(4)]
    assert not list(tmp_path.glob("*.whole*"))
