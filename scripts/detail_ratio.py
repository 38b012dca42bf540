"""The detailed report against the lean one (issue 38: at most 1.6 times), `neweden.score` of
each game alone, for the valid and the invalid games of both bench mixes (1,000 games each,
seed 38, as bench/test_bench_plain.py splits them): best of 7, the collector frozen after
set-up, both timed in the same process.

    python scripts/detail_ratio.py

Run from a checkout (its bench/ makes the games) with the Python of the install to look at.
"""

from __future__ import annotations

import gc
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # bench/: the games

import neweden
from bench.conftest import transcribed_games
from bench.mixes import mistaken_games


def main() -> None:
    sets: dict[str, list[bytes]] = {}
    for mix, make in (("realistic", transcribed_games), ("heavy", mistaken_games)):
        for data in make(1000, 38):
            try:
                report = neweden.score(data, detail=False)
            except neweden.GameDecodeError:
                continue
            kind = "valid" if report["valid"] else "invalid"
            sets.setdefault(f"{mix}, {kind}", []).append(data)
    gc.collect()
    gc.freeze()
    for name, games in sets.items():
        each = {}
        for detail in (False, True):

            def run(detail: bool = detail, games: list[bytes] = games) -> None:
                for data in games:
                    neweden.score(data, detail=detail)

            run()
            each[detail] = min(timeit.repeat(run, number=1, repeat=7)) / len(games) * 1e6
        print(
            f"{name} ({len(games)} games): lean {each[False]:.1f} µs, detailed "
            f"{each[True]:.1f} µs, {each[True] / each[False]:.2f} times"
        )


if __name__ == "__main__":
    main()
