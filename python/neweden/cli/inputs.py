"""The game a command reads: standard input (`-`), a file, the one game of a JSON Lines file,
or `FILE:LINE`, never more than a game may hold; a device, a FIFO or a socket is refused."""

from __future__ import annotations

import os
import re
import sys

from neweden.format import codes
from neweden.format.model import MAX_GAME_BYTES
from neweden.format.problems import GameDecodeError, Problem
from neweden.i18n import _, number
from neweden.runners.sources import Entry, jsonl_line, open_regular

__all__ = ["read_input", "score_input"]

#: The most bytes a game may take, a byte-order mark included; one more is read to tell.
_INPUT_LIMIT = MAX_GAME_BYTES + 3


def _too_large(message: str) -> GameDecodeError:
    return GameDecodeError([Problem(code=codes.TOO_LARGE, message=message, path="")])


def read_input(name: str) -> bytes | None:
    """The bytes of a game: standard input for `-`, else a regular file (a device, a FIFO
    or a socket is refused: None, the reason written). Never more than a game may hold
    plus one byte is read; beyond that, raises GameDecodeError (`too_large`)."""
    if name == "-":
        data = sys.stdin.buffer.read(_INPUT_LIMIT + 1)
        if len(data) > _INPUT_LIMIT:
            raise _too_large(
                _(
                    "the input is more than {size} bytes; the limit is {limit} (1 MiB)",
                    size=number(_INPUT_LIMIT),
                    limit=number(MAX_GAME_BYTES),
                )
            )
        return data
    try:
        handle, size = open_regular(name)
        with handle:
            data = handle.read(_INPUT_LIMIT + 1)
    except OSError as exc:
        reason = exc.strerror or exc
        message = _("neweden: cannot read {name}: {reason}", name=name, reason=reason)
        sys.stderr.write(message + "\n")
        return None
    if max(size, len(data)) > _INPUT_LIMIT:
        size = max(size, len(data))
        raise _too_large(
            _(
                "the game is {size} bytes; the limit is {limit} (1 MiB)",
                size=number(size),
                limit=number(MAX_GAME_BYTES),
            )
        )
    return data


#: `FILE:LINE`: line LINE (1-based) of a JSON Lines file.
_AT_LINE = re.compile(r"(?P<file>.+):(?P<line>[0-9]+)")
_JSONL = (".jsonl", ".jsonl.gz")


def _game_of_entry(entry: Entry) -> bytes | None:
    """An entry's bytes, or None with its problem written (`FILE:LINE: message`)."""
    if entry.problem is not None or entry.data is None:
        message = entry.problem.message if entry.problem is not None else ""
        sys.stderr.write(f"neweden: {entry.label()}: {message}\n")
        return None
    return entry.data


def _jsonl_game(name: str) -> bytes | None:
    """The one game of a JSON Lines file; None (the reason written) when it holds more
    than one (`FILE:LINE` or `validate` said instead) or none."""
    games = jsonl_line(name, 0)
    if len(games) == 1:
        return _game_of_entry(games[0])
    if not games:
        sys.stderr.write(_("neweden: {name} holds no game", name=name) + "\n")
        return None
    first = games[0].line
    sys.stderr.write(
        _(
            "neweden: {name} holds more than one game (JSON Lines, one game a line): score "
            "one with {name}:LINE (e.g. {name}:{first}), or check them all with "
            "`neweden validate {name}`",
            name=name,
            first=first,
        )
        + "\n"
    )
    return None


#: The most digits of a FILE:LINE's line number read as a number: Python converts no integer
#: of more (its limit, 4,300 by default); any file ends long before.
_MOST_DIGITS = sys.get_int_max_str_digits() or 4300


def score_input(name: str) -> bytes | None:
    """The game FILE names: standard input (`-`), a file, a JSON Lines file of one game,
    or `FILE:LINE`; None with the reason written. Raises GameDecodeError (`too_large`)."""
    at = _AT_LINE.fullmatch(name)
    if at is not None and not os.path.exists(name) and os.path.exists(at["file"]):
        if len(at["line"].lstrip("0")) > _MOST_DIGITS:  # (past any file)
            said = _("neweden: {name}: no file has that many lines", name=name)
            sys.stderr.write(said + "\n")
            return None
        line = int(at["line"])
        if line < 1:
            sys.stderr.write(_("neweden: {name}: lines count from 1", name=name) + "\n")
            return None
        return _game_of_entry(jsonl_line(at["file"], line)[0])
    if name.endswith(_JSONL) and os.path.isfile(name):
        return _jsonl_game(name)
    return read_input(name)
