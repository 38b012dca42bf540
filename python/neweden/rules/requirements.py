"""Bid requirements (RULES §4a, Populist): each requirement card's condition, and the
card points by stars.

Conditions are data in the condition language (:mod:`neweden.conditions`); the built-in
A1, B1 and C1 are written in it in :data:`neweden.catalog.BUILTIN`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..catalog import ResolvedCard
from ..conditions import CityContext, evaluate, judge

__all__ = ["POINTS_PER_EXTRA_STAR", "RequirementResult", "evaluate_requirements", "populist_points"]

#: How many stars above three are worth (RULES §4a.2).
POINTS_PER_EXTRA_STAR = 15


class RequirementResult(NamedTuple):
    id: str
    met: bool
    why: str


def evaluate_requirements(
    requirement_ids: Sequence[str], city: CityContext, *, explained: bool = True
) -> list[RequirementResult]:
    """Each requirement in play, met or not, with the figures that decided it in words
    (`explained`; the lean report does without)."""
    results = []
    for req_id in requirement_ids:
        spec = city.catalog.requirements.get(req_id)
        if spec is None:
            results.append(RequirementResult(req_id, False, "unknown id: not met"))
        elif spec.condition is None:
            results.append(RequirementResult(req_id, False, "no condition in the catalog: not met"))
        else:
            if explained:
                met, words = judge(spec.condition, city)
                why = f"{req_id} {'met' if met else 'not met'}: {words}"
            else:
                met, why = evaluate(spec.condition, city), ""
            results.append(RequirementResult(req_id, met, why))
    return results


def populist_points(cards: Sequence[ResolvedCard], stars: int) -> tuple[int, list[int]]:
    """Every card whose star requirement is at most `stars` scores its points, every other
    card 1 (RULES §4a.3); plus 15 a star above three. Returns the total and each card's."""
    each = [
        (c.spec.points if c.spec.stars <= stars else 1) if c.spec is not None else 0 for c in cards
    ]
    return sum(each) + POINTS_PER_EXTRA_STAR * max(0, stars - 3), each
