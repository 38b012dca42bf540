"""Where a `neweden validate` worker's time goes, stage by stage, on the issue-19 mix (1-4
players, 1-16 cards a city, the three modes, epiphanies, about 40% of the games with an
illegal city: bench.conftest.transcribed_games): µs a game, the best of `--repeat` timings of
each stage over the same batch, the garbage collector frozen after set-up.

    python scripts/validate_stages.py --games 2000
    python scripts/validate_stages.py --games 2000 --without rotated  # what those cost

The stages are those of `score_inputs` over one batch (the lean read, the core's pass, the
rules and their reports, each entry's result with its --out line); the rules are then split
into their parts as `score_packed` runs them for a chunk. A part's figure is that part alone,
timed over every game: the sum is near, not equal to, the whole (calls, caches).
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
sys.path.insert(0, str(ROOT))  # bench.conftest: the benchmarks' generators

from bench.conftest import transcribed_games  # noqa: E402
from neweden.catalog.catalog import BUILTIN, resolve_all  # noqa: E402
from neweden.format.lean import decode_lean  # noqa: E402
from neweden.geometry.native import JsonGames  # noqa: E402
from neweden.rules.names import batch_quiet  # noqa: E402
from neweden.runners import results  # noqa: E402
from neweden.runners.sources import Entry  # noqa: E402
from neweden.scoring import chunk, chunk_reports, game_score, report  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games in the batch")
    parser.add_argument("--repeat", type=int, default=5, help="timings of each stage")
    parser.add_argument(
        "--without",
        choices=sorted(_PARTS),
        action="append",
        default=[],
        help="tell none of these problems (what a kind of problem costs, from its report to "
        "its --out line: the difference with a run without the option)",
    )
    args = parser.parse_args()
    for part in args.without:
        _PARTS[part]()
    games = [g for g in transcribed_games(args.games, seed=19) if len(g) >= report.LEAN_FROM_BYTES]
    entries = [Entry("mixed.jsonl", i + 1, g, None) for i, g in enumerate(games)]
    n = len(games)

    def read() -> tuple[JsonGames, list[Any]]:
        packer = JsonGames()  # the cities packed, the rest decoded (as score_inputs reads)
        found = packer.read_many(games, report.LEAN_FROM_BYTES, decode_lean)
        return packer, [read for read in found if read is not None]

    packer, lean = read()
    if len(lean) != n:
        sys.exit(f"{n - len(lean)} of the games were not read lean: the stages assume all are")
    packed = packer.packed()
    core = report.native_geometry
    found = core.games(packed, lean, BUILTIN, report.ILLEGAL_DETAILS)

    def rules() -> list[Any]:  # as validate runs them
        return report.score_packed(lean, packed, found, catalog=BUILTIN, detail=False)

    made = rules()
    gc.collect()
    gc.freeze()

    def each(name: str, work: Callable[[], object]) -> None:
        best = min(timeit.repeat(work, number=1, repeat=args.repeat))
        print(f"{name:<46} {best / n * 1e6:7.2f} µs a game")

    quiet = results.Lines(shown=False)
    print(f"{n} games of the issue-19 mix, one batch")
    each("read (the core's reader, msgspec the rest)", read)
    each("the packed table's lists", packer.packed)
    each("the core's pass", lambda: core.games(packed, lean, BUILTIN, report.ILLEGAL_DETAILS))
    each("the rules and their reports (score_packed)", rules)
    each(
        "each entry's result and the chunk's --out lines",
        lambda: (
            [
                results._result(e, r, short=quiet, rows=False, line=False)
                for e, r in zip(entries, made, strict=True)
            ],
            results.out_lines(entries, made),
        ),
    )
    each(
        "all of score_chunk, as a worker calls it",
        lambda: results.score_chunk(entries, BUILTIN, False, results.Asked(False, False)),
    )
    _rules(lean, packed, found, each)


def _without_rotated() -> None:
    """No card told rotated without an epiphany: in a chunk's games and in those of the
    batch scored alone."""
    chunk_reports.rotated_cards = game_score.rotated_cards = lambda *args: []  # type: ignore[attr-defined]


def _without_geometry() -> None:
    chunk_reports._ChunkReports.geometry = lambda *args: []  # type: ignore[method-assign]


def _without_problems() -> None:
    """No problem told, the rotated cards' warnings among them; each game's D5 table still
    said where it comes from (the report's `majority_table`)."""
    _without_rotated()

    def untold(reports: Any, g: int, _quiet: object) -> tuple[list[Any], list[Any], Any]:
        game, first = reports.games[g], reports.packed.first_city[g]
        return [], [], reports.majority(game, reports.figures[first].bases)[1]

    chunk_reports._ChunkReports.problems = untold  # type: ignore[method-assign, assignment]


#: The problems --without leaves untold: the rotated cards' warnings, the illegal cities'
#: overlap and disconnected, every problem of a game.
_PARTS: dict[str, Callable[[], None]] = {
    "rotated": _without_rotated,
    "geometry": _without_geometry,
    "problems": _without_problems,
}


def _rules(lean: list[Any], packed: Any, found: Any, each: Callable[..., None]) -> None:
    """The parts of score_packed's chunk path, each timed over every game."""
    figures, _over_box, _listed, columns = found
    first = packed.first_city
    extras = resolve_all(lean, BUILTIN)
    players = chunk.chunk_players(lean, extras, figures, first, BUILTIN, columns)
    told = not batch_quiet({"style": packed.styles, "type": packed.types})
    reports = chunk_reports._ChunkReports(
        lean, extras, packed, found, players, BUILTIN, sources=None, told=told
    )

    def problems() -> None:
        quiet: dict[Any, bool] = {}
        for g in range(len(lean)):
            reports.problems(g, quiet)

    print("the rules, part by part:")
    each("  ids looked up (resolve_all)", lambda: resolve_all(lean, BUILTIN))
    each(
        "  the players over the chunk's columns",
        lambda: chunk.chunk_players(lean, extras, figures, first, BUILTIN, columns),
    )
    each("  each game's problems", problems)
    each(
        "  problems and reports (_ChunkReports.report)",
        lambda: [reports.report(g, {}) for g in range(len(lean))],
    )
    illegal = sum(1 for f in figures if not f.legal)
    print(f"({illegal} illegal cities of {len(figures)}: their per-card figures listed)")


if __name__ == "__main__":
    main()
