"""Batch scoring on a Dask cluster (`pip install 'neweden[dask]'`).

The same path as `neweden validate`, one native batch call per partition, results in input
order: :func:`score_bag` scores a bag of games; :func:`entries_bag` reads files and `.jsonl`
lines on the workers (local paths or any fsspec URL the cluster can reach), in partitions of
about `blocksize` bytes with exact 1-based line numbers; :func:`to_dataframe` turns results
into a DataFrame with the CSV columns of FORMAT §4.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Any

import dask.bag as db
import fsspec

from neweden._gc import collector_paused
from neweden.catalog.catalog import BUILTIN, Catalog
from neweden.format import codes
from neweden.format.problems import Problem
from neweden.i18n import _, current, speaking
from neweden.runners.results import (
    BOOLEAN_COLUMNS,
    CSV_HEADER,
    STRING_COLUMNS,
    Lines,
    Result,
    reports,
    score_entries,
)
from neweden.runners.sources import (
    MAX_BLANK_BYTES,
    MAX_LINE_BYTES,
    Entry,
    Skipped,
    plan_blocks,
)

__all__ = [
    "COLUMNS",
    "entries_bag",
    "iter_results",
    "score_bag",
    "score_entries_bag",
    "to_dataframe",
]

COLUMNS = CSV_HEADER.split(",")
_SUFFIXES = (".json", ".jsonl", ".jsonl.gz")
BLOCKSIZE = 32 * 1024 * 1024


def score_bag(games: db.Bag, *, catalog: Catalog | None = None, detail: bool = False) -> db.Bag:
    """The report of each game of the bag (bytes, str or mappings), in order; an unreadable
    one is `{"valid": false, "errors": [...]}`. One native call per partition. Messages in
    the language of the caller (as the bag is built), whatever the workers' own."""
    chosen = catalog or BUILTIN
    lang = current()

    def partition(games: Iterable[Any]) -> list[dict[str, Any]]:
        items = list(games)
        with collector_paused(), speaking(lang):
            return reports(items, [None] * len(items), chosen, detail)

    return games.map_partitions(partition)


def score_entries_bag(
    entries: db.Bag,
    *,
    catalog: Catalog | None = None,
    detail: bool = False,
    lines: Lines | None = None,
) -> db.Bag:
    """The :class:`neweden.runners.results.Result` of each entry (as `neweden validate`
    makes them), in the language of the caller; `lines`: how the stdout lines are written
    (default: each entry's, plain)."""
    chosen = catalog or BUILTIN
    lang = current()
    short = lines if lines is not None else Lines()

    def partition(items: Iterable[Entry]) -> list[Result]:
        with speaking(lang):
            return score_entries(list(items), chosen, detail, short=short)

    return entries.map_partitions(partition)


# --- reading on the workers -------------------------------------------------------------------


def _outputs_of_the_run(fs: Any, path: str, exclude: Collection[str]) -> bool:
    """Whether a local file found by a walk is one of `exclude` (resolved paths)."""
    local = isinstance(fs, fsspec.implementations.local.LocalFileSystem)
    return bool(exclude) and local and os.path.realpath(path) in exclude


def _expand(
    paths: Sequence[str], exclude: Collection[str] = (), skipped: Skipped | None = None
) -> list[tuple[str, str, bool]]:
    """(url, shown path, exists) for every game file of the PATHs, in FORMAT §4's order;
    a walk leaves out the local files of `exclude` (resolved paths), telling `skipped`."""
    out = []
    for given in paths:
        fs, _token, (root,) = fsspec.get_fs_token_paths(given)
        if fs.isdir(root):
            found = [p for p in fs.find(root) if p.endswith(_SUFFIXES)]
            for rel in sorted(posixpath.relpath(p, root) for p in found):
                url = given.rstrip("/") + "/" + rel
                if _outputs_of_the_run(fs, posixpath.join(root, rel), exclude):
                    if skipped is not None:
                        skipped(url)
                    continue
                out.append((url, url, True))
        else:
            out.append((given, given, fs.exists(root)))
    return out


def _plan(url: str, blocksize: int) -> list[tuple[str, int, int, int]]:
    """The partitions of one file: (url, start byte, end byte, first line number). A plain
    `.jsonl` is split at `blocksize`, its line numbers found by counting newlines first."""
    if not url.endswith(".jsonl"):
        return [(url, 0, -1, 1)]
    fs, _token, (path,) = fsspec.get_fs_token_paths(url)
    size = fs.size(path)
    if size <= blocksize:
        return [(url, 0, -1, 1)]
    with fs.open(path, "rb") as handle:
        chunks = iter(lambda: handle.read(blocksize), b"")
        return [(url, start, end, line) for start, end, line in plan_blocks(chunks, size)]


def _read(url: str, shown: str, start: int, end: int, first_line: int) -> list[Entry]:
    """The entries of one partition. A block owns the lines that start inside it."""
    from neweden.runners.sources import (  # the same readers as the local command
        _file,
        _lines,
        read_block,
    )

    if end < 0:
        fs, _token, (path,) = fsspec.get_fs_token_paths(url)
        if isinstance(fs, fsspec.implementations.local.LocalFileSystem):
            return list(_file(path, shown))
        with fsspec.open(url, "rb", compression="infer") as handle:
            if url.endswith((".jsonl", ".jsonl.gz")):
                limit = MAX_BLANK_BYTES if url.endswith(".gz") else None
                return list(_lines(handle, shown, blank_limit=limit))
            return [Entry(shown, None, handle.read(MAX_LINE_BYTES + 4))]
    with fsspec.open(url, "rb") as handle:
        return read_block(handle, shown, start, end, first_line)


def entries_bag(
    paths: Sequence[str],
    *,
    blocksize: int = BLOCKSIZE,
    exclude: Collection[str] = (),
    skipped: Skipped | None = None,
) -> db.Bag:
    """A bag of the games of the PATHs, in order (FORMAT §4's sources), read on the
    workers: one partition a `.json` file or `.jsonl.gz`, `blocksize` bytes of a `.jsonl`.
    A folder walk leaves out the local files of `exclude` (resolved paths: the outputs of
    the run), telling `skipped`."""
    tasks = []
    for url, shown, exists in _expand(paths, exclude, skipped):
        if not exists:
            tasks.append((url, shown, -2, -2, 0))
            continue
        for part_url, start, end, line in _plan(url, blocksize):
            tasks.append((part_url, shown, start, end, line))

    lang = current()  # the caller's language, for the problems of reading

    def load(task: tuple[str, str, int, int, int]) -> list[Entry]:
        url, shown, start, end, line = task
        with speaking(lang):
            if start == -2:
                message = _("{path}: no such file or folder", path=shown)
                problem = Problem(code=codes.NOT_FOUND, message=message, path="")
                return [Entry(shown, None, None, problem)]
            return _read(url, shown, start, end, line)

    return db.from_sequence(tasks, npartitions=max(1, len(tasks))).map(load).flatten()


def to_dataframe(results: db.Bag) -> Any:
    """A Dask DataFrame of the per-player rows (the CSV columns of FORMAT §4: strings,
    booleans, nullable int64) from a bag of :class:`neweden.runners.results.Result`."""
    import pandas as pd

    meta = pd.DataFrame(
        {
            c: pd.Series(
                dtype="string"
                if c in STRING_COLUMNS
                else "boolean"
                if c in BOOLEAN_COLUMNS
                else "Int64"
            )
            for c in COLUMNS
        }
    )

    def frame(items: Iterable[Result]) -> Any:
        rows = [row for result in items for row in result.rows]
        df = pd.DataFrame(rows, columns=COLUMNS)
        return df.astype(meta.dtypes.to_dict())

    return _frames(results, frame, meta)


def _frames(results: db.Bag, frame: Any, meta: Any) -> Any:
    import dask.dataframe as dd
    from dask.delayed import delayed

    parts = [delayed(frame)(p) for p in results.to_delayed()]
    return dd.from_delayed(parts, meta=meta)


def iter_results(results: db.Bag, client: Any) -> Iterator[Result]:
    """The results of a bag from a cluster, partition by partition, in input order, at most
    a few partitions computed ahead."""
    parts = results.to_delayed()
    window = 8
    futures = client.compute(parts[:window])
    at = window
    while futures:
        done = futures.pop(0)
        yield from done.result()
        if at < len(parts):
            futures.append(client.compute(parts[at]))
            at += 1
