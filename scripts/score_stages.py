"""Where `neweden.score(bytes, detail=False)` spends a game's time, stage by stage, for the
valid and the invalid games of both bench mixes (the realistic one,
bench.conftest.transcribed_games, and the one heavy with mistakes, bench.mixes.mistaken_games):
µs a game, the best of `--repeat` timings of each stage over the same games, one game at a
time as an app calls it, the collector frozen after set-up.

    python scripts/score_stages.py --games 1000

The stages are those of `scoring.report.score_report` for a document read lean: the native
reader (`JsonGames.read_many`, msgspec the rest), the packed table's lists, the core's pass,
the rules and the report (`score_packed`), the plain dict (`msgspec.to_builtins`). A stage is
timed alone over every game, so the sum is near, not equal to, the whole. Games under
LEAN_FROM_BYTES (decoded the exact way) and games that do not decode are left out.
docs/benchmarks.md reports what it printed.
"""

from __future__ import annotations

import argparse
import gc
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # bench/: the benchmarks' generators

import neweden  # noqa: E402
from bench.conftest import transcribed_games  # noqa: E402
from bench.mixes import mistaken_games  # noqa: E402
from neweden.catalog.catalog import BUILTIN  # noqa: E402
from neweden.format.lean import decode_lean  # noqa: E402
from neweden.geometry.native import JsonGames  # noqa: E402
from neweden.scoring import report  # noqa: E402

MIXES: dict[str, Callable[[int, int], list[bytes]]] = {
    "realistic": transcribed_games,
    "heavy": mistaken_games,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games made of each mix")
    parser.add_argument("--repeat", type=int, default=7, help="timings of each stage")
    args = parser.parse_args()
    for mix, make in MIXES.items():
        kinds: dict[str, list[bytes]] = {"valid": [], "invalid": []}
        for data in make(args.games, 38):
            if len(data) < report.LEAN_FROM_BYTES:
                continue
            try:
                verdict = neweden.score(data, detail=False)["valid"]
            except neweden.GameDecodeError:
                continue
            kinds["valid" if verdict else "invalid"].append(data)
        for kind, games in kinds.items():
            print(f"{mix} mix, {kind} games ({len(games)}), µs a game:")
            _stages(games, args.repeat)


def _stages(games: list[bytes], repeat: int) -> None:
    n = len(games)
    read = [_read(game) for game in games]
    if any(lean is None for _packer, lean in read):
        sys.exit("a game was not read lean: the stages assume all are")
    packed = [packer.packed() for packer, _lean in read]
    core = report.native_geometry
    found = [
        core.games(p, [lean], BUILTIN, report.ILLEGAL_DETAILS)
        for p, (_, lean) in zip(packed, read, strict=True)
    ]
    reports = [
        report.score_packed([lean], p, f, catalog=BUILTIN, detail=False, sources=[game])[0]
        for (_, lean), p, f, game in zip(read, packed, found, games, strict=True)
    ]
    gc.collect()
    gc.freeze()

    def each(name: str, work: Callable[[], Any]) -> None:
        best = min(timeit.repeat(work, number=1, repeat=repeat))
        print(f"  {name:<44} {best / n * 1e6:7.2f}")

    each("neweden.score, the whole call", lambda: [neweden.score(g, detail=False) for g in games])
    each("read (the core's reader, msgspec the rest)", lambda: [_read(g) for g in games])
    each("the packed table's lists", lambda: [packer.packed() for packer, _ in read])
    each(
        "the core's pass",
        lambda: [
            core.games(p, [le], BUILTIN, report.ILLEGAL_DETAILS)
            for p, (_, le) in zip(packed, read, strict=True)
        ],
    )
    each(
        "the rules and the report (score_packed)",
        lambda: [
            report.score_packed([le], p, f, catalog=BUILTIN, detail=False, sources=[g])
            for (_, le), p, f, g in zip(read, packed, found, games, strict=True)
        ],
    )
    each("the plain dict (msgspec.to_builtins)", lambda: [report._to_dict(r) for r in reports])
    gc.unfreeze()


def _read(game: bytes) -> tuple[JsonGames, Any]:
    """A game read as score_report reads it: a packer of its own, the game read lean."""
    packer = JsonGames(BUILTIN)
    return packer, packer.read_many([game], report.LEAN_FROM_BYTES, decode_lean)[0]


if __name__ == "__main__":
    main()
