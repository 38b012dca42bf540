"""What the cyclic garbage collector costs a `neweden validate` worker: the worker's work
(`score_entries`, `--quiet --out`, chunks of 600 games as a 1 MiB block gives) on the games
of a mix, the collector on between chunks as in a worker, each collection timed through
`gc.callbacks`. Prints µs a game for the whole work and for the collections of each
generation, and the objects they found unreachable (reference cycles: what reference
counting alone does not free).

    python scripts/collector_cost.py --mix heavy --games 6000

The mixes are bench.conftest.transcribed_games (realistic) and bench.mixes.mistaken_games
(heavy, with games that do not decode). `timeit`, which the other scripts time with, turns
the collector off while it times: this one measures what they leave out. The best of
`--repeat` runs; docs/benchmarks.md reports what it printed.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # bench/: the generators

from bench.conftest import transcribed_games
from bench.mixes import mistaken_games
from neweden.catalog.catalog import BUILTIN
from neweden.runners.results import score_entries
from neweden.runners.sources import Entry

CHUNK = 600


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mix", choices=("realistic", "heavy"), default="heavy")
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    make = transcribed_games if args.mix == "realistic" else mistaken_games
    games = make(args.games, 38)
    entries = [Entry("mix.jsonl", i + 1, game, None) for i, game in enumerate(games)]
    chunks = [entries[i : i + CHUNK] for i in range(0, len(entries), CHUNK)]

    def work() -> None:
        for chunk in chunks:
            score_entries(chunk, BUILTIN, False, short=False, rows=False)

    work()
    gc.collect()
    gc.freeze()
    spent: dict[int, list[float]] = {}
    started = [0.0]

    def timed(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        found = spent.setdefault(info["generation"], [0, 0.0, 0])
        found[0] += 1
        found[1] += time.perf_counter() - started[0]
        found[2] += info["collected"]

    gc.callbacks.append(timed)
    best: tuple[float, dict[int, list[float]]] | None = None
    for _ in range(args.repeat):
        spent.clear()
        begun = time.perf_counter()
        work()
        took = time.perf_counter() - begun
        if best is None or took < best[0]:
            best = (took, {g: list(v) for g, v in spent.items()})
    gc.callbacks.remove(timed)
    assert best is not None
    n = len(games)
    print(f"{n} games of the {args.mix} mix: {best[0] / n * 1e6:.1f} µs a game in all")
    for generation, (count, seconds, collected) in sorted(best[1].items()):
        print(
            f"  generation {generation}: {count:.0f} collections, "
            f"{seconds / n * 1e6:.2f} µs a game, {collected:.0f} objects unreachable"
        )


if __name__ == "__main__":
    main()
