"""`neweden validate` end to end: games/s on a large generated .jsonl.

NEWEDEN_BENCH_GAMES games (default 50,000; CI runs a few hundred as a correctness check):
2-4 players, cities grown by legal placement with 10-15 cards, about 10% of the games made
illegal (a card moved onto another's cell, or a lone card far away); and the two mixes of
issue 38, the realistic one (issue 19's) and the one heavy with mistakes. Each variant runs once
(pytest-benchmark pedantic, one round: a run is long), after `gc.collect(); gc.freeze()`.
Baselines, each at 1 job: the same pipeline with the reference core swapped in, and the
plain scorer of issue 38 (bench/plain.py: json.loads, a dict of cells, a breadth-first
search, every rule the games exercise, a result line a game; printed as a ratio to the
native runs too). Beside it on the mix, the stand-in it replaced as the baseline: json.loads
+ the package's own reference core + a dict of a few figures, which scores less (no
requirements, epiphanies, D5 or ranking) and was slower. A per-stage profile of the 1-job
pipeline is in extra_info.
"""

from __future__ import annotations

import io
import json
import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from bench import plain
from bench.conftest import quietly_validated, transcribed_games
from bench.mixes import mistaken_games
from neweden._gc import collector_paused
from neweden.catalog.catalog import BUILTIN, CardSpec, ResolvedCard
from neweden.format.decode import decode_game
from neweden.format.sides import ALL_SIDES
from neweden.geometry import reference
from neweden.geometry.compact import pack_games
from neweden.geometry.synth import city_json, grow_city
from neweden.runners.results import out_lines
from neweden.runners.sources import Entry, iter_entries
from neweden.runners.workers import CHUNK
from neweden.scoring.report import ILLEGAL_DETAILS, native_geometry, score_packed

GAMES = int(os.environ.get("NEWEDEN_BENCH_GAMES", "50000"))
GROUP = "validate end to end"
_encode = msgspec.json.Encoder().encode


def _city(rng: random.Random) -> list[dict[str, Any]]:
    out = city_json(grow_city(rng, rng.randint(10, 15), tries=2000))
    # About 3% of the cities illegal, so about 10% of the games (2-4 cities each).
    if rng.random() < 0.015:  # a card moved onto another's cell
        out[-1] = {**out[-1], "row": out[0]["row"], "col": out[0]["col"]}
    elif rng.random() < 0.015:  # a lone card far away
        out.append({**out[-1], "row": 500, "col": 500})
    return out


@pytest.fixture(scope="module")
def jsonl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = random.Random(8)
    path = tmp_path_factory.mktemp("validate") / "games.jsonl"
    with path.open("w") as handle:
        for g in range(GAMES):
            players = [
                {
                    "name": f"P{i}",
                    "city": _city(rng),
                    "epiphanies": [{"points": 2, "state": "activated", "effect": "rotate"}],
                }
                for i in range(rng.randint(2, 4))
            ]
            handle.write(
                json.dumps(
                    {
                        "mode": "elitist",
                        "requirements": ["A1", "B1", "C1"],
                        "first_player": "P0",
                        "players": players,
                        "meta": {"game": g},
                    }
                )
                + "\n"
            )
    return path


@pytest.fixture(scope="module")
def heavy_jsonl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The mix heavy with mistakes of issue 38 (bench.mixes.mistaken_games): about 40% of
    the games invalid, 1 to 40 problems each, games that do not decode among them."""
    path = tmp_path_factory.mktemp("validate") / "heavy.jsonl"
    path.write_bytes(b"".join(g + b"\n" for g in mistaken_games(GAMES, seed=38)))
    return path


@pytest.fixture(scope="module")
def mixed_jsonl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The mix of issue 19: 1-4 players, 1-16 cards a city, the three modes, epiphanies,
    about 40% of the games with an illegal city."""
    path = tmp_path_factory.mktemp("validate") / "mixed.jsonl"
    path.write_bytes(b"".join(g + b"\n" for g in transcribed_games(GAMES, seed=19)))
    return path


def _run(
    benchmark: Any, path: Path, jobs: int, reference_core: bool = False, group: str = GROUP
) -> None:
    benchmark.group = group
    benchmark.extra_info["items"] = GAMES
    out = path.with_suffix(f".{jobs}.{reference_core}.out")

    code = benchmark.pedantic(
        quietly_validated, args=(path, out, jobs, reference_core), rounds=1, iterations=1
    )
    assert code == 1  # some games are illegal
    with out.open() as lines:
        assert sum(1 for _ in lines) == GAMES


@pytest.mark.usefixtures("frozen")
def test_reference_core_pipeline_1_job_baseline(benchmark: Any, jsonl: Path) -> None:
    _run(benchmark, jsonl, 1, reference_core=True)


@pytest.mark.usefixtures("frozen")
def test_native_pipeline_1_job(benchmark: Any, jsonl: Path) -> None:
    _run(benchmark, jsonl, 1)
    benchmark.extra_info["stages_us_per_game"] = _stages(jsonl)


@pytest.mark.usefixtures("frozen")
def test_native_pipeline_2_jobs(benchmark: Any, jsonl: Path) -> None:
    _run(benchmark, jsonl, 2)


MIXED = "validate end to end, the issue-19 mix"


@pytest.mark.usefixtures("frozen")
def test_mixed_native_pipeline_1_job(benchmark: Any, mixed_jsonl: Path) -> None:
    _run(benchmark, mixed_jsonl, 1, group=MIXED)


@pytest.mark.usefixtures("frozen")
def test_mixed_native_pipeline_2_jobs(benchmark: Any, mixed_jsonl: Path) -> None:
    _run(benchmark, mixed_jsonl, 2, group=MIXED)


@pytest.mark.usefixtures("frozen")
def test_mixed_plain_script_1_job_baseline(benchmark: Any, mixed_jsonl: Path) -> None:
    benchmark.group = f"{MIXED} (plain script)"
    benchmark.name = "baseline plain scorer (bench/plain.py), 1 job"
    benchmark.extra_info["items"] = GAMES
    benchmark.extra_info["baseline_for"] = MIXED
    benchmark.pedantic(_plain, args=(mixed_jsonl, mixed_jsonl.with_suffix(".plain")), rounds=1)


HEAVY = "validate end to end, the mix heavy with mistakes"


@pytest.mark.usefixtures("frozen")
def test_heavy_native_pipeline_1_job(benchmark: Any, heavy_jsonl: Path) -> None:
    _run(benchmark, heavy_jsonl, 1, group=HEAVY)


@pytest.mark.usefixtures("frozen")
def test_heavy_native_pipeline_2_jobs(benchmark: Any, heavy_jsonl: Path) -> None:
    _run(benchmark, heavy_jsonl, 2, group=HEAVY)


@pytest.mark.usefixtures("frozen")
def test_heavy_plain_script_1_job_baseline(benchmark: Any, heavy_jsonl: Path) -> None:
    benchmark.group = f"{HEAVY} (plain script)"
    benchmark.name = "baseline plain scorer (bench/plain.py), 1 job"
    benchmark.extra_info["items"] = GAMES
    benchmark.extra_info["baseline_for"] = HEAVY
    benchmark.pedantic(_plain, args=(heavy_jsonl, heavy_jsonl.with_suffix(".plain")), rounds=1)


@pytest.mark.usefixtures("frozen")
def test_mixed_reference_script_1_job(benchmark: Any, mixed_jsonl: Path) -> None:
    """The stand-in that was the baseline before issue 38, for continuity with the figures
    docs/benchmarks.md gave against it ("the plain script")."""
    benchmark.group = MIXED
    benchmark.name = "old stand-in: json.loads + the reference core + a dict, 1 job"
    benchmark.extra_info["items"] = GAMES
    benchmark.pedantic(
        _reference_script, args=(mixed_jsonl, mixed_jsonl.with_suffix(".ref")), rounds=1
    )


def _plain(path: Path, out: Path) -> None:
    """What a careful Python programmer would otherwise write (issue 38): each line scored by
    bench/plain.py, a result line written; a line that is not a game it reads gets
    `{"valid": false}`."""
    with path.open("rb") as lines, out.open("w") as sink:
        for line in lines:
            try:
                found = plain.score(line)
            except (ValueError, KeyError, TypeError):
                found = {"valid": False}
            sink.write(json.dumps(found) + "\n")


def _reference_script(path: Path, out: Path) -> None:
    """The stand-in of the plain script before issue 38: json.loads, the package's own
    reference core, a dict of a few figures (no requirements, epiphanies, D5 or ranking)."""
    with path.open() as lines, out.open("w") as sink:
        for text in lines:
            game = json.loads(text)
            players = []
            for p in game["players"]:
                cards = []
                for i, e in enumerate(p["city"]):
                    c = e["card"]
                    spec = (
                        CardSpec(True, None, None, None, 0, 0, ALL_SIDES)
                        if c.get("wild")
                        else CardSpec(
                            False,
                            c["style"],
                            c["type"],
                            c["facility"],
                            c["points"],
                            c["stars"],
                            frozenset(c["sides"]),
                        )
                    )
                    cards.append(ResolvedCard(i, e["row"], e["col"], e.get("rotated", False), spec))
                f = reference.analyse_city(cards)
                players.append(
                    {
                        "name": p["name"],
                        "legal": f.legal,
                        "open_connections": f.open_connections,
                        "military": 3 * f.labs
                        + f.shelter_points
                        + f.medical_points
                        + f.tower_points,
                    }
                )
            sink.write(json.dumps({"players": players}) + "\n")


@pytest.mark.usefixtures("frozen")
def test_plain_script_1_job_baseline(benchmark: Any, jsonl: Path) -> None:
    benchmark.group = f"{GROUP} (plain script)"
    benchmark.name = "baseline plain scorer (bench/plain.py), 1 job"
    benchmark.extra_info["items"] = GAMES
    benchmark.extra_info["baseline_for"] = GROUP
    benchmark.pedantic(_plain, args=(jsonl, jsonl.with_suffix(".plain")), rounds=1)


def _stages(path: Path, games: int = 2000) -> dict[str, float]:
    """Where the 1-job pipeline's time goes, stage by stage, on the first games, in chunks
    as the pipeline takes them (the collector paused, as there): read, decode, core
    (packing the chunk into one table and the native call), rules, encode, write."""
    spent = dict.fromkeys(("read", "decode", "core", "rules", "encode", "write"), 0.0)
    sink = io.BytesIO()
    entries = iter_entries([str(path)])
    count = 0
    with collector_paused():
        while count < games and (done := _stage_chunk(entries, sink, spent)):
            count += done
    return {k: round(v / max(count, 1) * 1e6, 1) for k, v in spent.items()}


def _stage_chunk(entries: Iterator[Entry], sink: io.BytesIO, spent: dict[str, float]) -> int:
    """One chunk through the stages, each stage's time added to `spent`; its size."""
    clock = time.perf_counter
    t0 = clock()
    chunk = [e for _, e in zip(range(CHUNK), entries, strict=False)]
    t1 = clock()
    decoded = [decode_game(e.data or b"") for e in chunk]
    t2 = clock()
    packed = pack_games(decoded, BUILTIN)
    found = native_geometry.games(packed, decoded, BUILTIN, ILLEGAL_DETAILS)
    t3 = clock()
    reports = score_packed(decoded, packed, found, catalog=BUILTIN, detail=False)
    t4 = clock()
    lines = out_lines(chunk, reports)
    t5 = clock()
    sink.write(lines)
    t6 = clock()
    for stage, took in zip(
        spent, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5), strict=True
    ):
        spent[stage] += took
    return len(chunk)
