"""Epiphany conditions, as information (RULES §4b): does the final city still meet the
condition of a declared epiphany, and can identical epiphanies each have their own cards?

The score trusts the declared states; these answers only inform. Identical epiphanies (the
same catalog id held `copies` times) need pairwise disjoint sets of cards, each meeting the
condition on its own. That is answered by an exact search in two steps:

1. the inclusion-minimal subsets of the scored cards that meet the condition, smallest
   first. A subset holding a smaller one that meets it is not evaluated, and sizes no
   packing can use are not tried: before any set is found, `copies` disjoint sets of n
   cards need one of at most n // copies cards; once the smallest (k cards) is known, no
   set of the packing has more than n - (copies - 1) * k.
2. a packing search over those sets, each state (the cards still free) tried once for a
   number of sets: the lowest free card is either left out or covered by a set whose
   lowest card it is, and a state with fewer free cards than `copies` sets need is cut.

Both steps spend a :class:`SearchBudget`, one a game: :data:`MAX_EVALUATIONS` value terms
evaluated over subsets and :data:`MAX_PACKING_STEPS` steps of the packing. The search is
exact up to :data:`MAX_SEARCH_CARDS` scored cards and :data:`MAX_MINIMAL_SETS` minimal
sets; past either bound, or once the budget is spent, the answer is ``"unknown"``, never a
guess. The budget is spent in the players' and epiphanies' order, so a game always gets the
same answers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any, Literal

from neweden.catalog.catalog import Catalog, ResolvedCard
from neweden.catalog.conditions import VALUES, uses_geometry
from neweden.geometry.figures import ScoreFigures
from neweden.rules.conditions import CityContext, compiled

__all__ = [
    "MAX_EVALUATIONS",
    "MAX_MINIMAL_SETS",
    "MAX_PACKING_STEPS",
    "MAX_SEARCH_CARDS",
    "SearchBudget",
    "disjoint_sets",
]

#: 2**14 = 16,384 subsets at most.
MAX_SEARCH_CARDS = 14
MAX_MINIMAL_SETS = 2_000
#: A game's budget of value terms evaluated over subsets of cards (a condition's value
#: operators, plus one for the connection figures when it reads them): four for every subset
#: of 14 cards.
MAX_EVALUATIONS = 4 * 2**MAX_SEARCH_CARDS
#: A game's budget of packing steps (a state visited, or a set tried in it).
MAX_PACKING_STEPS = 1_000_000

Answer = Literal["yes", "no", "unknown"]


class SearchBudget:
    """What the searches of one game may still spend (each count goes down)."""

    __slots__ = ("evaluations", "steps")

    def __init__(self, evaluations: int = MAX_EVALUATIONS, steps: int = MAX_PACKING_STEPS) -> None:
        self.evaluations = evaluations
        self.steps = steps


class _Spent(Exception):
    """The budget ran out: the answer is unknown."""


def _cost(condition: Any) -> int:
    """What one evaluation of the condition costs: its value operators (at least one),
    plus one for the core's figures when it reads them."""
    todo, terms = [condition], 0
    while todo:
        expr = todo.pop()
        if isinstance(expr, dict):
            terms += sum(1 for key in expr if key in VALUES)
            todo.extend(expr.values())
        elif isinstance(expr, list):
            todo.extend(expr)
    return max(terms, 1) + (1 if uses_geometry(condition) else 0)


def _minimal_sets(
    condition: Any,
    copies: int,
    cards: Sequence[ResolvedCard],
    catalog: Catalog,
    geometry: Callable[[Sequence[ResolvedCard]], ScoreFigures],
    budget: SearchBudget,
) -> list[int] | None:
    """Bit masks of the inclusion-minimal subsets meeting the condition that a packing of
    `copies` sets could use; None past MAX_MINIMAL_SETS. Raises _Spent."""
    n = len(cards)
    test = compiled(condition)
    needs_figures = uses_geometry(condition)
    cost = _cost(condition)
    holds = bytearray(1 << n)  # 1: the subset holds one that meets the condition
    minimal: list[int] = []
    largest = n // copies
    size = 0
    while size <= largest:
        for chosen in combinations(range(n), size):
            mask = sum(1 << i for i in chosen)
            if any(holds[mask & ~(1 << i)] for i in chosen):
                holds[mask] = 1  # holds a smaller set that already meets it
                continue
            budget.evaluations -= cost
            if budget.evaluations < 0:
                raise _Spent
            subset = [cards[i] for i in chosen]
            figures = geometry(subset) if needs_figures else None
            if test(CityContext(subset, figures, catalog)):
                holds[mask] = 1
                minimal.append(mask)
                if mask == 0:  # the empty set meets it: nothing else is minimal
                    return minimal
                if len(minimal) > MAX_MINIMAL_SETS:
                    return None
                if len(minimal) == 1:
                    largest = n - (copies - 1) * size
        size += 1
    return minimal


class _Packing:
    """Whether `wanted` pairwise disjoint sets (bit masks) fit among the free cards."""

    def __init__(self, sets: Sequence[int], budget: SearchBudget) -> None:
        self.budget = budget
        self.smallest = min(s.bit_count() for s in sets)
        #: the sets by their lowest card
        self.by_low: dict[int, list[int]] = {}
        for s in sets:
            self.by_low.setdefault((s & -s).bit_length() - 1, []).append(s)
        #: per state (the free cards), the fewest sets known not to fit
        self.failed: dict[int, int] = {}

    def fits(self, free: int, wanted: int) -> bool:
        if wanted == 0:
            return True
        if free.bit_count() < wanted * self.smallest or self.failed.get(free, wanted + 1) <= wanted:
            return False
        budget = self.budget
        low = (free & -free).bit_length() - 1
        for s in self.by_low.get(low, ()):
            budget.steps -= 1
            if s & free == s and self.fits(free ^ s, wanted - 1):
                return True
        budget.steps -= 1
        if budget.steps < 0:
            raise _Spent
        if self.fits(free ^ (1 << low), wanted):  # the lowest free card left out
            return True
        self.failed[free] = wanted
        return False


def disjoint_sets(
    condition: Any,
    copies: int,
    cards: Sequence[ResolvedCard],
    catalog: Catalog,
    geometry: Callable[[Sequence[ResolvedCard]], ScoreFigures],
    budget: SearchBudget | None = None,
) -> Answer:
    """Whether `copies` pairwise disjoint sets of the scored cards each meet `condition`
    ("unknown" past the bounds or the budget, a fresh one when none is given)."""
    if len(cards) > MAX_SEARCH_CARDS:
        return "unknown"
    budget = budget or SearchBudget()
    try:
        minimal = _minimal_sets(condition, copies, cards, catalog, geometry, budget)
        if minimal is None:
            return "unknown"
        if 0 in minimal:  # the empty set meets it: every copy can
            return "yes"
        if not minimal:
            return "no"
        return "yes" if _Packing(minimal, budget).fits((1 << len(cards)) - 1, copies) else "no"
    except _Spent:
        return "unknown"
