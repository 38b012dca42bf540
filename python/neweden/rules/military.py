"""Military points (RULES §4a, D1-D5): the city's figures from the core, and the base
majority across the players of the game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from neweden.catalog.catalog import DEFAULT_MAJORITY_TABLE, Catalog
from neweden.format.model import Game
from neweden.format.modes import MODES
from neweden.geometry.figures import ScoreFigures

__all__ = [
    "LAB_POINTS",
    "MajoritySource",
    "base_majority",
    "facility_points",
    "game_majority_table",
    "majority_source",
    "military_points",
    "shelter_group_points",
]

#: Where a game's D5 table comes from (RULES §4a): its own `majority_table`, the catalog's,
#: or the built-in default.
MajoritySource = Literal["game", "catalog", "default"]

LAB_POINTS = 3


def base_majority(bases: Sequence[int], table: Sequence[int]) -> tuple[list[int], list[int]]:
    """D5: the points and the place of each player, from their numbers of bases.

    Players are ranked by bases, most first; a tie shares the place and the next count takes
    the place after all of them (1, 1, 3); the k-th place scores table[k-1]. A player with no
    base scores 0; so do the players with the fewest bases, unless every player has the same
    number (a full tie is a shared first place). A player alone has no majority to win:
    first, with 0.

    Example: ``base_majority([3, 1, 3], (5, 3, 1))`` is ``([5, 0, 5], [1, 3, 1])``.
    """
    if len(bases) < 2:
        return [0] * len(bases), [1] * len(bases)
    ranked = sorted(bases, reverse=True)
    places = [ranked.index(mine) + 1 for mine in bases]  # 1 + how many have more
    fewest = ranked[-1] if ranked else 0
    full_tie = ranked[0] == fewest if ranked else True
    points = []
    for count, place in zip(bases, places, strict=True):
        if count == 0 or (count == fewest and not full_tie) or place > len(table):
            points.append(0)
        else:
            points.append(table[place - 1])
    return points, places


def majority_table(
    custom: Mapping[int, Sequence[int]] | None, players: int
) -> tuple[tuple[int, ...], bool]:
    """The D5 table for this many players, and whether it is the built-in default."""
    if custom is not None and players in custom:
        return tuple(custom[players]), False
    return tuple(DEFAULT_MAJORITY_TABLE.get(players, ())), True


def game_majority_table(game: Game, catalog: Catalog) -> tuple[tuple[int, ...], MajoritySource]:
    """The D5 table `game` scores with, and where it comes from: the game's own
    `majority_table` (the D5 card's values as printed), else the catalog's for its number of
    players, else the built-in default (RULES §4a)."""
    if isinstance(game.majority_table, list):
        return tuple(game.majority_table), "game"
    table, default = majority_table(catalog.majority_table, len(game.players))
    return table, "default" if default else "catalog"


def majority_source(game: Game, catalog: Catalog) -> MajoritySource | None:
    """Where `game`'s D5 table comes from, as its report names it (None: it scores no D5)."""
    if not MODES[game.mode].military:
        return None
    return game_majority_table(game, catalog)[1]


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
