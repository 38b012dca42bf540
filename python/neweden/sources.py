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
from typing import Protocol

from .model import MAX_GAME_BYTES
from .problems import Problem

__all__ = ["MAX_LINE_BYTES", "Entry", "iter_entries"]

MAX_LINE_BYTES = 1024 * 1024  # FORMAT §1: a .jsonl line is at most 1 MiB
_BOM = b"\xef\xbb\xbf"
_SUFFIXES = (".json", ".jsonl", ".jsonl.gz")


@dataclass(frozen=True, slots=True)
class Entry:
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


def _lines(handle: _Readable, path: str) -> Iterator[Entry]:
    """One entry per non-blank line; blank lines are skipped but counted. A line over the
    limit is read past in bounded pieces and becomes a `too_large` entry."""
    number = 0
    while True:
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


def _below(folder: str) -> list[str]:
    """The game files below a folder, as relative paths with `/`, in code-point order."""
    found = []
    for root, _dirs, files in os.walk(folder):
        for name in files:
            if name.endswith(_SUFFIXES):
                rel = os.path.relpath(os.path.join(root, name), folder)
                found.append(rel.replace(os.sep, "/"))
    return sorted(found)


def iter_entries(paths: Iterable[str]) -> Iterator[Entry]:
    """Every game of every PATH, in order (FORMAT §4)."""
    for given in paths:
        if os.path.isdir(given):
            for rel in _below(given):
                shown = f"{given.rstrip('/')}/{rel}"
                yield from _file(os.path.join(given, rel), shown)
        elif os.path.exists(given):
            yield from _file(given, given)
        else:
            yield Entry(
                given,
                None,
                None,
                Problem(code="not_found", message=f"{given}: no such file or folder", path=""),
            )
