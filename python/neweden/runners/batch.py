"""Many games at once: `neweden validate` and `neweden.score_many` (FORMAT §4, §6).

Games stream in (:mod:`neweden.runners.sources`), go to worker processes in chunks, and come back in
input order; within a chunk the cities of every game are analysed in one native call
(:func:`neweden.scoring.report.score_games`). At most a few chunks per worker are in flight, so
memory stays flat whatever the input size. A bad entry never stops a run: it gets its
result like any other.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import itertools
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import IO, Any

from neweden._gc import collector_paused
from neweden._malloc import mallopt
from neweden.catalog.catalog import BUILTIN, Catalog
from neweden.catalog.files import CatalogError, load_catalog
from neweden.format.decode import GameInput
from neweden.i18n import DEFAULT_LANGUAGE, _, current, ngettext, number, speaking
from neweden.present.colour import wants_colour
from neweden.present.index import picture_index
from neweden.runners.outputs import Interrupts, OutputFile, Table, WriteError, write_whole
from neweden.runners.results import (
    BOOLEAN_COLUMNS,
    CSV_HEADER,
    STRING_COLUMNS,
    Lines,
    Picture,
    Result,
    picture_of,
    reports,
    score_entries,
)
from neweden.runners.sources import Block, Entry, Identity, identity, iter_entries, iter_sources

__all__ = ["CSV_HEADER", "WorkerLost", "score_many", "validate"]

#: The entries a worker scores at once when the parent reads them (one job, standard input,
#: many small files; score_many): enough for their players to be scored together
#: (scoring/chunk.py) with its fixed cost spread thin (validate on the issue-19 mix at one
#: job: 1.36-1.37 s against 1.50 s for 20,000 games in chunks of 64).
CHUNK = 256
#: The bytes of a .jsonl block that a worker reads itself: about 340 games of the issue-19
#: mix, enough for their players to be scored together (scoring/chunk.py's CHUNK_FROM) with
#: a chunk's fixed cost spread thin: validate of its 20,000 games with 2 jobs, four runs
#: each in turn, 535-556 ms against 567-588 ms with blocks of 512 KiB and 551-605 ms with
#: 2 MiB (session 28: 512 KiB against 256 KiB, 802-822 against 858-870 ms).
BLOCK_BYTES = 1024 * 1024
IN_FLIGHT_PER_JOB = 3
#: How long --scheduler tries to reach the scheduler (Dask retries until then).
CONNECT_SECONDS = 30
#: Worker processes: more than this many a core are capped; more than MAX_JOBS refused.
JOBS_PER_CORE = 4
MAX_JOBS = 1024
_COLUMNS = CSV_HEADER.split(",")


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
    pictures: list[tuple[str, str]]  # (file name, SVG)
    metas: list[dict[str, Any] | None] = field(default_factory=list)  # one a row
    shown: list[Picture] = field(default_factory=list)  # what --svg's index lists
    #: where the worker put `lines` instead (a file of the run's spool) and their size
    spooled: tuple[str, int] | None = None

    @classmethod
    def of(cls, results: Sequence[Result]) -> Chunk:
        # (each list made of the results that add to it: a chunk holds hundreds of games,
        # most of them valid, none with rows or a picture unless asked)
        invalid = [r for r in results if not r.valid]
        tabled = [r for r in results if r.rows]
        return cls(
            len(results),
            len(results) - len(invalid),
            b"\n".join([*[r.line for r in results], b""]),  # each line ended, none copied twice
            "".join([r.short + "\n" for r in results if r.short]),
            [code for r in invalid for code in r.codes],
            [code for r in results if r.warnings for code in r.warnings],
            [row for r in tabled for row in r.rows],
            [(r.svg_name, r.svg) for r in invalid if r.svg is not None],
            [r.meta for r in tabled for _row in r.rows],
            [p for r in invalid if r.label and (p := picture_of(r)) is not None],
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
    only_invalid: bool = False  # only the lines of invalid and unreadable entries
    colour: bool = False  # the verdicts in colour (standard output is a terminal)
    rows: bool = True  # the table rows (only with --csv or --parquet)
    lang: str = DEFAULT_LANGUAGE  # of the messages (the caller's, when the run starts)
    spool: str | None = None  # a folder for each chunk's --out lines (see _spooled)


def _init_worker(settings: _Settings, parent: int) -> None:
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
    with speaking(settings.lang):
        results = score_entries(
            entries,
            settings.catalog,
            settings.detail,
            short=Lines(settings.short, settings.only_invalid, settings.colour),
            rows=settings.rows,
            svg=settings.svg,
            reference=settings.reference,
        )
    chunk = Chunk.of(results)
    return [_spooled(chunk, settings.spool) if settings.spool and chunk.lines else chunk]


#: The number of a worker's next spooled chunk (with its pid: a file name of the spool).
_SPOOLED = itertools.count()


def _spooled(chunk: Chunk, spool: str) -> Chunk:
    """The chunk with its --out lines in a file of the run's spool, which the parent copies
    to --out with the kernel (OutputFile.append): about 1.4 KB a game that is otherwise
    pickled, sent down a pipe, read, unpickled and written again (validate of the issue-19
    mix with 2 jobs: 2 to 3 µs a game of CPU, parent and workers). The chunk as it is when
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


def _work_inputs(games: Sequence[GameInput]) -> list[dict[str, Any]]:
    settings: _Settings = _WORKER["settings"]
    with collector_paused(), speaking(settings.lang):
        return reports(
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


def _ordered(chunks: Iterator[Any], work: Any, jobs: int, settings: _Settings) -> Iterator[Any]:
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


def _init_worker_local(settings: _Settings) -> None:
    _WORKER["settings"] = settings


def score_many(
    games: Iterable[GameInput],
    *,
    jobs: int | None = None,
    catalog: Catalog | None = None,
    detail: bool = False,
    lang: str | None = None,
) -> Iterator[dict[str, Any]]:
    """The report of each game, in input order (FORMAT §6); an unreadable entry yields
    `{"valid": false, "errors": [...]}`. `jobs` worker processes (default: every core; 1
    scores in this process). Messages in `lang` (as :func:`neweden.score`)."""
    with speaking(lang) as chosen:  # checked now, used by each chunk's worker
        settings = _Settings(catalog or BUILTIN, detail, lang=chosen)
    yield from _ordered(_chunks(games), _work_inputs, min(jobs or _cores(), _most_jobs()), settings)


def _cores() -> int:
    return os.cpu_count() or 1


def _most_jobs() -> int:
    """The most worker processes a run starts: JOBS_PER_CORE a core."""
    return JOBS_PER_CORE * _cores()


# --- neweden validate ----------------------------------------------------------------------------


def _count(n: int) -> str:
    """A count of the summary as the language writes it for people (`1.234` in Portuguese);
    English keeps the plain digits it has always printed (`1500 games`)."""
    return str(n) if current() == DEFAULT_LANGUAGE else number(n)


def _figures(games: int, valid: int, seconds: float) -> dict[str, str]:
    """The numbers of the summary, each as the language writes it (English: as it always
    has, `2.0 s`, `1,234 games/s`)."""
    rate = games / seconds if seconds > 0 else 0.0
    counts = {"games": _count(games), "valid": _count(valid), "invalid": _count(games - valid)}
    lang = current()
    if lang == DEFAULT_LANGUAGE:
        return counts | {"seconds": f"{seconds:.1f}", "rate": f"{rate:,.0f}"}
    from babel.numbers import format_decimal

    tenths = format_decimal(seconds, "#,##0.0", locale=lang.replace("-", "_"))
    return counts | {"seconds": str(tenths), "rate": number(round(rate))}


def _warnings_said(warned: Counter[str]) -> str:
    """The summary's end: the most frequent warnings (nothing when there is none)."""
    if not warned:
        return ""
    common = ", ".join(f"{code} {_count(n)}" for code, n in warned.most_common(5))
    return _("; most frequent warnings: {common}", common=common)


def _summary(games: int, valid: int, codes: Counter[str], seconds: float, interrupted: bool) -> str:
    """The last line of `neweden validate`, in the current language (codes as they are)."""
    common = ", ".join(f"{code} {_count(n)}" for code, n in codes.most_common(5))
    figures = _figures(games, valid, seconds) | {"common": common or _("none")}
    if interrupted:
        return ngettext(
            "interrupted after {games} games: {valid} valid, {invalid} invalid, in {seconds} s "
            "({rate} games/s); most frequent errors: {common}",
            "interrupted after {games} games: {valid} valid, {invalid} invalid, in {seconds} s "
            "({rate} games/s); most frequent errors: {common}",
            games,
            **figures,
        )
    return ngettext(
        "{games} games: {valid} valid, {invalid} invalid, in {seconds} s ({rate} games/s); "
        "most frequent errors: {common}",
        "{games} games: {valid} valid, {invalid} invalid, in {seconds} s ({rate} games/s); "
        "most frequent errors: {common}",
        games,
        **figures,
    )


class _Outputs:
    """The files of a run: --out, --csv and --parquet (written to temporary files renamed
    into place at the end) and --svg pictures (each written whole)."""

    def __init__(
        self,
        out: str | None,
        csv_path: str | None,
        parquet_dir: str | None,
        svg_dir: str | None,
        csv_sep: str = ",",
    ) -> None:
        self.out: OutputFile | None = None
        self.table: Table | None = None
        self.svg_dir = svg_dir
        self.shown: list[Picture] = []  # the index of --svg
        try:
            if svg_dir is not None:
                try:
                    os.makedirs(svg_dir, exist_ok=True)
                except OSError as exc:
                    raise WriteError(svg_dir, exc) from None
            self.out = OutputFile(out) if out else None
            self.table = Table(CSV_HEADER, csv_path, parquet_dir, _KINDS, sep=csv_sep)
        except BaseException:
            self.discard()
            raise

    @property
    def files(self) -> list[OutputFile]:
        return ([self.out] if self.out else []) + (self.table.outputs() if self.table else [])

    def identities(self) -> set[Identity]:
        """Every output file's identity (and that of the file it replaces): never read."""
        return {i for output in self.files for i in output.identities()}

    def write(self, chunk: Chunk) -> None:
        if self.out is not None:
            if chunk.spooled is not None:
                self.out.append(*chunk.spooled)
            else:
                self.out.write(chunk.lines)
        if self.table is not None:
            self.table.add(chunk.rows, chunk.metas)
        for name, picture in chunk.pictures:
            write_whole(os.path.join(self.svg_dir or ".", name), picture.encode())
        self.shown.extend(chunk.shown)

    def commit(self) -> None:
        """Every output renamed into place; if one fails, the rest are discarded."""
        try:
            if self.out is not None:
                self.out.commit()
            if self.table is not None:
                self.table.commit()
            if self.svg_dir is not None:
                index = picture_index(self.shown)
                write_whole(os.path.join(self.svg_dir, "index.html"), index.encode())
        except WriteError:
            self.discard()
            raise

    def discard(self) -> None:
        if self.out is not None:
            self.out.discard()
        if self.table is not None:
            self.table.discard()


_KINDS = {c: "string" for c in STRING_COLUMNS} | {c: "bool" for c in BOOLEAN_COLUMNS}


def _workers(jobs: int | None, stderr: IO[str]) -> int | None:
    """How many worker processes to start: `jobs` (default: one a core), capped at
    JOBS_PER_CORE a core with a note; None (a refusal written) beyond MAX_JOBS."""
    most = _most_jobs()
    if jobs is not None and jobs > MAX_JOBS:
        stderr.write(
            _(
                "neweden: --jobs is at most {most_jobs} (and more than {per_core} a core are "
                "never started: {here} here)",
                most_jobs=number(MAX_JOBS),
                per_core=JOBS_PER_CORE,
                here=most,
            )
            + "\n"
        )
        return None
    wanted = jobs or _cores()
    if wanted > most:
        stderr.write(
            _(
                "neweden: --jobs {wanted} is more than {per_core} a core; {most} used",
                wanted=wanted,
                per_core=JOBS_PER_CORE,
                most=most,
            )
            + "\n"
        )
        return most
    return wanted


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one file: by identity (symlinks and hard links followed)
    when both exist, by resolved path otherwise."""
    first, second = identity(a), identity(b)
    if first is not None and second is not None:
        return first == second
    return os.path.realpath(a) == os.path.realpath(b)


def _output_among_inputs(paths: Sequence[str], outputs: dict[str, str | None]) -> str | None:
    """The refusal when an input PATH is also an output of the run, or two outputs are one
    file, else None."""
    named = [(option, output) for option, output in outputs.items() if output is not None]
    for at, (option, output) in enumerate(named):
        for path in paths:
            if _same_file(path, output):
                return (
                    _(
                        "neweden: {path} is both an input and the {option} output",
                        path=path,
                        option=option,
                    )
                    + "\n"
                )
        for other, second in named[at + 1 :]:
            if _same_file(output, second):
                return (
                    _(
                        "neweden: {option} and {other} name the same file, {output}",
                        option=option,
                        other=other,
                        output=output,
                    )
                    + "\n"
                )
    return None


def _connect(scheduler: str, svg_dir: str | None, stderr: IO[str]) -> Any:
    """A Dask client for --scheduler, or None with the reason written."""
    if svg_dir is not None:
        stderr.write(_("neweden: --svg is not available with --scheduler") + "\n")
        return None
    try:
        from distributed import Client
    except ImportError:
        stderr.write(_("neweden: --scheduler needs Dask: pip install 'neweden[dask]'") + "\n")
        return None
    try:
        return Client(scheduler, timeout=CONNECT_SECONDS)  # type: ignore[no-untyped-call]
    except OSError as exc:
        stderr.write(
            _(
                "neweden: cannot reach the scheduler {scheduler}: {reason}",
                scheduler=scheduler,
                reason=exc,
            )
            + "\n"
        )
        return None


def _open_outputs(
    out: str | None,
    csv_path: str | None,
    parquet_dir: str | None,
    svg_dir: str | None,
    stderr: IO[str],
    csv_sep: str = ",",
) -> _Outputs | None:
    try:
        return _Outputs(out, csv_path, parquet_dir, svg_dir, csv_sep)
    except ImportError:
        stderr.write(_("neweden: --parquet needs pyarrow: pip install 'neweden[parquet]'") + "\n")
    except WriteError as err:
        stderr.write(f"neweden: {err}\n")
    return None


@dataclass
class _Run:
    """What a run has written so far, and how it ended."""

    games: int = 0
    valid: int = 0
    codes: Counter[str] = field(default_factory=Counter)
    warned: Counter[str] = field(default_factory=Counter)  # warning codes
    interrupted: bool = False
    failure: WriteError | WorkerLost | None = None
    missing: int = 0  # PATHs not found (said on standard error, not counted)

    def summary(self, seconds: float) -> str:
        said = _summary(self.games, self.valid, self.codes, seconds, self.interrupted)
        return said + _warnings_said(self.warned)


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
    only_invalid: bool = False,
    csv_sep: str = ",",
) -> int:
    """`neweden validate`: exit 0 when every entry is valid, 1 otherwise (or when a PATH is
    not found: it is said on standard error, not counted), 2 for bad arguments (an output
    that is also an input, --jobs beyond MAX_JOBS), nothing to check (no game found), a
    catalog that does not load or an output that cannot be written, 130 on Ctrl-C."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    missing = _missing(paths, stderr)
    paths = [path for path in paths if path not in missing]
    try:
        catalog = load_catalog(catalog_path) if catalog_path else BUILTIN
    except CatalogError as err:
        stderr.write(_("neweden: the catalog {source} does not load:", source=err.source) + "\n")
        stderr.writelines(p.line() + "\n" for p in err.problems)
        return 2
    workers = _workers(jobs, stderr)
    parquet_file = os.path.join(parquet_dir, "part-00000.parquet") if parquet_dir else None
    clash = _output_among_inputs(
        paths, {"--out": out, "--csv": csv_path, "--parquet": parquet_file}
    )
    if workers is None or clash is not None:
        stderr.write(clash or "")
        return 2
    client = _connect(scheduler, svg_dir, stderr) if scheduler is not None else None
    if scheduler is not None and client is None:
        return 2
    with Interrupts() as interrupts:  # Ctrl-C held until the run starts: see _write_results
        outputs = _open_outputs(out, csv_path, parquet_dir, svg_dir, stderr, csv_sep)
        if outputs is None:
            if client is not None:
                client.close()
            return 2
        spool = _spool(workers, client, outputs)
        try:  # (the spool is removed however the run ends)
            settings = _Settings(
                catalog,
                detail,
                reference=reference_core,
                svg=svg_dir is not None,
                short=not quiet,
                only_invalid=only_invalid,
                colour=wants_colour(stdout),
                rows=outputs.table is not None and outputs.table.wanted,
                lang=current(),
                spool=spool,
            )
            started = time.perf_counter()
            run = _write_results(
                _results(paths, settings, workers, client, outputs, stderr),
                outputs,
                None if quiet else stdout,
                stderr,
                interrupts,
            )
        finally:
            if spool is not None:  # (the workers have stopped: nothing more comes in)
                shutil.rmtree(spool, ignore_errors=True)
        if client is not None:
            client.close()
        run.missing = len(missing)
        return _finish(run, outputs, stdout, stderr, time.perf_counter() - started)


def _spool(workers: int, client: Any, outputs: _Outputs) -> str | None:
    """A new folder where worker processes put each chunk's --out lines (:func:`_spooled`),
    when there are workers and --out is a regular file on Linux (where the kernel copies a
    file to a file); None otherwise, or when no folder can be made."""
    out = outputs.out
    if workers <= 1 or client is not None or out is None or out.temp is None:
        return None
    if not sys.platform.startswith("linux"):
        return None
    try:
        return tempfile.mkdtemp(prefix="neweden-spool-")
    except OSError:
        return None


def _missing(paths: Sequence[str], stderr: IO[str]) -> set[str]:
    """The PATHs where there is nothing (a typo), each said on standard error: they are no
    game, and not counted as one."""
    found = {path for path in paths if not os.path.lexists(path)}
    for path in dict.fromkeys(p for p in paths if p in found):
        shown = path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        stderr.write(_("neweden: {path}: no such file or folder", path=shown) + "\n")
    return found


def _results(
    paths: Sequence[str],
    settings: _Settings,
    workers: int,
    client: Any,
    outputs: _Outputs,
    stderr: IO[str],
) -> Iterator[Chunk]:
    """The chunks of results of the run, in input order."""

    def skipped(shown: str) -> None:
        stderr.write(
            _("neweden: {path} is left out: it is an output of this run", path=shown) + "\n"
        )

    if client is not None:  # on the cluster: read, score and return in order
        from neweden.runners.dask import entries_bag, iter_results, score_entries_bag

        targets = {output.target for output in outputs.files}
        entries = entries_bag(paths, exclude=targets, skipped=skipped)
        lines = Lines(settings.short, settings.only_invalid, settings.colour)
        bag = score_entries_bag(
            entries, catalog=settings.catalog, detail=settings.detail, lines=lines
        )
        return (Chunk.of([result]) for result in iter_results(bag, client))

    exclude = outputs.identities()
    # With worker processes, big .jsonl files are read by the workers, block by block:
    # this process only plans the blocks and writes the results.
    sources = (
        iter_sources(paths, BLOCK_BYTES, exclude, skipped)
        if workers > 1
        else iter_entries(paths, exclude, skipped)
    )
    return _ordered(_tasks(sources), _work_entries, workers, settings)


def _write_results(
    chunks: Iterator[Chunk],
    outputs: _Outputs,
    stdout: IO[str] | None,
    stderr: IO[str],
    interrupts: Interrupts,
) -> _Run:
    """Every chunk to every output. Ctrl-C is held back while a chunk is written, so the
    outputs and the summary agree game by game, and ignored once the run is ending; a
    failed write ends the run."""
    progress = None
    if stdout is not None and stderr.isatty():
        from tqdm import tqdm

        bar = getattr(stderr, "unfiltered", stderr)  # (its own controls: see _visible)
        progress = tqdm(unit=" " + _("games"), file=bar, dynamic_ncols=True, leave=False)
    run = _Run()
    try:
        interrupts.release()  # a Ctrl-C since the outputs were opened counts from here
        for chunk in chunks:
            with interrupts.whole():
                outputs.write(chunk)
                if stdout is not None and chunk.shorts:
                    if progress is not None:  # the lines above the bar, not through it
                        progress.clear()
                    _print(stdout, chunk.shorts, flush=progress is not None)
                _no_pictures(chunk, stderr)
                run.games += chunk.count
                run.valid += chunk.valid
                run.codes.update(chunk.codes)
                run.warned.update(chunk.warned)
            if progress is not None:
                progress.update(chunk.count)
    except KeyboardInterrupt:
        run.interrupted = True
    except (WriteError, WorkerLost) as err:
        run.failure = err
    except BaseException:  # a bug: no half output is left
        outputs.discard()
        raise
    finally:
        interrupts.ignore()  # from here on the run is ending: a second Ctrl-C changes nothing
        _close(chunks)  # the worker processes stop here
        if progress is not None:
            progress.close()
    return run


def _no_pictures(chunk: Chunk, stderr: IO[str]) -> None:
    """With --svg, a line on standard error for each invalid entry of which no picture
    was made (not a readable game), and why."""
    for picture in chunk.shown:
        if not picture.file:
            stderr.write(
                _(
                    "neweden: no picture of {source}: it is not a readable game ({problem})",
                    source=picture.source,
                    problem=picture.problem,
                )
                + "\n"
            )


def _print(stdout: IO[str], text: str, *, flush: bool = False) -> None:
    """`text` to standard output; a failure (a full disk, a closed pipe) is a WriteError,
    and standard output is pointed at the null device so that nothing more fails there."""
    try:
        stdout.write(text)
        if flush:
            stdout.flush()
    except OSError as exc:
        if stdout is sys.stdout:
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
        raise WriteError(_("standard output"), exc) from None


def _close(chunks: Iterator[Chunk]) -> None:
    close = getattr(chunks, "close", None)
    if close is not None:
        close()


def _finish(run: _Run, outputs: _Outputs, stdout: IO[str], stderr: IO[str], seconds: float) -> int:
    """Commit or discard the outputs, print the summary, and the exit status."""
    if run.failure is None:
        try:
            outputs.commit()
        except WriteError as err:
            run.failure = err
    if run.failure is not None:
        outputs.discard()
        said = (
            _(
                "neweden: {failure}; the run is incomplete and its outputs are not kept (each "
                "output file keeps what it held before)",
                failure=run.failure,
            )
            if isinstance(run.failure, WorkerLost)
            else _("neweden: {failure}; the outputs of this run are not kept", failure=run.failure)
        )
        stderr.write(said + "\n")
        return 2
    if run.games == 0 and not run.interrupted:
        stderr.write(
            _(
                "neweden: nothing to check: no game found (a folder is searched for *.json, "
                "*.jsonl and *.jsonl.gz files; a .jsonl file holds one game a line)"
            )
            + "\n"
        )
        return 2
    try:
        _print(stdout, run.summary(seconds) + "\n", flush=True)
    except WriteError as err:
        stderr.write(f"neweden: {err}\n")
        return 2
    if run.interrupted:
        return 130
    return 0 if run.valid == run.games and not run.missing else 1
