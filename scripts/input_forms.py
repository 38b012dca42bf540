"""What one call costs by the form the game is given in, as an app calls it: the readable
games among the first 600 of a JSON Lines file, each as bytes and as a dict (parsed before
timing), through `neweden.score` (lean), `neweden.validate` and `neweden.decode_game`; µs a
game, the best of five timings, the collector frozen after set-up. Run it by each tree's
Python in turn to compare two installed trees:

    /venv-a/bin/python scripts/input_forms.py a GAMES.jsonl
    /venv-b/bin/python scripts/input_forms.py b GAMES.jsonl

docs/benchmarks.md reports what it printed.
"""

from __future__ import annotations

import gc
import itertools
import json
import sys
import timeit
from collections.abc import Callable
from typing import Any

import neweden


def main(name: str, path: str) -> None:
    with open(path, "rb") as handle:
        lines = [line.rstrip(b"\n") for line in itertools.islice(handle, 600)]
    games = []
    for data in lines:
        try:
            neweden.score(data, detail=False)
        except ValueError:  # a game that does not decode
            continue
        games.append(data)
    dicts = [json.loads(data) for data in games]
    gc.collect()
    gc.freeze()

    def each(call: Callable[[Any], object], items: list[Any]) -> float:
        def run() -> None:
            for item in items:
                call(item)

        run()
        return min(timeit.repeat(run, number=1, repeat=5)) / len(items) * 1e6

    lean = lambda game: neweden.score(game, detail=False)  # noqa: E731
    figures = {
        "score(bytes)": each(lean, games),
        "score(dict)": each(lean, dicts),
        "validate(bytes)": each(neweden.validate, games),
        "validate(dict)": each(neweden.validate, dicts),
        "decode_game(dict)": each(neweden.decode_game, dicts),
    }
    print(name, "  ".join(f"{k} {v:.1f}" for k, v in figures.items()))


if __name__ == "__main__":
    main(*sys.argv[1:3])
