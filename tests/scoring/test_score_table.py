"""`score_table` (games in columns) against `neweden.score` (a game document at a time) on
generated games: every mode, illegal cities, epiphanies and their 1/3-star groups, bonuses,
ties and the first player."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import neweden
from neweden.catalog.catalog import BUILTIN, Catalog
from neweden.geometry.compact import pack_table
from neweden.geometry.synth import grow_city
from neweden.rules.majority import base_majority, majority_table
from neweden.scoring import majority
from neweden.scoring.majority import _distinct_rows, majority_points
from neweden.scoring.table import Epiphanies, score_table
from tests.table_games import (
    FIELDS,
    declared_columns,
    report_columns,
    table_columns,
    table_games,
)


def _compare(games: list[dict[str, Any]]) -> None:
    columns = table_columns(games)
    found = score_table(
        columns.pop("table"),
        columns.pop("city_offsets"),
        columns.pop("game_offsets"),
        requirements=["A1", "B1", "C1"],
        **columns,
    )
    expected = report_columns(games)
    for field in FIELDS:
        assert getattr(found, field).tolist() == expected[field], field


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12))
def test_score_table_is_the_score_of_each_game(seed: int, count: int) -> None:
    _compare(table_games(seed, count))


def test_score_table_on_a_large_seeded_batch() -> None:
    games = table_games(7, 400)
    expected = report_columns(games)
    assert expected["legal"].count(False) > 100  # illegal cities are scored as placed
    assert expected["place"].count(1) > len(games)  # some first places are shared
    assert 2 in expected["stars"]
    assert 10 in expected["bases_points"]
    _compare(games)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12))
def test_rule_4a_declared_requirements_and_the_games_d5_table_score_as_the_report(
    seed: int, count: int
) -> None:
    """Issue 36: cards as a real table draws them (most unknown to the catalog), declared by
    some players as bits over their game's list (`requirements_declared`), and some games'
    own D5 tables (`majority_tables`): score_table gives every number `neweden.score` gives
    each game's document with `requirements_met` and `majority_table`."""
    games = table_games(seed, count, declared=True)
    columns = declared_columns(games)
    found = score_table(**columns)
    expected = report_columns(games)
    for field in FIELDS:
        assert getattr(found, field).tolist() == expected[field], field


def test_declared_games_meet_unknown_cards_and_use_their_own_tables() -> None:
    """The generated games of the test above hold what it claims to test."""
    games = table_games(36, 300, declared=True)
    reports = [neweden.score({k: v for k, v in g.items() if k != "_cities"}) for g in games]
    sources = {r["majority_table"] for r in reports}
    assert {"game", "default", None} <= sources
    declared = [i for r in reports for p in r["players"] for i in p["requirements_declared"] or []]
    assert {"A3", "B2", "C4"} <= set(declared)
    codes = {e["code"] for r in reports for p in r["players"] for e in p["errors"]}
    assert "requirement_disagrees" in codes


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12))
def test_each_game_may_play_requirement_cards_of_its_own(seed: int, count: int) -> None:
    """`requirements` as a list a game (some empty, in any order, in every mode: a military
    game ignores its own) scores as `neweden.score` scores each game with its list."""
    games = table_games(seed, count, own_requirements=True)
    columns = table_columns(games)
    found = score_table(
        columns.pop("table"),
        columns.pop("city_offsets"),
        columns.pop("game_offsets"),
        requirements=[g["requirements"] for g in games],
        **columns,
    )
    expected = report_columns(games)
    for field in FIELDS:
        assert getattr(found, field).tolist() == expected[field], field


def test_requirement_lists_that_do_not_fit_are_refused() -> None:
    games = table_games(3, 4)
    columns = table_columns(games)
    args = (columns.pop("table"), columns.pop("city_offsets"), columns.pop("game_offsets"))
    with pytest.raises(ValueError, match="3 lists given for 4 games"):
        score_table(*args, requirements=[["A1"], [], ["B1"]], **columns)
    with pytest.raises(ValueError, match="requirements of game 1: a list of distinct"):
        score_table(*args, requirements=[["A1"], ["B1", "B1"], [], []], **columns)
    with pytest.raises(ValueError, match="requirements: a list of distinct"):
        score_table(*args, requirements=["A1", "A1"], **columns)
    with pytest.raises(ValueError, match="unknown requirement 'EX-Z1'"):
        score_table(*args, requirements=[["A1"], [], ["EX-Z1"], []], **columns)


def test_a_condition_that_reads_the_cards_is_refused() -> None:
    from neweden.catalog.catalog import BUILTIN, RequirementSpec

    catalog = dataclasses.replace(
        BUILTIN,
        requirements={
            "EX-R": RequirementSpec(
                "EX-R", "A", "example", {">=": [{"count": {"style": "gothic"}}, 2]}
            )
        },
    )
    table, offsets = pack_table([grow_city(random.Random(1), 5)])
    with pytest.raises(ValueError, match="looks at the cards themselves"):
        score_table(
            table,
            offsets,
            np.array([0, 1]),
            mode="populist",
            requirements=["EX-R"],
            catalog=catalog,
        )


def test_arrays_that_do_not_fit_are_refused() -> None:
    table, offsets = pack_table([grow_city(random.Random(1), 5)])
    one = np.array([0, 1])

    def epis(offsets: list[int], points: list[int], state: list[int]) -> Epiphanies:
        return Epiphanies(
            np.array(offsets), np.array(points), np.array(state), np.array([False] * len(points))
        )

    refused: dict[str, dict[str, Any]] = {
        "epiphanies.offsets": {"epiphanies": epis([0, 2], [2], [1])},
        "2 or 5": {"epiphanies": epis([0, 1], [3], [1])},
        "held": {"epiphanies": epis([0, 1], [2], [7])},
        "as long": {"epiphanies": epis([0, 1], [2], [1, 1])},
        "bonuses must hold 1": {"bonuses": np.array([1, 2])},
        "first_player": {"first_player": np.array([3])},
    }
    for words, arrays in refused.items():
        with pytest.raises(ValueError, match=words):
            score_table(table, offsets, one, mode="military", **arrays)
    with pytest.raises(ValueError, match="game_offsets"):
        score_table(table, offsets, np.array([0, 2]), mode="populist")
    with pytest.raises(ValueError, match="unknown mode"):
        score_table(table, offsets, np.array([0, 1]), mode="royal")


def test_the_documented_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/table.md's example, as a reader would run it."""
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "table.md").read_text()
    first, *more = [part.split("```", 1)[0] for part in doc.split("```python\n")[1:]]
    names: dict[str, object] = {}
    exec(compile(first, "docs/table.md", "exec"), names)
    printed = capsys.readouterr().out
    assert printed.count("[") == 2  # two arrays
    totals = [int(v) for v in printed.split("]")[0].strip("[ ").split()]
    assert len(totals) == 5
    for code in more:  # the later examples go on from the first
        exec(compile(code, "docs/table.md", "exec"), names)
    declared = names["scores"]
    assert len(declared.total) == 5  # type: ignore[attr-defined]
    assert more, "the declared requirements' example is run too"


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 12).flatmap(
        lambda width: st.lists(
            st.lists(st.integers(-1, 300), min_size=width, max_size=width), min_size=1
        )
    )
)
def test_distinct_rows_groups_equal_rows_in_either_form(rows: list[list[int]]) -> None:
    """D5 is scored once per distinct list of a game's bases (`_distinct_rows`: one int64 key
    a row up to seven columns of -1..254, numpy's row-wise unique otherwise): every row is
    the distinct row it is said to be, and the distinct rows are distinct."""
    grid = np.array(rows, dtype=np.int64)
    lists, which = _distinct_rows(grid)
    assert lists[which].tolist() == grid.tolist()
    assert len({tuple(r) for r in lists.tolist()}) == len(lists)


def test_a_majority_over_more_seats_than_one_key_holds() -> None:
    """A table of one 9-player game (beyond the decoder's four, within score_table's arrays)
    takes numpy's row-wise path and still scores D5 by the report's rule."""
    bases = np.array([3, 0, 3, 1, 2, 2, 0, 1, 5], dtype=np.int64)
    game_of = np.zeros(9, dtype=np.int64)
    offsets = np.array([0, 9], dtype=np.int64)
    catalog = dataclasses.replace(BUILTIN, majority_table={9: (9, 8, 7, 6, 5, 4, 3, 2, 1)})
    found = majority_points(bases, game_of, offsets, np.array([9]), catalog)
    expected, _ = base_majority(bases.tolist(), (9, 8, 7, 6, 5, 4, 3, 2, 1))
    assert found.tolist() == expected
    assert expected[8] == 9
    assert expected[1] == 0


def test_a_majority_kept_from_one_chunk_is_told_alike_in_the_next() -> None:
    """D5's points of a list of bases are kept for the next chunks of the process
    (`_MAJORITY`): the same list scores alike in a chunk of two-player games, of four-player
    games and under a catalog's own table (a key of its own), each as base_majority says."""
    majority._MAJORITY.clear()
    custom = dataclasses.replace(BUILTIN, majority_table={2: (7, 1)})

    def scored(games: list[list[int]], catalog: Catalog) -> list[list[int]]:
        bases = np.array([b for game in games for b in game], dtype=np.int64)
        offsets = np.cumsum([0, *map(len, games)])
        game_of = np.repeat(np.arange(len(games)), list(map(len, games)))
        found = majority_points(bases, game_of, offsets, np.diff(offsets), catalog).tolist()
        return [found[offsets[g] : offsets[g + 1]] for g in range(len(games))]

    def expected(game: list[int], catalog: Catalog) -> list[int]:
        return base_majority(game, majority_table(catalog.majority_table, len(game))[0])[0]

    for games, catalog in [
        ([[2, 1], [0, 3]], BUILTIN),
        ([[2, 1], [4, 0, 4, 1], [1]], BUILTIN),  # wider: the kept [2, 1] padded
        ([[2, 1]], BUILTIN),
        ([[2, 1], [0, 3]], custom),
    ]:
        assert scored(games, catalog) == [
            expected(game, catalog) if len(game) > 1 else [0] for game in games
        ]
    assert ((2, 1), (7, 1)) in majority._MAJORITY
    assert scored([[2, 1]], custom) != scored([[2, 1]], BUILTIN)


def test_a_catalog_whose_points_overflow_int64_is_refused() -> None:
    from neweden.catalog.catalog import BUILTIN

    catalog = dataclasses.replace(BUILTIN, majority_table={2: (2**63 - 1, 0)})
    table, offsets = pack_table([grow_city(random.Random(1), 5), grow_city(random.Random(2), 5)])
    with pytest.raises(ValueError, match=r"beyond 1099511627776 .*neweden\.score"):
        score_table(table, offsets, np.array([0, 2]), mode="military", catalog=catalog)


def _two_games() -> tuple[Any, Any, Any, Any]:
    """Four cities of two games of two players, and their scores."""
    rng = random.Random(35)
    cities = [grow_city(rng, rng.randint(8, 12)) for _ in range(4)]
    packed, offsets = pack_table(cities)
    games = np.array([0, 2, 4])
    scored = score_table(packed, offsets, games, mode="elitist", requirements=["A1", "B1", "C1"])
    return packed, offsets, games, scored


@pytest.mark.parametrize("offsets", [[1, 3, 5], [-1, 1, 3], [3, 5, 7], [0, 3, 2, 4], [0, 2]])
def test_score_table_refuses_game_offsets_that_do_not_start_at_0(offsets: list[int]) -> None:
    """Issue 35, finding 4: game offsets [1, 3, 5] for [0, 2, 4] gave places [0, 1, 0, 1] and
    D5 seats wrapped; [-1, 1, 3] and [3, 5, 7] raised IndexError. Now a ValueError naming
    them."""
    packed, city_offsets, _games, _scored = _two_games()
    with pytest.raises(ValueError, match="game_offsets"):
        score_table(packed, city_offsets, np.array(offsets), mode="military")


@pytest.mark.parametrize("offsets", [[1, 10, 20, 30, 40], [0, 10, 5, 30, 40], [0, 10, 20]])
def test_score_table_refuses_city_offsets_that_do_not_cover_the_table(offsets: list[int]) -> None:
    packed, _cities, games, _scored = _two_games()
    offsets = [*offsets[:-1], len(packed)] if len(offsets) == 5 else offsets
    with pytest.raises(ValueError, match="city_offsets"):
        score_table(packed, np.array(offsets), games, mode="military")


def test_score_table_refuses_wrong_types_instead_of_converting_them() -> None:
    """Issue 35, finding 8: an int64 table wrapped modulo 2**32 (points 2**32 + p scored as
    p), float points were truncated (7.9 -> 7), NaN was "negative points", third_star given
    as the int 2 was False, a bonus of 2**70 raised OverflowError. Each is now a ValueError
    naming its column; an int64 table within the ranges is scored as the int32 one."""
    packed, offsets, games, scored = _two_games()
    args: dict[str, Any] = {"mode": "elitist", "requirements": ["A1", "B1", "C1"]}
    wide = packed.astype(np.int64)
    assert score_table(wide, offsets, games, **args).total.tolist() == scored.total.tolist()
    wide[0, 8] += 2**32
    with pytest.raises(ValueError, match=r"table column 8 \(points\): 4294967\d+ is out of"):
        score_table(wide, offsets, games, **args)
    floats = packed.astype(np.float64)
    floats[0, 8] = 7.9
    with pytest.raises(ValueError, match="table: integers, not float64"):
        score_table(floats, offsets, games, **args)
    far = packed.copy()
    far[0, 0] = 5000  # a row no decoded card has (|row| <= 1,000)
    with pytest.raises(ValueError, match=r"table column 0 \(row\): 5000 is out of range"):
        score_table(far, offsets, games, **args)
    with pytest.raises(ValueError, match="bonuses: integers, not float64"):
        score_table(packed, offsets, games, bonuses=np.array([0, np.nan, 0, 0]), **args)
    with pytest.raises(ValueError, match="bonuses: integers, not object"):
        score_table(packed, offsets, games, bonuses=np.array([0, 2**70, 0, 0]), **args)
    with pytest.raises(ValueError, match="bonuses: 30000 is out of range"):
        score_table(packed, offsets, games, bonuses=np.array([0, 30_000, 0, 0]), **args)
    with pytest.raises(ValueError, match="first_player: integers, not float64"):
        score_table(packed, offsets, games, first_player=np.array([0.5, 0]), **args)
    one = Epiphanies(np.array([0, 1, 1, 1, 1]), np.array([2]), np.array([2]), np.array([2]))
    with pytest.raises(ValueError, match=r"epiphanies.third_star: 2 is out of range \(0 to 1\)"):
        score_table(packed, offsets, games, epiphanies=one, **args)
    as_float = one._replace(third_star=np.array([True]), points=np.array([2.0]))
    with pytest.raises(ValueError, match=r"epiphanies.points \(2 or 5\): integers, not float64"):
        score_table(packed, offsets, games, epiphanies=as_float, **args)
    ints = one._replace(third_star=np.array([1]))
    as_bools = one._replace(third_star=np.array([True]))
    assert (
        score_table(packed, offsets, games, epiphanies=ints, **args).total.tolist()
        == score_table(packed, offsets, games, epiphanies=as_bools, **args).total.tolist()
    )
