"""Where one game's `neweden.score(bytes, detail=False)` spends its time, by module: the
valid or the invalid games of the bench's realistic mix (bench.conftest.transcribed_games,
1,000 games, seed 38, as bench/test_bench_plain.py splits them), scored one at a time.

    python scripts/profile_one_game.py valid      # or: invalid
    python scripts/profile_one_game.py invalid --functions 25

Prints the µs a game (best of 5, the collector frozen after set-up), the profiled calls a
game, then each module's share of the time under cProfile (its functions' own time; a
compiled module's functions are one entry each, their callees in the same group within
them). Run from a checkout (its bench/ makes the games) with the Python of the install to
look at.
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import gc
import pstats
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # bench/: the games

import neweden
from bench.conftest import transcribed_games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["valid", "invalid"])
    parser.add_argument("--modules", type=int, default=16)
    parser.add_argument("--functions", type=int, default=0)
    args = parser.parse_args()
    games = []
    for data in transcribed_games(1000, 38):
        try:
            report = neweden.score(data, detail=False)
        except neweden.GameDecodeError:
            continue
        if report["valid"] == (args.kind == "valid"):
            games.append(data)

    def run() -> None:
        for data in games:
            neweden.score(data, detail=False)

    run()
    gc.collect()
    gc.freeze()
    each = min(timeit.repeat(run, number=1, repeat=5)) / len(games) * 1e6
    print(f"{args.kind}: {len(games)} games, {each:.1f} µs a game")
    profile = cProfile.Profile()
    profile.enable()
    run()
    profile.disable()
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]  # (no stub for it)
    by_module: collections.Counter[str] = collections.Counter()
    rows = []
    for (path, line, name), (_, calls, own, _, _) in stats.items():
        where = path.split("neweden/")[-1] if "neweden/" in path else name
        by_module[where] += own
        rows.append((own, calls, f"{where}:{line} {name}"))
    total = sum(by_module.values())
    print(f"{sum(r[1] for r in rows) / len(games):.0f} profiled calls a game")
    for where, own in by_module.most_common(args.modules):
        print(f"{own / total:6.1%}  {where}")
    for own, calls, where in sorted(rows, reverse=True)[: args.functions]:
        print(f"{own / total:6.1%}  {calls / len(games):5.1f} a game  {where}")


if __name__ == "__main__":
    main()
