"""`neweden.placements` alone, on bench/test_bench_placements.py's twenty questions (a
4-player elitist game of 12-card cities, and a card), each game given decoded and as JSON
bytes: µs a question, the best of seven timings of twenty rounds, the collector frozen.
Run it by each tree's Python in turn, several times (ab_figures.py times it once a round):

    for i in 1 2 3; do /venv-a/bin/python scripts/placement_timing.py a; \
        /venv-b/bin/python scripts/placement_timing.py b; done

Prints `NAME<TAB>decoded<TAB>bytes`. docs/benchmarks.md reports what it printed.
"""

from __future__ import annotations

import gc
import json
import sys
import timeit
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # bench/: the questions

import neweden
from bench.test_bench_placements import placement_questions


def main(name: str) -> None:
    asked = placement_questions()
    decoded = [(neweden.decode_game(json.dumps(game)), card) for game, card in asked]
    raw = [(json.dumps(game).encode(), card) for game, card in asked]
    gc.collect()
    gc.freeze()

    def best(items: list[tuple[Any, Any]]) -> float:
        def run() -> None:
            for game, card in items:
                neweden.placements(game, player="P0", card=card)

        run()
        return min(timeit.repeat(run, number=20, repeat=7)) / 20 / len(items) * 1e6

    print(f"{name}\t{best(decoded):.1f}\t{best(raw):.1f}")


if __name__ == "__main__":
    main(sys.argv[1])
