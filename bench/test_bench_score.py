"""`neweden.score` from a game's bytes: a 4-player game of 12-card cities grown by legal
placement, with and without the audit trail, over the native core and over the reference
(the baseline), in the same run. The cost of an invalid game and of the audit against the
lean report, on those heavy games and on a realistic mix (1-4 players, 1-16 cards, the
three modes, epiphanies)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

import neweden
from bench.conftest import broken, each, heavy_games, realistic_games
from neweden.format.decode import decode_game
from neweden.format.lean import decode_lean
from neweden.geometry.native import pack_json_games
from neweden.scoring.report import reference_geometry, score_game, score_reports

GROUP = "score one game"
GAMES = 50


@pytest.fixture(scope="module")
def games() -> list[bytes]:
    return heavy_games(GAMES)


def _reference(data: bytes, detail: bool) -> dict[str, Any]:
    return score_game(decode_game(data), detail=detail, geometry=reference_geometry)


@pytest.mark.usefixtures("frozen")
@pytest.mark.parametrize("detail", [False, True], ids=["lean", "detail"])
def test_score_reference_core(benchmark: Any, games: list[bytes], detail: bool) -> None:
    benchmark.group = f"{GROUP} ({'detail' if detail else 'lean'})"
    benchmark.name = f"baseline reference core, {'detail' if detail else 'lean'}"
    benchmark.extra_info["items"] = len(games)
    benchmark(each(lambda g: _reference(g, detail), games))


@pytest.mark.usefixtures("frozen")
@pytest.mark.parametrize("detail", [False, True], ids=["lean", "detail"])
def test_score_native(benchmark: Any, games: list[bytes], detail: bool) -> None:
    benchmark.group = f"{GROUP} ({'detail' if detail else 'lean'})"
    benchmark.extra_info["items"] = len(games)
    for g in games[:5]:  # the same reports, before timing
        assert neweden.score(g, detail=detail) == _reference(g, detail)
    benchmark(each(lambda g: neweden.score(g, detail=detail), games))


@pytest.mark.usefixtures("frozen")
def test_score_valid_games_baseline(benchmark: Any, games: list[bytes]) -> None:
    """The baseline of the invalid-game cost: the lean score of valid games."""
    benchmark.group = "score: an invalid game against a valid one (lean)"
    benchmark.name = "baseline valid games"
    benchmark.extra_info["items"] = len(games)
    assert all(neweden.score(g, detail=False)["valid"] for g in games[:5])
    benchmark(each(lambda g: neweden.score(g, detail=False), games))


@pytest.mark.usefixtures("frozen")
def test_score_invalid_games(benchmark: Any, games: list[bytes]) -> None:
    illegal = [broken(g, k) for k, g in enumerate(games)]
    benchmark.group = "score: an invalid game against a valid one (lean)"
    benchmark.name = "the same games, one city illegal"
    benchmark.extra_info["items"] = len(illegal)
    assert not any(neweden.score(g, detail=False)["valid"] for g in illegal[:5])
    benchmark(each(lambda g: neweden.score(g, detail=False), illegal))


@pytest.mark.usefixtures("frozen")
def test_score_lean_baseline_of_the_audit(benchmark: Any, games: list[bytes]) -> None:
    benchmark.group = "score: the audit against the lean report"
    benchmark.name = "baseline lean report"
    benchmark.extra_info["items"] = len(games)
    benchmark(each(lambda g: neweden.score(g, detail=False), games))


@pytest.mark.usefixtures("frozen")
def test_score_with_the_audit(benchmark: Any, games: list[bytes]) -> None:
    benchmark.group = "score: the audit against the lean report"
    benchmark.name = "detailed report (the audit trail)"
    benchmark.extra_info["items"] = len(games)
    assert all("audit" in neweden.score(g)["players"][0] for g in games[:3])
    benchmark(each(lambda g: neweden.score(g, detail=True), games))


MIXED = 300


@pytest.fixture(scope="module")
def mixed() -> list[bytes]:
    return realistic_games(MIXED, seed=11)


@pytest.mark.usefixtures("frozen")
def test_score_mixed_lean_baseline(benchmark: Any, mixed: list[bytes]) -> None:
    benchmark.group = "score a realistic mix: the audit and an invalid game against lean"
    benchmark.name = "baseline lean report"
    benchmark.extra_info["items"] = len(mixed)
    benchmark(each(lambda g: neweden.score(g, detail=False), mixed))


@pytest.mark.usefixtures("frozen")
def test_score_mixed_with_the_audit(benchmark: Any, mixed: list[bytes]) -> None:
    benchmark.group = "score a realistic mix: the audit and an invalid game against lean"
    benchmark.name = "detailed report (the audit trail)"
    benchmark.extra_info["items"] = len(mixed)
    assert all("audit" in neweden.score(g)["players"][0] for g in mixed[:3])
    benchmark(each(lambda g: neweden.score(g, detail=True), mixed))


@pytest.mark.usefixtures("frozen")
def test_score_mixed_invalid(benchmark: Any, mixed: list[bytes]) -> None:
    # Cities of one card cannot be broken by moving their last card: those games stay
    # valid, and the assertion counts the rest.
    games = [broken(g, k) for k, g in enumerate(mixed)]
    benchmark.group = "score a realistic mix: the audit and an invalid game against lean"
    benchmark.name = "the same games, one city illegal (lean)"
    benchmark.extra_info["items"] = len(games)
    invalid = sum(not neweden.score(g, detail=False)["valid"] for g in games)
    assert invalid > 0.8 * len(games)
    benchmark(each(lambda g: neweden.score(g, detail=False), games))


# --- the lean read: cities read from their JSON by the core, against the exact decoder ----------


def _exact(data: bytes) -> dict[str, Any]:
    """`neweden.score` as it was before the lean read: the document decoded into a struct a
    card, packed in Python (the same report: tests/format/test_lean_decode.py)."""
    (report,) = score_reports([decode_game(data)])
    return msgspec.to_builtins(report)  # type: ignore[no-any-return]


@pytest.mark.usefixtures("frozen")
@pytest.mark.parametrize("games_of", ["heavy", "mixed"])
def test_score_decoded_exactly_baseline(
    benchmark: Any, games_of: str, request: pytest.FixtureRequest
) -> None:
    data: list[bytes] = request.getfixturevalue("games" if games_of == "heavy" else "mixed")
    benchmark.group = f"score read lean against decoded exactly ({games_of})"
    benchmark.name = f"baseline exact decode ({games_of})"
    benchmark.extra_info["items"] = len(data)
    benchmark(each(_exact, data))


@pytest.mark.usefixtures("frozen")
@pytest.mark.parametrize("games_of", ["heavy", "mixed"])
def test_score_read_lean(benchmark: Any, games_of: str, request: pytest.FixtureRequest) -> None:
    data: list[bytes] = request.getfixturevalue("games" if games_of == "heavy" else "mixed")
    benchmark.group = f"score read lean against decoded exactly ({games_of})"
    benchmark.name = f"neweden.score, read lean ({games_of})"
    benchmark.extra_info["items"] = len(data)
    lean = sum(decode_lean(g) is not None and pack_json_games([g]) is not None for g in data)
    assert lean > 0.9 * len(data)  # the lean path is the one measured
    for g in data[:5]:
        assert neweden.score(g, detail=False) == _exact(g)
    benchmark(each(lambda g: neweden.score(g, detail=False), data))
