"""The plain baseline of issue 38: bench/plain.py, a standalone scorer of the standard
library only (a dict of cells, a breadth-first search, no messages), against
`neweden.score(bytes, detail=False)` on the same games in the same run, one game at a time.

Four groups: the valid and the invalid games (neweden's `valid`) of each bench mix, the
realistic one (:func:`bench.conftest.transcribed_games`, about 40% with an illegal city) and
the one heavy with mistakes (:func:`bench.mixes.mistaken_games`); games neweden does not read
(a mistyped facility) are left out of both sides. The baseline of each group is plain.py as
written (`json.loads`); plain.py with msgspec's parser swapped in is measured beside it
(tests/scoring/test_plain_baseline.py holds its scores equal to neweden's on these mixes).
An app that holds a game as a dict calls `neweden.score(dict)`: both sides again on the same
games parsed once before timing (plain.py given the dict, without its parser).

Run:  pytest bench/test_bench_plain.py --benchmark-enable
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

import neweden
from bench import plain
from bench.conftest import each, transcribed_games
from bench.mixes import mistaken_games

GAMES = int(os.environ.get("NEWEDEN_BENCH_PLAIN_GAMES", "1000"))
SEED = 38

MIXES: dict[str, Callable[[int, int], list[bytes]]] = {
    "transcribed": transcribed_games,
    "mistaken": mistaken_games,
}
SETS = [(mix, kind) for mix in MIXES for kind in ("valid", "invalid")]
IDS = [f"{mix}-{kind}" for mix, kind in SETS]


@pytest.fixture(scope="module")
def games() -> dict[tuple[str, str], list[bytes]]:
    """The games of each mix neweden reads, by neweden's verdict."""
    out: dict[tuple[str, str], list[bytes]] = {key: [] for key in SETS}
    for mix, make in MIXES.items():
        for data in make(GAMES, SEED):
            try:
                report = neweden.score(data, detail=False)
            except neweden.GameDecodeError:
                continue
            out[mix, "valid" if report["valid"] else "invalid"].append(data)
    return out


@pytest.fixture(scope="module")
def mappings(games: dict[tuple[str, str], list[bytes]]) -> dict[tuple[str, str], list[Any]]:
    """The same games as dicts, parsed before any timing (and frozen with the rest)."""
    return {key: [msgspec.json.decode(g) for g in chosen] for key, chosen in games.items()}


def _setup(benchmark: Any, games: list[bytes], mix: str, kind: str) -> None:
    benchmark.group = f"plain baseline: the {mix} mix, {kind} games"
    benchmark.extra_info["items"] = len(games)
    benchmark.extra_info["players"] = round(_players(games) / len(games), 2)
    benchmark.extra_info["cards_a_city"] = round(_cards(games) / _players(games), 2)


def _players(games: list[bytes]) -> int:
    return sum(len(msgspec.json.decode(g)["players"]) for g in games)


def _cards(games: list[bytes]) -> int:
    return sum(len(p["city"]) for g in games for p in msgspec.json.decode(g)["players"])


@pytest.mark.usefixtures("frozen")
@pytest.mark.parametrize(("mix", "kind"), SETS, ids=IDS)
def test_plain_baseline(
    benchmark: Any, games: dict[tuple[str, str], list[bytes]], mix: str, kind: str
) -> None:
    chosen = games[mix, kind]
    _setup(benchmark, chosen, mix, kind)
    benchmark.name = f"baseline plain.py, json ({mix}, {kind})"
    benchmark(each(plain.score, chosen))


@pytest.mark.usefixtures("frozen")
@pytest.mark.parametrize(("mix", "kind"), SETS, ids=IDS)
def test_plain_msgspec(
    benchmark: Any,
    games: dict[tuple[str, str], list[bytes]],
    mix: str,
    kind: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    chosen = games[mix, kind]
    _setup(benchmark, chosen, mix, kind)
    benchmark.name = f"plain.py, msgspec ({mix}, {kind})"
    parsed_by_json = [plain.score(data) for data in chosen[:20]]
    monkeypatch.setattr(plain, "loads", msgspec.json.decode)
    assert [plain.score(data) for data in chosen[:20]] == parsed_by_json
    benchmark(each(plain.score, chosen))


@pytest.mark.usefixtures("frozen")
@pytest.mark.parametrize(("mix", "kind"), SETS, ids=IDS)
def test_neweden_score(
    benchmark: Any, games: dict[tuple[str, str], list[bytes]], mix: str, kind: str
) -> None:
    chosen = games[mix, kind]
    _setup(benchmark, chosen, mix, kind)
    benchmark.name = f"neweden.score lean ({mix}, {kind})"
    for data in chosen[:20]:  # the same totals as the baseline, before timing
        report = neweden.score(data, detail=False)
        mine = plain.score(data)
        assert [p["score"]["total"] for p in report["players"]] == [
            p["total"] for p in mine["players"]
        ]
    benchmark(each(lambda data: neweden.score(data, detail=False), chosen))


@pytest.mark.usefixtures("frozen")
@pytest.mark.parametrize("side", ["plain", "neweden"])
@pytest.mark.parametrize(("mix", "kind"), SETS, ids=IDS)
def test_from_a_mapping(
    benchmark: Any,
    games: dict[tuple[str, str], list[bytes]],
    mappings: dict[tuple[str, str], list[Any]],
    mix: str,
    kind: str,
    side: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each side given the dicts: plain.py without its parser, `neweden.score` lean; each
    checked first to give what it gives from the bytes."""
    chosen, given = mappings[mix, kind], games[mix, kind]
    _setup(benchmark, given, mix, kind)
    if side == "plain":
        benchmark.name = f"plain.py given a dict ({mix}, {kind})"
        parsed = [plain.score(data) for data in given[:20]]
        monkeypatch.setattr(plain, "loads", lambda game: game)  # the game is the dict given
        assert [plain.score(game) for game in chosen[:20]] == parsed
        benchmark(each(plain.score, chosen))
        return
    benchmark.name = f"neweden.score lean, a dict ({mix}, {kind})"
    for game, data in zip(chosen[:20], given, strict=False):
        assert neweden.score(game, detail=False) == neweden.score(data, detail=False)
    benchmark(each(lambda game: neweden.score(game, detail=False), chosen))
