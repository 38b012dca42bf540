"""Where one game's `neweden.score(bytes, detail=False)` spends its time, by module: the
valid or the invalid games of the bench's realistic mix (bench.conftest.transcribed_games,
1,000 games, seed 38, as bench/test_bench_plain.py splits them), scored one at a time.

    python scripts/profile_one_game.py valid      # or: invalid
    python scripts/profile_one_game.py invalid --functions 25
    python scripts/profile_one_game.py invalid --heavy --stages

Prints the µs a game (best of 5, the collector frozen after set-up), the profiled calls a
game, then each module's share of the time under cProfile (its functions' own time; a
compiled module's functions are one entry each, their callees in the same group within
them). `--heavy`: the games of the mix heavy with mistakes (bench.mixes.mistaken_games)
instead. `--stages`: also the µs a game of each stage of a game scored alone (its reading
and the core's pass, the rules and the report, the report made a dict), each timed alone
over the games read before. Run from a checkout (its bench/ makes the games) with the
Python of the install to look at.
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
from bench.mixes import mistaken_games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["valid", "invalid"])
    parser.add_argument("--modules", type=int, default=16)
    parser.add_argument("--functions", type=int, default=0)
    parser.add_argument("--heavy", action="store_true")
    parser.add_argument("--stages", action="store_true")
    args = parser.parse_args()
    games = []
    for data in (mistaken_games if args.heavy else transcribed_games)(1000, 38):
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
    if args.stages:
        stages(games)
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


def stages(games: list[bytes]) -> None:
    """The µs a game of each stage of `neweden.score` for a game alone (those read lean)."""
    from neweden.catalog.catalog import BUILTIN
    from neweden.scoring import report
    from neweden.scoring.core import ILLEGAL_DETAILS, native_geometry

    read = [
        (data, found)
        for data in games
        if len(data) >= report.LEAN_FROM_BYTES
        and (found := report.read_alone(data, BUILTIN, ILLEGAL_DETAILS)) is not None
    ]

    def reading() -> None:
        for data, _found in read:
            report.read_alone(data, BUILTIN, ILLEGAL_DETAILS)

    def rules() -> list[object]:
        return [
            report._PackedBatch([g], p, f, BUILTIN, False, native_geometry, [d]).alone(0)
            for d, (g, p, f) in read
        ]

    made = rules()

    def as_dicts() -> None:
        for one in made:
            report._to_dict(one)  # type: ignore[arg-type]

    for name, work in [
        ("reading and the core's pass", reading),
        ("the rules and the report", rules),
        ("the report as a dict", as_dicts),
    ]:
        work()
        each = min(timeit.repeat(work, number=1, repeat=5)) / len(read) * 1e6
        print(f"  {name}: {each:.1f} µs a game ({len(read)} read lean)")


if __name__ == "__main__":
    main()
