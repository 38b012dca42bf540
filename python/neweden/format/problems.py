"""Errors and warnings as the report carries them (FORMAT §3): code, message, pointer, cells."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

import msgspec

__all__ = [
    "DECODE_CODES",
    "RULE_CODES",
    "WARNING_CODES",
    "GameDecodeError",
    "Problem",
    "article",
    "did_you_mean",
    "document_order",
    "pointer",
    "pointer_order",
]

#: FORMAT §3.1: what can be checked on the JSON alone.
DECODE_CODES = frozenset(
    {"bad_json", "bad_type", "missing_field", "unknown_field", "bad_value", "too_large"}
)
#: FORMAT §3.1: what needs the catalog, the geometry or the other players.
RULE_CODES = frozenset(
    {
        "unknown_card",
        "unknown_requirement",
        "unknown_epiphany",
        "unknown_style",
        "unknown_type",
        "overlap",
        "disconnected",
        "copy_limit",
        "duplicate_name",
        "activated_five_point",
        "too_many_styles",
        "too_many_types",
        "not_found",
    }
)
#: FORMAT §3.1: warnings never change `valid` or an exit code.
WARNING_CODES = frozenset(
    {
        "empty_city",
        "rotated_without_epiphany",
        "game_not_ended",
        "default_majority_table",
        "one_player_bases",
        "requirements_ignored",
        "requirements_mismatch",
        "style_count_over_box",
        "unknown_first_player",
        "third_star_in_military",
        "similar_names",
        "unknown_effect",
    }
)


class Problem(msgspec.Struct, frozen=True, kw_only=True):
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
        """The one-line form written to standard error: `POINTER: code: message`."""
        return f"{self.path or '/'}: {self.code}: {self.message}"


def pointer_order(path: str) -> tuple[tuple[int, int | str], ...]:
    """A sort key putting JSON Pointers in the order of their places in the document (array
    indices compare as numbers)."""
    return tuple((0, int(t)) if t.isdigit() else (1, t) for t in path.split("/")[1:])


def document_order(problem: Problem) -> tuple[tuple[int, int | str], ...]:
    """A sort key putting problems in the order of their places in the document."""
    return pointer_order(problem.path)


def article(word: str) -> str:
    """`a` or `an` before `word` (an elitist game, a populist game)."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """` (did you mean "x"?)` when one candidate is close to `word`, else nothing."""
    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f' (did you mean "{close[0]}"?)' if close else ""


def _token(part: str | int) -> str:
    if isinstance(part, int):
        return f"/{part}"
    if "~" in part or "/" in part:
        return "/" + part.replace("~", "~0").replace("/", "~1")
    return "/" + part


def pointer(*parts: str | int) -> str:
    """A JSON Pointer (RFC 6901) from reference tokens: `pointer("players", 0)` is `/players/0`."""
    return "".join(map(_token, parts))


def join(base: str, *parts: str | int) -> str:
    """`base` (a pointer) extended by more reference tokens."""
    return base + pointer(*parts)


class GameDecodeError(ValueError):
    """The input is not a readable game; `.problems` lists every decode problem (FORMAT §3.1)."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        head = self.problems[0].line() if self.problems else "no problem listed"
        more = len(self.problems) - 1
        super().__init__(head if more <= 0 else f"{head} (and {more} more)")

    def lines(self) -> Iterable[str]:
        return (p.line() for p in self.problems)
