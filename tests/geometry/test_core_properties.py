"""Property: the C++ core and the pure-Python reference give the same figures.

A few hundred cities here; scripts/check_core_agreement.py runs as many as asked.
"""

from __future__ import annotations

from hypothesis import given, settings

from neweden.catalog.catalog import ResolvedCard
from neweden.geometry import reference
from neweden.geometry.compact import pack_cities, pack_table
from neweden.geometry.native import analyse_city, score_figures
from tests.strategies import cities, grown_cities


@settings(max_examples=300, deadline=None)
@given(cities)
def test_native_core_equals_reference(city: list[ResolvedCard]) -> None:
    assert analyse_city(pack_cities([city])) == reference.analyse_city(city)


@settings(max_examples=300, deadline=None)
@given(cities, grown_cities())
def test_native_score_figures_equal_reference(
    city: list[ResolvedCard], other: list[ResolvedCard]
) -> None:
    """What the rules read (counts, D1-D4 and the tallies of the kept cards), the city
    alone and in a batch after another."""
    (alone,) = score_figures(*pack_table([city]))
    assert alone == reference.score_figures(city)
    assert score_figures(*pack_table([other, city]))[1] == alone


@settings(max_examples=100, deadline=None)
@given(grown_cities(), grown_cities())
def test_a_city_in_a_batch_is_analysed_alone(a: list[ResolvedCard], b: list[ResolvedCard]) -> None:
    packed = pack_cities([a, b])
    assert analyse_city(packed, 1) == reference.analyse_city(b)
    assert analyse_city(packed, 0) == reference.analyse_city(a)
