"""`neweden validate` over a `.jsonl` holding one very long line (issue 35, finding 2): with
worker processes the file is read in blocks, and each block that started inside the line
used to read on to its end, so the time grew with the square of the line.

NEWEDEN_BENCH_LINE_MIB (default 512) sets the line's size; a few hundred ordinary games come
before and after it. The baseline is the same run with 1 job (the file read line by line in
one process); the target: 2 jobs within 2x of it. Each runs once (pytest-benchmark pedantic,
one round), after `gc.collect(); gc.freeze()`.

Run:  pytest bench/test_bench_long_line.py --benchmark-enable
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from bench.conftest import quietly_validated, transcribed_games

LINE_MIB = int(os.environ.get("NEWEDEN_BENCH_LINE_MIB", "512"))
GROUP = "validate a .jsonl with one long line"
AROUND = 300  # ordinary games before the line, and as many after it


@pytest.fixture(scope="module")
def long_line(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("long-line") / "long.jsonl"
    games = transcribed_games(2 * AROUND, seed=35)
    filler = b"x" * (1024 * 1024)
    with path.open("wb") as handle:
        handle.writelines(g + b"\n" for g in games[:AROUND])
        handle.write(b'{"meta": {"note": "')
        for _ in range(LINE_MIB):
            handle.write(filler)
        handle.write(b'"}}\n')
        handle.writelines(g + b"\n" for g in games[AROUND:])
    return path


def _run(benchmark: Any, path: Path, jobs: int) -> None:
    benchmark.group = GROUP
    benchmark.extra_info["line_mib"] = LINE_MIB
    out = path.with_suffix(f".{jobs}.out")

    code = benchmark.pedantic(quietly_validated, args=(path, out, jobs), rounds=1, iterations=1)
    assert code == 1  # the long line is not a game
    with out.open("rb") as lines:
        found = [json.loads(line) for line in lines]
    assert len(found) == 2 * AROUND + 1
    (too_large,) = [r for r in found if r["source"]["line"] == AROUND + 1]
    assert [e["code"] for e in too_large["errors"]] == ["too_large"]
    assert found[-1]["source"]["line"] == 2 * AROUND + 1


@pytest.mark.usefixtures("frozen")
def test_long_line_1_job_baseline(benchmark: Any, long_line: Path) -> None:
    _run(benchmark, long_line, 1)


@pytest.mark.usefixtures("frozen")
def test_long_line_2_jobs(benchmark: Any, long_line: Path) -> None:
    _run(benchmark, long_line, 2)
