"""Decoding a game: a fast path, and on failure a pass that finds every problem.

The fast path is msgspec decoding into :class:`neweden.format.model.Game` plus the cross-field
checks of :mod:`neweden.format.checks`. msgspec stops at the first error, so when anything fails, a
second pass decodes the JSON generically and walks it against the *same* types, read through
:func:`msgspec.inspect.type_info`: every decode problem of FORMAT §3.1 is listed, each with
its JSON Pointer. The cross-field checks are the same functions in both passes.

Inputs that could make a decoder allocate or recurse in proportion are refused first: a game
over 1 MiB is one ``too_large`` at the root before any parsing; nesting deeper than the
interpreter can follow is cut at a fixed depth before the generic decode, so a ``meta``
nested 1,000 levels is a ``too_large`` at ``/meta``, not a :class:`RecursionError`.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import sys
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, TypeVar

import msgspec
import numpy as np
from msgspec import inspect as mi

from neweden.format import codes
from neweden.format.checks import CROSS_CHECKS, decoded_is_sound
from neweden.format.model import (
    BOM,
    CATALOG_ID_PATTERN,
    IDENTIFIER_PATTERN,
    MAX_GAME_BYTES,
    Bonus,
    EpiphanyEntry,
    Game,
    InlineCard,
    LoneCity,
    Placement,
    Player,
)
from neweden.format.problems import GameDecodeError, Problem, did_you_mean, document_order, join
from neweden.format.vocabulary import ALIASES, KNOWN_EFFECTS, Named, fold
from neweden.i18n import N_, _, number

__all__ = [
    "decode_city",
    "decode_game",
    "decode_game_bytes",
    "field_label",
    "find_problems",
    "game_bytes",
    "json_error_words",
    "line_and_column",
    "not_json",
]

Doc = TypeVar("Doc", Game, LoneCity)
GameInput = bytes | bytearray | memoryview | str | Mapping[str, Any]

#: Containers deeper than this are emptied before the generic decode of the every-problem
#: pass. The format itself is at most 7 deep; `meta` may add 32; anything deeper is already
#: a problem at a shallower level, which the walk still finds.
CUT_DEPTH = 48
#: Problems listed for one document; past these, one more `too_large` at the root says how
#: many more there are (a 1 MiB game can hold 110,000 unknown keys: an 18 MB answer).
MAX_LISTED_PROBLEMS = 100

#: How messages name each struct (marked here, translated where a message is made).
_LABELS: dict[type, str] = {
    Game: N_("a game"),
    Player: N_("a player"),
    Placement: N_("a city entry"),
    InlineCard: N_("a card"),
    EpiphanyEntry: N_("an epiphany"),
    Bonus: N_("a bonus"),
    LoneCity: N_("a lone city"),
}
#: The Portuguese forms of the manual's names, by attribute (what a name's "did you mean"
#: also looks among).
_ALIAS_FORMS = {
    attribute: [form for forms in names.values() for form in forms]
    for attribute, names in ALIASES.items()
}
_PATTERN_WORDS = {
    IDENTIFIER_PATTERN: N_(
        "an identifier (a lower-case letter, then lower-case letters, digits or _)"
    ),
    CATALOG_ID_PATTERN: N_(
        "a catalog id (letters, digits, _ and -, starting with a letter or digit)"
    ),
    r"^[2-4]$": N_("a player count from 2 to 4"),
}


# --- input to bytes -------------------------------------------------------------------------


def _too_large_root(size: int) -> GameDecodeError:
    return GameDecodeError(
        [
            Problem(
                code=codes.TOO_LARGE,
                message=_(
                    "the game is {size} bytes; the limit is {limit} (1 MiB)",
                    size=number(size),
                    limit=number(MAX_GAME_BYTES),
                ),
                path="",
            )
        ]
    )


def _plain_value(value: Any, path: str, problems: list[Problem]) -> Any:
    """`value` as JSON carries it (a container as an empty shell to fill), or None after
    listing a problem at `path`: no value is coerced (NaN to null, a set to an array)."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        words = _("{what} is {value}; JSON has no such number", what=field_label(path), value=value)
        problems.append(Problem(code=codes.BAD_VALUE, message=words, path=path))
        return None
    if isinstance(value, Mapping):
        return {}
    if isinstance(value, (list, tuple)):
        return []
    words = _(
        "{what} is a Python {kind}, which JSON cannot carry",
        what=field_label(path),
        kind=type(value).__name__,
    )
    problems.append(Problem(code=codes.BAD_TYPE, message=words, path=path))
    return None


def _plain(game: Mapping[str, Any]) -> tuple[dict[str, Any], list[Problem]]:
    """A copy of a mapping made of JSON's own types only (any mapping becomes a dict, a tuple
    a list), with containers deeper than CUT_DEPTH emptied (iterative: any nesting is safe),
    and a problem at its pointer for each value JSON cannot carry."""
    problems: list[Problem] = []
    root: dict[str, Any] = {}
    stack: list[tuple[Any, Any, str, int]] = [(game, root, "", 1)]
    while stack:
        src, dst, path, level = stack.pop()
        items = src.items() if isinstance(src, Mapping) else enumerate(src)
        for key, value in items:
            if isinstance(dst, dict) and not isinstance(key, str):
                words = _(
                    "a key of {what} is {key}; JSON keys are strings",
                    what=field_label(path),
                    key=repr(key),
                )
                problems.append(Problem(code=codes.BAD_TYPE, message=words, path=path))
                continue
            here = join(path, key)
            child = _plain_value(value, here, problems)
            if isinstance(dst, dict):
                dst[key] = child
            else:
                dst.append(child)
            if isinstance(child, (dict, list)) and level < CUT_DEPTH:
                stack.append((value, child, here, level + 1))
    problems.sort(key=document_order)
    return root, problems


def _mapping_bytes(game: Mapping[str, Any]) -> bytes:
    """A mapping as JSON, refused with a problem at each value JSON cannot carry; nesting
    past CUT_DEPTH is emptied rather than overflowing."""
    plain, problems = _plain(game)
    if problems:
        raise GameDecodeError(problems)
    try:
        return msgspec.json.encode(plain)
    except (TypeError, ValueError, OverflowError) as exc:  # a str or int subclass, say
        problem = Problem(
            code=codes.BAD_TYPE,
            message=_("the game holds a non-JSON value: {error}", error=exc),
            path="",
        )
        raise GameDecodeError([problem]) from None


def game_bytes(game: GameInput) -> bytes:
    """The JSON bytes of a game given as bytes, str or a mapping (without a byte-order mark).

    Raises :class:`GameDecodeError` (``too_large`` at the root) for a game over 1 MiB, and
    ``bad_type`` when a mapping holds something JSON cannot carry.
    """
    if type(game) is bytes and len(game) <= MAX_GAME_BYTES and not game.startswith(BOM):
        return game  # the usual case (a line of a file), told at once
    if isinstance(game, (bytes, bytearray, memoryview)):
        view = memoryview(game)
        if view.nbytes > MAX_GAME_BYTES + len(BOM):  # refused before any copy is made
            raise _too_large_root(view.nbytes)
        raw = game if isinstance(game, bytes) else view.tobytes()
    elif isinstance(game, str):
        if len(game) > MAX_GAME_BYTES:  # every character is at least one byte
            raise _too_large_root(len(game))
        raw = game.encode("utf-8", "surrogatepass")
    elif isinstance(game, Mapping):
        raw = _mapping_bytes(game)
    else:
        raise TypeError(
            _("a game is bytes, str or a mapping, not {kind}", kind=type(game).__name__)
        )
    if raw.startswith(BOM):
        raw = raw[len(BOM) :]
    if len(raw) > MAX_GAME_BYTES:
        raise _too_large_root(len(raw))
    return raw


# --- the fast path ------------------------------------------------------------------------


@cache
def _decoder(doc_type: type[Doc]) -> msgspec.json.Decoder[Doc]:
    return msgspec.json.Decoder(doc_type)


def _decode(game: GameInput, doc_type: type[Doc], *, cells: bool = True) -> Doc:
    return _decode_bytes(game_bytes(game), doc_type, cells=cells)


def _decode_bytes(raw: bytes, doc_type: type[Doc], *, cells: bool = True) -> Doc:
    try:
        doc: Doc = _decoder(doc_type).decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        # msgspec checks every value of a key given twice, the plain decode keeps the last:
        # when the walk finds nothing, the problem is in an earlier value of a repeated key.
        problems = find_problems(raw, doc_type, cells=cells) or find_problems(
            raw, doc_type, repeated_keys=True, cells=cells
        )
        raise GameDecodeError(problems) from None
    if not decoded_is_sound(doc):
        # Let the every-problem pass list them, so the order is the document's.
        raise GameDecodeError(find_problems(raw, doc_type, cells=cells))
    return doc


def decode_game(game: GameInput) -> Game:
    """A game (FORMAT §1) from JSON bytes, str or a mapping; ids are not resolved here.

    Raises :class:`GameDecodeError` listing every decode problem.
    """
    return _decode(game, Game)


def decode_game_bytes(raw: bytes) -> Game:
    """:func:`decode_game` of bytes that :func:`game_bytes` gave (its byte-order mark already
    taken off: a second mark is not taken off again)."""
    return _decode_bytes(raw, Game)


def decode_city(city: GameInput) -> LoneCity:
    """A lone city `{"city": [...]}`, as the validation calls accept it."""
    return _decode(city, LoneCity)


def decode_card(card: Any) -> LoneCity:
    """A card asked about alone (a catalog id or an inline card, as a city entry holds it; a
    placements question): decoded as the one entry of a lone city at (0, 0) with the checks
    of a card, its problems at `/city/0/card...` and, that cell being made up, told without
    it. Raises :class:`GameDecodeError`."""
    doc = {"city": [{"row": 0, "col": 0, "card": card}]}
    data: GameInput = doc  # walked value by value: what JSON cannot hold told at its pointer
    if _plain_card(card):  # JSON's own types only: encoded at once (the walk costs ~9 us)
        with contextlib.suppress(TypeError, ValueError, OverflowError):  # an int past 64 bits
            data = msgspec.json.encode(doc)
    return _decode(data, LoneCity, cells=False)


_SCALARS = frozenset((str, int, bool, type(None)))


def _plain_card(card: Any) -> bool:
    """Whether a card holds JSON's own types only (exactly: not a subclass, not a set, no
    NaN), one level of lists at most, as a card does: encoding it cannot change a value."""
    kind = type(card)
    if kind is str:
        return True
    if kind is not dict:
        return False
    for key, value in card.items():
        held = type(value)
        if held is list:
            for item in value:
                if type(item) not in _SCALARS:
                    return False
        elif held not in _SCALARS or type(key) is not str:
            return False
    return True


# --- the every-problem pass ---------------------------------------------------------------

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


class _OutOfRange:
    """Stands for a JSON number Python does not hold (1e999, an integer of more than 4,300
    digits), so the walk can point at it; `words` end the problem's message."""

    def __init__(self, words: str) -> None:
        self.words = words

    def __repr__(self) -> str:
        return "a number out of range"


OUT_OF_RANGE = _OutOfRange(N_("a number beyond any float"))
TOO_MANY_DIGITS = _OutOfRange(N_("an integer of more than {digits} digits"))


def _out_of_range_words(value: _OutOfRange) -> str:
    return _(value.words, digits=number(sys.get_int_max_str_digits() or 4300))


def _float_or_out_of_range(text: str) -> float | _OutOfRange:
    value = float(text)
    return OUT_OF_RANGE if math.isinf(value) else value


def _int_or_out_of_range(text: str) -> int | _OutOfRange:
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


def _generic(raw: bytes) -> Any:
    """The JSON value of `raw`, untyped; containers past CUT_DEPTH emptied when needed.

    Raises :class:`msgspec.DecodeError` when `raw` is not JSON."""
    try:
        return msgspec.json.decode(raw)
    except RecursionError:
        return _generic(_cut_deep_containers(raw, CUT_DEPTH))
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


def _with_repeated_keys(raw: bytes) -> Any:
    """The JSON value with every object a :class:`_Pairs` (the text is known to be valid)."""
    return _loads(_cut_deep_containers(raw, CUT_DEPTH), object_pairs_hook=_pairs)


def find_problems(
    raw: bytes,
    doc_type: type[Any] = Game,
    *,
    labels: Mapping[type, str] | None = None,
    checks: Mapping[type, CrossCheck] | None = None,
    repeated_keys: bool = False,
    cells: bool = True,
) -> list[Problem]:
    """Every decode problem of `raw` as a `doc_type`, in document order (FORMAT §3.1).

    `labels` name the structs in messages and `checks` are their cross-field checks; both
    default to the game format's. With `repeated_keys`, every value of a key given twice in
    one object is checked, not only the last (as msgspec's typed decoding does). `cells`:
    a problem in a city entry says the card's cell at the end of its message."""
    try:
        doc = _with_repeated_keys(raw) if repeated_keys else _generic(raw)
    except msgspec.DecodeError as exc:
        return [not_json(exc, raw)]
    walk = _Walk(_LABELS if labels is None else labels, CROSS_CHECKS if checks is None else checks)
    walk.value(doc, mi.type_info(doc_type), "", ())
    problems = [_with_cell(problem, doc) for problem in walk.problems] if cells else walk.problems
    if not walk.unlisted:
        return problems
    more = Problem(
        code=codes.TOO_LARGE,
        message=_(
            "and {count} more problem(s), not listed: at most {limit} are",
            count=number(walk.unlisted),
            limit=MAX_LISTED_PROBLEMS,
        ),
        path="",
    )
    return [*problems, more]


#: The path of a city entry (of a player, or of a lone city) and what lies below it.
_CITY_ENTRY = re.compile(r"(?:/players/(\d+))?/city/(\d+)(?:/.*)?")


def _cell_of(doc: Any, path: str) -> tuple[int, int] | None:
    """The (row, col) of the city entry holding `path`, when the entry gives both as
    integers; None otherwise (a path outside a city, an entry without a cell)."""
    found = _CITY_ENTRY.fullmatch(path)
    if found is None:
        return None
    player, entry = found.groups()
    try:
        owner = doc["players"][int(player)] if player is not None else doc
        place = owner["city"][int(entry)]
        row, col = place["row"], place["col"]
    except (KeyError, IndexError, TypeError):
        return None
    if type(row) is not int or type(col) is not int:
        return None
    return row, col


def _with_cell(problem: Problem, doc: Any) -> Problem:
    """A problem inside a city entry with the card's cell said at the end of its message,
    so a transcriber finds the card on the photo (the path stays a JSON Pointer)."""
    cell = _cell_of(doc, problem.path)
    if cell is None:
        return problem
    where = _("card at row {row}, column {column}", row=cell[0], column=cell[1])
    return Problem(code=problem.code, message=f"{problem.message} ({where})", path=problem.path)


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


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def field_label(path: str) -> str:
    """How a message names the value at `path`: `row`, item 2 of `sides`, the document."""
    if not path:
        return _("the document")
    parent, _sep, name = path.rpartition("/")
    if name.isdigit():
        owner = _unescape(parent.rpartition("/")[2])
        if owner:
            return _("item {index} of `{owner}`", index=name, owner=owner)
        return _("item {index}", index=name)
    return f"`{_unescape(name)}`"


_KIND_WORDS = {
    "object": N_("an object"),
    "array": N_("an array"),
    "string": N_("a string"),
    "integer": N_("an integer"),
    "number": N_("a number"),
    "boolean": N_("true or false"),
    "null": N_("null"),
}


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "null"


def _type_kinds(t: mi.Type) -> tuple[str, ...]:
    """The JSON kinds a type accepts."""
    if isinstance(t, mi.Metadata):
        return _type_kinds(t.type)
    if isinstance(t, (mi.StructType, mi.DictType)):
        return ("object",)
    if isinstance(t, mi.ListType):
        return ("array",)
    if isinstance(t, mi.StrType):
        return ("string",)
    if isinstance(t, mi.IntType):
        return ("integer",)
    if isinstance(t, mi.BoolType):
        return ("boolean",)
    if isinstance(t, mi.FloatType):
        return ("integer", "number")
    if isinstance(t, mi.LiteralType):
        return tuple(dict.fromkeys(_json_kind(v) for v in t.values))
    if isinstance(t, mi.UnionType):
        return tuple(dict.fromkeys(k for m in t.types for k in _type_kinds(m)))
    if isinstance(t, mi.AnyType):
        return ("object", "array", "string", "integer", "number", "boolean", "null")
    raise TypeError(f"the every-problem pass does not know {t!r}")  # pragma: no cover


def _preview(value: Any) -> str:
    text = msgspec.json.encode(value).decode() if not isinstance(value, (dict, list)) else ""
    return text if len(text) <= 40 else text[:37] + "..."


CrossCheck = Callable[[Any, str], list[Problem]]


def _field_names(fields: Mapping[str, Any]) -> str:
    """The fields a message lists: every one but `$schema`, which an editor adds and is
    no field of the game itself."""
    return ", ".join(name for name in fields if name != "$schema")


class _Walk:
    """Walks a generically decoded JSON value against msgspec type information, calling
    each struct's cross-field check (by class) after its own fields."""

    def __init__(self, labels: Mapping[type, str], checks: Mapping[type, CrossCheck]) -> None:
        self.problems: list[Problem] = []
        self.out_of_range = False  # a number Python does not hold was met (and listed)
        self.unlisted = 0  # problems found past MAX_LISTED_PROBLEMS: counted, not listed
        self.last_path: str | None = None  # where the last problem found is
        self.labels = labels
        self.checks = checks

    @property
    def full(self) -> bool:
        return len(self.problems) >= MAX_LISTED_PROBLEMS

    def add(self, code: str, message: str, path: str) -> None:
        self.last_path = path
        if self.full:
            self.unlisted += 1
        else:
            self.problems.append(Problem(code=code, message=message, path=path))

    def extend(self, problems: list[Problem]) -> None:
        for p in problems:
            self.add(p.code, p.message, p.path)

    def value(self, value: Any, t: mi.Type, path: str, limits: tuple[str, ...]) -> None:
        if isinstance(value, _OutOfRange):
            self.beyond(value, path)
            return
        if isinstance(t, mi.Metadata):
            extra = t.extra or {}
            pattern = extra.get("pattern")
            self.value(value, t.type, path, tuple(extra.get(codes.TOO_LARGE, ())))
            if pattern is not None and isinstance(value, str) and not self.problems_at(path):
                self.pattern(value, pattern, path, extra.get("folded"))
            return
        kinds = _type_kinds(t)
        kind = _json_kind(value)
        if kind not in kinds:
            wanted = _(" or ").join(_(_KIND_WORDS[k]) for k in kinds)
            self.add(
                codes.BAD_TYPE,
                _(
                    "{what} must be {wanted}, not {given}",
                    what=field_label(path),
                    wanted=wanted,
                    given=_(_KIND_WORDS[kind]),
                ),
                path,
            )
            return
        if isinstance(t, mi.UnionType):
            member = next(m for m in t.types if kind in _type_kinds(m))
            self.value(value, member, path, limits)
        elif isinstance(t, mi.StructType):
            self.struct(value, t, path)
        elif isinstance(t, mi.ListType):
            self.array(value, t, path, limits)
        elif isinstance(t, mi.DictType):
            for key, item in value.items():
                self.value(key, t.key_type, join(path, key), ())  # ids as keys (catalogs)
                if isinstance(t.value_type, mi.AnyType):  # `meta`: any JSON, numbers looked at
                    self.inside(item, join(path, key))
                else:
                    self.value(item, t.value_type, join(path, key), ())
        elif isinstance(t, mi.LiteralType):
            if value not in t.values:
                allowed = ", ".join(msgspec.json.encode(v).decode() for v in t.values)
                self.add(
                    codes.BAD_VALUE,
                    _(
                        "{what} is {value}; it must be one of {allowed}",
                        what=field_label(path),
                        value=_preview(value),
                        allowed=allowed,
                    )
                    + did_you_mean(str(value), (str(v) for v in t.values)),
                    path,
                )
        elif isinstance(t, mi.StrType):
            self.string(value, t, path, limits)
        elif isinstance(t, mi.IntType):
            self.integer(value, t, path, limits)

    def beyond(self, value: _OutOfRange, path: str) -> None:
        """A number Python does not hold, at `path`."""
        words = _out_of_range_words(value)
        self.add(codes.BAD_VALUE, _("{what} is {words}", what=field_label(path), words=words), path)
        self.out_of_range = True

    def inside(self, value: Any, path: str) -> None:
        """Each number Python does not hold anywhere inside a value of any kind, in
        document order (a loop, not recursion: the value may be nested deep)."""
        stack: list[tuple[Any, str]] = [(value, path)]
        while stack:
            item, at = stack.pop()
            if isinstance(item, _OutOfRange):
                self.beyond(item, at)
            elif isinstance(item, list):
                stack.extend((item[i], join(at, i)) for i in reversed(range(len(item))))
            elif isinstance(item, dict):
                stack.extend((v, join(at, k)) for k, v in reversed(list(item.items())))

    def problems_at(self, path: str) -> bool:
        return self.last_path == path

    def pattern(self, value: str, pattern: str, path: str, named: Named | None = None) -> None:
        """A pattern problem unless `value` matches (a style, type or effect name: once
        folded, RULES §1)."""
        if named is not None:
            self.name(value, pattern, path, named)
            return
        if re.fullmatch(pattern, value) is not None:
            return
        words = _(_PATTERN_WORDS[pattern]) if pattern in _PATTERN_WORDS else ""
        words = words or _("a string matching {pattern}", pattern=pattern)
        self.add(
            codes.BAD_VALUE,
            _(
                "{what} is {value}, which is not {words}",
                what=field_label(path),
                value=_preview(value),
                words=words,
            ),
            path,
        )

    def name(self, value: str, pattern: str, path: str, named: Named) -> None:
        """A `bad_value` unless `value` folds to an identifier (RULES §1), saying what
        folding does and what the name read as."""
        read = fold(value, named)
        if re.fullmatch(pattern, read) is not None:
            return
        known = KNOWN_EFFECTS if named == "effect" else [*ALIASES[named], *_ALIAS_FORMS[named]]
        self.add(
            codes.BAD_VALUE,
            _(
                "{what} is {value}, which is no name even when folded as players write it "
                "(spaces around it trimmed, Portuguese accents taken off, letters in lower "
                "case, inner spaces and hyphens made _): it reads {read}, and a name is a "
                "letter, then letters, digits or _",
                what=field_label(path),
                value=_preview(value),
                read=_preview(read),
            )
            + did_you_mean(read, known),
            path,
        )

    def struct(self, value: dict[str, Any], t: mi.StructType, path: str) -> None:
        fields = {f.encode_name: f for f in t.fields}
        for key, item in value.items():
            field = fields.get(key)
            if field is None:
                if t.forbid_unknown_fields and self.full:  # counted without its message
                    self.add(codes.UNKNOWN_FIELD, "", join(path, key))
                elif t.forbid_unknown_fields:
                    self.add(
                        codes.UNKNOWN_FIELD,
                        _("`{key}` is not a field of {owner}", key=key, owner=self.label(t.cls))
                        + did_you_mean(key, fields)
                        + _(" (the fields are: {known})", known=_field_names(fields)),
                        join(path, key),
                    )
                continue
            self.value(item, field.type, join(path, key), ())
        for key, item in getattr(value, "repeated", ()):  # earlier values of a repeated key
            field = fields.get(key)
            if field is not None:
                self.value(item, field.type, join(path, key), ())
        for name, field in fields.items():
            if field.required and name not in value:
                self.add(
                    codes.MISSING_FIELD,
                    _("{owner} needs `{name}`", owner=self.label(t.cls), name=name),
                    join(path, name),
                )
        check = self.checks.get(t.cls)
        if check is not None:
            self.extend(self.cross_check(check, value, path))

    def label(self, cls: type) -> str:
        """How messages name a struct, in the current language."""
        known = self.labels.get(cls)
        return _("this object") if known is None else _(known)

    def cross_check(self, check: CrossCheck, value: dict[str, Any], path: str) -> list[Problem]:
        """The struct's cross-field check; one that cannot encode a number out of range (the
        `meta` size) is left out, that number being listed already."""
        try:
            return check(value, path)
        except TypeError:
            if self.out_of_range:
                return []
            raise

    def array(self, value: list[Any], t: mi.ListType, path: str, limits: tuple[str, ...]) -> None:
        n = len(value)
        if t.max_length is not None and n > t.max_length:
            code = codes.TOO_LARGE if "max_length" in limits else codes.BAD_VALUE
            self.add(
                code,
                _(
                    "{what} has {count} items; at most {limit} are allowed",
                    what=field_label(path),
                    count=number(n),
                    limit=number(t.max_length),
                ),
                path,
            )
            if code == codes.TOO_LARGE:
                return  # its items are not looked at: the list is refused whole
        if t.min_length is not None and n < t.min_length:
            if n == 0:
                words = _(
                    "{what} is empty; at least {limit} are needed",
                    what=field_label(path),
                    limit=t.min_length,
                )
            else:
                words = _(
                    "{what} has {count} items; at least {limit} are needed",
                    what=field_label(path),
                    count=n,
                    limit=t.min_length,
                )
            self.add(codes.BAD_VALUE, words, path)
        for i, item in enumerate(value):
            self.value(item, t.item_type, join(path, i), ())

    def string(self, value: str, t: mi.StrType, path: str, limits: tuple[str, ...]) -> None:
        n = len(value)
        if t.max_length is not None and n > t.max_length:
            code = codes.TOO_LARGE if "max_length" in limits else codes.BAD_VALUE
            self.add(
                code,
                _(
                    "{what} is {count} characters long; at most {limit} are allowed",
                    what=field_label(path),
                    count=number(n),
                    limit=number(t.max_length),
                ),
                path,
            )
        elif t.min_length is not None and n < t.min_length:
            words = _("{what} is empty; it needs some text", what=field_label(path))
            self.add(codes.BAD_VALUE, words, path)
        elif t.pattern is not None:
            self.pattern(value, t.pattern, path)

    def integer(self, value: int, t: mi.IntType, path: str, limits: tuple[str, ...]) -> None:
        for bound, broken in (
            ("ge", t.ge is not None and value < t.ge),
            ("le", t.le is not None and value > t.le),
            ("gt", t.gt is not None and value <= t.gt),
            ("lt", t.lt is not None and value >= t.lt),
        ):
            if broken:
                code = codes.TOO_LARGE if bound in limits else codes.BAD_VALUE
                self.add(
                    code,
                    _(
                        "{what} is {value}; {limits}",
                        what=field_label(path),
                        value=_preview(value),
                        limits=_range_words(t),
                    ),
                    path,
                )
                return


def _range_words(t: mi.IntType) -> str:
    low = t.ge if t.ge is not None else (t.gt + 1 if t.gt is not None else None)
    high = t.le if t.le is not None else (t.lt - 1 if t.lt is not None else None)
    if low is not None and high is not None:
        return _("it must be from {low} to {high}", low=number(low), high=number(high))
    if low is not None:
        return _("it must be at least {low}", low=number(low))
    return _("it must be at most {high}", high=number(high or 0))
