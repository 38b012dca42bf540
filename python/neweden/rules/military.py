"""Military points (RULES §4a, D1-D5): the city's figures from the core, and the base
majority across the players of the game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from ..catalog import DEFAULT_MAJORITY_TABLE
from ..figures import ScoreFigures

__all__ = ["LAB_POINTS", "MilitaryPoints", "base_majority", "military_points"]

LAB_POINTS = 3


class MilitaryPoints(NamedTuple):
    labs: int
    shelters: int
    medical: int
    towers: int
    bases: int

    @property
    def total(self) -> int:
        return self.labs + self.shelters + self.medical + self.towers + self.bases

    def to_dict(self) -> dict[str, int]:
        return {
            "labs": self.labs,
            "shelters": self.shelters,
            "medical": self.medical,
            "towers": self.towers,
            "bases": self.bases,
            "total": self.total,
        }


def base_majority(bases: Sequence[int], table: Sequence[int]) -> tuple[list[int], list[int]]:
    """D5: the points and the place of each player, from their numbers of bases.

    Players are ranked by bases, most first; a tie shares the place and the next count takes
    the place after all of them (1, 1, 3); the k-th place scores table[k-1]. A player with no
    base scores 0; so do the players with the fewest bases, unless every player has the same
    number (a full tie is a shared first place).
    """
    places = [1 + sum(other > mine for other in bases) for mine in bases]
    fewest = min(bases, default=0)
    full_tie = all(b == fewest for b in bases)
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


def military_points(figures: ScoreFigures, base_points: int) -> MilitaryPoints:
    """D1-D4 from the core's figures, and D5 as decided across the game."""
    return MilitaryPoints(
        labs=LAB_POINTS * figures.labs,
        shelters=figures.shelter_points,
        medical=figures.medical_points,
        towers=figures.tower_points,
        bases=base_points,
    )
