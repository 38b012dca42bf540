"""bench/plain.py (the plain-Python baseline) as a scorer of `new-eden/scorer@1`: a game a
line on standard input, an answer a line on standard output (docs/conformance.md). What it
does not score it says it cannot: a game it refuses is `{"valid": false, "players": []}`.

    neweden conformance run SUITE --cmd "plain=python scripts/plain_scorer.py"
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.plain import score


def main() -> None:
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        try:
            answer = score(line)
        except Exception:
            answer = {"valid": False, "players": []}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
