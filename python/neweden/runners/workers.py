"""The worker processes of a batch: games go to them in chunks and their results come back
in input order, at most a few chunks per worker in flight, so memory stays flat whatever the
input size. Within a chunk the cities of every game are analysed in one native call
(:func:`neweden.scoring.report.score_games`). A worker ends with the process that started it.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import itertools
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from neweden._gc import collector_paused
from neweden._malloc import mallopt
from neweden.catalog.catalog import Catalog
from neweden.format.decode import GameInput
from neweden.i18n import DEFAULT_LANGUAGE, _, number, speaking
from neweden.runners.outputs import arrow_batch, parquet_schema
from neweden.runners.results import (
    CSV_HEADER,
    TABLE_KINDS,
    Asked,
    GameLine,
    Lines,
    Result,
    reports,
    score_chunk,
)
from neweden.runners.sources import Block, Entry

__all__ = [
    "BLOCK_BYTES",
    "CHUNK",
    "JOBS_PER_CORE",
    "MAX_JOBS",
    "Chunk",
    "Settings",
    "WorkerLost",
    "cores",
    "in_chunks",
    "most_jobs",
    "ordered",
    "tasks",
    "work_entries",
    "work_inputs",
]

#: The entries a worker scores at once when the parent reads them (one job, standard input,
#: many small files; score_many): enough for their players to be scored together
#: (scoring/chunk.py) with its fixed cost spread thin (the sizes measured:
#: docs/benchmarks.md).
CHUNK = 256
#: The bytes of a .jsonl block that a worker reads itself: a few hundred games, enough for
#: their players to be scored together (scoring/chunk.py's CHUNK_FROM) with a chunk's
#: fixed cost spread thin (the sizes measured: docs/benchmarks.md).
BLOCK_BYTES = 1024 * 1024
IN_FLIGHT_PER_JOB = 3
#: Worker processes: more than this many a core are capped; more than MAX_JOBS refused.
JOBS_PER_CORE = 4
MAX_JOBS = 1024


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
    warned: list[str]  # the warning codes, every game's
    rows: list[tuple[Any, ...]]
    pictures: list[tuple[str, bytes]]  # (file name, the SVG in UTF-8)
    metas: list[dict[str, Any] | None] = field(default_factory=list)  # one a row
    listed: list[GameLine] = field(default_factory=list)  # what --html's page shows
    #: where the worker put `lines` instead (a file of the run's spool) and their size
    spooled: tuple[str, int] | None = None
    #: with --parquet, the rows as an Arrow batch, made by the worker (outputs.arrow_batch)
    batch: Any = None

    @classmethod
    def of(cls, results: Sequence[Result], lines: bytes | None = None) -> Chunk:
        """The chunk of `results`; `lines`: their --out lines already joined (each Result's
        then b""), else each Result's."""
        # (each list made of the results that add to it: a chunk holds hundreds of games,
        # most of them valid, none with rows or a picture unless asked)
        invalid = [r for r in results if not r.valid]
        tabled = [r for r in results if r.rows]
        return cls(
            len(results),
            len(results) - len(invalid),
            b"\n".join([*[r.line for r in results], b""]) if lines is None else lines,
            "".join([r.short + "\n" for r in results if r.short]),
            [code for r in invalid for code in r.codes],
            [code for r in results if r.warnings for code in r.warnings],
            [row for r in tabled for row in r.rows],
            [(r.svg_name, r.svg.encode()) for r in invalid if r.svg is not None],
            [r.meta for r in tabled for _row in r.rows],
            listed=[r.listed for r in results if r.listed is not None],
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


_WORKER: dict[str, Any] = {}


@dataclass(frozen=True)
class Settings:
    """What every worker needs to know of the run."""

    catalog: Catalog
    detail: bool
    reference: bool = False  # the pure-Python core: a baseline for benchmarks
    svg: bool = False  # a picture of each invalid readable game
    short: bool = True  # the stdout line of each entry (not with --quiet)
    only_invalid: bool = False  # only the lines of invalid and unreadable entries
    colour: bool = False  # the verdicts in colour (standard output is a terminal)
    rows: bool = True  # the table rows (only with --csv or --parquet)
    #: with --parquet: each chunk's rows made an Arrow batch by its worker (the parent only
    #: writes them), and sent as rows too only for --csv
    parquet: bool = False
    csv: bool = True
    #: each chunk's --out lines (a run without --out makes and sends none)
    lines: bool = True
    lang: str = DEFAULT_LANGUAGE  # of the messages (the caller's, when the run starts)
    spool: str | None = None  # a folder for each chunk's --out lines (see _spooled)
    listed: bool = False  # what the summary page shows of each entry (--html, --svg)
    #: the most pictures a worker draws (None: every invalid game's): --html without --svg
    #: shows the first pictures only, and each worker drawing its first so many draws them
    pictures: int | None = None


def _init_worker(settings: Settings, parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    _die_with_parent(parent)
    _keep_freed_memory()
    _init_worker_local(settings)


def _keep_freed_memory() -> bool:
    """A worker's allocator keeps the memory it frees for the next task. glibc's malloc
    maps a block of 128 KiB or more afresh and gives it back when freed (its default
    thresholds), so every task of a worker took new pages, one page fault each, for the
    block it reads (BLOCK_BYTES), its lines and the results it sends: set higher, a worker
    reuses them. Whether it took: where the C library has no mallopt (not glibc), or
    another allocator serves malloc (a sanitizer's), nothing changes."""
    return mallopt(mmap_threshold=8 * BLOCK_BYTES, trim_threshold=32 * BLOCK_BYTES)


_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    """This worker ends when process `parent` does, even killed with SIGKILL: on Linux the
    kernel sends it SIGKILL (prctl PR_SET_PDEATHSIG); elsewhere a thread checks every
    second whether the parent is still there."""
    armed = False
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if not armed:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # the parent died before this was set up
        os._exit(1)


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


PackedEntries = list[tuple[str, list[int | None], list[bytes | None], list[Any]]]
#: A worker's task: entries read here, or a block of a .jsonl file to read there.
Task = PackedEntries | Block


def tasks(sources: Iterable[Entry | Block]) -> Iterator[Task]:
    """Each block on its own, the entries between blocks in chunks of CHUNK, in order."""
    for is_block, run in itertools.groupby(sources, key=lambda item: isinstance(item, Block)):
        if is_block:
            yield from run  # type: ignore[misc]
        else:
            yield from (_packed_entries(chunk) for chunk in in_chunks(run))


def work_entries(task: Task) -> list[Chunk]:
    if isinstance(task, Block):
        entries = task.entries()
    else:
        entries = [e for part in task for e in _entries_of(part)]
    settings: Settings = _WORKER["settings"]
    with speaking(settings.lang):
        asked = Asked(
            short=Lines(settings.short, settings.only_invalid, settings.colour),
            rows=settings.rows,
            svg=settings.svg,
            reference=settings.reference,
            listed=settings.listed,
            pictures=None if settings.pictures is None else settings.pictures - _WORKER["drawn"],
            lines=settings.lines,
        )
        results, lines = score_chunk(entries, settings.catalog, settings.detail, asked)
    _WORKER["drawn"] += sum(1 for r in results if r.svg is not None)
    chunk = Chunk.of(results, lines)
    if settings.parquet and chunk.rows:
        chunk.batch = arrow_batch(chunk.rows, _parquet_schema())
        if not settings.csv:
            chunk.rows, chunk.metas = [], []
    return [_spooled(chunk, settings.spool) if settings.spool and chunk.lines else chunk]


def _parquet_schema() -> Any:
    """The --parquet table's Arrow schema, made once a worker."""
    schema = _WORKER.get("schema")
    if schema is None:
        schema = _WORKER["schema"] = parquet_schema(CSV_HEADER.split(","), TABLE_KINDS)
    return schema


#: The number of a worker's next spooled chunk (with its pid: a file name of the spool).
_SPOOLED = itertools.count()


def _spooled(chunk: Chunk, spool: str) -> Chunk:
    """The chunk with its --out lines in a file of the run's spool, which the parent copies
    to --out with the kernel (OutputFile.append): about 1.4 KB a game that is otherwise
    pickled, sent down a pipe, read, unpickled and written again. The chunk as it is when
    the file cannot be written: nothing is lost, it goes the usual way."""
    path = os.path.join(spool, f"{os.getpid()}-{next(_SPOOLED)}")
    try:
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError:  # (a name taken is another's file: not this one's to remove)
        return chunk
    try:
        try:
            view = memoryview(chunk.lines)
            while view:
                view = view[os.write(handle, view) :]
        finally:
            os.close(handle)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(path)
        return chunk
    return dataclasses.replace(chunk, lines=b"", spooled=(path, len(chunk.lines)))


def work_inputs(games: Sequence[GameInput]) -> list[dict[str, Any]]:
    settings: Settings = _WORKER["settings"]
    with collector_paused(), speaking(settings.lang):
        return reports(
            games,
            [None] * len(games),
            settings.catalog,
            settings.detail,
            reference=settings.reference,
        )


def in_chunks(items: Iterable[Any], size: int = CHUNK) -> Iterator[list[Any]]:
    chunk: list[Any] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


class WorkerLost(BrokenProcessPool):
    """A worker process stopped abruptly (killed by a signal: the out-of-memory killer, say)
    while a chunk was being scored: the results from `source` on are missing."""

    def __init__(self, source: str) -> None:
        self.source = source
        super().__init__(
            _(
                "a worker process stopped abruptly (killed, perhaps because the system ran "
                "out of memory) while the games from {source} on were being checked",
                source=source,
            )
        )


def _first_source(task: Any, before: int) -> str:
    """Where a worker's task starts, as a result line names it (`path:line`, or `path`), or
    as the place of its first game among those given (`before` came first)."""
    if isinstance(task, Block):
        return f"{task.shown}:{task.first_line}"
    if task and isinstance(task[0], tuple):  # entries packed by path (_packed_entries)
        path, lines = task[0][0], task[0][1]
        return path if lines[0] is None else f"{path}:{lines[0]}"
    return _("game {n}", n=number(before + 1))


def ordered(chunks: Iterator[Any], work: Any, jobs: int, settings: Settings) -> Iterator[Any]:
    """Each chunk's results, in input order, from `jobs` processes with a bounded window. A
    worker lost raises :class:`WorkerLost`, naming where the first chunk not done starts."""
    if jobs <= 1:
        _init_worker_local(settings)
        for chunk in chunks:
            yield from work(chunk)
        return
    initargs = (settings, os.getpid())
    with ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=initargs) as pool:
        window: deque[tuple[Future[list[Any]], str]] = deque()
        before = 0  # the items of the chunks sent so far
        try:
            for chunk in chunks:
                source = _first_source(chunk, before)
                try:
                    future = pool.submit(work, chunk)
                except BrokenProcessPool:  # lost between two results: none of the window done
                    raise WorkerLost(window[0][1] if window else source) from None
                window.append((future, source))
                before += len(chunk) if isinstance(chunk, list) else 0
                if len(window) >= jobs * IN_FLIGHT_PER_JOB:
                    yield from _done(window.popleft())
            while window:
                yield from _done(window.popleft())
        finally:
            for future, _chunk in window:
                future.cancel()


def _done(sent: tuple[Future[list[Any]], str]) -> list[Any]:
    future, source = sent
    try:
        return future.result()
    except BrokenProcessPool:
        raise WorkerLost(source) from None


def _init_worker_local(settings: Settings) -> None:
    _WORKER["settings"] = settings
    _WORKER["drawn"] = 0  # the pictures this worker drew


def cores() -> int:
    return os.cpu_count() or 1


def most_jobs() -> int:
    """The most worker processes a run starts: JOBS_PER_CORE a core."""
    return JOBS_PER_CORE * cores()
