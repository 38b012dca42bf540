"""Many cities per call: the batch core (1 and 2 threads) against the reference, the
per-city binding, and what a Python user would otherwise write.

Inputs: seeded cities grown by legal placement, 10-15 cards. The reference and the per-city
paths run over 400 cities, the batch over 20,000 (so thread start-up is not what is timed);
every figure is per city. `scipy` and `networkx` baselines compute only a part of the
figures (shelter groups; connectivity) and need `pip install '.[bench]'`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from bench.conftest import each, realistic_cities
from neweden.catalog.catalog import ResolvedCard
from neweden.geometry import reference
from neweden.geometry.compact import CompactCities, pack_cities
from neweden.geometry.native import analyse_batch, analyse_city

GROUP = "geometry per city"
BATCH_CITIES = 20_000


@pytest.fixture(scope="module")
def big_batch() -> tuple[list[list[ResolvedCard]], CompactCities]:
    cities = realistic_cities(BATCH_CITIES, seed=4)
    return cities, pack_cities(cities)


@pytest.mark.usefixtures("frozen")
def test_reference_baseline(benchmark: Any, cities: list[list[ResolvedCard]]) -> None:
    benchmark.group = GROUP
    benchmark.extra_info["items"] = len(cities)
    benchmark(each(reference.analyse_city, cities))


@pytest.mark.usefixtures("frozen")
def test_native_per_city(benchmark: Any, cities: list[list[ResolvedCard]]) -> None:
    benchmark.group = GROUP
    benchmark.extra_info["items"] = len(cities)
    packed = [pack_cities([c]) for c in cities]
    benchmark(each(analyse_city, packed))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.usefixtures("frozen")
def test_native_batch(
    benchmark: Any, big_batch: tuple[list[list[ResolvedCard]], CompactCities], threads: int
) -> None:
    cities, packed = big_batch
    benchmark.group = GROUP
    benchmark.extra_info["items"] = len(cities)
    figures = analyse_batch(packed, threads=threads)
    # A correctness check inside the benchmark, before timing.
    for k in range(0, len(cities), 997):
        expected = reference.analyse_city(cities[k])
        assert figures.open_connections[k] == expected.open_connections
        assert figures.shelter_points[k] == expected.shelter_points
        assert bool(figures.legal[k]) == expected.legal
    benchmark(analyse_batch, packed, threads=threads)


@pytest.mark.usefixtures("frozen")
def test_scipy_label_shelter_groups_only(benchmark: Any, cities: list[list[ResolvedCard]]) -> None:
    ndimage = pytest.importorskip("scipy.ndimage", reason="optional baseline: '.[bench]'")
    benchmark.group = GROUP
    benchmark.extra_info["items"] = len(cities)

    def shelter_points(city: list[ResolvedCard]) -> int:
        cells = [(c.row, c.col) for c in city if c.spec and c.spec.facility == "shelter"]
        if not cells:
            return 0
        rows, cols = zip(*cells, strict=True)
        grid = np.zeros((max(rows) - min(rows) + 1, max(cols) - min(cols) + 1), dtype=bool)
        grid[np.array(rows) - min(rows), np.array(cols) - min(cols)] = True
        labels, _ = ndimage.label(grid)
        sizes = np.bincount(labels.ravel())[1:]
        return int((sizes * np.minimum(sizes, 4)).sum())

    assert [shelter_points(c) for c in cities] == [
        reference.analyse_city(c).shelter_points for c in cities
    ]
    benchmark(each(shelter_points, cities))


@pytest.mark.usefixtures("frozen")
def test_networkx_connectivity_only(benchmark: Any, cities: list[list[ResolvedCard]]) -> None:
    nx = pytest.importorskip("networkx", reason="optional baseline: '.[bench]'")
    benchmark.group = GROUP
    benchmark.extra_info["items"] = len(cities)
    edges = [reference.analyse_city(c).connections for c in cities]

    def components(n: int, links: tuple[tuple[int, int], ...]) -> int:
        graph = nx.Graph()
        graph.add_nodes_from(range(n))
        graph.add_edges_from(links)
        return int(nx.number_connected_components(graph))

    # Given the connections already found, networkx only counts components.
    benchmark(lambda: [components(len(c), e) for c, e in zip(cities, edges, strict=True)])
