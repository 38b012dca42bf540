"""The in-process figures of the neweden this Python imports, on inputs every tree gets the
same, to compare two trees installed side by side (each run by its own Python, in turn):

    /venv-a/bin/python scripts/ab_figures.py start REALISTIC.jsonl HEAVY.jsonl >> figures.tsv
    /venv-b/bin/python scripts/ab_figures.py end REALISTIC.jsonl HEAVY.jsonl >> figures.tsv

Prints `NAME<TAB>figure<TAB>µs`: `neweden.score` lean and detailed of the first 1,500 games of
each file (a realistic mix, bench.conftest.transcribed_games, and one heavy with mistakes,
bench.mixes.mistaken_games, written as JSON Lines), lean again of the same games as dicts
(as an app holds them), `score_table` of 2,000 generated games,
`placements` of 20 questions given as JSON bytes and as decoded games, and a `validate`
worker's work on each mix (its results and the chunk of them, as `--quiet --out` asks).
Best of 5 timings, the collector frozen after set-up; the worker's figures also for each
mix's valid games alone and its invalid ones alone. Run from a checkout (its tests/ and
bench/ make the inputs); docs/benchmarks.md reports what it printed.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import json
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: the generators

import neweden
from bench.test_bench_placements import placement_questions
from neweden.format.decode import decode_game
from tests.table_games import table_columns, table_games

GAMES = 1500


def best(work: Callable[[], object], number: int) -> float:
    return min(timeit.repeat(work, number=number, repeat=5)) / number


def lines(path: str) -> list[bytes]:
    with open(path, "rb") as handle:
        return [line.rstrip(b"\n") for line in itertools.islice(handle, GAMES)]


def scores(games: list[Any], detail: bool) -> float:
    def run() -> None:
        for game in games:
            with contextlib.suppress(ValueError):  # an unreadable game (GameDecodeError)
                neweden.score(game, detail=detail)

    run()
    return best(run, 1) / len(games) * 1e6


def dict_scores(games: list[bytes]) -> float:
    """:func:`scores` lean of the games an app holds as dicts (parsed before timing)."""
    import msgspec

    return scores([msgspec.json.decode(game) for game in games], False)


def table() -> float:
    try:
        from neweden.scoring.table import score_table
    except ImportError:  # pragma: no cover - an older tree
        score_table = neweden.score_table
    columns = table_columns(table_games(21, 2000))
    packed, cities, players = (columns.pop(k) for k in ("table", "city_offsets", "game_offsets"))

    def run() -> object:
        return score_table(packed, cities, players, requirements=["A1", "B1", "C1"], **columns)

    run()
    return best(run, 3) / 2000 * 1e6


def placed(items: list[tuple[Any, Any]]) -> float:
    def run() -> object:
        return [neweden.placements(game, player="P0", card=card) for game, card in items]

    run()
    return best(run, 20) / len(items) * 1e6


def worker(games: list[bytes]) -> float:
    """A `validate` worker's whole work on a chunk of entries (`--quiet --out`): its results
    and the chunk made of them, its lines joined, as the tree's worker makes them."""
    try:
        from neweden.runners import results
    except ImportError:  # pragma: no cover - an older tree
        from neweden.scoring import results  # type: ignore[no-redef,attr-defined]
    try:
        from neweden.runners.workers import Chunk
    except ImportError:  # pragma: no cover - an older tree
        from neweden.runners.batch import Chunk  # type: ignore[attr-defined]
    from neweden.catalog.catalog import BUILTIN
    from neweden.runners.sources import Entry

    entries = [Entry("mix.jsonl", i + 1, game, None) for i, game in enumerate(games)]
    chunked = getattr(results, "score_chunk", None)

    def run() -> object:
        if chunked is not None and hasattr(results, "Asked"):
            asked = results.Asked(short=False, rows=False)
            return Chunk.of(*chunked(entries, BUILTIN, False, asked))
        if chunked is not None:  # (d86540b to bd477fc: its keywords one by one)
            return Chunk.of(*chunked(entries, BUILTIN, False, short=False, rows=False))
        return Chunk.of(results.score_entries(entries, BUILTIN, False, short=False, rows=False))

    run()
    return best(run, 1) / len(games) * 1e6


def _verdicts(games: list[bytes]) -> tuple[list[bytes], list[bytes]]:
    """The valid games of a mix and the others (invalid, or not a readable game)."""
    valid: list[bytes] = []
    invalid: list[bytes] = []
    for game in games:
        try:
            kept = valid if neweden.score(game, detail=False)["valid"] else invalid
        except ValueError:  # an unreadable game (GameDecodeError)
            kept = invalid
        kept.append(game)
    return valid, invalid


def main(name: str, realistic: str, heavy: str) -> None:
    mixes = {"realistic": lines(realistic), "heavy": lines(heavy)}
    asked = placement_questions()
    as_bytes = [(json.dumps(game).encode(), card) for game, card in asked]
    decoded = [(decode_game(json.dumps(game)), card) for game, card in asked]
    gc.collect()
    gc.freeze()
    found: dict[str, float] = {}
    for mix, games in mixes.items():
        found[f"score lean {mix}"] = scores(games, False)
        found[f"score detailed {mix}"] = scores(games, True)
        found[f"score lean {mix}, a dict"] = dict_scores(games)
        found[f"validate worker {mix}"] = worker(games)
        valid, invalid = _verdicts(games)  # (where a worker's time goes: each kind alone)
        found[f"validate worker {mix}, its valid games"] = worker(valid)
        found[f"validate worker {mix}, its invalid games"] = worker(invalid)
    found["score_table a game"] = table()
    found["placements bytes"] = placed(as_bytes)
    found["placements decoded"] = placed(decoded)
    for figure, value in found.items():
        print(f"{name}\t{figure}\t{value:.1f}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
