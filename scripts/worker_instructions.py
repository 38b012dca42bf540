"""The instructions a `validate` worker executes a game, counted by valgrind's callgrind: a
figure that does not move with the machine's load (wall-clock figures here swing by 5-10%
from run to run), for comparing two versions of the Python side of the worker.

    python scripts/worker_instructions.py                 # the realistic mix
    python scripts/worker_instructions.py --mix heavy     # the mix heavy with mistakes
    python scripts/worker_instructions.py --source DIR    # the neweden package in DIR/neweden

The worker's work is `score_chunk` of a chunk and the chunk made of its results
(runners/workers.py's work_entries, without the process around it), over `--games` games of
the mix. The script runs itself under callgrind twice, with the work done once and three
times after the set-up, and prints the difference divided by two and by the games: the
set-up (imports, the games made) cancels out. Hash seeds are fixed and OpenBLAS kept to one
thread, so two runs of the same tree give the same figure within about 0.1%. Instructions
are not time (a cache miss costs many): docs/benchmarks.md reports both.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _work(source: str | None, mix: str, games: int, times: int) -> None:
    """The set-up, then the worker's work `times` times (run under callgrind)."""
    if source:
        sys.path.insert(0, source)
    sys.path.insert(1, str(ROOT))  # bench/: the mixes
    import neweden

    if source and not neweden.__file__.startswith(os.path.abspath(source)):
        sys.exit(
            f"--source {source}: this Python imports neweden from {neweden.__file__} (an "
            "editable install's import hook comes first): run a Python without one"
        )
    from bench.conftest import transcribed_games
    from bench.mixes import mistaken_games
    from neweden.catalog.catalog import BUILTIN
    from neweden.runners import results
    from neweden.runners.sources import Entry
    from neweden.runners.workers import Chunk

    made = transcribed_games(games, 19) if mix == "realistic" else mistaken_games(games, 41)
    entries = [Entry("mix.jsonl", i + 1, game, None) for i, game in enumerate(made)]
    quiet = results.Lines(shown=False)

    def run() -> Chunk:
        asked = results.Asked(short=quiet, rows=False)
        return Chunk.of(*results.score_chunk(entries, BUILTIN, False, asked))

    run()
    gc.collect()
    gc.freeze()
    for _ in range(times):
        run()


def _count(args: argparse.Namespace, times: int) -> int:
    """Instructions of a run doing the work `times` times."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--mix",
        args.mix,
        "--games",
        str(args.games),
        "--times",
        str(times),
    ] + (["--source", args.source] if args.source else [])
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1")
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        sys.exit(f"callgrind said no total:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mix", choices=("realistic", "heavy"), default="realistic")
    parser.add_argument("--games", type=int, default=300, help="games in the chunk")
    parser.add_argument(
        "--source",
        help="a folder holding the neweden package to count, its _core extension built in it "
        "(a Python with neweden installed editable cannot count another tree)",
    )
    parser.add_argument("--times", type=int, help=argparse.SUPPRESS)  # (the run counted)
    args = parser.parse_args()
    if args.times is not None:
        _work(args.source, args.mix, args.games, args.times)
        return
    once, thrice = _count(args, 1), _count(args, 3)
    each = (thrice - once) / 2 / args.games
    print(f"{args.mix} mix, {args.games} games: {each:,.0f} instructions a game")


if __name__ == "__main__":
    main()
