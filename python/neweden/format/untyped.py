"""A game's JSON read without types, as the every-problem pass of
:mod:`neweden.format.decode` reads it: containers nested past CUT_DEPTH emptied first (no
recursion, linear time), numbers Python does not hold marked where they stand, and, when
asked, the earlier values of a key given twice kept.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable
from typing import Any, TypeVar, overload

import msgspec
import numpy as np

from neweden.i18n import N_, _, number

__all__ = [
    "CUT_DEPTH",
    "OUT_OF_RANGE",
    "TOO_MANY_DIGITS",
    "OutOfRange",
    "cut_deep",
    "generic_value",
    "generic_value_with_repeated_keys",
    "out_of_range_words",
    "shallow_value",
]

#: What a decoder makes of a document (see :func:`shallow_value`).
T = TypeVar("T")

#: Containers deeper than this are emptied before the generic decode of the every-problem
#: pass. The format itself is at most 7 deep; `meta` may add 32; anything deeper is already
#: a problem at a shallower level, which the walk still finds.
CUT_DEPTH = 48

#: A JSON string: from a quote to the next unescaped quote, or to the end of the text when it
#: is never closed. Possessive, and every attempt that starts at a quote succeeds, so the scan
#: never starts again inside a string it has read: linear on any input (an unclosed string
#: full of escaped quotes once made it quadratic).
_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"?', re.DOTALL)


def _cut_deep_containers(raw: bytes, depth: int) -> bytes:
    """The JSON text with every container opened deeper than `depth` replaced by an empty
    one of the same kind; strings are left alone. Linear time, no recursion."""
    data = np.frombuffer(raw, dtype=np.uint8)
    outside = np.ones(len(data), dtype=bool)
    for match in _STRING.finditer(raw):
        outside[match.start() : match.end()] = False
    opens = ((data == ord("[")) | (data == ord("{"))) & outside
    closes = ((data == ord("]")) | (data == ord("}"))) & outside
    # int8 steps and an int32 running level: a few bytes per input byte, not 24.
    level = np.cumsum(opens.view(np.int8) - closes.view(np.int8), dtype=np.int32)
    # An opening bracket at level depth+1 starts a region to empty; it ends at the first
    # closing bracket after it that brings the level back to `depth`.
    starts = np.flatnonzero(opens & (level == depth + 1))
    ends = np.flatnonzero(closes & (level == depth))
    out = bytearray()
    cursor = 0
    for start in starts:
        if start < cursor:
            continue
        k = np.searchsorted(ends, start)
        stop = int(ends[k]) if k < len(ends) else len(raw) - 1
        out += raw[cursor : start + 1]
        out += raw[stop : stop + 1] if k < len(ends) else b""
        cursor = stop + 1
    out += raw[cursor:]
    return bytes(out)


class OutOfRange:
    """Stands for a JSON number Python does not hold (1e999, an integer of more than 4,300
    digits), so the walk can point at it; `words` end the problem's message."""

    def __init__(self, words: str) -> None:
        self.words = words

    def __repr__(self) -> str:
        return "a number out of range"


OUT_OF_RANGE = OutOfRange(N_("a number beyond any float"))
TOO_MANY_DIGITS = OutOfRange(N_("an integer of more than {digits} digits"))


def out_of_range_words(value: OutOfRange) -> str:
    return _(value.words, digits=number(sys.get_int_max_str_digits() or 4300))


def _float_or_out_of_range(text: str) -> float | OutOfRange:
    value = float(text)
    return OUT_OF_RANGE if math.isinf(value) else value


def _int_or_out_of_range(text: str) -> int | OutOfRange:
    try:
        return int(text)
    except ValueError:  # more digits than int() converts
        return TOO_MANY_DIGITS


def _loads(cut: bytes, **hooks: Any) -> Any:
    """`json.loads` marking numbers Python does not hold. msgspec checks the syntax first
    (skipping values), so broken JSON is its :class:`msgspec.DecodeError`, with its words."""
    msgspec.json.decode(cut, type=msgspec.Raw)
    try:
        text = cut.decode("utf-8")  # skipping strings, msgspec does not check their UTF-8
    except UnicodeDecodeError:
        raise msgspec.DecodeError("Invalid UTF-8 encoded string") from None
    return json.loads(
        text, parse_float=_float_or_out_of_range, parse_int=_int_or_out_of_range, **hooks
    )


@overload
def shallow_value(raw: bytes) -> Any: ...


@overload
def shallow_value(raw: bytes, decode: Callable[[bytes], T]) -> T: ...


def shallow_value(raw: bytes, decode: Callable[[bytes], Any] = msgspec.json.decode) -> Any:
    """`decode(raw)` (msgspec's untyped value, or a decoder's typed one), never a
    RecursionError: a document nested deeper than msgspec follows, even to skip it, is read
    with its containers past CUT_DEPTH emptied (deeper than any game, report or result may
    be). Raises what `decode` raises otherwise (:class:`msgspec.DecodeError`, a
    :class:`msgspec.ValidationError` for a number msgspec does not hold)."""
    try:
        return decode(raw)
    except RecursionError:
        return decode(cut_deep(raw))


def cut_deep(raw: bytes) -> bytes:
    """`raw` with its containers past CUT_DEPTH emptied (see :func:`shallow_value`)."""
    return _cut_deep_containers(raw, CUT_DEPTH)


def generic_value(raw: bytes) -> Any:
    """The JSON value of `raw`, untyped; containers past CUT_DEPTH emptied when needed.

    Raises :class:`msgspec.DecodeError` when `raw` is not JSON."""
    try:
        return msgspec.json.decode(raw)
    except RecursionError:
        return generic_value(_cut_deep_containers(raw, CUT_DEPTH))
    except msgspec.ValidationError:
        # A number msgspec does not hold stops it before the rest is read: decode again,
        # marking such numbers so the walk can point at them.
        return _loads(_cut_deep_containers(raw, CUT_DEPTH))


class _Pairs(dict[str, Any]):
    """A JSON object that remembers the earlier values of a key given more than once."""

    repeated: list[tuple[str, Any]]


def _pairs(items: list[tuple[str, Any]]) -> _Pairs:
    obj = _Pairs()
    obj.repeated = []
    for key, value in items:
        if key in obj:
            obj.repeated.append((key, obj[key]))
        obj[key] = value
    return obj


def generic_value_with_repeated_keys(raw: bytes) -> Any:
    """The JSON value with every object a :class:`_Pairs` (the text is known to be valid)."""
    return _loads(_cut_deep_containers(raw, CUT_DEPTH), object_pairs_hook=_pairs)
