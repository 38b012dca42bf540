"""The geometric figures of one city, as both the native core and the reference give them."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

__all__ = ["BatchFigures", "CityFigures", "ScoreFigures"]


class CityFigures(NamedTuple):
    """Everything geometric about one city (RULES §2-§3, D1-D4). Card numbers are indices
    into the city as given; components are numbered by their first card. A named tuple:
    the native core hands its fields over in this order."""

    #: per card: kept in the geometry (not a later card on a taken cell, not unresolved)
    included: tuple[bool, ...]
    #: per card: the earlier card holding its cell, or -1
    overlapped_by: tuple[int, ...]
    #: per card: its component, or -1 when left out
    component: tuple[int, ...]
    components: int
    #: the project: the largest component, on a tie the one holding the earliest card; -1
    project: int
    #: no overlap, no unresolved card, at most one component (card ids and copy limits are
    #: checked outside the core)
    legal: bool
    #: complete connections (a, b), a < b, sorted
    connections: tuple[tuple[int, int], ...]
    open_connections: int
    labs: int
    #: groups of orthogonally adjacent shelters, by first card, cards ascending
    shelter_groups: tuple[tuple[int, ...], ...]
    shelter_points: int
    #: distinct cards orthogonally next to at least one medical center, ascending
    medical_cards: tuple[int, ...]
    medical_points: int
    towers: int
    #: (min_row, min_col, max_row, max_col) of the towers, or None without a tower
    tower_span: tuple[int, int, int, int] | None
    tower_points: int
    bases: int
    #: per component: where it first meets a card of another component (disconnected tells
    #: why it is apart), (card, side, other): its first card beside such a card, the first
    #: side it meets it on (0 top, 1 right, 2 bottom, 3 left) and that card; (-1, -1, -1)
    #: when no card of it touches a card of another component
    contacts: tuple[tuple[int, int, int], ...]


class ScoreFigures(NamedTuple):
    """Every number the scoring rules read of one city, and nothing per card: the
    geometry's counts and D1-D4 (as in :class:`CityFigures`), plus tallies of the cards
    kept in the geometry. The native core gives a whole batch of them in one call
    (:func:`neweden.geometry.native.score_figures`);
    :func:`neweden.geometry.reference.score_figures` is the twin. A named tuple: the core
    hands its fields over in this order."""

    #: no overlap, no unresolved card, at most one component
    legal: bool
    #: cards kept in the geometry
    cards: int
    open_connections: int
    complete_connections: int
    components: int
    labs: int
    shelter_points: int
    medical_points: int
    towers: int
    tower_points: int
    bases: int
    #: kept cards whose star requirement is 0, 1, 2, 3 (wild cards included)
    cards_0_stars: int
    cards_1_star: int
    cards_2_stars: int
    cards_3_stars: int
    #: the potential points of those cards, summed
    points_0_stars: int
    points_1_star: int
    points_2_stars: int
    points_3_stars: int
    #: kept cards in the fullest grid row, and column
    row_cards: int
    column_cards: int
    #: distinct styles among the kept common cards
    styles: int


class BatchFigures(NamedTuple):
    """The figures of every city of a batch, as NumPy arrays (see
    :func:`neweden.geometry.native.analyse_batch`)."""

    #: per city (uint8, 0 or 1): legal geometry, as CityFigures.legal
    legal: npt.NDArray[np.uint8]
    #: per city (int32): cards kept in the geometry
    cards: npt.NDArray[np.int32]
    #: per city (int32)
    open_connections: npt.NDArray[np.int32]
    #: per city (int32): number of components
    components: npt.NDArray[np.int32]
    #: per city (int32): component id of the project, -1 for a city of no card
    project: npt.NDArray[np.int32]
    #: per city (int32): D1 labs (3 points each)
    labs: npt.NDArray[np.int32]
    #: per city (int64): D2 points
    shelter_points: npt.NDArray[np.int64]
    #: per city (int64): D3 points
    medical_points: npt.NDArray[np.int64]
    #: per city (int32): communication towers
    towers: npt.NDArray[np.int32]
    #: per city (int64): D4 points
    tower_points: npt.NDArray[np.int64]
    #: per city (int32): military bases, for the D5 majority
    bases: npt.NDArray[np.int32]
    #: per card (int32): component within its city, -1 when left out
    component: npt.NDArray[np.int32]
    #: per card (int32): index within its city of the card holding its cell, or -1
    overlapped_by: npt.NDArray[np.int32]
