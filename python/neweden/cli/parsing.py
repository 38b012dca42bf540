"""argparse in the language of the command: argparse's own words ("usage:", "options", "show
this help message and exit", its error messages) come from gettext's default domain, where no
Portuguese catalog is; :class:`Parser` and :class:`Formatter` pass them through neweden's own
catalog instead (:func:`neweden.i18n._`), so `neweden --help` is all in one language. The
language is chosen before the parser is built (:func:`language_asked` reads `--lang` from the
arguments first), and the parser is built and run inside ``with speaking(lang)``.

English is unchanged: each English word below is exactly argparse's.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from neweden.i18n import N_, _

__all__ = ["Formatter", "Parser", "language_asked", "translated_error"]

#: argparse's words in help pages, as argparse writes them in English.
ARGPARSE_WORDS = frozenset(
    (
        N_("positional arguments"),
        N_("options"),
        N_("show this help message and exit"),
        N_("show program's version number and exit"),
    )
)

#: argparse's error messages (Python 3.9 to 3.13) as patterns, each with its message.
_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.DOTALL), message)
    for pattern, message in (
        (r"argument (?P<argument>.+?): (?P<message>.+)", N_("argument {argument}: {message}")),
        (
            r"the following arguments are required: (?P<names>.+)",
            N_("the following arguments are required: {names}"),
        ),
        (r"unrecognized arguments: (?P<names>.*)", N_("unrecognized arguments: {names}")),
        (
            r"invalid choice: (?P<value>.+) \(choose from (?P<choices>.+)\)",
            N_("invalid choice: {value} (choose from {choices})"),
        ),
        (
            r"invalid (?P<type>\w+) value: (?P<value>.+)",
            N_("invalid {type} value: {value}"),
        ),
        (r"expected one argument", N_("expected one argument")),
        (r"expected at most one argument", N_("expected at most one argument")),
        (r"expected at least one argument", N_("expected at least one argument")),
        (
            r"ambiguous option: (?P<option>.+?) could match (?P<matches>.+)",
            N_("ambiguous option: {option} could match {matches}"),
        ),
        (r"not allowed with argument (?P<other>.+)", N_("not allowed with argument {other}")),
        (r"ignored explicit argument (?P<value>.+)", N_("ignored explicit argument {value}")),
        (
            r"one of the arguments (?P<names>.+) is required",
            N_("one of the arguments {names} is required"),
        ),
    )
)


def translated_error(message: str) -> str:
    """An argparse error message in the current language (one it does not know: as it is)."""
    for pattern, template in _ERRORS:
        found = pattern.fullmatch(message)
        if found is not None:
            params = found.groupdict()
            if "message" in params:  # "argument --x: <an inner message>"
                params["message"] = translated_error(params["message"])
            return _(template, **params)
    return message


class Formatter(argparse.HelpFormatter):
    """argparse's help layout, its own words in the current language."""

    def _format_usage(
        self,
        usage: str | None,
        actions: Any,
        groups: Any,
        prefix: str | None,
    ) -> str:
        if prefix is None:
            prefix = _("usage: ")
        return super()._format_usage(usage, actions, groups, prefix)

    def start_section(self, heading: str | None) -> None:
        if heading in ARGPARSE_WORDS:
            heading = _(heading)
        super().start_section(heading)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        words = action.help
        return _(words) if words in ARGPARSE_WORDS else words


class Parser(argparse.ArgumentParser):
    """An ArgumentParser (and its subcommands' parsers) speaking the current language."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(
            2, _("{prog}: error: {message}\n", prog=self.prog, message=translated_error(message))
        )


#: `--lang` and the shortest abbreviation argparse takes for it beside `--lean`, `--log-level`.
_LANG_OPTIONS = ("--lang", "--lan", "--la")


def language_asked(argv: Sequence[str]) -> str | None:
    """The value of the last `--lang` in `argv` (`--lang X` or `--lang=X`, before any `--`),
    None when there is none: read before the parser is built, so that its help and its
    errors are in that language."""
    found: str | None = None
    for at, word in enumerate(argv):
        if word == "--":
            break
        name, equals, value = word.partition("=")
        if name in _LANG_OPTIONS:
            if equals:
                found = value
            elif at + 1 < len(argv):
                found = argv[at + 1]
    return found
