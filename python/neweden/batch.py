"""Many games at once: `neweden validate` and `neweden.score_many` (FORMAT §4, §6).

Games stream in (:mod:`neweden.sources`), go to worker processes in chunks, and come back in
input order; within a chunk the cities of every game are analysed in one native call
(:func:`neweden.report.score_games`). At most a few chunks per worker are in flight, so
memory stays flat whatever the input size. A bad entry never stops a run: it gets its
result like any other.
"""

from __future__ import annotations

import csv
import os
import signal
import sys
import time
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import IO, Any

import msgspec

from ._gc import collector_paused
from .catalog import BUILTIN, Catalog
from .catalog_file import CatalogError, load_catalog
from .decode import GameInput, decode_game
from .model import Game
from .problems import GameDecodeError
from .report import reference_geometry, score_games
from .sources import Entry, iter_entries

__all__ = ["CSV_HEADER", "score_many", "validate"]

CHUNK = 64
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
    games: Sequence[GameInput | None], errors: Sequence[Any], catalog: Catalog, detail: bool
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
    geometry = reference_geometry if _WORKER.get("reference") else None
    scored = score_games([g for _, g in decoded], catalog=catalog, detail=detail, geometry=geometry)
    for (i, _), report in zip(decoded, scored, strict=True):
        out[i] = report
    return [r for r in out if r is not None]


@dataclass(frozen=True, slots=True)
class Result:
    """What the parent needs of one game: the --out line, the stdout line, the summary's
    figures and the table rows."""

    line: bytes
    short: str
    valid: bool
    codes: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    svg: str | None = None  # the picture of an invalid readable game, when asked
    svg_name: str = ""


def _first_error(report: dict[str, Any]) -> dict[str, Any] | None:
    for problem in report.get("errors", []):
        return problem  # type: ignore[no-any-return]
    for player in report.get("players", []):
        for problem in player["errors"]:
            return problem  # type: ignore[no-any-return]
    return None


def _result(entry: Entry, report: dict[str, Any]) -> Result:
    out = {"source": entry.source(), **report}
    players = report.get("players", [])
    codes = tuple(e["code"] for e in report.get("errors", [])) + tuple(
        e["code"] for p in players for e in p["errors"]
    )
    totals = " · ".join(f"{p['name']} {p['score']['total']}" for p in players)
    if report["valid"]:
        short = f"{entry.label()}: valid  {totals}"
    else:
        first = _first_error(report)
        what = f"{first['code']} at {first['path'] or '/'}" if first else "invalid"
        kind = "INVALID" if players else "UNREADABLE"
        short = f"{entry.label()}: {kind} {what}" + (f"  {totals}" if totals else "")
    return Result(_encode(out), short, bool(report["valid"]), codes, _rows(entry, report))


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


def _score_entries(entries: Sequence[Entry], catalog: Catalog, detail: bool) -> list[Result]:
    with collector_paused():
        return _score_entries_now(entries, catalog, detail)


def _score_entries_now(entries: Sequence[Entry], catalog: Catalog, detail: bool) -> list[Result]:
    games = [e.data for e in entries]
    errors = [e.problem.to_dict() if e.problem else None for e in entries]
    results = [
        _result(e, r)
        for e, r in zip(entries, _reports(games, errors, catalog, detail), strict=True)
    ]
    if _WORKER.get("svg"):
        results = [_with_picture(e, r, catalog) for e, r in zip(entries, results, strict=True)]
    return results


def svg_name(entry: Entry) -> str:
    """A file name for the picture of an entry: its source, made safe."""
    stem = entry.label().replace("\\", "/").strip("/").replace("/", "__").replace(":", "_L")
    return "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in stem) + ".svg"


def _with_picture(entry: Entry, result: Result, catalog: Catalog) -> Result:
    if result.valid or entry.data is None or result.rows[0][3] is None:
        return result  # valid, or not a readable game: nothing to draw
    from .render import render

    picture = render(entry.data, catalog=catalog)
    return Result(
        result.line, result.short, result.valid, result.codes, result.rows, picture, svg_name(entry)
    )


# --- worker processes -------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(
    catalog: Catalog, detail: bool, reference: bool = False, svg: bool = False
) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    _init_worker_local(catalog, detail, reference, svg)


def _work_entries(entries: Sequence[Entry]) -> list[Result]:
    return _score_entries(entries, _WORKER["catalog"], _WORKER["detail"])


def _work_inputs(games: Sequence[GameInput]) -> list[dict[str, Any]]:
    with collector_paused():
        return _reports(games, [None] * len(games), _WORKER["catalog"], _WORKER["detail"])


def _chunks(items: Iterable[Any], size: int = CHUNK) -> Iterator[list[Any]]:
    chunk: list[Any] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _ordered(
    chunks: Iterator[list[Any]],
    work: Any,
    jobs: int,
    catalog: Catalog,
    detail: bool,
    reference: bool = False,
    svg: bool = False,
) -> Iterator[Any]:
    """Each chunk's results, in input order, from `jobs` processes with a bounded window."""
    if jobs <= 1:
        _init_worker_local(catalog, detail, reference, svg)
        for chunk in chunks:
            yield from work(chunk)
        return
    with ProcessPoolExecutor(
        jobs, initializer=_init_worker, initargs=(catalog, detail, reference, svg)
    ) as pool:
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


def _init_worker_local(
    catalog: Catalog, detail: bool, reference: bool = False, svg: bool = False
) -> None:
    _WORKER["catalog"] = catalog
    _WORKER["detail"] = detail
    _WORKER["svg"] = svg
    _WORKER["reference"] = reference  # the pure-Python core: a baseline for benchmarks


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
        _chunks(games), _work_inputs, jobs or os.cpu_count() or 1, catalog or BUILTIN, detail
    )


# --- neweden validate ----------------------------------------------------------------------------


class _Table:
    """The --csv and --parquet outputs, written as rows arrive."""

    def __init__(self, csv_path: str | None, parquet_dir: str | None) -> None:
        self.csv_handle: IO[str] | None = None
        self.writer: Any = None
        self.parquet: Any = None
        self.buffer: list[tuple[Any, ...]] = []
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
            results = _ordered(
                _chunks(iter_entries(paths)),
                _work_entries,
                jobs or os.cpu_count() or 1,
                catalog,
                detail,
                reference_core,
                svg_dir is not None,
            )
        for result in results:
            games += 1
            valid += result.valid
            codes.update(result.codes)
            if out_handle is not None:
                out_handle.write(result.line + b"\n")
            table.add(result.rows)
            if not quiet:
                stdout.write(result.short + "\n")
            if svg_dir is not None and not result.valid and result.svg is not None:
                with open(os.path.join(svg_dir, result.svg_name), "w", encoding="utf-8") as pic:
                    pic.write(result.svg)
            if progress is not None:
                progress.update()
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
