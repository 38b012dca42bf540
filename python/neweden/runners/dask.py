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
    """Score a bag of games: the report of each, in order, one native call a partition.

    Parameters
    ----------
    games : dask.bag.Bag
        The games: bytes, str or mappings.
    catalog : Catalog, optional
        The catalog the ids are looked up in (None: :data:`neweden.BUILTIN`).
    detail : bool, optional
        The detailed report, with its audit trail (as :func:`neweden.score`). Default is
        False: the lean report.

    Returns
    -------
    dask.bag.Bag
        The report of each game (as :func:`neweden.score` gives it), in order; an
        unreadable one is ``{"valid": False, "errors": [...]}``. Messages in the language
        of the caller (as the bag is built), whatever the workers' own.

    Examples
    --------
    >>> import dask.bag as db
    >>> import neweden.dask as nd
    >>> from importlib.resources import files
    >>> example = files("neweden").joinpath("data/final-scoring-example.json").read_bytes()
    >>> reports = nd.score_bag(db.from_sequence([example, b"{"], npartitions=1))
    >>> for report in reports.compute(scheduler="sync"):  # or on a cluster's client
    ...     print(report["valid"], [problem["code"] for problem in report["errors"]])
    True []
    False ['bad_json']
    """
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
    """Score a bag of entries as `neweden validate` does: the result of each, in order.

    Parameters
    ----------
    entries : dask.bag.Bag
        The entries, as :func:`entries_bag` reads them.
    catalog : Catalog, optional
        The catalog the ids are looked up in (None: :data:`neweden.BUILTIN`).
    detail : bool, optional
        The detailed report in each result's ``--out`` line (as :func:`neweden.score`).
        Default is False: the lean report.
    lines : Lines, optional
        How the standard-output lines are written (None: each entry's, plain).

    Returns
    -------
    dask.bag.Bag
        The :class:`neweden.runners.results.Result` of each entry (as `neweden validate`
        makes them), in the language of the caller: its ``--out`` line (``line``), its
        standard-output line (``short``), ``valid``, the error ``codes``, the CSV ``rows``.

    Examples
    --------
    >>> import json, tempfile
    >>> from pathlib import Path
    >>> import neweden.dask as nd
    >>> from importlib.resources import files
    >>> example = files("neweden").joinpath("data/final-scoring-example.json").read_text()
    >>> folder = tempfile.TemporaryDirectory()
    >>> games = Path(folder.name) / "games.jsonl"
    >>> _ = games.write_text(json.dumps(json.loads(example)) + "\\n{\\n")
    >>> results = nd.score_entries_bag(nd.entries_bag([str(games)]))
    >>> for result in results.compute(scheduler="sync"):
    ...     print(result.short)
    /.../games.jsonl:1: valid  Sarah 78 · Bruno 34 · Carla 43
    /.../games.jsonl:2: UNREADABLE bad_json at /
    >>> folder.cleanup()
    """
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
    """A bag of the games of the PATHs, in order (FORMAT §4's sources), read on the workers.

    Parameters
    ----------
    paths : sequence of str
        Game files (``.json``, ``.jsonl``, ``.jsonl.gz``) and folders walked for them, in
        the order of their paths: local paths the workers can see, or any fsspec URL.
    blocksize : int, optional
        The bytes of a ``.jsonl`` a partition reads, its line numbers exact (default: 32
        MiB); a ``.json`` file or a ``.jsonl.gz`` is one partition.
    exclude : collection of str, optional
        Local files a folder walk leaves out (resolved paths: the outputs of the run).
    skipped : callable, optional
        Told the URL of each file a walk leaves out.

    Returns
    -------
    dask.bag.Bag
        The entry of each game (``path``, ``line``: 1-based in a ``.jsonl``, ``data``,
        ``problem``), in order; a path that does not exist is one entry with a
        ``not_found`` problem.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import neweden.dask as nd
    >>> folder = tempfile.TemporaryDirectory()
    >>> _ = (Path(folder.name) / "games.jsonl").write_text('{"mode": "military"}\\n{\\n')
    >>> entries = nd.entries_bag([folder.name, str(Path(folder.name) / "missing.json")])
    >>> for entry in entries.compute(scheduler="sync"):
    ...     print(Path(entry.path).name, entry.line, entry.data, entry.problem is None)
    games.jsonl 1 b'{"mode": "military"}' True
    games.jsonl 2 b'{' True
    missing.json None None False
    >>> folder.cleanup()
    """
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
    """A Dask DataFrame of the per-player rows of a bag of results.

    Parameters
    ----------
    results : dask.bag.Bag
        :class:`neweden.runners.results.Result` objects, as :func:`score_entries_bag`
        gives them.

    Returns
    -------
    dask.dataframe.DataFrame
        The per-player rows, in the CSV columns of FORMAT §4 (:data:`COLUMNS`): strings,
        booleans, nullable int64. An entry that is not a readable game is one row without
        a player.

    Examples
    --------
    >>> import json, tempfile
    >>> from pathlib import Path
    >>> import neweden.dask as nd
    >>> from importlib.resources import files
    >>> example = files("neweden").joinpath("data/final-scoring-example.json").read_text()
    >>> folder = tempfile.TemporaryDirectory()
    >>> games = Path(folder.name) / "games.jsonl"
    >>> _ = games.write_text(json.dumps(json.loads(example)) + "\\n{\\n")
    >>> frame = nd.to_dataframe(nd.score_entries_bag(nd.entries_bag([str(games)])))
    >>> rows = frame.compute(scheduler="sync")
    >>> rows["player"].tolist(), rows["total"].tolist(), str(rows["total"].dtype)
    (['Sarah', 'Bruno', 'Carla', <NA>], [78, 34, 43, <NA>], 'Int64')
    >>> rows["error_codes"].tolist()
    ['', '', '', 'bad_json']
    >>> folder.cleanup()
    """
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
    """The results of a bag from a cluster, in input order.

    Partition by partition, at most a few partitions computed ahead.

    Parameters
    ----------
    results : dask.bag.Bag
        :class:`neweden.runners.results.Result` objects, as :func:`score_entries_bag`
        gives them.
    client : distributed.Client
        The client of the cluster that computes them.

    Returns
    -------
    iterator of Result
        The results, in input order, each partition's as it is done.

    Examples
    --------
    >>> import json, tempfile
    >>> from pathlib import Path
    >>> from distributed import Client
    >>> import neweden.dask as nd
    >>> from importlib.resources import files
    >>> example = files("neweden").joinpath("data/final-scoring-example.json").read_text()
    >>> folder = tempfile.TemporaryDirectory()
    >>> games = Path(folder.name) / "games.jsonl"
    >>> _ = games.write_text(json.dumps(json.loads(example)) + "\\n{\\n")
    >>> results = nd.score_entries_bag(nd.entries_bag([str(games)]))
    >>> with Client(processes=False, n_workers=1, dashboard_address=":0") as client:
    ...     for result in nd.iter_results(results, client):
    ...         print(result.valid, result.codes)
    True ()
    False ('bad_json',)
    >>> folder.cleanup()
    """
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
