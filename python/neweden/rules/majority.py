"""D5, the base majority (RULES §4a): each player's points and place by their bases across
the game, and the table a game scores them with. One game's ints only (a batch's columns call
:func:`base_majority` once a distinct list of bases: :mod:`neweden.scoring.majority`), so the
module is compiled with the report path; D1-D4 are :mod:`neweden.rules.military`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from neweden.catalog.catalog import DEFAULT_MAJORITY_TABLE, Catalog
from neweden.format.model import Game
from neweden.format.modes import MODES

__all__ = [
    "MajoritySource",
    "base_majority",
    "game_majority_table",
    "majority_source",
    "majority_table",
]

#: Where a game's D5 table comes from (RULES §4a): its own `majority_table`, the catalog's,
#: or the built-in default.
MajoritySource = Literal["game", "catalog", "default"]


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
