"""A batch's lean reports with their players scored together over columns
(:mod:`neweden.scoring.chunk`) against game by game (the baseline), in the same run, on the
issue-19 mix (1-4 players, 1-16 cards a city, the three modes, epiphanies, about 40% of the
games with an illegal city), in batches of k documents: `score_inputs`, as a worker of
`neweden validate` calls it. Where the chunk pays sets `CHUNK_FROM`."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from bench.conftest import broken, each, realistic_games, transcribed_games
from neweden.scoring import chunk, report
from neweden.scoring.report import LEAN_FROM_BYTES, score_inputs

GAMES = 1024


@pytest.fixture(scope="module")
def documents() -> list[bytes]:
    found = [g for g in transcribed_games(2 * GAMES, seed=19) if len(g) >= LEAN_FROM_BYTES]
    return found[:GAMES]


@pytest.mark.usefixtures("frozen")
@pytest.mark.parametrize("size", [8, 16, 32, 64, 256])
@pytest.mark.parametrize("columns", [False, True], ids=["game by game", "chunk"])
def test_batch_of_k_games(
    benchmark: Any,
    monkeypatch: pytest.MonkeyPatch,
    documents: list[bytes],
    size: int,
    columns: bool,
) -> None:
    batches = [documents[i : i + size] for i in range(0, len(documents), size)]
    monkeypatch.setattr(chunk, "CHUNK_FROM", 1 if columns else len(documents) + 1)
    benchmark.group = f"lean reports of a batch of {size} games: chunk against game by game"
    benchmark.name = "chunk" if columns else "baseline game by game"
    benchmark.extra_info["items"] = len(documents)
    with mock.patch.object(report, "chunk_players", wraps=chunk.chunk_players) as spy:
        score_inputs(batches[0])
    assert spy.called == columns  # the path named is the path timed
    benchmark(each(score_inputs, batches))


#: What a validate worker's batch of a .jsonl holds, about (a 512 KiB block of the mix).
BLOCK_GAMES = 170


@pytest.fixture(scope="module")
def valid_and_broken() -> tuple[list[bytes], list[bytes]]:
    """The mix's games without an illegal city, and the same games each with one."""
    valid = [g for g in realistic_games(2 * GAMES, seed=23) if len(g) >= LEAN_FROM_BYTES][:GAMES]
    return valid, [broken(g, k) for k, g in enumerate(valid)]


@pytest.mark.usefixtures("frozen")
@pytest.mark.parametrize("illegal", [False, True], ids=["valid", "one city illegal"])
def test_batch_invalid_against_valid(
    benchmark: Any,
    valid_and_broken: tuple[list[bytes], list[bytes]],
    illegal: bool,
) -> None:
    """An invalid game against a valid one, as the reports of a batch (`neweden.score_many`,
    HTTP, validate's lines)."""
    games = valid_and_broken[1] if illegal else valid_and_broken[0]
    batches = [games[i : i + BLOCK_GAMES] for i in range(0, len(games), BLOCK_GAMES)]
    found = score_inputs(batches[0])
    illegal_games = sum(
        any(not p.legal for p in r.players) for r in found if not isinstance(r, Exception)
    )
    if illegal:  # a city too small to break stays legal (a card alone moved away)
        assert illegal_games >= 0.9 * len(found)
    else:
        assert illegal_games == 0
    benchmark.group = f"lean reports of batches of {BLOCK_GAMES} games: invalid against valid"
    benchmark.name = "one city illegal a game" if illegal else "baseline the same games valid"
    benchmark.extra_info["items"] = len(games)
    benchmark(each(score_inputs, batches))
