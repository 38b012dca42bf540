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
from neweden.catalog.catalog import BUILTIN, resolve_game
from neweden.format.decode import decode_game
from neweden.format.modes import MODES
from neweden.present import city_picture
from neweden.present.render import _colours
from neweden.scoring.report import score_pictured, score_report

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


def _games() -> list[tuple[Any, ...]]:
    """Each invalid game as its picture has it before the blocks are drawn."""
    found = []
    for data in mistaken_games(1000, 38):
        try:
            report = score_report(data, detail=False)
        except neweden.GameDecodeError:
            continue
        if report.valid:
            continue
        game = decode_game(data)
        resolved = resolve_game(game, BUILTIN)
        scored, figures = score_pictured(game, catalog=BUILTIN, report=report)
        names = [p.name for p in game.players]
        found.append((names, scored, resolved, figures, MODES[game.mode].military))
    return found


def _prepared(module: types.ModuleType, games: list[tuple[Any, ...]]) -> list[Any]:
    out = []
    for names, report, resolved, figures, military in games:
        every = list(range(len(names)))
        drawing = module.Drawing(
            _colours(resolved.cities, every),
            (),
            military,
            module.suspects(report, resolved.cities),
        )
        cities = [
            module.PlayerCity(names[i], report.players[i], resolved.cities[i], figures[i])
            for i in every
        ]
        out.append((cities, drawing))
    return out


def main() -> None:
    rev = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 11
    games = _games()
    sides = {rev: _module_at(rev), "checkout": city_picture}
    prepared = {name: _prepared(module, games) for name, module in sides.items()}
    drawn = {
        name: [
            "\n".join(sides[name].city_block(city, drawing, 0.0)[0])
            for cities, drawing in prepared[name]
            for city in cities
        ]
        for name in sides
    }
    assert drawn[rev] == drawn["checkout"], "the two draw different blocks"

    def run(name: str) -> None:
        block = sides[name].city_block
        for cities, drawing in prepared[name]:
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
