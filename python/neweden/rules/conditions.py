"""Conditions evaluated: a requirement's or an epiphany's condition (the language of
:mod:`neweden.catalog.conditions`, checked when the catalog loads) read over a city's scored
cards and the core's figures (:func:`evaluate`), with the words that say why (:func:`judge`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from neweden._kept import kept
from neweden.catalog.catalog import Catalog, ResolvedCard
from neweden.catalog.conditions import COMPARISONS
from neweden.format.sides import STEP
from neweden.geometry.figures import ScoreFigures
from neweden.i18n import N_, _, current, ngettext

__all__ = [
    "CityContext",
    "Test",
    "compiled",
    "evaluate",
    "fold",
    "judge",
    "judged",
    "value_of",
    "values_and_words",
]

_T = TypeVar("_T")


# --- the walk ------------------------------------------------------------------------------


def fold(
    expr: Any,
    *,
    const: Callable[[bool], _T],
    join: Callable[[bool, list[_T]], _T],
    negate: Callable[[_T], _T],
    compare: Callable[[str, Any, Any], _T],
) -> _T:
    """A checked condition's boolean structure, walked once for each of its readers (a
    city's test, its words, score_table's columns), which give their own four functions:
    `true` or `false` is ``const(truth)``; ``{"and": [...]}`` or ``{"or": [...]}`` is
    ``join(every, parts)`` (`every`: "and"); ``{"not": c}`` is ``negate(part)``; a comparison
    ``{op: [a, b]}`` is ``compare(op, a, b)``, its values as written. Parts are read first,
    in the order written. (check_condition walks any shape itself; a comment above it says why.)"""

    def walk(node: Any) -> _T:
        if isinstance(node, bool):
            return const(node)
        ((op, arg),) = node.items()
        if op in ("and", "or"):
            return join(op == "and", [walk(part) for part in arg])
        if op == "not":
            return negate(walk(arg))
        a, b = arg
        return compare(op, a, b)

    return walk(expr)


# --- evaluating ----------------------------------------------------------------------------


class CityContext:
    """A city as conditions see it: its score figures (None: count from the cards), the
    catalog, and the scored cards, which only conditions that filter or place cards read:
    they can be given as a function that makes them on first use."""

    __slots__ = ("_cards", "_cells", "catalog", "figures")

    def __init__(
        self,
        cards: Sequence[ResolvedCard] | Callable[[], Sequence[ResolvedCard]],
        figures: ScoreFigures | None,
        catalog: Catalog,
    ) -> None:
        self._cards = cards
        self._cells: dict[tuple[int, int], ResolvedCard] | None = None
        self.figures = figures
        self.catalog = catalog

    def show(
        self,
        cards: Sequence[ResolvedCard] | Callable[[], Sequence[ResolvedCard]],
        figures: ScoreFigures | None,
    ) -> None:
        """Another city of the same catalog (the report reuses one context per game)."""
        self._cards = cards
        self._cells = None
        self.figures = figures

    @property
    def cards(self) -> Sequence[ResolvedCard]:
        if callable(self._cards):
            self._cards = self._cards()
        return self._cards

    @property
    def cells(self) -> dict[tuple[int, int], ResolvedCard]:
        if self._cells is None:
            self._cells = {(c.row, c.col): c for c in self.cards}
        return self._cells

    def neighbours(self, card: ResolvedCard) -> list[ResolvedCard]:
        return [
            n
            for dr, dc in STEP.values()
            if (n := self.cells.get((card.row + dr, card.col + dc))) is not None
        ]


def _attribute(card: ResolvedCard, name: str) -> str | None:
    spec = card.spec
    return None if spec is None else getattr(spec, name)


def _matches(card: ResolvedCard, spec: dict[str, Any]) -> bool:
    s = card.spec
    if s is None:
        return False
    for key, wanted in spec.items():
        allowed = wanted if isinstance(wanted, list) else [wanted]
        if key == "wild":
            if s.wild != wanted:
                return False
        elif key == "stars":
            if s.stars not in allowed:
                return False
        elif getattr(s, key) not in allowed:
            return False
    return True


def _lines(ctx: CityContext, arg: dict[str, Any], axis: str) -> int:
    where = arg.get("where")
    lines = [
        c.row if axis == "row" else c.col
        for c in ctx.cards
        if c.spec is not None and (not where or _matches(c, where))
    ]
    counts: dict[int, int] = {}
    for line in lines:
        counts[line] = counts.get(line, 0) + 1
    if "line" in arg:
        return counts.get(arg["line"], 0)
    return max(counts.values(), default=0)


def _largest_group(ctx: CityContext, by: str, value: str | None) -> int:
    best = 0
    seen: set[tuple[int, int]] = set()
    for card in ctx.cards:
        mine = _attribute(card, by)
        if mine is None or (value is not None and mine != value) or (card.row, card.col) in seen:
            continue
        seen.add((card.row, card.col))
        todo, size = [card], 0
        while todo:
            here = todo.pop()
            size += 1
            for n in ctx.neighbours(here):
                if (n.row, n.col) not in seen and _attribute(n, by) == mine:
                    seen.add((n.row, n.col))
                    todo.append(n)
        best = max(best, size)
    return best


def _adjacent(ctx: CityContext, a: dict[str, Any], b: dict[str, Any]) -> int:
    pairs = set()
    for card in ctx.cards:
        for n in ctx.neighbours(card):
            if _matches(card, a) and _matches(n, b):
                pairs.add(frozenset(((card.row, card.col), (n.row, n.col))))
    return len(pairs)


# The value operators. The unfiltered counts are the core's tallies when the figures are
# known (the twin tests hold them equal to counting the cards).


def _count(arg: dict[str, Any], ctx: CityContext) -> int:
    if not arg:
        fig = ctx.figures
        if fig is not None:
            return fig.cards
        return sum(1 for c in ctx.cards if c.spec is not None)
    return sum(1 for c in ctx.cards if _matches(c, arg))


def _distinct(arg: str, ctx: CityContext) -> int:
    fig, catalog = ctx.figures, ctx.catalog
    if fig is not None and arg == "style" and catalog.styles is None:
        return fig.styles
    found = {getattr(c.spec, arg) for c in ctx.cards if c.spec is not None}
    found.discard(None)
    declared = catalog.styles if arg == "style" else (catalog.types if arg == "type" else None)
    return len(found & declared) if declared is not None else len(found)


def _all_styles(arg: Any, ctx: CityContext) -> int:
    return len(ctx.catalog.styles) if ctx.catalog.styles is not None else 5


def _row_cards(arg: dict[str, Any], ctx: CityContext) -> int:
    if not arg and ctx.figures is not None:
        return ctx.figures.row_cards
    return _lines(ctx, arg, "row")


def _column_cards(arg: dict[str, Any], ctx: CityContext) -> int:
    if not arg and ctx.figures is not None:
        return ctx.figures.column_cards
    return _lines(ctx, arg, "col")


def _figures(ctx: CityContext, op: str) -> ScoreFigures:
    if ctx.figures is None:
        raise ValueError(_("`{op}` needs the city's figures", op=op))
    return ctx.figures


def _open_connections(arg: Any, ctx: CityContext) -> int:
    return _figures(ctx, "open_connections").open_connections


def _complete_connections(arg: Any, ctx: CityContext) -> int:
    return _figures(ctx, "complete_connections").complete_connections


_VALUE_OPS: dict[str, Callable[[Any, CityContext], int]] = {
    "count": _count,
    "distinct": _distinct,
    "all_styles": _all_styles,
    "row_cards": _row_cards,
    "column_cards": _column_cards,
    "open_connections": _open_connections,
    "complete_connections": _complete_connections,
    "largest_group": lambda arg, ctx: _largest_group(ctx, arg["by"], arg.get("value")),
    "adjacent": lambda arg, ctx: _adjacent(ctx, arg[0], arg[1]),
}


def _value(expr: Any, ctx: CityContext) -> int:
    if isinstance(expr, int):
        return expr
    ((op, arg),) = expr.items()
    return _VALUE_OPS[op](arg, ctx)


def _filter_words(spec: dict[str, Any]) -> str:
    """`{"style": "gothic", "stars": [2, 3]}` as words: `gothic, 2 or 3-star` (the names are
    identifiers, never translated)."""
    words = []
    either = _(" or ")
    for key, wanted in spec.items():
        values = wanted if isinstance(wanted, list) else [wanted]
        if key == "wild":
            words.append(_("wild") if wanted else _("common"))
        elif key == "stars":
            count = values[0] if len(values) == 1 and isinstance(values[0], int) else 2
            stars = either.join(str(v) for v in values)
            words.append(ngettext("{stars}-star", "{stars}-star", count, stars=stars))
        else:
            words.append(either.join(str(v) for v in values))
    return ", ".join(words)


_DISTINCT = {
    "style": N_("{n} distinct styles"),
    "type": N_("{n} distinct types"),
    "facility": N_("{n} distinct facilitys"),  # the English words were made as `{arg}s`
}
_GROUP = {
    "style": N_("{n} cards in the largest group of adjacent cards sharing the style{value}"),
    "type": N_("{n} cards in the largest group of adjacent cards sharing the type{value}"),
    "facility": N_("{n} cards in the largest group of adjacent cards sharing the facility{value}"),
}


def _place(op: str, arg: dict[str, Any]) -> str:
    """The line a `row_cards` or `column_cards` counts in: `row 3`, `the fullest column`."""
    if "line" in arg:
        if op == "row_cards":
            return _("row {line}", line=arg["line"])
        return _("column {line}", line=arg["line"])
    return _("the fullest row") if op == "row_cards" else _("the fullest column")


def _noun(expr: Any, n: int | str) -> str:
    """A value operator as words around its number: `6 open connections`."""
    ((op, arg),) = expr.items()
    if op == "count":
        kind = _filter_words(arg)
        return _("{n} {kind} cards", n=n, kind=kind) if kind else _("{n} cards", n=n)
    if op == "distinct":
        known = _DISTINCT.get(arg)
        if known is None:  # pragma: no cover - a checked condition has one of ATTRIBUTES
            return f"{n} distinct {arg}s"
        return _(known, n=n)
    if op == "all_styles":
        return _("{n} (the styles of the game)", n=n)
    if op in ("row_cards", "column_cards"):
        place = _place(op, arg)
        if arg.get("where"):
            kind = _filter_words(arg["where"])
            return _("{n} {kind} cards in {place}", n=n, kind=kind, place=place)
        return _("{n} cards in {place}", n=n, place=place)
    if op == "open_connections":
        return _("{n} open connections", n=n)
    if op == "complete_connections":
        return _("{n} complete connections", n=n)
    if op == "largest_group":
        value = f' "{arg["value"]}"' if "value" in arg else ""
        return _(_GROUP[arg["by"]], n=n, value=value)
    anything = _("any")
    return _(
        "{n} adjacent pairs of {a} and {b} cards",
        n=n,
        a=_filter_words(arg[0]) or anything,
        b=_filter_words(arg[1]) or anything,
    )


#: The limit a comparison sets, in words around the other value (`at most 4 allowed`).
_LIMIT_WORDS = {
    ">=": N_("at least {limit} needed"),
    ">": N_("more than {limit} needed"),
    "<=": N_("at most {limit} allowed"),
    "<": N_("fewer than {limit} allowed"),
    "==": N_("exactly {limit} needed"),
    "!=": N_("anything but {limit} needed"),
}


def judge(expr: Any, ctx: CityContext) -> tuple[bool, str]:
    """The condition's truth and, in words with the city's numbers, why: e.g. `6 open
    connections; at most 4 allowed` (in the current language). Every value is computed
    once."""
    return judged(expr)(ctx)


Judged = Callable[[CityContext], tuple[bool, str]]


def values_and_words(
    expr: Any,
) -> tuple[list[Value], Callable[[Sequence[int]], tuple[bool, str]]]:
    """What :func:`judged` is made of: the values the condition reads of a city, in order,
    and its verdict in words from those values (in the current language). For a caller that
    keeps its own sentences by the values read (a requirement's judge)."""
    values, say = _sayer(expr)
    return values, lambda read: say(iter(read))


_HOLE = "\x00"  # where a value's number goes in its words (no condition's words hold it)


def _words_of(expr: Any) -> Callable[[int], str]:
    """A value's words around its number (`6 open connections`), the words made once."""
    if isinstance(expr, int):
        return str
    before, _hole, after = _noun(expr, _HOLE).partition(_HOLE)
    return lambda n: f"{before}{n}{after}"


#: A condition's words from its values (every value operator's, in reading order).
_Say = Callable[[Iterator[int]], tuple[bool, str]]
#: The values a condition reads, in order, and its verdict from them (_sayer's fold).
_Said = tuple[list["Value"], _Say]
_MAX_SAID = 1024  # sentences kept a condition (a few dozen distinct values recur)


def _judge(expr: Any) -> Judged:
    """The judge of a condition: its values read off the city, and its verdict in words
    made once for each distinct set of values (the same few numbers recur from city to
    city, and the words are most of a judgement's cost)."""
    values, say = _sayer(expr)
    said: dict[tuple[int, ...], tuple[bool, str]] = {}

    def judgement(ctx: CityContext) -> tuple[bool, str]:
        key = tuple([value(ctx) for value in values])
        found = said.get(key)
        if found is None:
            if len(said) >= _MAX_SAID:
                said.clear()
            found = said[key] = say(iter(key))
        return found

    return judgement


def _sayer(expr: Any) -> _Said:
    """The values a condition reads, in order, and its verdict in words from them."""

    def const(truth: bool) -> _Said:
        verdict = (truth, _("always") if truth else _("never"))
        return [], lambda values: verdict

    def join(every: bool, parts: list[_Said]) -> _Said:
        joined, says = _(" and ") if every else _(" or "), [say for _read, say in parts]

        def both(values: Iterator[int]) -> tuple[bool, str]:
            found = [say(values) for say in says]
            truths = [t for t, _why in found]
            truth = all(truths) if every else any(truths)
            return truth, joined.join([f"({why})" for _truth, why in found])

        return [value for read, _say in parts for value in read], both

    def negate(part: _Said) -> _Said:
        (read, inner), negation = part, _("not ({why})")

        def negated(values: Iterator[int]) -> tuple[bool, str]:
            truth, why = inner(values)
            return not truth, negation.format(why=why)

        return read, negated

    def compare(op: str, a: Any, b: Any) -> _Said:
        test, words_a, words_b = COMPARISONS[op], _words_of(a), _words_of(b)
        limit = _(_LIMIT_WORDS[op])

        def compared(values: Iterator[int]) -> tuple[bool, str]:
            va, vb = next(values), next(values)
            return test(va, vb), f"{words_a(va)}; {limit.format(limit=words_b(vb))}"

        return [value_of(a), value_of(b)], compared

    return fold(expr, const=const, join=join, negate=negate, compare=compare)


Test = Callable[[CityContext], bool]
Value = Callable[[CityContext], int]

#: Conditions turned into closures, by identity (each kept alive by its entry): the tests,
#: and the judges that say why in words, by language (their words are made once).
_COMPILED: dict[int, tuple[Any, Test]] = {}
_JUDGED: dict[str, dict[int, tuple[Any, Judged]]] = {}
_MAX_COMPILED = 4096


def value_of(expr: Any) -> Value:
    """A value of the condition language (an int or a value operator) as a function of a
    city (the operators read the city's figures when they can: see :class:`CityContext`)."""
    if isinstance(expr, int):
        return lambda ctx: expr
    ((op, arg),) = expr.items()
    return functools.partial(_VALUE_OPS[op], arg)


def _compile(expr: Any) -> Test:
    """The condition as a function of a city, made of closures once."""

    def const(truth: bool) -> Test:
        return lambda ctx: truth

    def join(every: bool, parts: list[Test]) -> Test:
        if every:
            return lambda ctx: all(part(ctx) for part in parts)
        return lambda ctx: any(part(ctx) for part in parts)

    def negate(inner: Test) -> Test:
        return lambda ctx: not inner(ctx)

    def compare(op: str, a: Any, b: Any) -> Test:
        test = COMPARISONS[op]
        if isinstance(b, int):  # the usual form, a value against a number: one call less
            left = value_of(a)
            return lambda ctx: test(left(ctx), b)
        left, right = value_of(a), value_of(b)
        return lambda ctx: test(left(ctx), right(ctx))

    return fold(expr, const=const, join=join, negate=negate, compare=compare)


def compiled(expr: Any) -> Test:
    """The condition as a function of a city (it passed check_condition). A condition is
    turned into closures once, and kept: catalogs hold few."""
    return kept(_COMPILED, expr, _compile, _MAX_COMPILED)


def judged(expr: Any) -> Judged:
    """:func:`judge` as a function of a city, its words made once in the current language
    (kept as :func:`compiled` keeps tests, one judge a language)."""
    lang = current()
    cache = _JUDGED.get(lang)
    if cache is None:
        cache = _JUDGED[lang] = {}
    return kept(cache, expr, _judge, _MAX_COMPILED)


def evaluate(expr: Any, ctx: CityContext) -> bool:
    """The condition's truth over the city (the condition passed check_condition)."""
    return compiled(expr)(ctx)
