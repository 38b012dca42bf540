"""The four sides of a card (RULES §2), once: their order (the core's bit order), the cell
each one faces, the side it meets there, its bit in a side mask, and the 180° turn.

Every module that walks the grid reads this table; the C++ core's `neweden/sides.hpp` says
the same bits, and a test holds the two equal."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["ALL_SIDES", "BIT", "OPPOSITE", "SIDES", "STEP", "TURNED_MASK", "mask", "turned"]

#: The sides in the core's bit order.
SIDES = ("top", "right", "bottom", "left")
ALL_SIDES = frozenset(SIDES)
#: (row step, column step) to the cell a side faces; rows grow downward.
STEP = {"top": (-1, 0), "right": (0, 1), "bottom": (1, 0), "left": (0, -1)}
#: The side a side meets on the neighbouring card; also where a 180° turn takes it.
OPPOSITE = {"top": "bottom", "right": "left", "bottom": "top", "left": "right"}
#: Each side's bit in a side mask: top 1, right 2, bottom 4, left 8.
BIT = {side: 1 << i for i, side in enumerate(SIDES)}
#: The 180° turn of every 4-bit side mask (top <-> bottom, right <-> left).
TURNED_MASK = tuple(((m << 2) | (m >> 2)) & 15 for m in range(16))


def mask(sides: Iterable[str]) -> int:
    """The side mask of some sides."""
    return sum(BIT[s] for s in sides)


def turned(sides: frozenset[str]) -> frozenset[str]:
    """The icons of a card turned 180°."""
    return frozenset(OPPOSITE[s] for s in sides)
