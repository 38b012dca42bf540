"""The files `neweden validate` writes (--out, --csv, --parquet, --svg), kept whole.

Every output goes to a hidden temporary file beside its target and is renamed over it at the
end (:class:`OutputFile`), so a run that fails or is killed never leaves half a file where a
good one was. A write that fails (a full disk) is a :class:`WriteError` naming the output.
:class:`Interrupts` holds Ctrl-C back while one chunk of results is being written, so the
outputs always agree game by game. CSV cells follow RFC 4180, and text cells that a
spreadsheet would run as a formula are neutralised (:func:`csv_line`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import signal
import stat
from collections.abc import Sequence
from types import FrameType, TracebackType
from typing import Any, BinaryIO

from neweden.i18n import LANGUAGES, N_, _, speaking
from neweden.runners.cells import csv_cell, csv_line, csv_text, meta_cell

__all__ = [
    "Interrupts",
    "OutputFile",
    "Table",
    "WriteError",
    "arrow_batch",
    "csv_cell",
    "csv_line",
    "parquet_schema",
    "write_whole",
]


class WriteError(Exception):
    """An output that cannot be written: its path and why."""

    def __init__(self, path: str, exc: OSError) -> None:
        self.path = path
        self.reason = exc.strerror or str(exc)
        super().__init__(_("cannot write {path}: {reason}", path=path, reason=self.reason))


#: What sendfile says where it cannot copy between these two files (OutputFile.append then
#: copies them itself).
_NO_SENDFILE = frozenset({errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.EXDEV})


def _in_place(path: str) -> bool:
    """True for a path that is there and is not a regular file (/dev/stdout, /dev/null, a
    FIFO, a folder): written as it is, with no temporary file beside it."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


#: How a temporary file is made: new, written only (binary where that means anything).
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def _temp_name(path: str) -> str:
    """A hidden name beside `path`, which no folder walk takes for a game file."""
    folder, name = os.path.split(path)
    return os.path.join(folder, f".{name}.{secrets.token_hex(4)}.part")


class OutputFile:
    """A file written whole or not at all: bytes go to a temporary file beside `path`,
    renamed over it by :meth:`commit`; :meth:`discard` removes it. A path that is not a
    regular file (/dev/stdout, /dev/full, a FIFO) is written in place."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.target = os.path.realpath(path)  # through a symlink, as a plain open would
        self.temp: str | None = None
        try:
            if _in_place(path):
                self.handle: BinaryIO = open(path, "wb")  # noqa: SIM115
            else:
                self.temp = _temp_name(self.target)
                self.handle = os.fdopen(os.open(self.temp, _NEW_FILE, 0o666), "wb")
        except OSError as exc:
            raise WriteError(path, exc) from None

    def identities(self) -> set[tuple[int, int]]:
        """The (device, inode) of what is written and of the file it replaces, if any."""
        st = os.fstat(self.handle.fileno())
        found = {(st.st_dev, st.st_ino)}
        try:
            old = os.stat(self.path)
            found.add((old.st_dev, old.st_ino))
        except (OSError, ValueError):
            pass
        return found

    def write(self, data: bytes) -> None:
        try:
            self.handle.write(data)
        except OSError as exc:
            raise WriteError(self.path, exc) from None

    def append(self, path: str, size: int) -> None:
        """The first `size` bytes of the file at `path` after what is written, copied by the
        kernel (a worker's lines spooled there: they never pass through this process), and
        that file removed. A file that cannot be read is a WriteError naming it."""
        try:
            source = os.open(path, os.O_RDONLY)
        except OSError as exc:
            raise WriteError(path, exc) from None
        try:
            self.handle.flush()  # what was written before goes first
            target, sent = self.handle.fileno(), 0
            while sent < size:
                try:
                    copied = os.sendfile(target, source, sent, size - sent)
                except OSError as exc:
                    if exc.errno not in _NO_SENDFILE:
                        raise
                    copied = self._copy(source, sent, size - sent)  # a file system without
                if copied == 0:  # shorter than its worker wrote: cut by someone else
                    raise WriteError(path, OSError(errno.EIO, os.strerror(errno.EIO)))
                sent += copied
        except OSError as exc:
            raise WriteError(self.path, exc) from None
        finally:
            os.close(source)
            with contextlib.suppress(OSError):
                os.unlink(path)

    def _copy(self, source: int, at: int, size: int) -> int:
        """Up to `size` bytes of `source` from `at` written the usual way; how many."""
        data = os.pread(source, min(size, 1 << 20), at)
        self.handle.write(data)
        self.handle.flush()
        return len(data)

    def commit(self) -> None:
        """Flush, close and rename into place; a failure discards the temporary file."""
        try:
            self.handle.close()
            if self.temp is not None:
                os.replace(self.temp, self.target)
                self.temp = None
        except OSError as exc:
            self.discard()
            raise WriteError(self.path, exc) from None

    def discard(self) -> None:
        """Close and remove the temporary file; the target stays as it was."""
        with contextlib.suppress(OSError):  # what could not be flushed is thrown away
            self.handle.close()
        if self.temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.temp)
            self.temp = None


def write_whole(path: str, data: bytes) -> None:
    """`data` as the file at `path`, whole or not at all: a picture of --svg, the --svg
    index. A path that is a plain file or not there yet takes the short way (a run writes
    thousands of pictures: :class:`OutputFile` looks up every part of the path and the target
    again for each, docs/benchmarks.md, session 53); any other (a link, a FIFO, a folder) is
    written as any output is."""
    if _written_beside(path, data):
        return
    output = OutputFile(path)
    try:
        output.write(data)
    except WriteError:
        output.discard()
        raise
    output.commit()


def _written_beside(path: str, data: bytes) -> bool:
    """`data` written to a temporary file beside `path` and renamed over it, as an
    :class:`OutputFile` does, when `path` is a plain file or not there (an `lstat` tells);
    False, nothing done, for any other path, or when the temporary name is taken."""
    try:
        plain = stat.S_ISREG(os.lstat(path).st_mode)
    except FileNotFoundError:
        plain = True
    except (OSError, ValueError):  # (OutputFile says why, as for any output)
        plain = False
    if not plain:
        return False
    temp = _temp_name(path)
    try:
        handle = os.open(temp, _NEW_FILE, 0o666)
    except FileExistsError:  # (another's file of the same name)
        return False
    except OSError as exc:
        raise WriteError(path, exc) from None
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(handle, view) :]
        finally:
            os.close(handle)
        os.replace(temp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise WriteError(path, exc) from None
    return True


# --- CSV ----------------------------------------------------------------------------------------

#: The CSV columns' names for people (`--csv-header en|pt-BR`): `validate`'s and
#: `standings`'; the identifiers stay the default header (and Parquet's names).
COLUMN_NAMES = {
    "source_path": N_("source file"),
    "source_line": N_("line of the source"),
    "game_valid": N_("valid game"),
    "player": N_("player"),
    "legal": N_("legal city"),
    "cards": N_("cards"),
    "open_connections": N_("open connections"),
    "stars": N_("stars of the player"),
    "requirements_met": N_("requirements met"),
    "requirements": N_("Populist points"),
    "labs": N_("laboratories"),
    "shelters": N_("shelters"),
    "medical": N_("medical centers"),
    "towers": N_("towers"),
    "bases": N_("military bases"),
    "military": N_("Military points"),
    "epiphanies": N_("epiphanies"),
    "ten_cards": N_("ten cards"),
    "bonuses": N_("bonuses"),
    "total": N_("total"),
    "place": N_("place"),
    "error_codes": N_("error codes"),
    "warning_codes": N_("warning codes"),
    "mode": N_("game mode"),
    "requirements_checked": N_("requirements checked"),
    "requirements_declared": N_("requirements declared"),
    "event": N_("event"),
    "name": N_("player"),
    "points": N_("tournament points"),
    "wins": N_("wins"),
    "games": N_("games"),
}
#: What --csv-header takes: the identifiers, or a language's names.
HEADERS = ("ids", *LANGUAGES)


def header_names(columns: Sequence[str], header: str) -> list[str]:
    """The CSV's header: the column identifiers (`ids`), or their names in the language
    `header` (a `meta.KEY` column keeps its name, the key being the game's)."""
    if header == "ids":
        return list(columns)
    with speaking(header):
        return [_(COLUMN_NAMES[c]) if c in COLUMN_NAMES else c for c in columns]


#: The rows of the Parquet file's row groups: the rows added are written once they are this
#: many (a group holds the whole chunks added until then).
PARQUET_ROWS = 10_000


def parquet_schema(columns: Sequence[str], kinds: dict[str, str]) -> Any:
    """The Arrow schema of the --parquet table: each column a string or a bool as `kinds`
    says, an int64 otherwise."""
    import pyarrow as pa

    types = {"string": pa.string(), "bool": pa.bool_()}
    return pa.schema([(c, types.get(kinds.get(c, ""), pa.int64())) for c in columns])


def arrow_batch(rows: Sequence[tuple[Any, ...]], schema: Any) -> Any:
    """`rows` (of the table's columns, in `schema`'s order) as an Arrow record batch: a
    worker makes its chunk's, so that the parent of a run only writes them."""
    import pyarrow as pa

    columns = list(zip(*rows, strict=True))
    arrays = [pa.array(col, type=schema.field(i).type) for i, col in enumerate(columns)]
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


class Table:
    """The --csv and --parquet outputs, written as rows arrive, renamed into place at the
    end (:meth:`commit`)."""

    def __init__(
        self,
        header: str,
        csv_path: str | None,
        parquet_dir: str | None,
        kinds: dict[str, str] | None = None,
        sep: str = ",",
        bom: bool = False,
        names: str = "ids",
    ) -> None:
        self.columns = header.split(",")
        self.names = names  # the header: "ids", or a language (--csv-header)
        self.kinds = kinds or {}  # column → "string" or "bool" for Parquet; int64 otherwise
        self.csv: OutputFile | None = None
        self.parquet: OutputFile | None = None
        self.writer: Any = None
        #: the Parquet rows not written yet: Arrow batches (:func:`arrow_batch`), then the
        #: rows given as tuples since the last batch, and how many rows they are in all
        self.batches: list[Any] = []
        self.pending: list[tuple[Any, ...]] = []
        self.buffered = 0
        self.wanted = bool(csv_path or parquet_dir)
        self.sep = sep
        self.bom = bom  # the CSV starts with a UTF-8 byte-order mark
        #: The `meta` keys that have a column (`meta.KEY`), fixed by the first rows added:
        #: None until then (the header is written with them).
        self.meta_keys: list[str] | None = None
        try:
            if csv_path:
                self.csv = OutputFile(csv_path)
            if parquet_dir:
                self._open_parquet(parquet_dir)
        except BaseException:
            self.discard()
            raise

    def _header(self, metas: Sequence[dict[str, Any] | None]) -> None:
        """The CSV header, once: the table's columns, then `meta.KEY` for each key of the
        `meta` of the first rows (in the order met)."""
        keys = dict.fromkeys(key for meta in metas if meta for key in meta)
        self.meta_keys = list(keys)
        if self.csv is not None:
            names = header_names(self.columns, self.names)
            names += [f"meta.{key}" for key in self.meta_keys]
            start = "\ufeff" if self.bom else ""
            self.csv.write((start + csv_line(names, self.sep)).encode("utf-8", "replace"))

    def _open_parquet(self, folder: str) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as exc:
            raise WriteError(folder, exc) from None
        self.pa = pa
        self.schema = parquet_schema(self.columns, self.kinds)
        self.parquet = OutputFile(os.path.join(folder, "part-00000.parquet"))
        self.writer = pq.ParquetWriter(self.parquet.handle, self.schema)

    def outputs(self) -> list[OutputFile]:
        return [o for o in (self.csv, self.parquet) if o is not None]

    def add(
        self,
        rows: Sequence[tuple[Any, ...]],
        metas: Sequence[dict[str, Any] | None] = (),
        batch: Any = None,
    ) -> None:
        """Rows of the table; `metas`: the `meta` of each row's game (none: no meta);
        `batch`: the same rows as an Arrow batch for Parquet (:func:`arrow_batch`, made by
        the worker that scored them), or None: the rows kept to be made one at the flush
        (a Dask run adds its games one by one)."""
        metas = metas or [None] * len(rows)
        if self.meta_keys is None and (rows or metas):
            self._header(metas)
        if self.csv is not None:
            keys, sep = self.meta_keys, self.sep
            if keys:
                text = "".join(
                    [
                        csv_line((*row, *[meta_cell((meta or {}).get(key)) for key in keys]), sep)
                        for row, meta in zip(rows, metas, strict=True)
                    ]
                )
            else:  # (no game of the first rows had a `meta`: the common case)
                text = csv_text(rows, sep)
            self.csv.write(text.encode("utf-8", "replace"))
        if self.parquet is not None:
            if batch is not None:
                self._pending_batch()  # (the rows before it first: the file keeps their order)
                self.batches.append(batch)
                self.buffered += batch.num_rows
            else:
                self.pending.extend(rows)
                self.buffered += len(rows)
            if self.buffered >= PARQUET_ROWS:
                self.flush()

    def _pending_batch(self) -> None:
        if self.pending:
            self.batches.append(arrow_batch(self.pending, self.schema))
            self.pending = []

    def flush(self) -> None:
        """The rows added since the last flush written to the Parquet file as one table (one
        row group, however many batches they came in)."""
        if self.parquet is None:
            return
        self._pending_batch()
        if not self.batches:
            return
        table = self.pa.Table.from_batches(self.batches, schema=self.schema)
        try:
            self.writer.write_table(table)
        except OSError as exc:
            raise WriteError(self.parquet.path, exc) from None
        self.batches.clear()
        self.buffered = 0

    def commit(self) -> None:
        """Everything written and renamed into place."""
        if self.meta_keys is None:
            self._header([])
        self.flush()
        if self.parquet is not None:
            try:
                self.writer.close()
            except OSError as exc:
                raise WriteError(self.parquet.path, exc) from None
        for output in self.outputs():
            output.commit()

    def discard(self) -> None:
        for output in self.outputs():
            output.discard()


# --- Ctrl-C -------------------------------------------------------------------------------------


class Interrupts:
    """Ctrl-C (SIGINT) is held from the start until :meth:`release`; after that it raises
    KeyboardInterrupt as usual, except inside :meth:`whole`, where it waits until the block
    is done (a chunk of results is written to every output or to none), and after
    :meth:`ignore`. Only in the main thread (elsewhere Python delivers no signal), and not
    when SIGINT was ignored."""

    def __init__(self) -> None:
        self.holding = True
        self.pending = False
        self.previous: Any = None
        self.installed = False
        self.ignoring = False

    def __enter__(self) -> Interrupts:
        try:
            if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
                self.previous = signal.signal(signal.SIGINT, self._handler)
                self.installed = True
        except ValueError:  # not the main thread
            pass
        return self

    def __exit__(self, *exc: object) -> None:
        if self.installed:
            signal.signal(signal.SIGINT, self.previous)
            self.installed = False

    def _handler(self, signum: int, frame: FrameType | None) -> None:
        if self.holding:
            self.pending = True
        else:
            raise KeyboardInterrupt

    def whole(self) -> _Held:
        return _Held(self)

    def release(self) -> None:
        """Ctrl-C acts from now on; one that came while held acts right here."""
        self.holding = False
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt

    def ignore(self) -> None:
        """From now on Ctrl-C is ignored (the run is ending anyway)."""
        self.holding = True
        self.ignoring = True


class _Held:
    def __init__(self, interrupts: Interrupts) -> None:
        self.interrupts = interrupts

    def __enter__(self) -> None:
        self.interrupts.holding = True

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self.interrupts.ignoring:
            return
        self.interrupts.holding = False
        if self.interrupts.pending and kind is None:
            self.interrupts.pending = False
            raise KeyboardInterrupt
