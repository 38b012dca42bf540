"""The players' blocks of validate --svg's pictures (`present.city_picture.city_block`) as
drawn by the modules at a git revision (city_picture.py and the svg.py it draws text with)
against this checkout's, in one process, turn about: the same blocks (checked, byte for
byte) and the µs a picture each takes, for the invalid games of the mix heavy with mistakes
(bench.mixes.mistaken_games, 1,000 games, seed 38).

    python scripts/picture_blocks_ab.py REV [ROUNDS]

Run from a checkout with an editable install (the modules of the checkout are the ones
imported); the revision's are read with `git show` and run beside them, so the machine's
noise, which moves a figure by a third from one minute to the next here, touches both alike.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import timeit
import types
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # bench/: the games

import neweden
from bench.mixes import mistaken_games
from neweden.catalog.catalog import BUILTIN
from neweden.present import city_picture
from neweden.present.render import drawn_cities
from neweden.scoring.report import score_report

ROOT = Path(__file__).resolve().parent.parent


def _source_at(rev: str, path: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{rev}:python/neweden/present/{path}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def _module_at(rev: str) -> types.ModuleType:
    """city_picture at `rev`, drawing its text with svg.py at `rev` too (its import of
    neweden.present.svg given that module while it runs)."""
    svg = types.ModuleType(f"svg_at_{rev}")
    exec(compile(_source_at(rev, "svg.py"), f"svg@{rev}", "exec"), svg.__dict__)
    module = types.ModuleType(f"city_picture_at_{rev}")
    ours = sys.modules["neweden.present.svg"]
    sys.modules["neweden.present.svg"] = svg
    try:
        source = _source_at(rev, "city_picture.py")
        exec(compile(source, f"city_picture@{rev}", "exec"), module.__dict__)
    finally:
        sys.modules["neweden.present.svg"] = ours
    assert module.text_line is svg.text_line
    return module


def _games() -> list[tuple[Any, Any]]:
    """Each invalid game's cities and what their blocks share, as its picture has them
    before the blocks are drawn (a revision's city_block reads the same records)."""
    found = []
    for data in mistaken_games(1000, 38):
        try:
            report = score_report(data, detail=False)
        except neweden.GameDecodeError:
            continue
        if not report.valid:
            _game, _report, cities, drawing = drawn_cities(data, None, BUILTIN, (), report)
            found.append((cities, drawing))
    return found


def main() -> None:
    rev = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 11
    games = _games()
    sides = {rev: _module_at(rev), "checkout": city_picture}
    drawn = {
        name: [
            "\n".join(sides[name].city_block(city, drawing, 0.0)[0])
            for cities, drawing in games
            for city in cities
        ]
        for name in sides
    }
    assert drawn[rev] == drawn["checkout"], "the two draw different blocks"

    def run(name: str) -> None:
        block = sides[name].city_block
        for cities, drawing in games:
            for city in cities:
                block(city, drawing, 0.0)

    gc.collect()
    gc.freeze()
    times: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(rounds):
        for name in sides:
            seconds = timeit.timeit(lambda name=name: run(name), number=1)  # type: ignore[misc]
            times[name].append(seconds / len(games) * 1e6)
    print(f"{len(games)} pictures, {sum(map(len, drawn[rev]))} characters of blocks, the same")
    for name, found in times.items():
        found.sort()
        print(f"{name}: best {found[0]:.0f} µs, median {found[len(found) // 2]:.0f} µs a picture")


if __name__ == "__main__":
    main()
