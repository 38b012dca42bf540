"""Errors and warnings as the report carries them (FORMAT §3): code, message, pointer, cells."""

from __future__ import annotations

import difflib
import errno
import functools
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from neweden._visible import visible
from neweden.format.codes import DECODE_CODES, RULE_CODES, WARNING_CODES
from neweden.format.modes import MODES
from neweden.i18n import N_, _

__all__ = [
    "DECODE_CODES",
    "RULE_CODES",
    "WARNING_CODES",
    "GameDecodeError",
    "Problem",
    "ProblemsError",
    "a_game",
    "article",
    "did_you_mean",
    "document_order",
    "is_index",
    "os_error",
    "os_reason",
    "pointer",
    "pointer_order",
    "problem_words",
]


class Problem(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One error or warning: `{"code", "message", "path", "cells"}`."""

    code: str
    message: str
    path: str
    cells: tuple[tuple[int, int], ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "message": self.message,
            "path": self.path,
            "cells": [list(c) for c in self.cells],
        }

    def line(self) -> str:
        """The one-line form written to standard error: `POINTER: code: message`, with the
        control characters of what the game gave (a name, a key) made visible."""
        return visible(f"{self.path or '/'}: {self.code}: {self.message}")


def problem_words(code: str, path: str, message: str) -> str:
    """A problem as a sentence people read (a picture's notes, a game left out of the
    standings): `code at /pointer: message`, in the current language."""
    return _("{code} at {path}: {message}", code=code, path=path or "/", message=message)


def is_index(token: str) -> bool:
    """Whether a token (of a JSON Pointer, a header, an id) is a number written in ASCII
    digits: str.isdigit alone is true of "¹" and "²³", which int() refuses.

    Examples
    --------
    >>> [is_index(t) for t in ("12", "¹", "", "a1")]
    [True, False, False, False]
    """
    return token.isascii() and token.isdigit()


def pointer_order(path: str) -> tuple[tuple[int, int | str], ...]:
    """A sort key putting JSON Pointers in the order of their places in the document (array
    indices, ASCII digits, compare as numbers)."""
    return tuple((0, int(t)) if is_index(t) else (1, t) for t in path.split("/")[1:])


def document_order(problem: Problem) -> tuple[tuple[int, int | str], ...]:
    """A sort key putting problems in the order of their places in the document."""
    return pointer_order(problem.path)


def article(word: str) -> str:
    """`a` or `an` before `word` (an elitist game, a populist game): English only; a
    message names a game of a mode with :func:`a_game`."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def a_game(mode: str) -> str:
    """A game of `mode` in words of the current language: `an elitist game` (English, with
    :func:`article`), `uma partida elitista`; a mode the box does not have keeps its
    identifier."""
    known = MODES.get(mode)
    if known is not None:
        return _(known.a_game)
    return _("{article} {mode} game", article=article(mode), mode=mode)


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """` (did you mean "x"?)` when one candidate is close to `word`, else nothing."""
    among = tuple(candidates)
    if len(word) <= _KEPT_WORD and len(among) <= _KEPT_CANDIDATES:
        close = _closest(word, among)
    else:  # (a key of a megabyte, a catalog of thousands of ids: compared, not kept)
        close = _closest.__wrapped__(word, among)
    return _(' (did you mean "{name}"?)', name=close) if close is not None else ""


#: The typos whose closest candidate is kept (:func:`_closest`): a name's length at most (a
#: name of the format is at most 100 characters), among at most this many candidates.
_KEPT_WORD = 100
_KEPT_CANDIDATES = 256


@functools.lru_cache(maxsize=1024)
def _closest(word: str, candidates: tuple[str, ...]) -> str | None:
    """The candidate closest to `word`, if one is close (a batch of transcriptions repeats
    its typos: each is compared with the candidates once)."""
    close = difflib.get_close_matches(word, candidates, n=1, cutoff=0.6)
    return close[0] if close else None


#: The C library's words for the errors of reading a file (as Python gives them in
#: `strerror`), to translate: other errors keep the system's words.
_OS_REASONS = {
    errno.ENOENT: N_("No such file or directory"),
    errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"),
    errno.EISDIR: N_("Is a directory"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.ELOOP: N_("Too many levels of symbolic links"),
    errno.ENAMETOOLONG: N_("File name too long"),
    errno.EIO: N_("Input/output error"),
    errno.ENXIO: N_("No such device or address"),
}


def os_reason(exc: OSError) -> str:
    """Why a file could not be read, in the current language: `exc.strerror` (the system's
    words, unchanged in English), translated when it is one of the usual errors."""
    reason = str(exc.strerror)
    known = _OS_REASONS.get(exc.errno) if exc.errno is not None else None
    return _(known) if known is not None and known == reason else reason


def os_error(exc: OSError) -> str:
    """`str(exc)` (`[Errno 2] No such file or directory: 'x.jsonl'`) with the reason in
    the current language (:func:`os_reason`)."""
    if exc.errno is None or exc.strerror is None or type(exc).__str__ is not OSError.__str__:
        return str(exc)
    if exc.filename is None:
        return f"[Errno {exc.errno}] {os_reason(exc)}"
    if exc.filename2 is None:
        return f"[Errno {exc.errno}] {os_reason(exc)}: {exc.filename!r}"
    return f"[Errno {exc.errno}] {os_reason(exc)}: {exc.filename!r} -> {exc.filename2!r}"


def _token(part: str | int) -> str:
    if isinstance(part, int):
        return f"/{part}"
    if "~" in part or "/" in part:
        return "/" + part.replace("~", "~0").replace("/", "~1")
    return "/" + part


def pointer(*parts: str | int) -> str:
    """A JSON Pointer (RFC 6901) from reference tokens: `pointer("players", 0)` is `/players/0`."""
    out = ""
    for part in parts:  # most tokens need no escape: one f-string each (problems are many)
        if isinstance(part, int) or not ("~" in part or "/" in part):
            out += f"/{part}"
        else:
            out += _token(part)
    return out


def join(base: str, *parts: str | int) -> str:
    """`base` (a pointer) extended by more reference tokens."""
    return base + pointer(*parts)


class ProblemsError(ValueError):
    """An error that lists its problems (`.problems`). It pickles with them and with its
    message as it was said, in the language it was said in (a worker process, a Dask worker
    sending it back): a subclass's ``__init__`` takes the problems, not the message."""

    problems: Sequence[Problem]

    def __reduce__(self) -> tuple[Any, ...]:
        return _restored, (type(self), self.problems, self.args)


def _restored(
    kind: type[ProblemsError], problems: Sequence[Problem], args: tuple[Any, ...]
) -> ProblemsError:
    error = kind.__new__(kind)
    Exception.__init__(error, *args)
    error.problems = problems
    return error


class GameDecodeError(ProblemsError):
    """The input is not a readable game; `.problems` lists every decode problem (FORMAT §3.1)."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        head = self.problems[0].line() if self.problems else _("no problem listed")
        more = len(self.problems) - 1
        super().__init__(head if more <= 0 else _("{head} (and {more} more)", head=head, more=more))

    def lines(self) -> Iterable[str]:
        return (p.line() for p in self.problems)
