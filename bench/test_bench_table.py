"""`score_table` (games in columns, no JSON) against the per-game path (`neweden.score` of
each game's document as JSON bytes, lean), on the same generated games: 1-4 players, 0-16
cards a city, the three modes, epiphanies, bonuses, illegal cities, ties. The columns are
built in set-up (a simulation holds them already)."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

import neweden
from bench.conftest import each
from neweden.scoring.table import score_table
from tests.table_games import table_columns, table_games

GAMES = int(os.environ.get("NEWEDEN_BENCH_TABLE_GAMES", "2000"))
GROUP = "score many games: per game against columns"


@pytest.fixture(scope="module")
def games() -> list[dict[str, Any]]:
    return table_games(21, GAMES)


@pytest.mark.usefixtures("frozen")
def test_per_game_baseline(benchmark: Any, games: list[dict[str, Any]]) -> None:
    # as bytes: the per-game path's fastest input (a mapping is encoded first)
    docs = [json.dumps({k: v for k, v in g.items() if k != "_cities"}).encode() for g in games]
    benchmark.group = GROUP
    benchmark.name = "baseline neweden.score per game (lean)"
    benchmark.extra_info["items"] = len(docs)
    benchmark(each(lambda d: neweden.score(d, detail=False), docs))


@pytest.mark.usefixtures("frozen")
def test_score_table(benchmark: Any, games: list[dict[str, Any]]) -> None:
    columns = table_columns(games)
    table, cities, players = (columns.pop(k) for k in ("table", "city_offsets", "game_offsets"))
    benchmark.group = GROUP
    benchmark.name = "score_table, one call"
    benchmark.extra_info["items"] = len(games)
    benchmark.extra_info["cities"] = len(cities) - 1
    found = score_table(table, cities, players, requirements=["A1", "B1", "C1"], **columns)
    assert len(found.total) == len(cities) - 1
    benchmark(
        lambda: score_table(table, cities, players, requirements=["A1", "B1", "C1"], **columns)
    )
