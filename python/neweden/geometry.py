"""The native core over compact cities: legality, connections and Military figures."""

from __future__ import annotations

from . import _core
from .compact import CompactCities
from .figures import CityFigures

__all__ = ["analyse_city"]


def analyse_city(cities: CompactCities, index: int = 0) -> CityFigures:
    """The figures of city `index` of a compact batch, computed by the C++ core.

    Raises ValueError for arrays no decoded city can give (the core's invalid_argument).
    """
    fields = _core.analyse_city(
        cities.row,
        cities.col,
        cities.style,
        cities.type,
        cities.facility,
        cities.sides,
        cities.flags,
        int(cities.offsets[index]),
        int(cities.offsets[index + 1]),
    )
    return CityFigures._make(fields)
