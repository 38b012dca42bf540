"""Every public function (`neweden.__all__`, and `neweden.dask`'s with the dask extra) is
documented as msgspec documents its own: numpydoc sections `Parameters`, `Returns` and
`Examples`, and the examples run and print what they show (doctest, in English: the default
language)."""

from __future__ import annotations

import doctest
import importlib
import inspect
import itertools
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

import neweden
from neweden.i18n import DEFAULT_LANGUAGE, speaking


def _functions(module: ModuleType) -> list[str]:
    """The names of `module.__all__` that are functions (not classes or constants)."""
    return sorted(name for name in module.__all__ if inspect.isroutine(getattr(module, name)))


def _dask_face() -> ModuleType | None:
    """`neweden.dask`, or None without the dask extra (its functions are then not read)."""
    try:
        return importlib.import_module("neweden.dask")
    except ImportError:
        return None


DASK = _dask_face()
#: The public functions, by dotted name.
PUBLIC = {f"neweden.{name}": getattr(neweden, name) for name in _functions(neweden)}
if DASK is not None:
    PUBLIC |= {f"neweden.dask.{name}": getattr(DASK, name) for name in _functions(DASK)}
SECTIONS = ("Parameters", "Returns", "Examples")
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def _sections(doc: str) -> list[str]:
    """The numpydoc section titles of a docstring: a line underlined by as many dashes."""
    lines = [line.strip() for line in inspect.cleandoc(doc).splitlines()]
    return [
        title for title, rule in itertools.pairwise(lines) if title and rule == "-" * len(title)
    ]


def _run_examples(function: Callable[..., Any], name: str) -> tuple[int, int, str]:
    """The examples of `function`'s docstring run by doctest, each docstring on its own
    (nothing but what it imports itself): (failed, attempted, the failures' report)."""
    tests = doctest.DocTestFinder(recurse=False).find(function, name, globs={})
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report: list[str] = []
    failed = attempted = 0
    with speaking(DEFAULT_LANGUAGE):
        for test in tests:
            result = runner.run(test, out=report.append, clear_globs=True)
            failed += result.failed
            attempted += result.attempted
    return failed, attempted, "".join(report)


def test_the_public_functions_are_read() -> None:
    top = _functions(neweden)
    assert {"decode_game", "score", "score_table", "validate"} <= set(top)
    assert "Catalog" not in top  # a class, documented apart
    assert len(top) == 12


def test_the_dask_functions_are_read() -> None:
    if DASK is None:
        pytest.skip("the dask extra")
    assert _functions(DASK) == [
        "entries_bag",
        "iter_results",
        "score_bag",
        "score_entries_bag",
        "to_dataframe",
    ]


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_a_public_function_has_parameters_returns_and_examples(name: str) -> None:
    found = _sections(PUBLIC[name].__doc__ or "")
    assert [s for s in SECTIONS if s not in found] == [], found


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_a_public_function_s_examples_run_and_print_what_they_show(name: str) -> None:
    failed, attempted, report = _run_examples(PUBLIC[name], name)
    assert attempted > 0
    assert failed == 0, report


def test_a_wrong_output_fails() -> None:
    """The runner checks outputs: an example that prints something else is a failure."""

    def shown(doc: str) -> Callable[[], None]:
        def example() -> None:
            pass

        example.__doc__ = doc
        return example

    right = shown(">>> import neweden\n>>> neweden.score_many.__name__\n'score_many'\n")
    wrong = shown(">>> import neweden\n>>> neweden.score_many.__name__\n'score'\n")
    assert _run_examples(right, "right")[:2] == (0, 2)
    assert _run_examples(wrong, "wrong")[:2] == (1, 2)
