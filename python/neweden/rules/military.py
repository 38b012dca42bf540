"""Military points (RULES §4a, D1-D4): the city's figures from the core, for one city's ints
or, in arithmetic only, whole columns of cities (:mod:`neweden.scoring.table`). D5, the base
majority across the players of a game, is :mod:`neweden.rules.majority`."""

from __future__ import annotations

from neweden.geometry.figures import ScoreFigures

__all__ = [
    "LAB_POINTS",
    "facility_points",
    "military_points",
    "shelter_group_points",
]

LAB_POINTS = 3


def shelter_group_points(shelters: int) -> int:
    """D2: a group of k orthogonally adjacent shelters scores min(k, 4) a shelter. (The core
    sums this over a city's groups; the audit shows it group by group.)"""
    return shelters * min(shelters, 4)


def facility_points(figures: ScoreFigures) -> int:
    """D1-D4: labs, shelters, medical centers and towers of one city (or, in arithmetic only,
    of whole columns of cities: :mod:`neweden.scoring.table`)."""
    f = figures
    return LAB_POINTS * f.labs + f.shelter_points + f.medical_points + f.tower_points


def military_points(figures: ScoreFigures, base_points: int) -> tuple[int, int, int, int, int, int]:
    """D1-D4 from the core's figures, and D5 as decided across the game: the report's
    `military` object's fields in order (labs, shelters, medical, towers, bases, total)."""
    labs = LAB_POINTS * figures.labs
    shelters, medical, towers = figures.shelter_points, figures.medical_points, figures.tower_points
    return labs, shelters, medical, towers, base_points, facility_points(figures) + base_points
