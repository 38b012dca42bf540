"""Shared set-up of the benchmarks: seeded realistic cities, and a ratio line per group.

Run:  pytest bench --benchmark-enable
Every group has a baseline (a benchmark whose name holds `baseline`); at the end the
summary prints each benchmark's mean against the baseline of its group, from the same run.
"""

from __future__ import annotations

import gc
import io
import json
import random
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest

from neweden.catalog.catalog import ResolvedCard
from neweden.geometry.synth import city_json, grow_city

_T = TypeVar("_T")

CITIES = 400
SEED = 20261130


def realistic_cities(n: int = CITIES, seed: int = SEED) -> list[list[ResolvedCard]]:
    """Cities grown by legal placement, 10-15 cards each (a few stop short if no card fits)."""
    rng = random.Random(seed)
    return [grow_city(rng, rng.randint(10, 15)) for _ in range(n)]


def quietly_validated(path: Path, out: Path, jobs: int, reference_core: bool = False) -> int:
    """`neweden validate PATH --out OUT --jobs N --quiet` in this process, what it says
    dropped: the exit status."""
    from neweden.runners.batch import validate

    return validate(
        [str(path)],
        out=str(out),
        jobs=jobs,
        quiet=True,
        stdout=io.StringIO(),
        stderr=io.StringIO(),
        reference_core=reference_core,
    )


def each(work: Callable[[_T], object], items: Sequence[_T]) -> Callable[[], None]:
    """A benchmark's body: `work` on every item, each result dropped at once. (A list of a
    round's results kept until its end would be walked by the garbage collector again and
    again: a detailed report is hundreds of objects, and the figure would measure that.)"""

    def run() -> None:
        for item in items:
            work(item)

    return run


def _epiphany(rng: random.Random) -> dict[str, Any]:
    """An epiphany as played: a 5-point one is held or validated (it cannot be activated),
    a 2-point one also activated, some with the 1/3-star effect."""
    points = rng.choice([2, 5])
    states = ["validated", "held"] + (["activated"] if points == 2 else [])
    found: dict[str, Any] = {"points": points, "state": rng.choice(states)}
    if points == 2 and rng.random() < 0.3:
        found["effect"] = "third_star"
    return found


def realistic_game(rng: random.Random) -> dict[str, Any]:
    """A game as players transcribe it: 1-4 players, cities of 1-16 cards grown by legal
    placement, one of the three modes, epiphanies for about half the players (some 1/3-star,
    some held or activated), the three requirement cards in the modes that score them."""
    players: list[dict[str, Any]] = []
    for i in range(rng.randint(1, 4)):
        player: dict[str, Any] = {
            "name": f"P{i}",
            "city": city_json(grow_city(rng, rng.randint(1, 16), tries=2000)),
        }
        if rng.random() < 0.5:
            player["epiphanies"] = [_epiphany(rng) for _ in range(rng.randint(1, 3))]
        players.append(player)
    doc: dict[str, Any] = {
        "mode": rng.choice(["populist", "military", "elitist"]),
        "players": players,
    }
    if doc["mode"] != "military":
        doc["requirements"] = ["A1", "B1", "C1"]
    return doc


def realistic_games(n: int, seed: int) -> list[bytes]:
    """`n` of :func:`realistic_game`, as JSON bytes."""
    rng = random.Random(seed)
    return [json.dumps(realistic_game(rng)).encode() for _ in range(n)]


def heavy_games(n: int = 50, seed: int = 12) -> list[bytes]:
    """Seeded elitist games: four players, 12 cards each, a few epiphanies (one the rotate
    effect that allows the rotated cards) and a bonus."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        players = [
            {
                "name": f"Player {i}",
                "city": city_json(grow_city(rng, 12, tries=2000)),
                "epiphanies": [
                    {"points": 2, "state": "validated", "effect": "third_star"},
                    {"points": 5, "state": "validated"},
                ],
                "bonuses": [{"name": "Photographer", "points": 3}],
            }
            for i in range(4)
        ]
        doc = {
            "format": "new-eden/game@1",
            "mode": "elitist",
            "requirements": ["A1", "B1", "C1"],
            "first_player": "Player 2",
            "players": players,
        }
        out.append(json.dumps(doc).encode())
    return out


def broken(data: bytes, k: int) -> bytes:
    """The same game with one illegal city: a card put again on a taken cell, or the last
    card moved away from the rest (as transcriptions are before they are fixed)."""
    doc = json.loads(data)
    city = doc["players"][k % len(doc["players"])]["city"]
    if k % 2:
        city.append({**city[0]})
    else:
        city[-1] = {**city[-1], "row": city[-1]["row"] + 40}
    return json.dumps(doc).encode()


def transcribed_games(n: int, seed: int, illegal: float = 0.4) -> list[bytes]:
    """:func:`realistic_games` as transcriptions are before they are fixed: about `illegal`
    of them with one illegal city (:func:`broken`)."""
    rng = random.Random(seed + 1)
    return [
        broken(game, k) if rng.random() < illegal else game
        for k, game in enumerate(realistic_games(n, seed))
    ]


@pytest.fixture(scope="session")
def cities() -> list[list[ResolvedCard]]:
    return realistic_cities()


@pytest.fixture
def frozen() -> Iterator[None]:
    """Collect, then freeze what set-up made, so the garbage collector does not walk it
    while a benchmark runs."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    session = getattr(terminalreporter.config, "_benchmarksession", None)
    if session is None or not session.benchmarks:
        return
    groups: dict[str | None, list[object]] = {}
    for bench in session.benchmarks:
        groups.setdefault(bench.group, []).append(bench)
    terminalreporter.section("ratios to the baseline of each group (same run, mean)")
    for group, benches in groups.items():
        base = next((b for b in benches if "baseline" in b.name), None)
        if base is None or not getattr(base, "stats", None):
            continue
        # A second baseline of a group lives in a group of its own and names the group it
        # is a baseline for (extra_info["baseline_for"]).
        other = base.extra_info.get("baseline_for")
        if other in groups:
            benches = [base, *(b for b in groups[other] if "baseline" not in b.name)]
        per = base.extra_info.get("items", 1)
        terminalreporter.write_line(
            f"[{group}] baseline {base.name}: {base.stats.mean / per * 1e9:,.0f} ns per item"
        )
        for b in benches:
            if b is base or not getattr(b, "stats", None):
                continue
            items = b.extra_info.get("items", 1)
            terminalreporter.write_line(
                f"[{group}] {b.name}: {b.stats.mean / items * 1e9:,.0f} ns per item, "
                f"{base.stats.mean / per / (b.stats.mean / items):.1f}x the baseline"
            )
