"""The `neweden` command line (FORMAT §4). A thin shell over the public functions."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator, Sequence

from neweden._visible import VisibleStream
from neweden.cli.arguments import build_parser
from neweden.cli.commands import EXIT_USAGE, example_game
from neweden.cli.parsing import language_asked
from neweden.i18n import LANGUAGES, _, from_environment, language, speaking

__all__ = ["example_game", "main"]


def _language(asked: str | None) -> str | None:
    """The language of a run: `--lang`'s (None, the reason written, for one neweden does not
    speak), else the environment's."""
    if asked is None:
        return from_environment()
    found = language(asked)
    if found is None:
        with speaking(from_environment()):
            sys.stderr.write(
                _(
                    'neweden: unknown language "{asked}" for --lang; neweden speaks {languages}',
                    asked=asked,
                    languages=", ".join(LANGUAGES),
                )
                + "\n"
            )
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """`neweden ...`: the exit status. Everything it says is in the language of `--lang`
    (after the command too), else of the environment (:func:`neweden.i18n.from_environment`)."""
    words = list(sys.argv[1:] if argv is None else argv)
    lang = _language(language_asked(words))
    if lang is None:
        return EXIT_USAGE
    with speaking(lang):
        args = build_parser().parse_args(words)
    asked = getattr(args, "lang", None)  # an abbreviation argparse took that the scan did not
    if asked is not None and language(asked) != lang:
        lang = _language(asked)
        if lang is None:
            return EXIT_USAGE
    with speaking(lang), _visible_stderr():
        code: int = args.run(args)
    return code


@contextlib.contextmanager
def _visible_stderr() -> Iterator[None]:
    """Standard error with every control character but the newline made visible while a
    command runs: each of its diagnostics is plain text, and some quote a game or a file
    name (a progress bar writes to the stream itself: VisibleStream.unfiltered)."""
    real = sys.stderr
    sys.stderr = VisibleStream(real)
    try:
        yield
    finally:
        sys.stderr = real


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
