"""A game's JSON bytes from what a caller gives: bytes, str or a mapping. A game over 1 MiB
is refused before any copy or parse; a mapping is copied as JSON's own types, each value
JSON cannot carry told at its pointer.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import msgspec

from neweden.format import codes
from neweden.format.model import BOM, MAX_GAME_BYTES
from neweden.format.problems import GameDecodeError, Problem, document_order, join
from neweden.format.untyped import CUT_DEPTH
from neweden.format.walk import field_label
from neweden.i18n import _, number

__all__ = ["GameInput", "game_bytes"]

GameInput = bytes | bytearray | memoryview | str | Mapping[str, Any]


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


def _only_json(game: dict[str, Any]) -> bool:
    """Whether a dict holds only JSON's own types, exactly (dicts with str keys, lists, str,
    int, bool, None and finite floats; no subclass), nested at most CUT_DEPTH deep: what
    :func:`_plain` would copy unchanged, so its JSON is msgspec's of the dict itself. Told
    yes or no only (any doubt: :func:`_plain` says what and where)."""
    stack: list[tuple[Any, int]] = [(game, 1)]
    while stack:  # (iterative, plain loops: this runs for every mapping scored)
        node, level = stack.pop()
        if type(node) is dict:
            mapping: dict[Any, Any] = node  # (typed: compiled, a dict's own iteration)
            for key, value in mapping.items():
                if type(key) is not str or not _json_value(value, level, stack):
                    return False
        else:
            items: list[Any] = node
            for value in items:
                if not _json_value(value, level, stack):
                    return False
    return True


def _json_value(value: Any, level: int, stack: list[tuple[Any, int]]) -> bool:
    """Whether `value`, of a container `level` deep, is one of JSON's own types (a dict or
    a list put on `stack`, to be looked into)."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return True
    if kind is dict or kind is list:
        if level >= CUT_DEPTH:  # (a container _plain would empty)
            return False
        stack.append((value, level + 1))
        return True
    return kind is float and math.isfinite(value)


def _mapping_bytes(game: Mapping[str, Any]) -> bytes:
    """A mapping as JSON, refused with a problem at each value JSON cannot carry; nesting
    past CUT_DEPTH is emptied rather than overflowing. A dict of JSON's own types only (what
    an app gives nearly always) is encoded as it is, without the copy."""
    if type(game) is dict and _only_json(game):
        try:
            return msgspec.json.encode(game)
        except (TypeError, ValueError, OverflowError):
            pass  # (an int past 64 bits, say: the copy's encoding says so below)
    return _copied_bytes(game)


def _copied_bytes(game: Mapping[str, Any]) -> bytes:
    """:func:`_mapping_bytes` by way of :func:`_plain`'s copy (any mapping)."""
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
