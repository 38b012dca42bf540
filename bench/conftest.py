"""Shared set-up of the benchmarks: seeded realistic cities, and a ratio line per group.

Run:  pytest bench --benchmark-enable
Every group has a baseline (a benchmark whose name holds `baseline`); at the end the
summary prints each benchmark's mean against the baseline of its group, from the same run.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator

import pytest

from neweden.catalog.catalog import ResolvedCard
from neweden.geometry.synth import grow_city

CITIES = 400
SEED = 20261130


def realistic_cities(n: int = CITIES, seed: int = SEED) -> list[list[ResolvedCard]]:
    """Cities grown by legal placement, 10-15 cards each (a few stop short if no card fits)."""
    rng = random.Random(seed)
    return [grow_city(rng, rng.randint(10, 15)) for _ in range(n)]


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
