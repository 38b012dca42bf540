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

import itertools
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .catalog import CardSpec, Catalog, ResolvedCard
from .model import FACILITIES, Placement

__all__ = [
    "SIDE_BITS",
    "UNRESOLVED",
    "WILD",
    "CompactCities",
    "pack_cities",
    "pack_placements",
    "pack_table",
]

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

    def columns(
        self,
    ) -> tuple[
        npt.NDArray[np.int32],
        npt.NDArray[np.int32],
        npt.NDArray[np.int32],
        npt.NDArray[np.int32],
        npt.NDArray[np.int8],
        npt.NDArray[np.uint8],
        npt.NDArray[np.uint8],
    ]:
        """The card columns in the order the core takes them: row, col, style, type,
        facility, sides, flags."""
        return self.row, self.col, self.style, self.type, self.facility, self.sides, self.flags

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


# Side masks of the icon sets seen so far, and the 180° turn of every mask.
_MASKS: dict[frozenset[str] | tuple[str, ...], int] = {}
_TURNED = [((m << 2) | (m >> 2)) & 15 for m in range(16)]
_UNRESOLVED_ROW = (-1, -1, -1, 0, UNRESOLVED)
_WILD_ROW = (-1, -1, -1, 15, WILD)


def _mask(sides: frozenset[str] | tuple[str, ...]) -> int:
    mask = _MASKS.get(sides)
    if mask is None:
        mask = _MASKS[sides] = sum(SIDE_BITS[s] for s in sides)
    return mask


class _Packer:
    """Rows of the compact table, one flat list of ints (7 per card) with interned styles
    and types. Per card it does a few dictionary look-ups and one `extend`: the arrays
    themselves are built once, for the whole batch."""

    def __init__(self) -> None:
        self.styles: defaultdict[str, int] = defaultdict(itertools.count().__next__)
        self.types: defaultdict[str, int] = defaultdict(itertools.count().__next__)
        self.flat: list[int] = []
        self.offsets = [0]

    def common(
        self,
        row: int,
        col: int,
        style: str,
        type_: str,
        facility: str,
        sides: frozenset[str] | tuple[str, ...],
        rotated: bool,
    ) -> None:
        mask = _MASKS.get(sides) or _mask(sides)
        self.flat.extend(
            (
                row,
                col,
                self.styles[style],
                self.types[type_],
                _FACILITY_CODES[facility],
                _TURNED[mask] if rotated else mask,
                0,
            )
        )

    def spec(self, row: int, col: int, spec: CardSpec | None, rotated: bool) -> None:
        """A card resolved to `spec` (None: an id that did not resolve)."""
        if spec is None:
            self.other(row, col, _UNRESOLVED_ROW)
        elif spec.wild:
            self.other(row, col, _WILD_ROW)
        else:
            assert spec.style is not None
            assert spec.type is not None
            assert spec.facility is not None
            self.common(row, col, spec.style, spec.type, spec.facility, spec.sides, rotated)

    def other(self, row: int, col: int, rest: tuple[int, int, int, int, int]) -> None:
        self.flat.extend((row, col, *rest))

    def end_city(self) -> None:
        self.offsets.append(len(self.flat) // 7)

    def table(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]:
        """The rows as one (cards, 7) int32 table, and the offsets."""
        table = np.array(self.flat, dtype=np.int32).reshape(-1, 7)
        return table, np.array(self.offsets, dtype=np.int64)

    def finish(self) -> CompactCities:
        table = np.array(self.flat, dtype=np.int32).reshape(-1, 7)
        return CompactCities(
            offsets=np.array(self.offsets, dtype=np.int64),
            row=table[:, 0].copy(),
            col=table[:, 1].copy(),
            style=table[:, 2].copy(),
            type=table[:, 3].copy(),
            facility=table[:, 4].astype(np.int8),
            sides=table[:, 5].astype(np.uint8),
            flags=table[:, 6].astype(np.uint8),
            styles=tuple(self.styles),
            types=tuple(self.types),
        )


def _packed(cities: Sequence[Sequence[ResolvedCard]]) -> _Packer:
    packer = _Packer()
    # The loop of Packer.spec and Packer.common, inlined: it runs for every card of every
    # game scored.
    extend, styles, types = packer.flat.extend, packer.styles, packer.types
    for city in cities:
        for card in city:
            spec = card.spec
            if spec is None or spec.wild:
                extend((card.row, card.col, *(_UNRESOLVED_ROW if spec is None else _WILD_ROW)))
                continue
            mask = _MASKS.get(spec.sides) or _mask(spec.sides)
            extend(
                (
                    card.row,
                    card.col,
                    styles[spec.style],  # type: ignore[index]
                    types[spec.type],  # type: ignore[index]
                    _FACILITY_CODES[spec.facility],  # type: ignore[index]
                    _TURNED[mask] if card.rotated else mask,
                    0,
                )
            )
        packer.end_city()
    return packer


def pack_cities(cities: Sequence[Sequence[ResolvedCard]]) -> CompactCities:
    """The compact arrays of resolved cities, in order."""
    return _packed(cities).finish()


def pack_table(
    cities: Sequence[Sequence[ResolvedCard]],
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]:
    """The same rows as one (cards, 7) int32 table (columns row, col, style, type,
    facility, sides, flags) and the offsets: the cheapest form for the few cities of one
    game (:func:`neweden.geometry.analyse_table`)."""
    return _packed(cities).table()


def pack_placements(cities: Sequence[Sequence[Placement]], catalog: Catalog) -> CompactCities:
    """The compact arrays straight from decoded cities, ids looked up in `catalog` (an id not
    found is an UNRESOLVED row): the same arrays as resolving, then :func:`pack_cities`,
    without building a :class:`~neweden.catalog.CardSpec` per card."""
    packer = _Packer()
    for city in cities:
        for p in city:
            card = p.card
            if isinstance(card, str):
                packer.spec(p.row, p.col, catalog.card(card), p.rotated)
            elif card.wild is True:
                packer.other(p.row, p.col, _WILD_ROW)
            else:  # a decoded common card has all of these (neweden.checks)
                assert isinstance(card.style, str)
                assert isinstance(card.type, str)
                assert isinstance(card.facility, str)
                assert isinstance(card.sides, list)
                packer.common(
                    p.row, p.col, card.style, card.type, card.facility, tuple(card.sides), p.rotated
                )
        packer.end_city()
    return packer.finish()
