"""Many games at once: `neweden validate` and `neweden.score_many` (FORMAT §4, §6).

Games stream in (:mod:`neweden.sources`), go to worker processes in chunks, and come back in
input order; within a chunk the cities of every game are analysed in one native call
(:func:`neweden.report.score_games`). At most a few chunks per worker are in flight, so
memory stays flat whatever the input size. A bad entry never stops a run: it gets its
result like any other.
"""

from __future__ import annotations

import csv
import itertools
import os
import signal
import sys
import time
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import IO, Any, NamedTuple

import msgspec

from ._gc import collector_paused
from .catalog import BUILTIN, Catalog
from .catalog_file import CatalogError, load_catalog
from .decode import GameInput, decode_game
from .model import Game
from .problems import GameDecodeError
from .report import reference_geometry, score_games
from .sources import Block, Entry, iter_entries, iter_sources

__all__ = ["CSV_HEADER", "score_many", "validate"]

CHUNK = 64
#: The bytes of a .jsonl block that a worker reads itself (about CHUNK games of 4 KB).
BLOCK_BYTES = 256 * 1024
IN_FLIGHT_PER_JOB = 3
CSV_HEADER = (
    "source_path,source_line,game_valid,player,legal,cards,open_connections,stars,"
    "requirements_met,requirements,labs,shelters,medical,towers,bases,military,epiphanies,"
    "ten_cards,bonuses,total,place,error_codes"
)
_COLUMNS = CSV_HEADER.split(",")
_STRINGS = {"source_path", "player", "requirements_met", "error_codes"}
_BOOLEANS = {"game_valid", "legal"}

_encode = msgspec.json.Encoder().encode


# --- scoring a chunk (in a worker or in this process) -----------------------------------------


def _reports(
    games: Sequence[GameInput | None],
    errors: Sequence[Any],
    catalog: Catalog,
    detail: bool,
    reference: bool = False,
) -> list[dict[str, Any]]:
    """The report of each input; an unreadable one is `{"valid": false, "errors": [...]}`."""
    out: list[dict[str, Any] | None] = [None] * len(games)
    decoded: list[tuple[int, Game]] = []
    for i, (game, error) in enumerate(zip(games, errors, strict=True)):
        if error is not None:
            out[i] = {"valid": False, "errors": [error]}
            continue
        try:
            decoded.append((i, decode_game(game)))  # type: ignore[arg-type]
        except GameDecodeError as err:
            out[i] = {"valid": False, "errors": [p.to_dict() for p in err.problems]}
        except TypeError as err:  # not bytes, str or a mapping
            out[i] = {
                "valid": False,
                "errors": [{"code": "bad_type", "message": str(err), "path": "", "cells": []}],
            }
    geometry = reference_geometry if reference else None
    scored = score_games([g for _, g in decoded], catalog=catalog, detail=detail, geometry=geometry)
    for (i, _), report in zip(decoded, scored, strict=True):
        out[i] = report
    return [r for r in out if r is not None]


class Result(NamedTuple):
    """What the parent needs of one game: the --out line, the stdout line, the summary's
    figures and the table rows. (A named tuple: one is made for every game.)"""

    line: bytes
    short: str
    valid: bool
    codes: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    readable: bool = True  # a game (false: the entry could not be read as one)
    svg: str | None = None  # the picture of an invalid readable game, when asked
    svg_name: str = ""


def _first_error(report: dict[str, Any]) -> dict[str, Any] | None:
    for problem in report.get("errors", []):
        return problem  # type: ignore[no-any-return]
    for player in report.get("players", []):
        for problem in player["errors"]:
            return problem  # type: ignore[no-any-return]
    return None


def _result(entry: Entry, report: dict[str, Any], *, short: bool, rows: bool) -> Result:
    """The Result of an entry; the stdout line and the table rows only when asked (`short`,
    `rows`: not with --quiet, only with --csv or --parquet)."""
    out = {"source": entry.source(), **report}
    valid = bool(report["valid"])
    players = report.get("players", [])
    codes = (
        ()
        if valid
        else tuple(e["code"] for e in report.get("errors", []))
        + tuple(e["code"] for p in players for e in p["errors"])
    )
    return Result(
        _encode(out),
        _short(entry, report) if short else "",
        valid,
        codes,
        _rows(entry, report) if rows else (),
        bool(players),
    )


def _short(entry: Entry, report: dict[str, Any]) -> str:
    """The stdout line of an entry: its source, valid or the first error, the totals."""
    players = report.get("players", [])
    totals = " · ".join(f"{p['name']} {p['score']['total']}" for p in players)
    if report["valid"]:
        return f"{entry.label()}: valid  {totals}"
    first = _first_error(report)
    what = f"{first['code']} at {first['path'] or '/'}" if first else "invalid"
    kind = "INVALID" if players else "UNREADABLE"
    return f"{entry.label()}: {kind} {what}" + (f"  {totals}" if totals else "")


def _rows(entry: Entry, report: dict[str, Any]) -> tuple[tuple[Any, ...], ...]:
    """FORMAT §4's table: one row per player (null → empty; lists joined with `;`)."""
    top = [e["code"] for e in report.get("errors", [])]
    players = report.get("players", [])
    if not players:
        return ((entry.path, entry.line, False) + (None,) * 18 + (";".join(top),),)
    rows = []
    for p in players:
        s, m = p["score"], p["score"]["military"]
        met = p["requirements_met"]
        rows.append(
            (
                entry.path,
                entry.line,
                report["valid"],
                p["name"],
                p["legal"],
                p["cards"],
                p["open_connections"],
                p["stars"],
                None if met is None else ";".join(met),
                s["requirements"],
                *(
                    (m["labs"], m["shelters"], m["medical"], m["towers"], m["bases"], m["total"])
                    if m is not None
                    else (None,) * 6
                ),
                s["epiphanies"],
                s["ten_cards"],
                s["bonuses"],
                s["total"],
                p["place"],
                ";".join([e["code"] for e in p["errors"]] + top),
            )
        )
    return tuple(rows)


def _score_entries(
    entries: Sequence[Entry],
    catalog: Catalog,
    detail: bool,
    *,
    short: bool = True,
    rows: bool = True,
    svg: bool = False,
    reference: bool = False,
) -> list[Result]:
    """The Result of each entry (`short` and `rows`: see :func:`_result`; `svg`: with the
    picture of each invalid readable game; `reference`: the pure-Python core)."""
    with collector_paused():
        games = [e.data for e in entries]
        errors = [e.problem.to_dict() if e.problem else None for e in entries]
        reports = _reports(games, errors, catalog, detail, reference)
        results = [
            _result(e, r, short=short, rows=rows) for e, r in zip(entries, reports, strict=True)
        ]
    if svg:
        results = [_with_picture(e, r, catalog) for e, r in zip(entries, results, strict=True)]
    return results


def svg_name(entry: Entry) -> str:
    """A file name for the picture of an entry: its source, made safe."""
    stem = entry.label().replace("\\", "/").strip("/").replace("/", "__").replace(":", "_L")
    return "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in stem) + ".svg"


def _with_picture(entry: Entry, result: Result, catalog: Catalog) -> Result:
    if result.valid or entry.data is None or not result.readable:
        return result  # valid, or not a readable game: nothing to draw
    from .render import render

    picture = render(entry.data, catalog=catalog)
    return result._replace(svg=picture, svg_name=svg_name(entry))


@dataclass(slots=True)
class Chunk:
    """The results of a run of entries, as the parent uses them: what goes to --out and to
    stdout already joined (each line whole), the summary's figures, the table rows and
    the pictures. One object a chunk: cheap to send back from a worker process."""

    count: int
    valid: int
    lines: bytes
    shorts: str
    codes: list[str]
    rows: list[tuple[Any, ...]]
    pictures: list[tuple[str, str]]  # (file name, SVG)

    @classmethod
    def of(cls, results: Sequence[Result]) -> Chunk:
        return cls(
            len(results),
            sum(r.valid for r in results),
            b"".join([r.line + b"\n" for r in results]),
            "".join([r.short + "\n" for r in results if r.short]),
            [code for r in results for code in r.codes],
            [row for r in results for row in r.rows],
            [(r.svg_name, r.svg) for r in results if r.svg is not None],
        )


def _entries_of(packed: tuple[str, list[int | None], list[bytes | None], list[Any]]) -> list[Entry]:
    path, lines, datas, problems = packed
    return [Entry(path, n, d, p) for n, d, p in zip(lines, datas, problems, strict=True)]


def _packed_entries(
    entries: Sequence[Entry],
) -> list[tuple[str, list[int | None], list[bytes | None], list[Any]]]:
    """Entries as a few lists per source path (a chunk pickles much faster so)."""
    out: list[tuple[str, list[int | None], list[bytes | None], list[Any]]] = []
    for e in entries:
        if not out or out[-1][0] != e.path:
            out.append((e.path, [], [], []))
        out[-1][1].append(e.line)
        out[-1][2].append(e.data)
        out[-1][3].append(e.problem)
    return out


# --- worker processes -------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


@dataclass(frozen=True)
class _Settings:
    """What every worker needs to know of the run."""

    catalog: Catalog
    detail: bool
    reference: bool = False  # the pure-Python core: a baseline for benchmarks
    svg: bool = False  # a picture of each invalid readable game
    short: bool = True  # the stdout line of each entry (not with --quiet)
    rows: bool = True  # the table rows (only with --csv or --parquet)


def _init_worker(settings: _Settings) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    _init_worker_local(settings)


PackedEntries = list[tuple[str, list[int | None], list[bytes | None], list[Any]]]
#: A worker's task: entries read here, or a block of a .jsonl file to read there.
Task = PackedEntries | Block


def _tasks(sources: Iterable[Entry | Block]) -> Iterator[Task]:
    """Each block on its own, the entries between blocks in chunks of CHUNK, in order."""
    for is_block, run in itertools.groupby(sources, key=lambda item: isinstance(item, Block)):
        if is_block:
            yield from run  # type: ignore[misc]
        else:
            yield from (_packed_entries(chunk) for chunk in _chunks(run))


def _work_entries(task: Task) -> list[Chunk]:
    if isinstance(task, Block):
        entries = task.entries()
    else:
        entries = [e for part in task for e in _entries_of(part)]
    settings: _Settings = _WORKER["settings"]
    results = _score_entries(
        entries,
        settings.catalog,
        settings.detail,
        short=settings.short,
        rows=settings.rows,
        svg=settings.svg,
        reference=settings.reference,
    )
    return [Chunk.of(results)]


def _work_inputs(games: Sequence[GameInput]) -> list[dict[str, Any]]:
    with collector_paused():
        settings: _Settings = _WORKER["settings"]
        return _reports(
            games, [None] * len(games), settings.catalog, settings.detail, settings.reference
        )


def _chunks(items: Iterable[Any], size: int = CHUNK) -> Iterator[list[Any]]:
    chunk: list[Any] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _ordered(chunks: Iterator[Any], work: Any, jobs: int, settings: _Settings) -> Iterator[Any]:
    """Each chunk's results, in input order, from `jobs` processes with a bounded window."""
    if jobs <= 1:
        _init_worker_local(settings)
        for chunk in chunks:
            yield from work(chunk)
        return
    with ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=(settings,)) as pool:
        window: deque[Future[list[Any]]] = deque()
        try:
            for chunk in chunks:
                window.append(pool.submit(work, chunk))
                if len(window) >= jobs * IN_FLIGHT_PER_JOB:
                    yield from window.popleft().result()
            while window:
                yield from window.popleft().result()
        finally:
            for future in window:
                future.cancel()


def _init_worker_local(settings: _Settings) -> None:
    _WORKER["settings"] = settings


def score_many(
    games: Iterable[GameInput],
    *,
    jobs: int | None = None,
    catalog: Catalog | None = None,
    detail: bool = False,
) -> Iterator[dict[str, Any]]:
    """The report of each game, in input order (FORMAT §6); an unreadable entry yields
    `{"valid": false, "errors": [...]}`. `jobs` worker processes (default: every core; 1
    scores in this process)."""
    yield from _ordered(
        _chunks(games),
        _work_inputs,
        jobs or os.cpu_count() or 1,
        _Settings(catalog or BUILTIN, detail),
    )


# --- neweden validate ----------------------------------------------------------------------------


class _Table:
    """The --csv and --parquet outputs, written as rows arrive."""

    def __init__(self, csv_path: str | None, parquet_dir: str | None) -> None:
        self.csv_handle: IO[str] | None = None
        self.writer: Any = None
        self.parquet: Any = None
        self.buffer: list[tuple[Any, ...]] = []
        self.wanted = bool(csv_path or parquet_dir)
        if csv_path:
            self.csv_handle = open(csv_path, "w", encoding="utf-8", newline="")  # noqa: SIM115
            self.writer = csv.writer(self.csv_handle, lineterminator="\n")
            self.csv_handle.write(CSV_HEADER + "\n")
        if parquet_dir:
            import pyarrow as pa
            import pyarrow.parquet as pq

            os.makedirs(parquet_dir, exist_ok=True)
            self.schema = pa.schema(
                [
                    (
                        c,
                        pa.string()
                        if c in _STRINGS
                        else pa.bool_()
                        if c in _BOOLEANS
                        else pa.int64(),
                    )
                    for c in _COLUMNS
                ]
            )
            self.pa = pa
            self.parquet = pq.ParquetWriter(
                os.path.join(parquet_dir, "part-00000.parquet"), self.schema
            )

    @staticmethod
    def _cell(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    def add(self, rows: Iterable[tuple[Any, ...]]) -> None:
        for row in rows:
            if self.writer is not None:
                self.writer.writerow([self._cell(v) for v in row])
            if self.parquet is not None:
                self.buffer.append(row)
        if self.parquet is not None and len(self.buffer) >= 10_000:
            self.flush()

    def flush(self) -> None:
        if self.parquet is not None and self.buffer:
            columns = list(zip(*self.buffer, strict=True))
            self.parquet.write_table(
                self.pa.table(
                    [
                        self.pa.array(col, type=self.schema.field(i).type)
                        for i, col in enumerate(columns)
                    ],
                    schema=self.schema,
                )
            )
            self.buffer.clear()

    def close(self) -> None:
        self.flush()
        if self.parquet is not None:
            self.parquet.close()
        if self.csv_handle is not None:
            self.csv_handle.close()


def _summary(games: int, valid: int, codes: Counter[str], seconds: float, interrupted: bool) -> str:
    rate = games / seconds if seconds > 0 else 0.0
    common = ", ".join(f"{code} {n}" for code, n in codes.most_common(5)) or "none"
    head = "interrupted after " if interrupted else ""
    return (
        f"{head}{games} games: {valid} valid, {games - valid} invalid, in {seconds:.1f} s "
        f"({rate:,.0f} games/s); most frequent errors: {common}"
    )


def validate(
    paths: Sequence[str],
    *,
    out: str | None = None,
    csv_path: str | None = None,
    parquet_dir: str | None = None,
    jobs: int | None = None,
    catalog_path: str | None = None,
    detail: bool = False,
    quiet: bool = False,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
    reference_core: bool = False,
    svg_dir: str | None = None,
    scheduler: str | None = None,
) -> int:
    """`neweden validate`: exit 0 when every entry is valid, 1 otherwise, 2 for a catalog
    that does not load or an output that cannot be written, 130 on Ctrl-C."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        catalog = load_catalog(catalog_path) if catalog_path else BUILTIN
    except CatalogError as err:
        stderr.write(f"neweden: the catalog {err.source} does not load:\n")
        stderr.writelines(p.line() + "\n" for p in err.problems)
        return 2
    client = None
    if scheduler is not None:
        if svg_dir is not None:
            stderr.write("neweden: --svg is not available with --scheduler\n")
            return 2
        try:
            from distributed import Client

            from .dask import entries_bag, iter_results, score_entries_bag
        except ImportError:
            stderr.write("neweden: --scheduler needs Dask: pip install 'neweden[dask]'\n")
            return 2
        try:
            client = Client(scheduler, timeout=30)  # type: ignore[no-untyped-call]
        except OSError as exc:
            stderr.write(f"neweden: cannot reach the scheduler {scheduler}: {exc}\n")
            return 2
    try:
        if svg_dir is not None:
            os.makedirs(svg_dir, exist_ok=True)
        out_handle = open(out, "wb") if out else None  # noqa: SIM115
        table = _Table(csv_path, parquet_dir)
    except ImportError:
        stderr.write("neweden: --parquet needs pyarrow: pip install 'neweden[parquet]'\n")
        return 2
    except OSError as exc:
        stderr.write(f"neweden: cannot write {exc.filename}: {exc.strerror}\n")
        return 2

    progress = None
    if not quiet and stderr.isatty():
        from tqdm import tqdm

        progress = tqdm(unit=" games", file=stderr, dynamic_ncols=True)
    started = time.perf_counter()
    games = valid = 0
    codes: Counter[str] = Counter()
    interrupted = False
    try:
        if client is not None:  # on the cluster: read, score and return in order
            bag = score_entries_bag(entries_bag(paths), catalog=catalog, detail=detail)
            results: Iterable[Result] = iter_results(bag, client)
        else:
            settings = _Settings(
                catalog,
                detail,
                reference=reference_core,
                svg=svg_dir is not None,
                short=not quiet,
                rows=table.wanted,
            )
            workers = jobs or os.cpu_count() or 1
            # With worker processes, big .jsonl files are read by the workers, block by
            # block: this process only plans the blocks and writes the results.
            sources = iter_sources(paths, BLOCK_BYTES) if workers > 1 else iter_entries(paths)
            chunks: Iterable[Chunk] = _ordered(_tasks(sources), _work_entries, workers, settings)
        if client is not None:
            chunks = (Chunk.of([result]) for result in results)
        for chunk in chunks:
            games += chunk.count
            valid += chunk.valid
            codes.update(chunk.codes)
            if out_handle is not None:
                out_handle.write(chunk.lines)
            table.add(chunk.rows)
            if not quiet:
                stdout.write(chunk.shorts)
            for name, picture in chunk.pictures:
                with open(os.path.join(svg_dir or ".", name), "w", encoding="utf-8") as pic:
                    pic.write(picture)
            if progress is not None:
                progress.update(chunk.count)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if client is not None:
            client.close()  # type: ignore[no-untyped-call]
        if progress is not None:
            progress.close()
        if out_handle is not None:
            out_handle.close()
        table.close()
    stdout.write(_summary(games, valid, codes, time.perf_counter() - started, interrupted) + "\n")
    stdout.flush()
    if interrupted:
        return 130
    return 0 if valid == games else 1
