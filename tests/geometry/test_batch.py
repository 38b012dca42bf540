"""The batch path: batch == per city == reference; threads change nothing; packing from
decoded games gives the same arrays as resolving first."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import neweden
from neweden.catalog.catalog import BUILTIN, ResolvedCard, resolve_city
from neweden.geometry import reference
from neweden.geometry.compact import UNRESOLVED, CompactCities, pack_cities, pack_games, pack_table
from neweden.geometry.figures import BatchFigures, CityFigures
from neweden.geometry.native import analyse_batch, analyse_city
from neweden.geometry.synth import grow_city
from tests.strategies import cities

PER_CITY = (
    "legal",
    "open_connections",
    "components",
    "project",
    "labs",
    "shelter_points",
    "medical_points",
    "towers",
    "tower_points",
    "bases",
)


def assert_batch_matches(
    batch: BatchFigures, packed: CompactCities, expected: list[CityFigures]
) -> None:
    assert len(batch.legal) == len(expected)
    for k, figures in enumerate(expected):
        lo, hi = int(packed.offsets[k]), int(packed.offsets[k + 1])
        for name in PER_CITY:
            assert getattr(batch, name)[k] == getattr(figures, name), (k, name)
        assert batch.cards[k] == sum(figures.included)
        assert tuple(batch.component[lo:hi]) == figures.component
        assert tuple(batch.overlapped_by[lo:hi]) == figures.overlapped_by


@settings(max_examples=150, deadline=None)
@given(st.lists(cities, min_size=1, max_size=8), st.sampled_from([1, 2, 3]))
def test_batch_equals_per_city_equals_reference(
    batch_cities: list[list[ResolvedCard]], threads: int
) -> None:
    packed = pack_cities(batch_cities)
    expected = [reference.analyse_city(c) for c in batch_cities]
    assert [analyse_city(packed, k) for k in range(len(batch_cities))] == expected
    assert_batch_matches(analyse_batch(packed, threads=threads), packed, expected)


def test_a_batch_of_empty_cities_and_a_batch_of_one() -> None:
    empty = pack_cities([[], [], []])
    figures = analyse_batch(empty, threads=2)
    assert figures.legal.tolist() == [1, 1, 1]
    assert figures.project.tolist() == [-1, -1, -1]
    assert len(figures.component) == 0
    one = grow_city(random.Random(1), 12)
    packed = pack_cities([one])
    assert_batch_matches(analyse_batch(packed), packed, [reference.analyse_city(one)])
    nothing = analyse_batch(pack_cities([]))
    assert len(nothing.legal) == 0


def test_one_and_two_threads_give_identical_arrays() -> None:
    rng = random.Random(7)
    batch_cities = [grow_city(rng, rng.randint(1, 30)) for _ in range(500)]
    for city in batch_cities[::9]:  # some illegal: a card moved onto another's cell
        c = city[-1]
        city.append(ResolvedCard(len(city), c.row, c.col, False, c.spec))
    packed = pack_cities(batch_cities)
    one, two = analyse_batch(packed, threads=1), analyse_batch(packed, threads=2)
    for name in BatchFigures._fields:
        assert np.array_equal(getattr(one, name), getattr(two, name)), name
    assert 0 < int(one.legal.sum()) < len(batch_cities)


def test_threads_must_be_positive() -> None:
    with pytest.raises(ValueError, match="threads"):
        analyse_batch(pack_cities([[]]), threads=0)


def test_the_core_refuses_offsets_that_do_not_fit_the_cards() -> None:
    packed = pack_cities([grow_city(random.Random(2), 5)])
    bad = (
        packed._replace(offsets=np.array([0, 3], dtype=np.int64))
        if hasattr(packed, "_replace")
        else None
    )

    bad = replace(packed, offsets=np.array([0, 3], dtype=np.int64))
    with pytest.raises(ValueError, match="offsets"):
        analyse_batch(bad)


def test_pack_games_equals_resolving_then_packing(
    format_example: dict[str, Any], military_example: dict[str, Any]
) -> None:
    format_example["players"][0]["city"].append({"row": 5, "col": 5, "card": "EX-unknown"})
    format_example["players"][0]["city"][1]["rotated"] = True
    games = [neweden.decode_game(format_example), neweden.decode_game(military_example)]
    direct = pack_games(games, BUILTIN)
    cities = [resolve_city(p.city, BUILTIN, "")[0] for g in games for p in g.players]
    table, offsets = pack_table(cities)
    assert np.array_equal(direct.table, table)
    assert np.array_equal(direct.offsets, offsets)
    assert direct.first_city == [0, len(games[0].players), len(cities)]
    first, second = direct.cards
    assert first.unresolved
    assert not second.unresolved
    rotated = [
        (p, k, c.row, c.col)
        for p, city in enumerate(cities[: len(games[0].players)])
        for k, c in enumerate(city)
        if c.rotated
    ]
    assert first.rotated == rotated
    assert [p for p, *_k in rotated].count(0) == 2
    assert "EX-unknown" in first.ids
    assert direct.table[int(direct.offsets[1]) - 1, 6] == UNRESOLVED


@pytest.mark.parametrize("seed", range(5))
def test_cities_of_more_than_64_cards_agree_with_the_reference(seed: int) -> None:
    rng = random.Random(seed)
    city = grow_city(rng, 77, tries=5000)
    c = city[10]
    city.append(ResolvedCard(len(city), c.row, c.col, False, c.spec))  # and an overlap
    assert len(city) > 64
    packed = pack_cities([city, city[:20]])
    expected = [reference.analyse_city(city), reference.analyse_city(city[:20])]
    assert analyse_city(packed, 0) == expected[0]
    assert_batch_matches(analyse_batch(packed, threads=2), packed, expected)
