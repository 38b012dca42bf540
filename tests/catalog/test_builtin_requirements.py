"""A1, B1 and C1 written in the condition language give the answers of RULES §4a as
written directly in Python here (the oracle), on generated cities."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from neweden.catalog.catalog import BUILTIN, Catalog, ResolvedCard
from neweden.geometry import reference
from neweden.geometry.compact import pack_table
from neweden.geometry.native import score_figures
from neweden.rules.conditions import CityContext, evaluate, judge
from tests.strategies import cities


def a1(cards: list[ResolvedCard], catalog: Catalog) -> bool:
    styles = {c.spec.style for c in cards if c.spec is not None and not c.spec.wild}
    if catalog.styles is not None:
        return catalog.styles <= styles
    return len(styles) >= 5


def b1(cards: list[ResolvedCard]) -> bool:
    return max(Counter(c.row for c in cards).values(), default=0) >= 6


def c1(open_connections: int) -> bool:
    return open_connections <= 4


CLOSED = Catalog(
    "closed", BUILTIN.cards, BUILTIN.requirements, styles=frozenset({"ex_a", "ex_b", "ex_c"})
)


@settings(max_examples=200, deadline=None)
@given(cities, st.booleans())
def test_a1_b1_c1_in_the_language_match_the_rules(city: list[ResolvedCard], closed: bool) -> None:
    figures = reference.analyse_city(city)
    kept = [c for c, inside in zip(city, figures.included, strict=True) if inside]
    catalog = CLOSED if closed else BUILTIN
    conditions = {k: v.condition for k, v in BUILTIN.requirements.items()}
    (native,) = score_figures(*pack_table([city]))
    # Read from the core's tallies (native and twin), and counted from the cards.
    for tallies in (native, reference.score_figures(city)):
        ctx = CityContext(kept, tallies, catalog)
        assert evaluate(conditions["A1"], ctx) == a1(kept, catalog)
        assert evaluate(conditions["B1"], ctx) == b1(kept)
        assert evaluate(conditions["C1"], ctx) == c1(figures.open_connections)
        # The explaining evaluation agrees with the plain one.
        for condition in conditions.values():
            assert judge(condition, ctx)[0] == evaluate(condition, ctx)
    counted = CityContext(kept, None, catalog)
    assert evaluate(conditions["A1"], counted) == a1(kept, catalog)
    assert evaluate(conditions["B1"], counted) == b1(kept)
