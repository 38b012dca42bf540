"""`neweden.score` latency of one game at a time, lean and detailed, on the benchmark's games:
two tiny games (one player with one card; two players with a card each), 50 heavy ones (four
players, 12-card cities: bench.conftest.heavy_games) and 200 of the realistic mix
(bench.conftest.realistic_games). The best of `--rounds` rounds, in µs a game.

Run it at two versions installed apart, in turn and more than once, to compare them on the
same machine in the same minutes (docs/benchmarks.md); an old version may not have the
generators, so write the games once and give the file to every run:

    python scripts/score_latency.py --save games.json               # the games, with this version
    python scripts/score_latency.py --games games.json --rounds 5   # at each version
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from pathlib import Path

import neweden

ROOT = Path(__file__).resolve().parent.parent

_CARD = {
    "style": "ex_amber",
    "type": "ex_harbor",
    "facility": "shelter",
    "sides": ["top", "right"],
    "stars": 1,
    "points": 3,
}


def _tiny(players: int, mode: str) -> bytes:
    city = [{"row": 0, "col": 0, "card": _CARD}]
    doc = {
        "mode": mode,
        "requirements": ["A1", "B1", "C1"],
        "players": [{"name": f"P{i}", "city": city} for i in range(players)],
    }
    return json.dumps(doc).encode()


def _per_game(games: list[bytes], detail: bool, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for game in games:
            neweden.score(game, detail=detail)
    return (time.perf_counter() - start) / (repeat * len(games)) * 1e6


def _generated() -> dict[str, list[bytes]]:
    sys.path.insert(0, str(ROOT))
    from bench.conftest import heavy_games, realistic_games

    return {
        "1 player, 1 card": [_tiny(1, "populist")],
        "2 players, 1 card each": [_tiny(2, "elitist")],
        "heavy": heavy_games(),
        "mix": realistic_games(200, seed=11),
    }


#: How many times each set is scored a round (about the same time for each).
_REPEAT = {"1 player, 1 card": 2000, "2 players, 1 card each": 2000, "heavy": 4, "mix": 2}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--save", metavar="FILE", help="write the games to FILE and stop")
    parser.add_argument("--games", metavar="FILE", help="the games --save wrote")
    args = parser.parse_args()
    if args.games:
        loaded = json.loads(Path(args.games).read_text(encoding="utf-8"))
        made = {name: [g.encode() for g in games] for name, games in loaded.items()}
    else:
        made = _generated()
    if args.save:
        text = {name: [g.decode() for g in games] for name, games in made.items()}
        Path(args.save).write_text(json.dumps(text), encoding="utf-8")
        return
    sets = {name: (games, _REPEAT[name]) for name, games in made.items()}
    for games, _repeat in sets.values():
        for game in games:
            neweden.score(game)  # warm: every code path and cache once
    gc.collect()
    gc.freeze()
    best: dict[tuple[str, bool], float] = {}
    for _ in range(args.rounds):
        for name, (games, repeat) in sets.items():
            for detail in (False, True):
                took = _per_game(games, detail, repeat)
                best[name, detail] = min(best.get((name, detail), took), took)
    for name in sets:
        lean, detailed = best[name, False], best[name, True]
        print(f"{name}: lean {lean:.1f} µs, detailed {detailed:.1f} µs ({detailed / lean:.2f}x)")


if __name__ == "__main__":
    main()
