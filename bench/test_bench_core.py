"""Per city: the native core through the binding vs the pure-Python reference.

Both return everything the core computes (CityFigures: legality, connections, components,
open connections, Military figures). Inputs: 400 seeded cities grown by legal placement,
10-15 cards. The native side starts from the compact arrays (packing is timed on its own).
"""

from __future__ import annotations

from typing import Any

import pytest

from bench.conftest import each
from neweden.catalog.catalog import ResolvedCard
from neweden.geometry import reference
from neweden.geometry.compact import CompactCities, pack_cities
from neweden.geometry.native import analyse_city


@pytest.fixture(scope="module")
def packed(cities: list[list[ResolvedCard]]) -> list[CompactCities]:
    return [pack_cities([c]) for c in cities]


def _run_reference(cities: list[list[ResolvedCard]]) -> None:
    for city in cities:
        reference.analyse_city(city)


def _run_native(packed: list[CompactCities]) -> None:
    for p in packed:
        analyse_city(p)


@pytest.mark.usefixtures("frozen")
def test_reference_per_city_baseline(benchmark: Any, cities: list[list[ResolvedCard]]) -> None:
    benchmark.group = "core per city"
    benchmark.extra_info["items"] = len(cities)
    assert sum(reference.analyse_city(c).legal for c in cities) > len(cities) // 2
    benchmark(_run_reference, cities)


@pytest.mark.usefixtures("frozen")
def test_native_per_city(
    benchmark: Any, cities: list[list[ResolvedCard]], packed: list[CompactCities]
) -> None:
    benchmark.group = "core per city"
    benchmark.extra_info["items"] = len(cities)
    # A correctness check inside the benchmark, before timing.
    for city, p in zip(cities[:50], packed[:50], strict=True):
        assert analyse_city(p) == reference.analyse_city(city)
    benchmark(_run_native, packed)


@pytest.mark.usefixtures("frozen")
def test_pack_per_city(benchmark: Any, cities: list[list[ResolvedCard]]) -> None:
    benchmark.group = "packing per city"
    benchmark.extra_info["items"] = len(cities)
    benchmark(each(lambda c: pack_cities([c]), cities))
