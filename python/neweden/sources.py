"""Where batch games come from (FORMAT §4 `neweden validate`): files, folders, `.jsonl` and
`.jsonl.gz`, read as a stream so memory stays flat whatever the input size.

Each game is an :class:`Entry`: its source (the PATH as given, joined with the path below a
folder by `/`; a 1-based line for `.jsonl`, None for a `.json` file) and either its bytes
or the problem that kept it from being read. Nothing here stops at a bad entry.
"""

from __future__ import annotations

import gzip
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from .model import MAX_GAME_BYTES
from .problems import Problem

__all__ = ["MAX_LINE_BYTES", "Block", "Entry", "iter_entries", "iter_sources", "read_block"]

MAX_LINE_BYTES = 1024 * 1024  # FORMAT §1: a .jsonl line is at most 1 MiB
_BOM = b"\xef\xbb\xbf"
_SUFFIXES = (".json", ".jsonl", ".jsonl.gz")


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
    handle: _Readable, path: str, number: int = 0, end: int | None = None
) -> Iterator[Entry]:
    """One entry per non-blank line; blank lines are skipped but counted. A line over the
    limit is read past in bounded pieces and becomes a `too_large` entry. `number`: the
    lines before the handle's position; `end`: stop at the first line starting at or
    after this offset (a seekable handle)."""
    while True:
        if end is not None and handle.tell() >= end:  # type: ignore[attr-defined]
            return
        try:
            line = handle.readline(MAX_LINE_BYTES + 2)
        except (OSError, EOFError) as exc:  # a damaged gzip stream
            yield Entry(
                path,
                number + 1,
                None,
                _problem("bad_json", f"the file cannot be read past here: {exc}"),
            )
            return
        if not line:
            return
        number += 1
        if number == 1 and line.startswith(_BOM):
            line = line[len(_BOM) :]
        if len(line) > MAX_LINE_BYTES + 1 or (
            len(line) > MAX_LINE_BYTES and not line.endswith(b"\n")
        ):
            size = len(line)
            while line and not line.endswith(b"\n"):
                line = handle.readline(MAX_LINE_BYTES)
                size += len(line)
            yield Entry(
                path,
                number,
                None,
                _problem(
                    "too_large",
                    f"the line is {size:,} bytes; the limit is {MAX_LINE_BYTES:,} (1 MiB)",
                ),
            )
            continue
        if line.strip():
            yield Entry(path, number, line.rstrip(b"\r\n"))


def _file(path: str, shown: str) -> Iterator[Entry]:
    if not shown:  # nothing at this PATH
        yield Entry(
            path,
            None,
            None,
            Problem(code="not_found", message=f"{path}: no such file or folder", path=""),
        )
        return
    if path.endswith((".jsonl", ".jsonl.gz")):
        try:
            gz = path.endswith(".gz")
            with gzip.open(path, "rb") if gz else open(path, "rb") as handle:
                yield from _lines(handle, shown)
        except OSError as exc:
            yield Entry(shown, None, None, _problem("not_found", f"cannot read: {exc}"))
        return
    try:
        size = os.path.getsize(path)
        if size > MAX_GAME_BYTES + len(_BOM):
            yield Entry(
                shown,
                None,
                None,
                _problem(
                    "too_large",
                    f"the game is {size:,} bytes; the limit is {MAX_GAME_BYTES:,} (1 MiB)",
                ),
            )
            return
        with open(path, "rb") as handle:
            yield Entry(shown, None, handle.read())
    except OSError as exc:
        yield Entry(shown, None, None, _problem("not_found", f"cannot read: {exc.strerror}"))


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
            with open(self.path, "rb") as handle:
                return read_block(handle, self.shown, self.start, self.end, self.first_line)
        except OSError as exc:
            return [Entry(self.shown, None, None, _problem("not_found", f"cannot read: {exc}"))]


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
    return list(_lines(handle, shown, number, end))


def _blocks(path: str, shown: str, size: int, blocksize: int) -> Iterator[Block]:
    """A plain `.jsonl` file as blocks of `blocksize` bytes, each with its first line's
    number (found by counting the newlines before it: read once, a block at a time)."""
    line = 1
    with open(path, "rb") as handle:
        for start in range(0, size, blocksize):
            yield Block(path, shown, start, min(start + blocksize, size), line)
            line += handle.read(blocksize).count(b"\n")


def iter_sources(paths: Iterable[str], blocksize: int) -> Iterator[Entry | Block]:
    """The games of :func:`iter_entries`, in the same order, but a plain `.jsonl` file of
    more than `blocksize` bytes comes as :class:`Block` s to read elsewhere."""
    for given in paths:
        for path, shown in _files(given):
            try:
                size = os.path.getsize(path) if path.endswith(".jsonl") else 0
            except OSError:
                size = 0  # _file tells why it cannot be read
            if size > blocksize:
                yield from _blocks(path, shown, size, blocksize)
            else:
                yield from _file(path, shown)


def _below(folder: str) -> list[str]:
    """The game files below a folder, as relative paths with `/`, in code-point order."""
    found = []
    for root, _dirs, files in os.walk(folder):
        for name in files:
            if name.endswith(_SUFFIXES):
                rel = os.path.relpath(os.path.join(root, name), folder)
                found.append(rel.replace(os.sep, "/"))
    return sorted(found)


def _files(given: str) -> Iterator[tuple[str, str]]:
    """(file, shown path) of every game file of a PATH, in order; (PATH, "") when there is
    nothing at PATH."""
    if os.path.isdir(given):
        for rel in _below(given):
            yield os.path.join(given, rel), f"{given.rstrip('/')}/{rel}"
    elif os.path.exists(given):
        yield given, given
    else:
        yield given, ""


def iter_entries(paths: Iterable[str]) -> Iterator[Entry]:
    """Every game of every PATH, in order (FORMAT §4)."""
    for given in paths:
        for path, shown in _files(given):
            yield from _file(path, shown)
