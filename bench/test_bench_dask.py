"""Dask: games/s on a LocalCluster (2 worker processes, loopback) against the single-machine
command (2 jobs) on the same .jsonl, and the scheduling overhead of one partition.

NEWEDEN_BENCH_DASK_GAMES games (default 200,000; CI runs 400): the games of
test_bench_validate's generator (2-4 players, 10-15-card grown cities, ~10% illegal).
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

import pytest

from neweden.runners.batch import validate

distributed = pytest.importorskip("distributed", reason="the dask extra")

GAMES = int(os.environ.get("NEWEDEN_BENCH_DASK_GAMES", "200000"))
GROUP = "dask vs one machine"


@pytest.fixture(scope="module")
def jsonl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from bench.test_bench_validate import _city

    rng = random.Random(12)
    distinct = [
        json.dumps(
            {
                "mode": "elitist",
                "requirements": ["A1", "B1", "C1"],
                "players": [
                    {"name": f"P{i}", "city": _city(rng)} for i in range(rng.randint(2, 4))
                ],
            }
        )
        for _ in range(min(GAMES, 20_000))
    ]
    path = tmp_path_factory.mktemp("dask") / "games.jsonl"
    with path.open("w") as handle:
        for g in range(GAMES):
            handle.write(distinct[g % len(distinct)] + "\n")
    return path


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    local = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=":0"
    )
    yield local
    local.close()


def _quiet() -> dict[str, Any]:
    return {"stdout": io.StringIO(), "stderr": io.StringIO(), "quiet": True}


def test_one_machine_2_jobs_baseline(benchmark: Any, jsonl: Path) -> None:
    benchmark.group = GROUP
    benchmark.extra_info["items"] = GAMES
    benchmark.pedantic(lambda: validate([str(jsonl)], out=os.devnull, jobs=2, **_quiet()), rounds=1)


def test_local_cluster_2_workers(benchmark: Any, jsonl: Path, cluster: Any) -> None:
    benchmark.group = GROUP
    benchmark.extra_info["items"] = GAMES
    benchmark.pedantic(
        lambda: validate(
            [str(jsonl)], out=os.devnull, scheduler=cluster.scheduler_address, **_quiet()
        ),
        rounds=1,
    )


def test_overhead_of_a_partition(benchmark: Any, cluster: Any) -> None:
    import dask.bag as db

    benchmark.group = "dask partition overhead"
    partitions = 200
    benchmark.extra_info["items"] = partitions
    with distributed.Client(cluster) as client:
        bag = db.from_sequence(range(partitions), npartitions=partitions).map(lambda x: x)

        def run() -> None:
            started = time.perf_counter()
            assert sum(client.compute(bag).result()) == sum(range(partitions))
            benchmark.extra_info["seconds"] = time.perf_counter() - started

        benchmark.pedantic(run, rounds=3)
