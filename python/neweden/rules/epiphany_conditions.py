"""Epiphany conditions, as information (RULES §4b): does the final city still meet the
condition of a declared epiphany, and can identical epiphanies each have their own cards?

The score trusts the declared states; these answers only inform. Identical epiphanies (the
same catalog id held several times) need pairwise disjoint sets of cards, each meeting the
condition on its own. That is answered by an exact search: every subset of the scored cards
is tried, smallest first, keeping the inclusion-minimal ones that meet the condition, then a
backtracking search looks for enough pairwise disjoint ones. The search is exact up to
:data:`MAX_SEARCH_CARDS` scored cards and :data:`MAX_MINIMAL_SETS` minimal sets; beyond
either bound the answer is ``"unknown"``, never a guess.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any, Literal

from ..catalog import Catalog, ResolvedCard
from ..conditions import CityContext, evaluate, uses_geometry
from ..figures import ScoreFigures

__all__ = ["MAX_MINIMAL_SETS", "MAX_SEARCH_CARDS", "disjoint_sets"]

#: 2**14 = 16,384 subsets at most.
MAX_SEARCH_CARDS = 14
MAX_MINIMAL_SETS = 2_000

Answer = Literal["yes", "no", "unknown"]


def _minimal_sets(
    condition: Any,
    cards: Sequence[ResolvedCard],
    catalog: Catalog,
    geometry: Callable[[Sequence[ResolvedCard]], ScoreFigures],
) -> list[int] | None:
    """Bit masks of the inclusion-minimal subsets meeting the condition; None past the bound."""
    needs_figures = uses_geometry(condition)
    minimal: list[int] = []
    for size in range(0, len(cards) + 1):
        for chosen in combinations(range(len(cards)), size):
            mask = sum(1 << i for i in chosen)
            if any(m & mask == m for m in minimal):
                continue  # contains a smaller set that already meets it
            subset = [cards[i] for i in chosen]
            figures = geometry(subset) if needs_figures else None
            if evaluate(condition, CityContext(subset, figures, catalog)):
                minimal.append(mask)
                if len(minimal) > MAX_MINIMAL_SETS:
                    return None
    return minimal


def _pick_disjoint(sets: Sequence[int], wanted: int, start: int = 0, used: int = 0) -> bool:
    if wanted == 0:
        return True
    return any(
        sets[j] & used == 0 and _pick_disjoint(sets, wanted - 1, j + 1, used | sets[j])
        for j in range(start, len(sets))
    )


def disjoint_sets(
    condition: Any,
    copies: int,
    cards: Sequence[ResolvedCard],
    catalog: Catalog,
    geometry: Callable[[Sequence[ResolvedCard]], ScoreFigures],
) -> Answer:
    """Whether `copies` pairwise disjoint sets of the scored cards each meet `condition`."""
    if len(cards) > MAX_SEARCH_CARDS:
        return "unknown"
    minimal = _minimal_sets(condition, cards, catalog, geometry)
    if minimal is None:
        return "unknown"
    if 0 in minimal:  # the empty set meets it: every copy can
        return "yes"
    return "yes" if _pick_disjoint(minimal, copies) else "no"
