"""Batches full of mistakes against clean ones, output by output (issue 38: "as fast as
clean ones, on every output"): the whole `neweden validate` command, 2 jobs, on
NEWEDEN_BENCH_GAMES games (default 20,000; CI runs a few hundred) of the mix heavy with
mistakes (bench.mixes.mistaken_games: about 40% of the games invalid, 1 to 40 problems each,
games that do not decode among them, warnings in most) and on as many valid games of the same
generator with no mistake made (`invalid=0`: the same kind of games and warnings; the few
such games that are invalid all the same, a city grown apart, left out).

For each output (`--out`, `--csv`, `--detail`, `--only-invalid`'s standard output, the
Portuguese `--out`, `--svg`) the clean run comes first, then the heavy one, whose extra_info
holds the ratio of the two wall times (`heavy_over_clean`). Each run is one round (a run is
long). `--svg` draws a picture of each invalid game only: its clean run draws none.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import neweden
from bench.mixes import mistaken_games

GAMES = int(os.environ.get("NEWEDEN_BENCH_GAMES", "20000"))

#: The outputs asked of `validate`, by name ({dir}: the run's own folder).
OUTPUTS = {
    "out": ["--quiet", "--out", "{dir}/lines.jsonl"],
    "csv": ["--quiet", "--csv", "{dir}/rows.csv"],
    "detail": ["--quiet", "--detail", "--out", "{dir}/lines.jsonl"],
    "only-invalid": ["--only-invalid"],
    "pt-BR": ["--quiet", "--lang", "pt-BR", "--out", "{dir}/lines.jsonl"],
    "svg": ["--quiet", "--svg", "{dir}/pictures"],
}

#: The wall time of each output's clean run, measured first: the heavy run's baseline.
_CLEAN_SECONDS: dict[str, float] = {}


@pytest.fixture(scope="module")
def mixes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("mistakes")
    made = {"clean": _valid_games(GAMES), "heavy": mistaken_games(GAMES, seed=38)}
    paths = {}
    for name, games in made.items():
        path = paths[name] = folder / f"{name}.jsonl"
        path.write_bytes(b"".join(game + b"\n" for game in games))
    return paths


def _valid_games(n: int) -> list[bytes]:
    """`n` valid games of the mix's generator with no mistake made."""
    made = mistaken_games(n + n // 5 + 20, seed=39, invalid=0.0)
    valid = [game for game in made if neweden.score(game, detail=False)["valid"]]
    assert len(valid) >= n
    return valid[:n]


def _validate(path: Path, output: str, folder: Path) -> tuple[float, int, bytes]:
    """The whole command on `path` with `output`'s options: its wall time, its exit status
    and its standard output."""
    folder.mkdir(parents=True, exist_ok=True)
    options = [option.format(dir=folder) for option in OUTPUTS[output]]
    command = [sys.executable, "-m", "neweden", "validate", str(path), "--jobs", "2", *options]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, check=False, timeout=600)
    return time.perf_counter() - started, done.returncode, done.stdout


def _checked(output: str, folder: Path, code: int, stdout: bytes, heavy: bool) -> None:
    """What each output must hold: every game's line or row, and the verdict (the clean
    games are all valid; about 40% of the heavy ones are not)."""
    assert code == (1 if heavy else 0), stdout[-500:]
    if output in ("out", "detail", "pt-BR"):
        lines = (folder / "lines.jsonl").read_bytes().splitlines()
        assert len(lines) == GAMES
        assert any(b'"valid":false' in line for line in lines) == heavy
    elif output == "csv":
        assert (folder / "rows.csv").read_bytes().count(b"\n") > GAMES  # a row a player
    elif output == "only-invalid":  # a line an invalid game, then the summary
        lines = len(stdout.splitlines())
        assert lines > GAMES // 5 if heavy else lines == 1
    else:
        assert any((folder / "pictures").glob("*.svg")) == heavy


@pytest.mark.parametrize("output", list(OUTPUTS))
def test_clean_batch_baseline(
    benchmark: Any, mixes: dict[str, Path], tmp_path: Path, output: str
) -> None:
    benchmark.group = f"validate, mistakes against clean: {output}"
    benchmark.extra_info["games"] = GAMES
    seconds, code, stdout = benchmark.pedantic(
        _validate, args=(mixes["clean"], output, tmp_path), rounds=1, iterations=1
    )
    _checked(output, tmp_path, code, stdout, heavy=False)
    _CLEAN_SECONDS[output] = seconds


@pytest.mark.parametrize("output", list(OUTPUTS))
def test_heavy_batch(benchmark: Any, mixes: dict[str, Path], tmp_path: Path, output: str) -> None:
    benchmark.group = f"validate, mistakes against clean: {output}"
    benchmark.extra_info["games"] = GAMES
    seconds, code, stdout = benchmark.pedantic(
        _validate, args=(mixes["heavy"], output, tmp_path), rounds=1, iterations=1
    )
    _checked(output, tmp_path, code, stdout, heavy=True)
    clean = _CLEAN_SECONDS.get(output)
    if clean:
        benchmark.extra_info["heavy_over_clean"] = round(seconds / clean, 3)
