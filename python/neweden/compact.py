"""The compact city: the flat arrays the native core reads.

One row per card, in input order, for a whole batch of cities at once; city ``i`` is rows
``offsets[i]:offsets[i + 1]``. Codes:

- ``row``, ``col`` (int32): the cell; row grows downward.
- ``style``, ``type`` (int32): an index into ``styles`` / ``types`` (interned per batch, since
  the core only compares them for equality), or -1 for a wild or unresolved card.
- ``facility`` (int8): an index into :data:`neweden.model.FACILITIES`, or -1.
- ``sides`` (uint8): the icons *as placed* (after the 180° turn of a rotated card), one bit
  per side: top 1, right 2, bottom 4, left 8 (the core's ``neweden/sides.hpp``).
- ``flags`` (uint8): :data:`WILD` for a wild card, :data:`UNRESOLVED` for a card whose id did
  not resolve (the core leaves it out, RULES §3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .catalog import ResolvedCard
from .model import FACILITIES

__all__ = ["SIDE_BITS", "UNRESOLVED", "WILD", "CompactCities", "pack_cities"]

SIDE_BITS = {"top": 1, "right": 2, "bottom": 4, "left": 8}
WILD = 1
UNRESOLVED = 2
_FACILITY_CODES = {name: i for i, name in enumerate(FACILITIES)}


@dataclass(frozen=True)
class CompactCities:
    """A batch of cities as one set of arrays plus offsets (see the module docstring)."""

    offsets: npt.NDArray[np.int64]
    row: npt.NDArray[np.int32]
    col: npt.NDArray[np.int32]
    style: npt.NDArray[np.int32]
    type: npt.NDArray[np.int32]
    facility: npt.NDArray[np.int8]
    sides: npt.NDArray[np.uint8]
    flags: npt.NDArray[np.uint8]
    styles: tuple[str, ...]
    types: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def city(self, i: int) -> CompactCities:
        """City `i` alone, as a batch of one (views, no copy of the card rows)."""
        lo, hi = int(self.offsets[i]), int(self.offsets[i + 1])
        return CompactCities(
            np.array([0, hi - lo], dtype=np.int64),
            self.row[lo:hi],
            self.col[lo:hi],
            self.style[lo:hi],
            self.type[lo:hi],
            self.facility[lo:hi],
            self.sides[lo:hi],
            self.flags[lo:hi],
            self.styles,
            self.types,
        )


def pack_cities(cities: Sequence[Sequence[ResolvedCard]]) -> CompactCities:
    """The compact arrays of resolved cities, in order."""
    styles: dict[str, int] = {}
    types: dict[str, int] = {}
    offsets = [0]
    rows: list[tuple[int, int, int, int, int, int, int]] = []
    for city in cities:
        for card in city:
            spec = card.spec
            if spec is None:
                rows.append((card.row, card.col, -1, -1, -1, 0, UNRESOLVED))
            elif spec.wild:
                rows.append((card.row, card.col, -1, -1, -1, 15, WILD))
            else:
                assert spec.style is not None
                assert spec.type is not None
                assert spec.facility is not None
                sides = sum(SIDE_BITS[s] for s in spec.sides_as_placed(card.rotated))
                rows.append(
                    (
                        card.row,
                        card.col,
                        styles.setdefault(spec.style, len(styles)),
                        types.setdefault(spec.type, len(types)),
                        _FACILITY_CODES[spec.facility],
                        sides,
                        0,
                    )
                )
        offsets.append(len(rows))
    table = np.array(rows, dtype=np.int64).reshape(len(rows), 7)
    return CompactCities(
        offsets=np.array(offsets, dtype=np.int64),
        row=table[:, 0].astype(np.int32),
        col=table[:, 1].astype(np.int32),
        style=table[:, 2].astype(np.int32),
        type=table[:, 3].astype(np.int32),
        facility=table[:, 4].astype(np.int8),
        sides=table[:, 5].astype(np.uint8),
        flags=table[:, 6].astype(np.uint8),
        styles=tuple(styles),
        types=tuple(types),
    )
