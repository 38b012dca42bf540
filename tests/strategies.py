"""Hypothesis strategies for cities: legal and illegal, wild, rotated, overlapping,
unresolved, negative and far-apart coordinates, 0 to 77 cards."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from neweden.catalog.catalog import CardSpec, ResolvedCard
from neweden.format.model import FACILITIES, SIDES
from neweden.format.sides import ALL_SIDES
from neweden.geometry.synth import grow_city

common_cards = st.builds(
    CardSpec,
    wild=st.just(False),
    style=st.sampled_from(["ex_a", "ex_b", "ex_c"]),
    type=st.sampled_from(["ex_x", "ex_y", "ex_z"]),
    facility=st.sampled_from(FACILITIES),
    points=st.integers(0, 9),
    stars=st.integers(0, 3),
    sides=st.frozensets(st.sampled_from(SIDES), min_size=1),
)
wild_cards = st.just(CardSpec(True, None, None, None, 0, 0, ALL_SIDES))
specs = st.one_of(common_cards, common_cards, common_cards, wild_cards, st.none())


@st.composite
def scattered_cities(draw: st.DrawFn, max_cards: int = 77) -> list[ResolvedCard]:
    """Cards on a small window of cells (so they touch and overlap), sometimes far away."""
    n = draw(st.integers(0, max_cards))
    width = draw(st.integers(1, 9))
    origin = draw(st.integers(-1000, 1000 - width))
    cards = []
    for i in range(n):
        far = draw(st.booleans()) if i % 7 == 6 else False
        lo, hi = (-1000, 1000) if far else (origin, origin + width)
        cards.append(
            ResolvedCard(
                i,
                draw(st.integers(lo, hi)),
                draw(st.integers(lo, hi)),
                draw(st.booleans()),
                draw(specs),
            )
        )
    return cards


@st.composite
def grown_cities(draw: st.DrawFn) -> list[ResolvedCard]:
    """A legal city grown by placement, then perhaps broken: an overlap, a lost card."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    city = grow_city(rng, draw(st.integers(1, 77)))
    if draw(st.booleans()) and len(city) > 1:
        victim = draw(st.integers(0, len(city) - 1))
        c = city[victim]
        city[victim] = ResolvedCard(c.index, c.row, c.col, c.rotated, None)
    if draw(st.booleans()):
        c = city[draw(st.integers(0, len(city) - 1))]
        city.append(ResolvedCard(len(city), c.row, c.col, False, draw(common_cards)))
    return city


cities = st.one_of(scattered_cities(), grown_cities())
