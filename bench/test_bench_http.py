"""Load on the HTTP service (FORMAT §5): wrk on 127.0.0.1, one server worker, 8
connections, bounded in time (NEWEDEN_BENCH_SECONDS, default 10; CI runs 1).

`/v1/score` with a 4-player game (lean answer) against `/bench/decode` of the same app,
which decodes the same game into the same types and answers a constant, run just before
and just after it: the ratio of the rates is the figure (issue 38's target: 80%). Under 8
connections, 32 (for the p99 latency there) and 1 (a lone client, whose games are never
gathered with others': neweden.http.together). Also games/s through `/v1/score/batch` (100
games a request), and the mixed load of scripts/load_mixed.py (good and hostile requests
from 32 connections: every status as expected). Results are in each benchmark's extra_info
(req/s, p99 in ms; for the mixed load also the server's resident set before and after).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from neweden.geometry.synth import city_json, grow_city
from tests.servers import running_server

SECONDS = int(os.environ.get("NEWEDEN_BENCH_SECONDS", "10"))
LUA = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open(os.getenv("BODY_FILE"), "rb")
wrk.body = f:read("*a")
f:close()
"""

if shutil.which("wrk") is None:  # .ci/run installs it (Debian's wrk)
    pytest.fail("the HTTP load benchmark needs wrk: apt-get install wrk", pytrace=False)


def _game(rng: random.Random) -> dict[str, Any]:
    players = [
        {
            "name": f"Player {i}",
            "city": city_json(grow_city(rng, 12, tries=2000)),
            "epiphanies": [{"points": 2, "state": "activated", "effect": "rotate"}],
        }
        for i in range(4)
    ]
    return {"mode": "elitist", "requirements": ["A1", "B1", "C1"], "players": players}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("http")
    rng = random.Random(44)
    game = folder / "game.json"
    game.write_text(json.dumps(_game(rng)))
    batch = folder / "batch.json"
    batch.write_text(json.dumps({"games": [_game(rng) for _ in range(100)]}))
    script = folder / "post.lua"
    script.write_text(LUA)
    return {"game": game, "batch": batch, "script": script}


@pytest.fixture(scope="module")
def server() -> Iterator[int]:
    with running_server({"NEWEDEN_BENCH_ENDPOINTS": "1"}) as (port, _):
        yield port


def _wrk(port: int, path: str, body: Path, script: Path, connections: int = 8) -> dict[str, float]:
    done = subprocess.run(
        [
            "wrk",
            "-t1",
            f"-c{connections}",
            f"-d{SECONDS}s",
            "--latency",
            "-s",
            str(script),
            f"http://127.0.0.1:{port}{path}",
        ],
        env={**os.environ, "BODY_FILE": str(body)},
        capture_output=True,
        text=True,
        check=True,
        timeout=SECONDS + 30,
    )
    out = done.stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    assert p99 is not None, out
    scale = {"us": 1e-3, "ms": 1.0, "s": 1e3}[p99.group(2)]
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    assert non2xx is None, out  # every answer a success
    return {"req_per_s": rate, "p99_ms": float(p99.group(1)) * scale}


@pytest.mark.parametrize("connections", [1, 8, 32])
def test_score_endpoint(
    benchmark: Any, server: int, files: dict[str, Path], connections: int
) -> None:
    """`/v1/score`'s rate, and the decode-only endpoint's just before and just after it
    (their mean the baseline: a drift of the machine's speed during the run is shared)."""
    benchmark.group = f"http, {connections} connections"
    game, script = files["game"], files["script"]
    before = _wrk(server, "/bench/decode", game, script, connections)
    result = benchmark.pedantic(
        _wrk, args=(server, "/v1/score", game, script, connections), rounds=1
    )
    after = _wrk(server, "/bench/decode", game, script, connections)
    baseline = (before["req_per_s"] + after["req_per_s"]) / 2
    benchmark.extra_info.update(result)
    benchmark.extra_info["decode_req_per_s"] = [before["req_per_s"], after["req_per_s"]]
    benchmark.extra_info["decode_p99_ms"] = [before["p99_ms"], after["p99_ms"]]
    benchmark.extra_info["share_of_decode_rate"] = round(result["req_per_s"] / baseline, 3)


def test_batch_endpoint_games_per_second(
    benchmark: Any, server: int, files: dict[str, Path]
) -> None:
    benchmark.group = "http, 8 connections"
    result = benchmark.pedantic(
        _wrk, args=(server, "/v1/score/batch", files["batch"], files["script"]), rounds=1
    )
    benchmark.extra_info.update(result)
    benchmark.extra_info["games_per_s"] = round(result["req_per_s"] * 100)


def test_mixed_load_has_no_unexpected_status(benchmark: Any) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    from load_mixed import run

    benchmark.group = "http-mixed"
    with running_server({}) as (port, pid):
        result = benchmark.pedantic(run, args=(port, pid, SECONDS, 32), rounds=1)
    benchmark.extra_info.update(result)
    assert result["unexpected"] == 0, result["unexpected_by_kind"]
