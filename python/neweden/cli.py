"""The `neweden` command line (FORMAT §4). A thin shell over the public functions."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import msgspec

from . import __version__
from .schema import city_schema, game_schema

__all__ = ["main"]


def _cmd_schema(args: argparse.Namespace) -> int:
    schema = city_schema() if args.city else game_schema()
    sys.stdout.write(msgspec.json.format(msgspec.json.encode(schema), indent=2).decode() + "\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="neweden",
        description="Scoring and validation for New Eden Project games.",
    )
    parser.add_argument("--version", action="version", version=f"neweden {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
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
