"""Counting in JSON text without decoding it: how many items an envelope holds, before any
of them is made into an object (a 32 MiB `{"games": [0,0,...]}` holds 16.7 million).

The scan reads the text once, in pieces of a fixed size, with numpy: memory is a few bytes a
byte of one piece, whatever the text's length; strings (with their escapes) are skipped.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["CommaCount", "count_commas"]

PIECE = 1 << 20
_QUOTE, _BACKSLASH, _COMMA = ord('"'), ord("\\"), ord(",")
_OPEN = (ord("["), ord("{"))
_CLOSE = (ord("]"), ord("}"))


class CommaCount(NamedTuple):
    """Commas outside strings at nesting level 1 (between the keys of a top-level object)
    and at level 2 (between the items of an array that is one of its values)."""

    level1: int
    level2: int


class _State:
    """What a piece hands the next: inside a string, first byte escaped, level."""

    def __init__(self) -> None:
        self.inside = False
        self.escaped = False
        self.level = 0


def _escaped(piece: np.ndarray, first_escaped: bool) -> tuple[np.ndarray, bool]:
    """Which bytes follow an odd run of backslashes, and whether the byte after the piece
    does. `first_escaped`: the piece starts right after such a run."""
    backslash = piece == _BACKSLASH
    if not first_escaped and not backslash.any():  # the common case: no escape at all
        return np.zeros(len(piece), dtype=bool), False
    index = np.arange(len(piece))
    last_other = np.maximum.accumulate(np.where(backslash, -1, index))
    run = index - last_other  # backslashes ending at each byte (0 if not one)
    run_parity = (run + np.where(last_other < 0, int(first_escaped), 0)) % 2 == 1
    escaped = np.empty(len(piece), dtype=bool)
    escaped[0] = first_escaped
    escaped[1:] = run_parity[:-1] & backslash[:-1]
    return escaped, bool(run_parity[-1] and backslash[-1])


def _scan(piece: np.ndarray, state: _State) -> tuple[int, int]:
    escaped, state.escaped = _escaped(piece, state.escaped)
    quotes = (piece == _QUOTE) & ~escaped
    flips = np.cumsum(quotes, dtype=np.int32)
    inside = (flips % 2 == 1) ^ state.inside  # at a quote: after it; fine, a quote is no bracket
    outside = ~inside
    opens = ((piece == _OPEN[0]) | (piece == _OPEN[1])) & outside
    closes = ((piece == _CLOSE[0]) | (piece == _CLOSE[1])) & outside
    level = state.level + np.cumsum(opens.view(np.int8) - closes.view(np.int8), dtype=np.int32)
    commas = (piece == _COMMA) & outside
    state.inside = bool(inside[-1])
    state.level = int(level[-1])
    one = np.count_nonzero(commas & (level == 1))
    return int(one), int(np.count_nonzero(commas & (level == 2)))


def count_commas(text: bytes, piece: int = PIECE) -> CommaCount:
    """The commas of `text` outside strings at levels 1 and 2 (see :class:`CommaCount`);
    linear time, memory bounded by `piece` bytes at a time. On text that is not JSON the
    counts mean nothing, but the scan ends."""
    data = np.frombuffer(text, dtype=np.uint8)
    state = _State()
    level1 = level2 = 0
    for start in range(0, len(data), piece):
        one, two = _scan(data[start : start + piece], state)
        level1 += one
        level2 += two
    return CommaCount(level1, level2)
