"""D5 over a batch's columns: the report's own :func:`~neweden.rules.majority.base_majority`,
once for each distinct list of a game's bases."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from neweden.catalog.catalog import Catalog
from neweden.rules.majority import base_majority, majority_table

Ints: TypeAlias = npt.NDArray[np.int64]


def _padded(values: Ints, game_of: Ints, game_offsets: Ints, fill: int) -> Ints:
    """A (games x most players) matrix of per-city values, `fill` where a game has fewer."""
    games = len(game_offsets) - 1
    counts = np.diff(game_offsets)
    width = int(counts.max(initial=0))
    if games and width and int(counts.min()) == width:  # every game as many players
        return values.reshape(games, width)
    out = np.full((games, max(width, 1)), fill, dtype=np.int64)
    seat = np.arange(len(game_of)) - game_offsets[:-1][game_of]
    out[game_of, seat] = values
    return out


def majority_points(
    bases: Ints,
    game_of: Ints,
    game_offsets: Ints,
    players: Ints,
    catalog: Catalog,
    tables: Sequence[tuple[int, ...] | None] | None = None,
) -> Ints:
    """D5 per city, by the report's own :func:`~neweden.rules.majority.base_majority`, called
    once for each distinct list of a game's bases (a batch has few: bases are few a player;
    each list's points kept for the next chunks, _MAJORITY) under the catalog's table, and
    once a game for the games of `tables` that give their own.
    One player: 0 (no majority, as the report)."""
    if len(bases) == 0:
        return np.zeros(0, dtype=np.int64)
    grid = _padded(bases, game_of, game_offsets, -1)  # a game's seats in order, then -1
    lists, which = _distinct_rows(grid)
    zeros = [0] * lists.shape[1]
    rows = [_seat_points(row, None, catalog) + zeros for row in lists.tolist()]
    points = np.array([row[: len(zeros)] for row in rows], dtype=np.int64).reshape(lists.shape)
    points = points[which]  # a row a game
    for g, table in enumerate(tables or ()):
        if table is not None:
            points[g] = (_seat_points(grid[g].tolist(), table, catalog) + zeros)[: len(zeros)]
    seat = np.arange(len(game_of)) - game_offsets[:-1][game_of]
    found: Ints = points[game_of, seat]
    return found


def _seat_points(row: list[int], table: tuple[int, ...] | None, catalog: Catalog) -> list[int]:
    """D5's points of each seat of a game's row of bases (-1 past its seats) under `table`
    (None: the catalog's, or the default), found once a process for each (_MAJORITY)."""
    seats = tuple([count for count in row if count >= 0])
    if table is None:
        table = majority_table(catalog.majority_table, len(seats))[0]
    key = (seats, table)
    told = _MAJORITY.get(key)
    if told is None:
        told = base_majority(seats, table)[0]
        if len(_MAJORITY) >= _MAJORITY_KEPT:
            _MAJORITY.clear()
        _MAJORITY[key] = told
    return told


#: base_majority's points of a game's bases (each seat's count) under a table, found once
#: in a process for each: a batch's games repeat a few hundred lists, and the chunks of a
#: run the same lists again. At most _MAJORITY_KEPT, then found afresh.
_MAJORITY: dict[tuple[tuple[int, ...], tuple[int, ...]], list[int]] = {}
_MAJORITY_KEPT = 4096


def _distinct_rows(grid: Ints) -> tuple[Ints, Ints]:
    """The distinct rows of a matrix of small ints (-1 to 254) and, per row, which one it
    is. Up to seven columns, a row is one int64 key (a one-dimensional sort, several times
    faster than numpy's row-wise unique)."""
    if grid.shape[1] > 7 or grid.min(initial=0) < -1 or grid.max(initial=0) > 254:
        lists, which = np.unique(grid, axis=0, return_inverse=True)
        return lists, which.reshape(-1)
    shifts = np.arange(grid.shape[1], dtype=np.int64) * 8
    keys = ((grid + 1) << shifts).sum(axis=1)
    _, first, which = np.unique(keys, return_index=True, return_inverse=True)
    return grid[first], which.reshape(-1)
