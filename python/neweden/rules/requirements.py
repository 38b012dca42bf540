"""Bid requirements (RULES §4a, Populist): the built-in A1, B1, C1, and the stars.

Conditions of other requirement cards come with catalog files (FORMAT §2); until a catalog
gives one, an unknown id is reported and not met.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..catalog import Catalog, ResolvedCard
from ..figures import CityFigures

__all__ = ["BUILTIN_CONDITIONS", "CityView", "RequirementResult", "evaluate"]

#: How many stars above three are worth (RULES §4a.2).
POINTS_PER_EXTRA_STAR = 15


@dataclass(frozen=True)
class CityView:
    """What a requirement condition sees: the scored cards and the core's figures."""

    cards: Sequence[ResolvedCard]  # the cards kept in the geometry (scored)
    figures: CityFigures
    catalog: Catalog


@dataclass(frozen=True)
class RequirementResult:
    id: str
    met: bool
    why: str


def _a1_all_styles(city: CityView) -> tuple[bool, str]:
    styles = {c.spec.style for c in city.cards if c.spec is not None and c.spec.style}
    if city.catalog.styles is not None:
        missing = sorted(city.catalog.styles - styles)
        return not missing, (
            f"{len(styles)} styles; missing {', '.join(missing)}" if missing else "every style"
        )
    return len(
        styles
    ) >= 5, f"{len(styles)} distinct styles ({', '.join(sorted(styles))}); 5 needed"


def _b1_long_row(city: CityView) -> tuple[bool, str]:
    rows = Counter(c.row for c in city.cards)
    if not rows:
        return False, "no card"
    row, most = max(rows.items(), key=lambda item: (item[1], -item[0]))
    return most >= 6, f"row {row} holds {most} cards; more than 5 needed"


def _c1_few_open_connections(city: CityView) -> tuple[bool, str]:
    n = city.figures.open_connections
    return n <= 4, f"{n} open connections; at most 4 allowed"


#: The conditions of the built-in requirement cards, by id.
BUILTIN_CONDITIONS: dict[str, Callable[[CityView], tuple[bool, str]]] = {
    "A1": _a1_all_styles,
    "B1": _b1_long_row,
    "C1": _c1_few_open_connections,
}


def evaluate(requirement_ids: Sequence[str], city: CityView) -> list[RequirementResult]:
    """Each requirement in play, met or not, with the figure that decided it."""
    results = []
    for req_id in requirement_ids:
        condition = BUILTIN_CONDITIONS.get(req_id)
        if condition is None or req_id not in city.catalog.requirements:
            results.append(RequirementResult(req_id, False, "no condition known for this id"))
            continue
        met, why = condition(city)
        results.append(RequirementResult(req_id, met, why))
    return results


def populist_points(cards: Sequence[ResolvedCard], stars: int) -> tuple[int, list[int]]:
    """Every card whose star requirement is at most `stars` scores its points, every other
    card 1 (RULES §4a.3); plus 15 a star above three. Returns the total and each card's."""
    each = [
        (c.spec.points if c.spec.stars <= stars else 1) if c.spec is not None else 0 for c in cards
    ]
    return sum(each) + POINTS_PER_EXTRA_STAR * max(0, stars - 3), each
