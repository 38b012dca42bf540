"""The plain baseline of issue 38 over a whole file, in one process: bench/plain.py's
`score` of each line of a JSON Lines file, as `neweden validate FILE --jobs 2 --out OUT` is
compared with (docs/benchmarks.md).

    python scripts/plain_file.py /work/perf/heavy60k.jsonl

Prints the games, those plain.py refuses (a document it cannot score), the seconds and the
games a second. Run from a checkout (its bench/ holds plain.py).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # bench/: plain.py

from bench import plain


def main(path: str) -> None:
    start = time.perf_counter()
    games = refused = 0
    with open(path, "rb") as handle:
        for line in handle:
            games += 1
            try:
                plain.score(line)
            except (plain.NotAGame, KeyError, TypeError, ValueError):
                refused += 1
    seconds = time.perf_counter() - start
    print(
        f"{path}: {games} games ({refused} refused) in {seconds:.2f} s, "
        f"{games / seconds:,.0f} games/s"
    )


if __name__ == "__main__":
    main(sys.argv[1])
