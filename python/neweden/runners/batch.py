"""Many games at once: `neweden validate` and `neweden.score_many` (FORMAT §4, §6).

Games stream in (:mod:`neweden.runners.sources`), go to worker processes in chunks, and come back in
input order (:mod:`neweden.runners.workers`); within a chunk the cities of every game are analysed
in one native call (:func:`neweden.scoring.report.score_games`). At most a few chunks per worker
are in flight, so memory stays flat whatever the input size. A bad entry never stops a run: it gets
its result like any other. A run's files are :mod:`neweden.runners.run_outputs`, its last line
:mod:`neweden.runners.summary`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from neweden.catalog.catalog import BUILTIN, Catalog
from neweden.catalog.files import CatalogError, load_catalog
from neweden.format.decode import GameInput
from neweden.i18n import _, current, number, speaking
from neweden.present.colour import wants_colour
from neweden.runners.outputs import Interrupts, WriteError
from neweden.runners.results import CSV_HEADER, Lines
from neweden.runners.run_outputs import (
    MAX_INLINE_PICTURES,
    OutputPaths,
    RunOutputs,
    open_outputs,
    output_among_inputs,
)
from neweden.runners.sources import iter_entries, iter_sources
from neweden.runners.summary import summary_line, warnings_said
from neweden.runners.workers import (
    BLOCK_BYTES,
    JOBS_PER_CORE,
    MAX_JOBS,
    Chunk,
    Settings,
    WorkerLost,
    cores,
    in_chunks,
    most_jobs,
    ordered,
    tasks,
    work_entries,
    work_inputs,
)

__all__ = ["CSV_HEADER", "WorkerLost", "missing_paths", "score_many", "validate"]

#: How long --scheduler tries to reach the scheduler (Dask retries until then).
CONNECT_SECONDS = 30


def score_many(
    games: Iterable[GameInput],
    *,
    jobs: int | None = None,
    catalog: Catalog | None = None,
    detail: bool = False,
    lang: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Score many games, in worker processes: the report of each, in input order (FORMAT §6).

    The games go to the workers in chunks, a few chunks a worker in flight at most, so
    memory stays flat whatever the number of games; a bad entry never stops the run.

    Parameters
    ----------
    games : iterable of bytes, bytearray, memoryview, str or mapping
        The games, read a chunk at a time as the run goes (a generator is not read whole
        first).
    jobs : int, optional
        The number of worker processes (None: one a core; at most four a core); 1 scores
        in this process.
    catalog : Catalog, optional
        The catalog the ids are looked up in (None: :data:`neweden.BUILTIN`).
    detail : bool, optional
        The detailed report, with its audit trail (as :func:`neweden.score`). Default is
        False: the lean report.
    lang : str, optional
        The language of the messages (as :func:`neweden.score`).

    Returns
    -------
    iterator of dict
        The report of each game (as :func:`neweden.score` gives it), in input order; an
        unreadable entry (or one that is not bytes, str or a mapping) yields
        ``{"valid": False, "errors": [...]}``.

    Raises
    ------
    neweden.i18n.UnknownLanguage
        (a ValueError) For a language neweden does not speak, when the iteration starts.

    Examples
    --------
    >>> import neweden
    >>> from importlib.resources import files
    >>> example = files("neweden").joinpath("data/final-scoring-example.json").read_bytes()
    >>> for report in neweden.score_many([example, b'{"mode": "military"'], jobs=1):
    ...     print(report["valid"], [p["score"]["total"] for p in report.get("players", [])])
    ...     print([problem["code"] for problem in report.get("errors", [])])
    True [78, 34, 43]
    []
    False []
    ['bad_json']
    """
    with speaking(lang) as chosen:  # checked now, used by each chunk's worker
        settings = Settings(catalog or BUILTIN, detail, lang=chosen)
    yield from ordered(in_chunks(games), work_inputs, min(jobs or cores(), most_jobs()), settings)


# --- neweden validate ----------------------------------------------------------------------------


def _workers(jobs: int | None, stderr: IO[str]) -> int | None:
    """How many worker processes to start: `jobs` (default: one a core), capped at
    JOBS_PER_CORE a core with a note; None (a refusal written) beyond MAX_JOBS."""
    most = most_jobs()
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
    wanted = jobs or cores()
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


def _connect(scheduler: str, pictured: bool, stderr: IO[str]) -> Any:
    """A Dask client for --scheduler, or None with the reason written."""
    if pictured:
        stderr.write(_("neweden: --svg and --html are not available with --scheduler") + "\n")
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
        said = summary_line(self.games, self.valid, self.codes, seconds, self.interrupted)
        return said + warnings_said(self.warned)


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
    csv_bom: bool = False,
    csv_header: str = "ids",
    html: str | None = None,
) -> int:
    """`neweden validate`: exit 0 when every entry is valid, 1 otherwise (or when a PATH is
    not found: it is said on standard error, not counted), 2 for bad arguments (an output
    that is also an input, --jobs beyond MAX_JOBS), nothing to check (no game found), a
    catalog that does not load or an output that cannot be written, 130 on Ctrl-C."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    missing = missing_paths(paths, stderr)
    paths = [path for path in paths if path not in missing]
    catalog = _catalog(catalog_path, stderr)
    if catalog is None:
        return 2
    files = OutputPaths(
        out, csv_path, parquet_dir, svg_dir, csv_sep, csv_bom, csv_header, html=html
    )
    workers = _workers(jobs, stderr)
    clash = output_among_inputs(paths, files.named())
    if workers is None or clash is not None:
        stderr.write(clash or "")
        return 2
    pictured = svg_dir is not None or html is not None
    client = _connect(scheduler, pictured, stderr) if scheduler is not None else None
    if scheduler is not None and client is None:
        return 2
    settings = Settings(
        catalog,
        detail,
        reference=reference_core,
        svg=pictured,
        listed=files.listed,
        pictures=MAX_INLINE_PICTURES if svg_dir is None else None,
        short=not quiet,
        only_invalid=only_invalid,
        colour=wants_colour(stdout),
        lang=current(),
    )
    return _run(_Plan(paths, settings, workers, client, files, stdout, stderr, len(missing)))


def _catalog(catalog_path: str | None, stderr: IO[str]) -> Catalog | None:
    """The catalog of a run: --catalog's, else the built-in one; None, with every problem
    written, when it does not load."""
    try:
        return load_catalog(catalog_path) if catalog_path else BUILTIN
    except CatalogError as err:
        stderr.write(_("neweden: the catalog {source} does not load:", source=err.source) + "\n")
        stderr.writelines(p.line() + "\n" for p in err.problems)
        return None


@dataclass(frozen=True)
class _Plan:
    """A run whose arguments are checked: what it reads, how, and where it writes."""

    paths: Sequence[str]
    settings: Settings  # the rows and the spool are the outputs' to say
    workers: int
    client: Any  # a Dask client for --scheduler, or None
    files: OutputPaths
    stdout: IO[str]
    stderr: IO[str]
    missing: int  # PATHs not found (said on standard error, not counted)


def _run(plan: _Plan) -> int:
    """The run itself: its outputs opened, every chunk of results written to them, the
    summary said; the exit status."""
    with Interrupts() as interrupts:  # Ctrl-C held until the run starts: see _write_results
        outputs = open_outputs(plan.files, plan.stderr)
        if outputs is None:
            if plan.client is not None:
                plan.client.close()
            return 2
        spool = _spool(plan.workers, plan.client, outputs)
        try:  # (the spool is removed however the run ends)
            table = outputs.table
            settings = dataclasses.replace(
                plan.settings,
                rows=table is not None and table.wanted,
                parquet=table is not None and table.parquet is not None,
                csv=table is not None and table.csv is not None,
                lines=outputs.out is not None,
                spool=spool,
            )
            started = time.perf_counter()
            run = _write_results(
                _results(plan, settings, outputs),
                outputs,
                plan.stdout if settings.short else None,
                plan.stderr,
                interrupts,
            )
        finally:
            if spool is not None:  # (the workers have stopped: nothing more comes in)
                shutil.rmtree(spool, ignore_errors=True)
        if plan.client is not None:
            plan.client.close()
        run.missing = plan.missing
        return _finish(run, outputs, plan.stdout, plan.stderr, time.perf_counter() - started)


def _spool(workers: int, client: Any, outputs: RunOutputs) -> str | None:
    """A new folder where worker processes put each chunk's --out lines (workers.py's
    `_spooled`), when there are workers and --out is a regular file on Linux (where the
    kernel copies a file to a file); None otherwise, or when no folder can be made."""
    out = outputs.out
    if workers <= 1 or client is not None or out is None or out.temp is None:
        return None
    if not sys.platform.startswith("linux"):
        return None
    try:
        return tempfile.mkdtemp(prefix="neweden-spool-")
    except OSError:
        return None


def missing_paths(paths: Sequence[str], stderr: IO[str]) -> set[str]:
    """The PATHs where there is nothing (a typo), each said on standard error: they are no
    game, and not counted as one."""
    found = {path for path in paths if not os.path.lexists(path)}
    for path in dict.fromkeys(p for p in paths if p in found):
        shown = path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        stderr.write(_("neweden: {path}: no such file or folder", path=shown) + "\n")
    return found


def _results(plan: _Plan, settings: Settings, outputs: RunOutputs) -> Iterator[Chunk]:
    """The chunks of results of the run, in input order (`settings`: the plan's, with the
    rows and the spool its outputs ask for)."""
    paths, workers, client = plan.paths, plan.workers, plan.client

    def skipped(shown: str) -> None:
        plan.stderr.write(
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
    return ordered(tasks(sources), work_entries, workers, settings)


def _write_results(
    chunks: Iterator[Chunk],
    outputs: RunOutputs,
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
    for line in chunk.listed:
        if line.verdict == "unreadable":
            stderr.write(
                _(
                    "neweden: no picture of {source}: it is not a readable game ({problem})",
                    source=line.source,
                    problem=line.problem,
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


def _finish(
    run: _Run, outputs: RunOutputs, stdout: IO[str], stderr: IO[str], seconds: float
) -> int:
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
