"""Every public function is documented as msgspec documents its own: numpydoc sections
`Parameters`, `Returns` and `Examples`, and the examples run and print what they show
(doctest, in English: the default language)."""

from __future__ import annotations

import doctest
import inspect
import itertools
from collections.abc import Callable
from typing import Any

import pytest

import neweden
from neweden.i18n import DEFAULT_LANGUAGE, speaking

#: The public functions: the names of `neweden.__all__` that are functions (not the
#: classes, `BUILTIN` or `__version__`).
PUBLIC = sorted(name for name in neweden.__all__ if inspect.isfunction(getattr(neweden, name)))
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
    assert {"decode_game", "score", "score_table", "validate"} <= set(PUBLIC)
    assert "Catalog" not in PUBLIC  # a class, documented apart
    assert len(PUBLIC) == 12


@pytest.mark.parametrize("name", PUBLIC)
def test_a_public_function_has_parameters_returns_and_examples(name: str) -> None:
    doc = getattr(neweden, name).__doc__ or ""
    found = _sections(doc)
    assert [s for s in SECTIONS if s not in found] == [], found


@pytest.mark.parametrize("name", PUBLIC)
def test_a_public_function_s_examples_run_and_print_what_they_show(name: str) -> None:
    failed, attempted, report = _run_examples(getattr(neweden, name), f"neweden.{name}")
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
