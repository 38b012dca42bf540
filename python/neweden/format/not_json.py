"""The `bad_json` problem of a text that is not JSON: msgspec's words for it, said in the
current language, and where the text breaks as a line and a column."""

from __future__ import annotations

import re

import msgspec

from neweden.format import codes
from neweden.format.problems import Problem
from neweden.i18n import N_, _, number

__all__ = ["json_error_words", "line_and_column", "not_json"]


#: What msgspec says is wrong with a text that is not JSON (its words, after "JSON is
#: malformed: "), marked to be said in the current language.
_MALFORMED = frozenset(
    (
        N_("invalid character"),
        N_("invalid number"),
        N_("invalid escape character in string"),
        N_("invalid escaped character"),
        N_("invalid character in unicode escape"),
        N_("unexpected end of hex escape"),
        N_("invalid utf-16 surrogate pair"),
        N_("trailing comma in array"),
        N_("trailing comma in object"),
        N_("trailing characters"),
        N_("object keys must be strings"),
        N_("expected ',' or ']'"),
        N_("expected ',' or '}'"),
        N_("expected '\"'"),
        N_("expected ':'"),
    )
)
_MALFORMED_TEXT = re.compile(r"JSON is malformed: (.*) \(byte (\d+)\)")


def not_json(exc: msgspec.DecodeError, raw: bytes | None = None) -> Problem:
    """The `bad_json` problem of a text msgspec could not read as JSON (where it breaks as a
    line and a column when the text `raw` is given: :func:`json_error_words`)."""
    why = json_error_words(str(exc), raw)
    return Problem(
        code=codes.BAD_JSON, message=_("the input is not valid JSON: {why}", why=why), path=""
    )


def json_error_words(text: str, raw: bytes | None = None) -> str:
    """msgspec's words for a text that is not JSON, said in the current language (the
    same words in English, but a truncated text, which is said plainly). With the text
    `raw` itself, where it breaks is said as a line and a column (1-based, the column
    counted in characters), which an editor shows; without it, as msgspec's byte offset."""
    if text == "Input data was truncated":
        return _("it ends before the JSON value is complete")
    if text == "Invalid UTF-8 encoded string":
        return _("Invalid UTF-8 encoded string")
    found = _MALFORMED_TEXT.fullmatch(text)
    if found is None:
        return text
    what = found.group(1)
    what = _(what) if what in _MALFORMED else what
    if raw is None:
        return _("JSON is malformed: {what} (byte {byte})", what=what, byte=found.group(2))
    line, column = line_and_column(raw, int(found.group(2)))
    return _(
        "JSON is malformed: {what} (line {line}, column {column})",
        what=what,
        line=number(line),
        column=number(column),
    )


def line_and_column(raw: bytes, offset: int) -> tuple[int, int]:
    """The 1-based line and column (in characters) of byte `offset` of a UTF-8 text."""
    offset = max(0, min(offset, len(raw)))
    start = raw.rfind(b"\n", 0, offset) + 1
    column = len(raw[start:offset].decode("utf-8", "replace")) + 1
    return raw.count(b"\n", 0, offset) + 1, column
