"""Where batch games come from (FORMAT §4 `neweden validate`): files, folders, `.jsonl` and
`.jsonl.gz`, read as a stream so memory stays flat whatever the input size.

Each game is an :class:`Entry`: its source (the PATH as given, joined with the path below a
folder by `/`; a 1-based line for `.jsonl`, None for a `.json` file) and either its bytes
or the problem that kept it from being read. Nothing here stops at a bad entry.
"""

from __future__ import annotations

import errno
import gzip
import io
import os
import stat
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple, Protocol

import numpy as np

from neweden.format import codes
from neweden.format.model import BOM, MAX_GAME_BYTES
from neweden.format.problems import Problem, os_error, os_reason
from neweden.i18n import N_, _
from neweden.i18n import number as people_number

__all__ = [
    "MAX_BLANK_BYTES",
    "MAX_LINE_BYTES",
    "STATE_FOLDER",
    "Block",
    "Entry",
    "Identity",
    "Skipped",
    "identity",
    "iter_entries",
    "iter_sources",
    "jsonl_line",
    "open_regular",
    "plan_blocks",
    "read_block",
    "read_lines",
]

MAX_LINE_BYTES = 1024 * 1024  # FORMAT §1: a .jsonl line is at most 1 MiB
#: The buffer a file is read through: Python's default, the file system's block size (4 KiB
#: on ext4), made about three system calls every four games read a line at a time
#: (docs/benchmarks.md)
READ_BUFFER = 64 * 1024
#: The blank lines in a row a `.jsonl.gz` may hold (docs/limits.md): like a line, 1 MiB. A
#: compressed file is the one source whose size does not bound the work of reading it.
MAX_BLANK_BYTES = 1024 * 1024
_SUFFIXES = (".json", ".jsonl", ".jsonl.gz")
#: The folder where neweden keeps its own state below a folder of games (`neweden review`'s
#: history): a folder walk leaves it out.
STATE_FOLDER = ".neweden"
_KINDS = {
    stat.S_IFDIR: N_("a folder"),
    stat.S_IFCHR: N_("a character device"),
    stat.S_IFBLK: N_("a block device"),
    stat.S_IFIFO: N_("a FIFO"),
    stat.S_IFSOCK: N_("a socket"),
}

#: A file's identity: (device, inode), the same for every path (symlink, hard link) to it.
Identity = tuple[int, int]
#: Told the shown path of each file a folder walk leaves out (an output of the run).
Skipped = Callable[[str], None]


class NotRegularFile(OSError):
    """A path that names a device, a FIFO, a socket or a folder where a file is read."""

    def __init__(self, path: str, mode: int) -> None:
        known = _KINDS.get(stat.S_IFMT(mode))
        kind = _(known) if known is not None else _("not a plain file")
        super().__init__(errno.EINVAL, _("not a regular file ({kind})", kind=kind), path)

    def __str__(self) -> str:
        return str(self.strerror)


def identity(path: str) -> Identity | None:
    """The identity of the file at `path` (symlinks followed); None when there is none."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino)


def open_regular(path: str) -> tuple[io.BufferedReader, int]:
    """A regular file opened for reading, and its size. Anything else (a device such as
    /dev/zero, a FIFO, a socket) raises :class:`NotRegularFile` before it is opened, or
    right after if it was swapped in meanwhile: the open never blocks (O_NONBLOCK)."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise NotRegularFile(path, mode)
    nonblocking = getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, os.O_RDONLY | nonblocking | getattr(os, "O_BINARY", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(path, st.st_mode)
        if nonblocking:
            os.set_blocking(fd, True)
        raw = io.FileIO(fd, "r")
    except BaseException:
        os.close(fd)
        raise
    try:
        return io.BufferedReader(raw, READ_BUFFER), st.st_size
    except BaseException:  # (the descriptor is the FileIO's now: closed once, by it)
        raw.close()
        raise


class Entry(NamedTuple):
    """One game of a source (a named tuple: one is made for every line read)."""

    path: str
    line: int | None
    data: bytes | None
    problem: Problem | None = None

    def source(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line}

    def label(self) -> str:
        return self.path if self.line is None else f"{self.path}:{self.line}"


def _problem(code: str, message: str) -> Problem:
    return Problem(code=code, message=message, path="")


class _Readable(Protocol):
    def readline(self, size: int = -1, /) -> bytes: ...


class _Seekable(_Readable, Protocol):
    def read(self, size: int = -1, /) -> bytes: ...
    def seek(self, offset: int, whence: int = 0, /) -> int: ...
    def tell(self) -> int: ...


def _lines(
    handle: _Readable,
    path: str,
    number: int = 0,
    end: int | None = None,
    blank_limit: int | None = None,
) -> Iterator[Entry]:
    """One entry per non-blank line; blank lines are skipped but counted. A line over the
    limit is read past in bounded pieces and becomes a `too_large` entry. `number`: the
    lines before the handle's position; `end`: stop at the first line starting at or
    after this offset (a seekable handle); `blank_limit`: the bytes of blank lines in a row
    after which the rest is not read (one `too_large` entry at the first of them)."""
    blank_bytes = blank_from = 0  # the blank lines in a row so far: their bytes, the first
    while True:
        if end is not None and handle.tell() >= end:  # type: ignore[attr-defined]
            return
        try:  # a line and its newline, one byte more to see it is over (a BOM's bytes too)
            line = handle.readline(MAX_LINE_BYTES + 2 + (len(BOM) if number == 0 else 0))
        except (OSError, EOFError) as exc:  # a damaged gzip stream
            yield _unreadable_past(path, number + 1, exc)
            return
        if not line:
            return
        number += 1
        if number == 1 and line.startswith(BOM):
            line = line[len(BOM) :]
        if len(line) > MAX_LINE_BYTES + 1 or (
            len(line) > MAX_LINE_BYTES and not line.endswith(b"\n")
        ):
            yield _line_too_large(handle, path, number, line)
            continue
        if line.strip():
            blank_bytes = 0
            yield Entry(path, number, line.rstrip(b"\r\n"))
            continue
        blank_from = blank_from if blank_bytes else number
        blank_bytes += len(line)
        if blank_limit is not None and blank_bytes > blank_limit:
            yield Entry(path, blank_from, None, _blank_run(blank_from, number, blank_limit))
            return


def read_lines(handle: _Readable, path: str) -> Iterator[Entry]:
    """The entries of a stream of JSON Lines (standard input, say) as a `.jsonl` file's are
    read: one a non-blank line, a line over MAX_LINE_BYTES a `too_large` entry read past in
    bounded pieces; `path` names the source in each entry."""
    return _lines(handle, path)


def _unreadable_past(path: str, number: int, exc: OSError | EOFError) -> Entry:
    """The entry of line `number`, where reading the file failed: nothing past it is read."""
    return Entry(
        path,
        number,
        None,
        _problem(
            codes.BAD_JSON,
            _("the file cannot be read past here: {why}", why=_read_error(exc)),
        ),
    )


def _line_too_large(handle: _Readable, path: str, number: int, line: bytes) -> Entry:
    """The `too_large` entry of a line over the limit, of which `line` is the start: the
    rest is read past in bounded pieces, to count its bytes."""
    size = len(line)
    while line and not line.endswith(b"\n"):
        line = handle.readline(MAX_LINE_BYTES)
        size += len(line)
    return Entry(
        path,
        number,
        None,
        _problem(
            codes.TOO_LARGE,
            _(
                "the line is {size} bytes; the limit is {limit} (1 MiB)",
                size=people_number(size),
                limit=people_number(MAX_LINE_BYTES),
            ),
        ),
    )


def _blank_run(first: int, last: int, limit: int) -> Problem:
    """The problem of a compressed file that goes on with blank lines and no game (a bomb:
    a few KB that expand to gigabytes of nothing to check)."""
    message = _(
        "lines {first} to {last} are blank: over {limit} bytes of a compressed file without a "
        "game (at most {limit}); the rest of the file is not read",
        first=people_number(first),
        last=people_number(last),
        limit=people_number(limit),
    )
    return _problem(codes.TOO_LARGE, message)


def _read_error(exc: Exception) -> str:
    """What stopped the reading of a file part way (a damaged gzip stream), in words."""
    if isinstance(exc, EOFError) and str(exc) == _GZIP_ENDED:
        return _("Compressed file ended before the end-of-stream marker was reached")
    return os_error(exc) if isinstance(exc, OSError) else str(exc)


_GZIP_ENDED = "Compressed file ended before the end-of-stream marker was reached"


def _shown(path: str) -> str:
    """A path as reports show it: bytes that are not UTF-8 in a file name (which Python
    carries as lone surrogates, and no UTF-8 output can hold) become U+FFFD."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _file(path: str, shown: str) -> Iterator[Entry]:
    if not shown:  # nothing at this PATH
        path = _shown(path)
        yield Entry(
            path,
            None,
            None,
            Problem(
                code=codes.NOT_FOUND,
                message=_("{path}: no such file or folder", path=path),
                path="",
            ),
        )
        return
    if path.endswith((".jsonl", ".jsonl.gz")):
        yield from _jsonl(path, shown)
        return
    try:
        handle, size = open_regular(path)
        with handle:
            data = handle.read(MAX_GAME_BYTES + len(BOM) + 1)  # a bound, whatever size says
    except OSError as exc:
        why = os_reason(exc)
        yield Entry(shown, None, None, _problem(codes.NOT_FOUND, _("cannot read: {why}", why=why)))
        return
    if max(size, len(data)) > MAX_GAME_BYTES + len(BOM):
        size = max(size, len(data))
        message = _(
            "the game is {size} bytes; the limit is {limit} (1 MiB)",
            size=people_number(size),
            limit=people_number(MAX_GAME_BYTES),
        )
        yield Entry(shown, None, None, _problem(codes.TOO_LARGE, message))
        return
    yield Entry(shown, None, data)


def _jsonl(path: str, shown: str) -> Iterator[Entry]:
    try:
        handle, _size = open_regular(path)
        with handle:
            if path.endswith(".gz"):
                with gzip.GzipFile(fileobj=handle) as unzipped:
                    yield from _lines(unzipped, shown, blank_limit=MAX_BLANK_BYTES)
            else:
                yield from _lines(handle, shown)
    except OSError as exc:
        why = os_error(exc)
        yield Entry(shown, None, None, _problem(codes.NOT_FOUND, _("cannot read: {why}", why=why)))


def jsonl_line(path: str, wanted: int, most: int = 2) -> list[Entry]:
    """The game at line `wanted` (1-based) of a `.jsonl` or `.jsonl.gz` file: one entry,
    with the problem when there is none there (a blank line, past the last game, a file
    that cannot be read). With `wanted` 0, the file's first `most` games instead (fewer
    when it holds fewer): enough to tell a file of one game from a batch."""
    shown = _shown(path)
    found: list[Entry] = []
    last: Entry | None = None
    for entry in _jsonl(path, shown):
        if entry.line is None or entry.line == wanted:  # unreadable, or the one asked
            return [entry]
        if wanted and entry.line > wanted:
            message = _("line {line} is blank: no game there", line=wanted)
            return [Entry(shown, wanted, None, _problem(codes.NOT_FOUND, message))]
        last = entry
        if not wanted:
            found.append(entry)
            if len(found) == most:
                break
    if not wanted:
        return found
    message = (
        _(
            "there is no game at line {line}: the last game is on line {last}",
            line=wanted,
            last=last.line,
        )
        if last is not None
        else _("there is no game at line {line}: the file holds no game", line=wanted)
    )
    return [Entry(shown, wanted, None, _problem(codes.NOT_FOUND, message))]


@dataclass(frozen=True, slots=True)
class Block:
    """The lines of a plain `.jsonl` file that start in bytes [start, end), read where they
    are scored (a worker process) instead of by the process that plans the run.
    `first_line`: the number of the line holding byte `start`."""

    path: str
    shown: str
    start: int
    end: int
    first_line: int

    def entries(self) -> list[Entry]:
        try:
            handle, _size = open_regular(self.path)
            with handle:
                return read_block(handle, self.shown, self.start, self.end, self.first_line)
        except OSError as exc:
            why = os_error(exc)
            return [
                Entry(
                    self.shown,
                    None,
                    None,
                    _problem(codes.NOT_FOUND, _("cannot read: {why}", why=why)),
                )
            ]


def read_block(handle: _Seekable, shown: str, start: int, end: int, first_line: int) -> list[Entry]:
    """The entries of the lines of a seekable `.jsonl` handle that start in [start, end):
    a line crossing `start` belongs to the block before."""
    number = first_line - 1  # _lines counts the line it reads
    if start > 0:
        handle.seek(start - 1)
        if handle.read(1) != b"\n":  # inside a line: read past it, in bounded pieces
            piece = handle.readline(MAX_LINE_BYTES)
            while piece and not piece.endswith(b"\n"):
                piece = handle.readline(MAX_LINE_BYTES)
            number += 1
    at = handle.tell()
    found = _plain_block(handle, shown, number, end - at)
    if found is not None:
        return found
    handle.seek(at)  # something unusual in the block: read it line by line
    return list(_lines(handle, shown, number, end))


def _plain_block(handle: _Seekable, shown: str, number: int, size: int) -> list[Entry] | None:
    """The entries of the lines starting in the next `size` bytes, read at once and split
    (as :func:`_lines` reads them, a line at a time, but cheaper a game: one read, no copy
    of a line but the split), or None when the block holds something :func:`_lines` tells
    apart: a line over the limit, a byte-order mark, a read error."""
    try:
        data = handle.read(size) if size > 0 else b""
        rest = b""  # the last line's bytes past the block, and its newline
        if data and not data.endswith(b"\n"):
            rest = handle.readline(MAX_LINE_BYTES + 2)
    except (OSError, EOFError):
        return None
    if number == 0 and (data[: len(BOM)] + rest[: len(BOM)]).startswith(BOM):
        return None
    lines = data.split(b"\n")
    if rest:  # (joined to the last line alone: the block is not copied again)
        lines[-1] += rest.removesuffix(b"\n")
    elif lines[-1] == b"":  # the text after the last newline: none
        lines.pop()
    if lines and max(map(len, lines)) >= MAX_LINE_BYTES:  # over the limit (or at it):
        return None  # told by _lines
    if b"\r" in data or b"\r" in rest:  # (a block with none: no line to strip, no copy)
        lines = [line.rstrip(b"\r") for line in lines]
    # a blank line is counted, not read; each Entry made as tuple.__new__ makes it (every
    # field given: one a line of every block)
    return [
        _new(Entry, (shown, n, line, None))
        for n, line in enumerate(lines, number + 1)
        if line and not line.isspace()
    ]


_new = tuple.__new__


def _blocks(path: str, shown: str, size: int, blocksize: int) -> Iterator[Block]:
    """A plain `.jsonl` file as blocks of `blocksize` bytes (read once, a block at a time,
    into one buffer: about half the time of a `bytes` read a block, which is the process
    planning the run's largest cost a game), each starting at its first line."""
    buffer = bytearray(blocksize)
    into = memoryview(buffer)
    handle, _size = open_regular(path)
    with handle:
        chunks = iter(lambda: into[: handle.readinto(into)], into[:0])
        for start, end, first_line in plan_blocks(chunks, size):
            yield Block(path, shown, start, end, first_line)


def plan_blocks(chunks: Iterable[bytes | memoryview], size: int) -> Iterator[tuple[int, int, int]]:
    """(start, end, first line) of the blocks of a file read as successive `chunks`: each
    block starts at the first line that starts in its chunk, numbered by counting the
    newlines before it (by numpy). A chunk in which no line starts (the middle of a long
    line) is no block: the block where the line starts reads it, once, in bounded pieces,
    where each block starting inside it read on to its end (quadratic in a long line)."""
    line = 1  # the number of the line holding the chunk's first byte
    at = 0  # the chunk's first byte in the file
    starts_line = True  # whether that byte begins a line
    for chunk in chunks:
        each = np.frombuffer(chunk, dtype=np.uint8)
        if not len(each) or at >= size:
            return
        newline = each == _NEWLINE
        newlines = int(np.count_nonzero(newline))
        end = min(at + len(each), size)
        if starts_line:
            yield at, end, line
        elif newlines and at + int(newline.argmax()) + 1 < end:
            yield at + int(newline.argmax()) + 1, end, line + 1
        line += newlines
        starts_line = bool(newline[-1])
        at += len(each)


_NEWLINE = ord("\n")


def _plain_jsonl_size(path: str) -> int:
    """The size of a regular `.jsonl` file; 0 for anything else (read whole, or refused)."""
    try:
        st = os.stat(path)
    except OSError:
        return 0  # _file tells why it cannot be read
    return st.st_size if path.endswith(".jsonl") and stat.S_ISREG(st.st_mode) else 0


def iter_sources(
    paths: Iterable[str],
    blocksize: int,
    exclude: Collection[Identity] = (),
    skipped: Skipped | None = None,
) -> Iterator[Entry | Block]:
    """The games of :func:`iter_entries`, in the same order, but a plain `.jsonl` file of
    more than `blocksize` bytes comes as :class:`Block` s to read elsewhere."""
    for given in paths:
        for path, shown, problem in _files(given, exclude, skipped):
            size = 0 if problem else _plain_jsonl_size(path)
            if size <= blocksize:
                yield from _entries(path, shown, problem)
                continue
            try:
                yield from _blocks(path, shown, size, blocksize)
            except OSError:  # gone or swapped meanwhile: _file tells why
                yield from _file(path, shown)


def _entries(path: str, shown: str, problem: Problem | None) -> Iterator[Entry]:
    if problem is not None:
        yield Entry(shown, None, None, problem)
    else:
        yield from _file(path, shown)


def _below(folder: str) -> list[tuple[str, Problem | None]]:
    """The game files below a folder, as relative paths with `/`, in code-point order (not
    those of a `.neweden` folder: the versions `neweden review` kept); a folder that cannot
    be listed comes as its relative path ("." for `folder` itself) with the problem."""
    found: list[tuple[str, Problem | None]] = []

    def unreadable(exc: OSError) -> None:
        rel = os.path.relpath(exc.filename or folder, folder).replace(os.sep, "/")
        why = os_reason(exc)
        found.append((rel, _problem(codes.NOT_FOUND, _("cannot read the folder: {why}", why=why))))

    for root, dirs, files in os.walk(folder, onerror=unreadable):
        dirs[:] = [d for d in dirs if d != STATE_FOLDER]  # a review's history is no game
        for name in files:
            if name.endswith(_SUFFIXES):
                rel = os.path.relpath(os.path.join(root, name), folder)
                found.append((rel.replace(os.sep, "/"), None))
    return sorted(found, key=lambda item: item[0])


def _files(
    given: str, exclude: Collection[Identity] = (), skipped: Skipped | None = None
) -> Iterator[tuple[str, str, Problem | None]]:
    """(file, shown path, problem) of every game file of a PATH, in order; (PATH, "", None)
    when there is nothing at PATH. A walk leaves out the files of `exclude` (telling
    `skipped`) and gives an unreadable folder with its problem."""
    if os.path.isdir(given):
        for rel, problem in _below(given):
            path = os.path.join(given, rel)
            shown = _shown(given if rel == "." else f"{given.rstrip('/')}/{rel}")
            if exclude and problem is None and identity(path) in exclude:
                if skipped is not None:
                    skipped(shown)
                continue
            yield path, shown, problem
    elif os.path.exists(given):
        yield given, _shown(given), None
    else:
        yield given, "", None


def iter_entries(
    paths: Iterable[str],
    exclude: Collection[Identity] = (),
    skipped: Skipped | None = None,
) -> Iterator[Entry]:
    """Every game of every PATH, in order (FORMAT §4). A folder walk leaves out the files
    whose identity is in `exclude` (the outputs of the run), telling `skipped`."""
    for given in paths:
        for path, shown, problem in _files(given, exclude, skipped):
            yield from _entries(path, shown, problem)
