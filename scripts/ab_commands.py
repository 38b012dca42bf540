"""Time commands in turn, round after round, and print each one's min and median wall time
and its median against the first's (both trees of a comparison installed side by side):

    python scripts/ab_commands.py 3 \
        "start=/venv-a/bin/neweden validate games.jsonl --jobs 2 --quiet --out /tmp/a" \
        "end=/venv-b/bin/neweden validate games.jsonl --jobs 2 --quiet --out /tmp/b"

A command that exits with anything but 0 or 1 stops the run.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time


def main(argv: list[str]) -> int:
    rounds, named = int(argv[0]), [a.split("=", 1) for a in argv[1:]]
    times: dict[str, list[float]] = {name: [] for name, _ in named}
    for _ in range(rounds):
        for name, command in named:
            start = time.perf_counter()
            done = subprocess.run(command, shell=True, capture_output=True, check=False)
            times[name].append(time.perf_counter() - start)
            if done.returncode not in (0, 1):
                print(name, "exit", done.returncode, done.stderr[-500:].decode(errors="replace"))
                return 1
    first = statistics.median(times[named[0][0]])
    for name, _ in named:
        taken = times[name]
        median = statistics.median(taken)
        print(f"{name:24s} min {min(taken):.3f} s  median {median:.3f} s  x{median / first:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
