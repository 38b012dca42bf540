"""neweden: the reference scoring and validation service for New Eden Project.

The public API (FORMAT §6) grows here; everything not in ``__all__`` is private.
"""

from __future__ import annotations

from neweden._version import __version__
from neweden.catalog.catalog import BUILTIN, CardSpec, Catalog, resolve_city, resolve_game
from neweden.catalog.files import CatalogError, load_catalog
from neweden.format.decode import decode_city, decode_game
from neweden.format.model import Game, LoneCity
from neweden.format.problems import GameDecodeError, Problem
from neweden.geometry.compact import CompactCities, pack_cities, pack_table
from neweden.geometry.native import CORE_VERSION as _core_version
from neweden.runners.batch import score_many
from neweden.scoring.placements import PlacementError, placements
from neweden.scoring.report import score
from neweden.scoring.table import Epiphanies, TableScores, score_table
from neweden.scoring.validation import validate

if _core_version != __version__:  # pragma: no cover - a stale build in the tree
    raise ImportError(
        f"neweden {__version__} found a native core built for {_core_version}; reinstall"
    )

__all__ = [
    "BUILTIN",
    "CardSpec",
    "Catalog",
    "CatalogError",
    "CompactCities",
    "Epiphanies",
    "Game",
    "GameDecodeError",
    "LoneCity",
    "PlacementError",
    "Problem",
    "TableScores",
    "__version__",
    "decode_city",
    "decode_game",
    "load_catalog",
    "pack_cities",
    "pack_table",
    "placements",
    "resolve_city",
    "resolve_game",
    "score",
    "score_many",
    "score_table",
    "validate",
]
