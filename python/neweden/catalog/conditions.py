"""The condition language: requirement and epiphany conditions as data (docs/catalog.md),
and its check.

A condition is JSON (or TOML) built from a few operators, so a player can type in the
printed cards of their copy without writing code. It is checked once, when a catalog loads
(:func:`check_condition`, every problem with its pointer), and evaluated over a city's
scored cards and the core's figures (:mod:`neweden.rules.conditions`).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from neweden.format import codes
from neweden.format.checks import fold_name
from neweden.format.model import FACILITIES
from neweden.format.problems import Problem, did_you_mean, join, pointer_order
from neweden.format.vocabulary import ALIASES, KNOWN_NAMES, Attribute, fold
from neweden.i18n import N_, _

__all__ = [
    "check_condition",
    "names_in",
    "uses_geometry",
]

COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
    "==": operator.eq,
    "!=": operator.ne,
}
LOGIC = ("and", "or", "not")
ATTRIBUTES = ("style", "type", "facility")
FILTER_KEYS = ("style", "type", "facility", "stars", "wild")
#: value operators and the shape of their argument
VALUES = (
    "count",
    "distinct",
    "all_styles",
    "row_cards",
    "column_cards",
    "open_connections",
    "complete_connections",
    "largest_group",
    "adjacent",
)
GEOMETRY = ("open_connections", "complete_connections")
MAX_DEPTH = 32
#: JSON values in one condition: every object, list, name, number and true/false counts one
#: (the built-in requirements hold 6 or 7; the cost of evaluating it is bounded by this).
MAX_VALUES = 256


# --- checking ------------------------------------------------------------------------------


def _problem(code: str, message: str, path: str) -> Problem:
    return Problem(code=code, message=message, path=path)


def _check_filter(spec: Any, path: str) -> list[Problem]:
    if not isinstance(spec, dict):
        words = _('a card filter is an object, e.g. {"style": "gothic"}')
        return [_problem(codes.BAD_TYPE, words, path)]
    problems = []
    for key, value in spec.items():
        where = join(path, key)
        if key not in FILTER_KEYS:
            problems.append(
                _problem(
                    codes.UNKNOWN_FIELD,
                    _("`{key}` is not a filter key", key=key)
                    + did_you_mean(key, FILTER_KEYS)
                    + _(" (the keys are: {keys})", keys=", ".join(FILTER_KEYS)),
                    where,
                )
            )
        elif key == "wild":
            if not isinstance(value, bool):
                problems.append(_problem(codes.BAD_TYPE, _("`wild` is true or false"), where))
        elif key == "stars":
            items = value if isinstance(value, list) else [value]
            if not items or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 3 for v in items
            ):
                problems.append(
                    _problem(codes.BAD_VALUE, _("`stars` is 0 to 3, or a list of them"), where)
                )
        else:
            items = value if isinstance(value, list) else [value]
            if not items or not all(isinstance(v, str) and v for v in items):
                problems.append(
                    _problem(
                        codes.BAD_VALUE, _("`{key}` is a name or a list of names", key=key), where
                    )
                )
            elif key == "facility" and any(v not in FACILITIES for v in items):
                problems.append(
                    _problem(
                        codes.BAD_VALUE,
                        _("a facility is one of {names}", names=", ".join(FACILITIES)),
                        where,
                    )
                )
            elif key in ("style", "type"):
                problems.extend(_name_problems(key, items, where, isinstance(value, list)))
    return problems


_NOT_A_NAME = {
    "style": N_(
        'the style "{name}" is not a name a card can have: folded as players write it (spaces '
        "around it trimmed, Portuguese accents taken off, letters in lower case, inner spaces "
        'and hyphens made _) it reads "{read}", and a name is a letter, then letters, digits '
        "or _"
    ),
    "type": N_(
        'the type "{name}" is not a name a card can have: folded as players write it (spaces '
        "around it trimmed, Portuguese accents taken off, letters in lower case, inner spaces "
        'and hyphens made _) it reads "{read}", and a name is a letter, then letters, digits '
        "or _"
    ),
}


def _name_problems(
    attribute: Attribute, names: list[str], where: str, listed: bool
) -> list[Problem]:
    """A style or type name in a filter is what a card's would be: a name that folds to an
    identifier (RULES §1; a name no card can have would make the condition silently
    false)."""
    problems = []
    for i, name in enumerate(names):
        if fold_name(name, attribute) is None:
            at = join(where, i) if listed else where
            read = fold(name, attribute)
            problems.append(
                _problem(
                    codes.BAD_VALUE,
                    _(_NOT_A_NAME[attribute], name=name, read=read)
                    + did_you_mean(read, [*ALIASES[attribute], *KNOWN_NAMES]),
                    at,
                )
            )
    return problems


def _check_value(expr: Any, path: str, depth: int) -> list[Problem]:
    if isinstance(expr, bool) or not isinstance(expr, (int, dict)):
        return [
            _problem(
                codes.BAD_TYPE,
                _('a value is an integer or one object such as {"count": {...}}'),
                path,
            )
        ]
    if isinstance(expr, int):
        return []
    if len(expr) != 1:
        return [
            _problem(
                codes.BAD_VALUE,
                _(
                    "a value object has exactly one operator (one of: {operators}), not {count}",
                    operators=", ".join(VALUES),
                    count=len(expr),
                ),
                path,
            )
        ]
    ((op, arg),) = expr.items()
    where = join(path, op)
    if op not in VALUES:
        return [
            _problem(
                codes.BAD_VALUE,
                _("`{op}` is not a value operator", op=op)
                + did_you_mean(op, VALUES)
                + _(" (the operators are: {operators})", operators=", ".join(VALUES)),
                where,
            )
        ]
    return _check_argument(op, arg, where)


def _check_argument(op: str, arg: Any, where: str) -> list[Problem]:
    """The problems of the argument of value operator `op`, at `where`."""
    if op == "count":
        return _check_filter(arg, where)
    if op == "distinct":
        if arg not in ATTRIBUTES:
            return [
                _problem(
                    codes.BAD_VALUE,
                    _("`distinct` takes one of {names}", names=", ".join(ATTRIBUTES)),
                    where,
                )
            ]
        return []
    if op in ("all_styles", "open_connections", "complete_connections"):
        if arg != {}:
            words = _("`{op}` takes no argument: write {{}}", op=op)
            return [_problem(codes.BAD_VALUE, words, where)]
        return []
    if op in ("row_cards", "column_cards"):
        return _check_lines(op, arg, where)
    if op == "largest_group":
        return _check_group(arg, where)
    # adjacent
    if not isinstance(arg, list) or len(arg) != 2:
        words = _("`adjacent` takes two card filters: [{...}, {...}]")
        return [_problem(codes.BAD_TYPE, words, where)]
    return _check_filter(arg[0], join(where, 0)) + _check_filter(arg[1], join(where, 1))


def _check_lines(op: str, arg: Any, where: str) -> list[Problem]:
    """The argument of `row_cards` or `column_cards`."""
    if not isinstance(arg, dict):
        return [
            _problem(
                codes.BAD_TYPE,
                _(
                    "`{op}` takes an object: {{}}, or with `line` (a row or column number) "
                    "and `where` (a card filter)",
                    op=op,
                ),
                where,
            )
        ]
    problems = []
    for key, value in arg.items():
        if key == "line":
            if isinstance(value, bool) or not isinstance(value, int):
                words = _("`line` is an integer")
                problems.append(_problem(codes.BAD_TYPE, words, join(where, key)))
        elif key == "where":
            problems.extend(_check_filter(value, join(where, key)))
        else:
            problems.append(
                _problem(
                    codes.UNKNOWN_FIELD,
                    _(
                        "`{key}` is not a key of `{op}` (the keys are: line, where)",
                        key=key,
                        op=op,
                    ),
                    join(where, key),
                )
            )
    return problems


def _check_group(arg: Any, where: str) -> list[Problem]:
    """The argument of `largest_group`."""
    if not isinstance(arg, dict):
        return [
            _problem(
                codes.BAD_TYPE,
                _('`largest_group` takes {"by": ATTRIBUTE} and optionally "value"'),
                where,
            )
        ]
    problems = []
    if arg.get("by") not in ATTRIBUTES:
        problems.append(
            _problem(
                codes.BAD_VALUE,
                _("`by` is one of {names}", names=", ".join(ATTRIBUTES)),
                join(where, "by"),
            )
        )
    if "value" in arg and not (isinstance(arg["value"], str) and arg["value"]):
        problems.append(_problem(codes.BAD_TYPE, _("`value` is a name"), join(where, "value")))
    elif "value" in arg and arg.get("by") in ("style", "type"):
        problems.extend(_name_problems(arg["by"], [arg["value"]], join(where, "value"), False))
    problems.extend(
        _problem(
            codes.UNKNOWN_FIELD,
            _("`{key}` is not a key of `largest_group` (the keys are: by, value)", key=key),
            join(where, key),
        )
        for key in arg
        if key not in ("by", "value")
    )
    return problems


def names_in(expr: Any, path: str) -> list[tuple[str, Attribute, str]]:
    """Every style and type name a checked condition asks for, as (pointer, attribute,
    name): in card filters, and the `value` of a `largest_group` by style or type."""
    found: list[tuple[str, Attribute, str]] = []
    todo: list[tuple[Any, str]] = [(expr, path)]
    while todo:
        node, at = todo.pop()
        if isinstance(node, list):
            todo.extend((item, join(at, i)) for i, item in enumerate(node))
            continue
        if not isinstance(node, dict):
            continue
        for attribute in ("style", "type"):
            value = node.get(attribute)
            if isinstance(value, str):
                found.append((join(at, attribute), attribute, value))
            elif isinstance(value, list):
                found.extend(
                    (join(at, attribute, i), attribute, v)
                    for i, v in enumerate(value)
                    if isinstance(v, str)
                )
        if node.get("by") in ("style", "type") and isinstance(node.get("value"), str):
            found.append((join(at, "value"), node["by"], node["value"]))
        todo.extend((v, join(at, k)) for k, v in node.items() if isinstance(v, (dict, list)))
    return sorted(found, key=lambda item: pointer_order(item[0]))


def _values_over(expr: Any, limit: int) -> bool:
    """Whether the condition holds more than `limit` JSON values (counted without
    recursion, and only until the limit is passed)."""
    todo, seen = [expr], 0
    while todo:
        value = todo.pop()
        seen += 1
        if seen > limit:
            return True
        if isinstance(value, dict):
            todo.extend(value.values())
        elif isinstance(value, list):
            todo.extend(value)
    return False


# check_condition walks and/or/not itself, not with neweden.rules.conditions.fold (the
# readers' walk, a layer above): the fold takes a checked condition and unpacks it (one
# operator, a list, two values), where this walk meets any JSON, gives each wrong shape its
# problem at its pointer and depth, and goes on to the siblings.
def check_condition(expr: Any, path: str, depth: int = 1) -> list[Problem]:
    """Every problem of a condition, each with its JSON Pointer (below `path`); a condition
    of more than MAX_VALUES JSON values is refused whole."""
    if depth == 1 and _values_over(expr, MAX_VALUES):
        return [
            _problem(
                codes.TOO_LARGE,
                _(
                    "the condition holds more than {limit} JSON values (objects, lists, names "
                    "and numbers); a printed card's condition needs far fewer",
                    limit=MAX_VALUES,
                ),
                path,
            )
        ]
    if depth > MAX_DEPTH:
        return [
            _problem(
                codes.TOO_LARGE,
                _("the condition is nested more than {limit} levels", limit=MAX_DEPTH),
                path,
            )
        ]
    if isinstance(expr, bool):
        return []
    if not isinstance(expr, dict) or len(expr) != 1:
        return [
            _problem(
                codes.BAD_TYPE if not isinstance(expr, dict) else codes.BAD_VALUE,
                _(
                    "a condition is true, false, or one object such as "
                    '{">=": [a, b]} or {"and": [...]}'
                ),
                path,
            )
        ]
    ((op, arg),) = expr.items()
    where = join(path, op)
    if op in ("and", "or"):
        if not isinstance(arg, list) or not arg:
            words = _("`{op}` takes a non-empty list of conditions", op=op)
            return [_problem(codes.BAD_TYPE, words, where)]
        return [p for i, c in enumerate(arg) for p in check_condition(c, join(where, i), depth + 1)]
    if op == "not":
        return check_condition(arg, where, depth + 1)
    if op in COMPARISONS:
        if not isinstance(arg, list) or len(arg) != 2:
            return [_problem(codes.BAD_TYPE, _("`{op}` compares two values: [a, b]", op=op), where)]
        return _check_value(arg[0], join(where, 0), depth) + _check_value(
            arg[1], join(where, 1), depth
        )
    return [
        _problem(
            codes.BAD_VALUE,
            _("`{op}` is not a condition operator", op=op)
            + did_you_mean(op, (*LOGIC, *COMPARISONS))
            + _(" (the operators are: {operators})", operators=", ".join((*LOGIC, *COMPARISONS))),
            where,
        )
    ]


def uses_geometry(expr: Any) -> bool:
    """True when the condition reads the core's connection figures."""
    if isinstance(expr, dict):
        return any(k in GEOMETRY or uses_geometry(v) for k, v in expr.items())
    if isinstance(expr, list):
        return any(uses_geometry(v) for v in expr)
    return False
