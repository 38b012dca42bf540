"""Scoring on a Dask cluster (docs/dask.md): the public face of
:mod:`neweden.runners.dask`, kept at `neweden.dask` for the code that imports it."""

from neweden.runners.dask import (
    COLUMNS,
    entries_bag,
    iter_results,
    score_bag,
    score_entries_bag,
    to_dataframe,
)

__all__ = [
    "COLUMNS",
    "entries_bag",
    "iter_results",
    "score_bag",
    "score_entries_bag",
    "to_dataframe",
]
