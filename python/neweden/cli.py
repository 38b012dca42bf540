"""The `neweden` command line (FORMAT §4). A thin shell over the public functions."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import resources
from typing import Any

import msgspec

from ._version import __version__
from .problems import GameDecodeError
from .report import score
from .schema import city_schema, game_schema
from .text import report_table

__all__ = ["main"]

EXIT_VALID = 0
EXIT_ERRORS = 1
EXIT_USAGE = 2


def _json(value: Any) -> str:
    return msgspec.json.format(msgspec.json.encode(value), indent=2).decode() + "\n"


def example_game() -> bytes:
    """The built-in example: the manual's final-scoring example (Sarah scores 78)."""
    return resources.files("neweden").joinpath("data/final-scoring-example.json").read_bytes()


def _cmd_schema(args: argparse.Namespace) -> int:
    sys.stdout.write(_json(city_schema() if args.city else game_schema()))
    return EXIT_VALID


def _read_input(name: str) -> bytes | None:
    if name == "-":
        return sys.stdin.buffer.read()
    try:
        with open(name, "rb") as handle:
            return handle.read()
    except OSError as exc:
        sys.stderr.write(f"neweden: cannot read {name}: {exc.strerror or exc}\n")
        return None


def _cmd_score(args: argparse.Namespace) -> int:
    if args.example:
        if args.file is not None:
            sys.stderr.write("neweden: give FILE or --example, not both\n")
            return EXIT_USAGE
        data: bytes | None = example_game()
    elif args.file is None:
        sys.stderr.write("neweden: score needs FILE (or - for standard input) or --example\n")
        return EXIT_USAGE
    else:
        data = _read_input(args.file)
    if data is None:
        return EXIT_USAGE
    try:
        report = score(data, detail=not args.lean)
    except GameDecodeError as err:
        for line in err.lines():
            sys.stderr.write(line + "\n")
        return EXIT_USAGE
    sys.stdout.write(report_table(report) if args.format == "text" else _json(report))
    return EXIT_VALID if report["valid"] else EXIT_ERRORS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="neweden",
        description="Scoring and validation for New Eden Project games.",
    )
    parser.add_argument("--version", action="version", version=f"neweden {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    scoring = commands.add_parser(
        "score",
        help="score one game: the report as JSON (exit 0 valid, 1 errors, 2 unreadable)",
        description="Score one game (FORMAT §1) and print the report (FORMAT §3). Exit 0 when "
        "the game is valid, 1 when the report lists errors, 2 when the input is not a "
        "readable game (every problem on standard error) or cannot be read.",
    )
    scoring.add_argument("file", nargs="?", metavar="FILE", help="a game as JSON, or - for stdin")
    scoring.add_argument(
        "--example",
        action="store_true",
        help="score the built-in example: the manual's final-scoring example",
    )
    scoring.add_argument(
        "--format", choices=("json", "text"), default="json", help="json (default) or a table"
    )
    scoring.add_argument(
        "--lean", action="store_true", help="leave out the audit trail (the lean report)"
    )
    scoring.set_defaults(run=_cmd_score)

    schema = commands.add_parser(
        "schema", help="print the JSON Schema of the game format (new-eden/game@1)"
    )
    schema.add_argument(
        "--city", action="store_true", help='the schema of a lone city, {"city": [...]}, instead'
    )
    schema.set_defaults(run=_cmd_schema)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
