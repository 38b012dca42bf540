"""score_table's inputs checked: each column of integers within its bounds, the offsets
that cut the table into cities and games (a ValueError naming the argument otherwise)."""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from neweden.format.model import (
    MAX_BONUS_POINTS,
    MAX_BONUSES,
    MAX_COORDINATE,
    MAX_POINTS,
    MAX_STARS,
)

Ints: TypeAlias = npt.NDArray[np.int64]


#: The columns of a packed table (pack_table), each with the values a decoded card can give.
_TABLE_COLUMNS: tuple[tuple[str, int, int], ...] = (
    ("row", -MAX_COORDINATE, MAX_COORDINATE),
    ("col", -MAX_COORDINATE, MAX_COORDINATE),
    ("style", -(2**31), 2**31 - 1),
    ("type", -(2**31), 2**31 - 1),
    ("facility", -(2**31), 2**31 - 1),
    ("sides", -(2**31), 2**31 - 1),
    ("flags", -(2**31), 2**31 - 1),
    ("stars", 0, MAX_STARS),
    ("points", 0, MAX_POINTS),
)
#: Bonuses' points summed for a player: at most MAX_BONUSES of ±MAX_BONUS_POINTS (a bound the
#: int64 sums keep far from).
_BONUS_BOUND = MAX_BONUSES * MAX_BONUS_POINTS
_INT64_BOUND = 2**63 - 1


def _per(name: str, values: Ints | None, count: int, bound: int = _INT64_BOUND) -> Ints:
    """An optional column of one entry per city (or game), checked: integers within
    ±`bound`."""
    if values is None:
        return np.zeros(count, dtype=np.int64)
    found = _integers(name, values, -bound, bound)
    if found.shape != (count,):
        raise ValueError(f"{name} must hold {count} entries, not {found.shape}")
    return found


def _integers(name: str, values: Any, low: int, high: int) -> Ints:
    """`values` as an int64 array, refused with a ValueError naming the column unless
    they are integers (not floats, whose NaN and fractions have no score, nor Python ints
    beyond int64) from `low` to `high`: nothing is narrowed or wrapped silently."""
    found = np.asarray(values)
    if found.dtype.kind not in "iub":
        raise ValueError(f"{name}: integers, not {found.dtype} values")
    if found.size:
        least, most = found.min(), found.max()
        if least < low or most > high:
            wrong = least if least < low else most
            raise ValueError(f"{name}: {wrong} is out of range ({low} to {high})")
    return found.astype(np.int64, copy=False)


def _checked_table(table: Any) -> npt.NDArray[np.int32]:
    """The packed table as int32, each column's values checked (the core checks the codes:
    facility, sides, flags and whether a card is whole)."""
    found = np.asarray(table)
    if found.ndim != 2 or found.shape[1] != len(_TABLE_COLUMNS):
        raise ValueError(f"table: cards x {len(_TABLE_COLUMNS)} integers, not {found.shape}")
    if found.dtype.kind not in "iu":
        raise ValueError(f"table: integers, not {found.dtype} values")
    if found.dtype == np.int32:
        bad = (found < _TABLE_LOW) | (found > _TABLE_HIGH)
        if not bad.any():
            return found
    for k, (name, low, high) in enumerate(_TABLE_COLUMNS):
        _integers(f"table column {k} ({name})", found[:, k], low, high)
    return found.astype(np.int32)


_TABLE_LOW = np.array([low for _name, low, _high in _TABLE_COLUMNS])
_TABLE_HIGH = np.array([high for _name, _low, high in _TABLE_COLUMNS])


def _offsets(name: str, values: Any, total: int, what: str) -> Ints:
    """Where each part starts, and the end: from 0 to `total`, never decreasing."""
    found = _integers(name, values, 0, total)
    if found.ndim != 1 or len(found) == 0 or found[0] != 0 or found[-1] != total:
        raise ValueError(f"{name} must run from 0 to {total} (the {what}), one entry a part")
    if (np.diff(found) < 0).any():
        raise ValueError(f"{name} must not decrease")
    return found
