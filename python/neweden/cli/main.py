"""The `neweden` command line (FORMAT §4). A thin shell over the public functions."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import resources
from typing import Any, TypeAlias

import msgspec

from neweden._version import __version__
from neweden.catalog.catalog import Catalog
from neweden.catalog.files import CatalogError, load_catalog
from neweden.format.model import MAX_GAME_BYTES
from neweden.format.problems import GameDecodeError, Problem
from neweden.format.schema import city_schema, game_schema
from neweden.present.render import OVERLAYS, render
from neweden.present.text import report_table
from neweden.runners.batch import validate
from neweden.runners.sources import open_regular
from neweden.scoring.report import score

__all__ = ["main"]

EXIT_VALID = 0
EXIT_ERRORS = 1
EXIT_USAGE = 2


def _json(value: Any) -> str:
    return msgspec.json.format(msgspec.json.encode(value), indent=2).decode() + "\n"


def example_game() -> bytes:
    """The built-in example: the manual's final-scoring example (Sarah scores 78)."""
    return resources.files("neweden").joinpath("data/final-scoring-example.json").read_bytes()


def _catalog(args: argparse.Namespace) -> Catalog | None:
    """The catalog of --catalog (None: the built-in one); raises CatalogError."""
    return load_catalog(args.catalog) if args.catalog else None


def _report_catalog_error(err: CatalogError) -> int:
    sys.stderr.write(f"neweden: the catalog {err.source} does not load:\n")
    for problem in err.problems:
        sys.stderr.write(problem.line() + "\n")
    return EXIT_USAGE


def _report_decode_error(err: GameDecodeError) -> int:
    """Every decode problem on standard error, one a line (FORMAT §3.1); exit 2."""
    sys.stderr.writelines(line + "\n" for line in err.lines())
    return EXIT_USAGE


def _cmd_schema(args: argparse.Namespace) -> int:
    sys.stdout.write(_json(city_schema() if args.city else game_schema()))
    return EXIT_VALID


#: The most bytes a game may take, a byte-order mark included; one more is read to tell.
_INPUT_LIMIT = MAX_GAME_BYTES + 3


def _too_large(message: str) -> GameDecodeError:
    return GameDecodeError([Problem(code="too_large", message=message, path="")])


def _read_input(name: str) -> bytes | None:
    """The bytes of a game: standard input for `-`, else a regular file (a device, a FIFO
    or a socket is refused: None, the reason written). Never more than a game may hold
    plus one byte is read; beyond that, raises GameDecodeError (`too_large`)."""
    if name == "-":
        data = sys.stdin.buffer.read(_INPUT_LIMIT + 1)
        if len(data) > _INPUT_LIMIT:
            raise _too_large(
                f"the input is more than {_INPUT_LIMIT:,} bytes; "
                f"the limit is {MAX_GAME_BYTES:,} (1 MiB)"
            )
        return data
    try:
        handle, size = open_regular(name)
        with handle:
            data = handle.read(_INPUT_LIMIT + 1)
    except OSError as exc:
        sys.stderr.write(f"neweden: cannot read {name}: {exc.strerror or exc}\n")
        return None
    if max(size, len(data)) > _INPUT_LIMIT:
        size = max(size, len(data))
        raise _too_large(f"the game is {size:,} bytes; the limit is {MAX_GAME_BYTES:,} (1 MiB)")
    return data


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
        try:
            data = _read_input(args.file)
        except GameDecodeError as err:
            return _report_decode_error(err)
    if data is None:
        return EXIT_USAGE
    try:
        report = score(data, catalog=_catalog(args), detail=not args.lean)
    except CatalogError as err:
        return _report_catalog_error(err)
    except GameDecodeError as err:
        return _report_decode_error(err)
    sys.stdout.write(report_table(report) if args.format == "text" else _json(report))
    return EXIT_VALID if report["valid"] else EXIT_ERRORS


def _cmd_validate(args: argparse.Namespace) -> int:
    if args.jobs is not None and args.jobs < 1:
        sys.stderr.write("neweden: --jobs is at least 1\n")
        return EXIT_USAGE
    return validate(
        args.paths,
        out=args.out,
        csv_path=args.csv,
        parquet_dir=args.parquet,
        jobs=args.jobs,
        catalog_path=args.catalog,
        detail=args.detail,
        quiet=args.quiet,
        svg_dir=args.svg,
        scheduler=args.scheduler,
    )


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError:
        sys.stderr.write("neweden: serve needs the serve extra: pip install 'neweden[serve]'\n")
        return EXIT_USAGE
    if args.catalog:
        try:
            load_catalog(args.catalog)  # refused here, before any worker starts
        except CatalogError as err:
            return _report_catalog_error(err)
        os.environ["NEWEDEN_CATALOG"] = os.path.abspath(args.catalog)
    if args.cors_origin:
        os.environ["NEWEDEN_CORS_ORIGIN"] = args.cors_origin
    from neweden.http.serving import GuardedH11

    uvicorn.run(
        "neweden.http.service:app_from_environment",
        http=GuardedH11,
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        timeout_keep_alive=5,
        log_level=args.log_level,
    )
    return EXIT_VALID


def _cmd_render(args: argparse.Namespace) -> int:
    try:
        data = _read_input(args.file)
    except GameDecodeError as err:
        return _report_decode_error(err)
    if data is None:
        return EXIT_USAGE
    overlays = [o for o in (args.overlay or "").split(",") if o]
    try:
        svg = render(data, player=args.player, catalog=_catalog(args), overlays=overlays)
    except CatalogError as err:
        return _report_catalog_error(err)
    except GameDecodeError as err:
        return _report_decode_error(err)
    except ValueError as err:  # a player not in the game, an unknown overlay
        sys.stderr.write(f"neweden: {err}\n")
        return EXIT_USAGE
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as handle:
                handle.write(svg)
        except OSError as exc:
            sys.stderr.write(f"neweden: cannot write {args.output}: {exc.strerror}\n")
            return EXIT_USAGE
    else:
        sys.stdout.write(svg)
    return EXIT_VALID


def _cmd_catalog_check(args: argparse.Namespace) -> int:
    try:
        catalog = load_catalog(args.file)
    except CatalogError as err:
        return _report_catalog_error(err)
    sys.stdout.write(_json(describe_catalog(catalog)))
    return EXIT_VALID


def describe_catalog(catalog: Catalog) -> dict[str, Any]:
    """What a loaded catalog defines (the built-in entries included)."""
    return {
        "catalog": catalog.name,
        "cards": {
            i: {
                "wild": c.wild,
                "style": c.style,
                "type": c.type,
                "facility": c.facility,
                "points": c.points,
                "stars": c.stars,
                "sides": sorted(c.sides),
                "copies": c.copies,
            }
            for i, c in sorted(catalog.cards.items())
        },
        "requirements": {
            i: {"deck": r.deck, "text": r.text, "condition": r.condition}
            for i, r in sorted(catalog.requirements.items())
        },
        "epiphanies": {
            i: {"points": e.points, "effect": e.effect, "text": e.text, "condition": e.condition}
            for i, e in sorted(catalog.epiphanies.items())
        },
        "majority_table": {str(k): list(v) for k, v in sorted(catalog.majority_table.items())}
        if catalog.majority_table is not None
        else None,
        "styles": sorted(catalog.styles) if catalog.styles is not None else None,
        "types": sorted(catalog.types) if catalog.types is not None else None,
        "effects": sorted(catalog.effects),
    }


#: The subcommands' parser, as argparse makes it.
Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="neweden",
        description="Scoring and validation for New Eden Project games.",
    )
    with_catalog = argparse.ArgumentParser(add_help=False)
    with_catalog.add_argument(
        "--catalog",
        metavar="FILE",
        help="a catalog file (JSON or TOML) extending the built-in catalog",
    )
    parser.add_argument("--version", action="version", version=f"neweden {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in (_score_command, _validate_command, _render_command, _serve_command):
        add(commands, with_catalog)
    _schema_command(commands, with_catalog)
    _catalog_command(commands)
    return parser


def _score_command(commands: Commands, with_catalog: argparse.ArgumentParser) -> None:
    scoring = commands.add_parser(
        "score",
        parents=[with_catalog],
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


def _validate_command(commands: Commands, with_catalog: argparse.ArgumentParser) -> None:
    checking = commands.add_parser(
        "validate",
        parents=[with_catalog],
        help="score a batch: files, folders, .jsonl and .jsonl.gz (exit 0 all valid, 1 not)",
        description="Score every game of the PATHs (files; folders: every *.json, *.jsonl and "
        "*.jsonl.gz below; .jsonl files: one game a line). One line a game, then a summary. "
        "Exit 0 when every entry is valid, 1 otherwise, 2 for bad arguments (an output that is "
        "also an input included), nothing to check, a catalog that does not load or an output "
        "that cannot be written, 130 on Ctrl-C.",
    )
    checking.add_argument("paths", nargs="+", metavar="PATH")
    checking.add_argument("--out", metavar="FILE", help="one report a line (JSON Lines)")
    checking.add_argument("--csv", metavar="FILE", help="one row a player (FORMAT §4 header)")
    checking.add_argument("--parquet", metavar="DIR", help="the same rows as Parquet")
    checking.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="worker processes (default: every core; at most 4 a core, 1,024 in all)",
    )
    checking.add_argument(
        "--detail", action="store_true", help="the audit trail in --out (lean reports otherwise)"
    )
    checking.add_argument("--quiet", action="store_true", help="only the summary")
    checking.add_argument("--svg", metavar="DIR", help="a picture of each invalid game")
    checking.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="score on a Dask cluster (pip install 'neweden[dask]')",
    )
    checking.set_defaults(run=_cmd_validate)


def _render_command(commands: Commands, with_catalog: argparse.ArgumentParser) -> None:
    drawing = commands.add_parser(
        "render",
        parents=[with_catalog],
        help="a picture of the city (SVG)",
        description="Draw every player's city (or --player NAME's) as SVG: cards coloured by "
        "style, icons, joins, open connections, problems; overlays on request.",
    )
    drawing.add_argument("file", metavar="FILE", help="a game as JSON, or - for stdin")
    drawing.add_argument("--player", metavar="NAME", help="only this player's city")
    drawing.add_argument("-o", "--output", metavar="FILE.svg", help="write here, not stdout")
    drawing.add_argument("--overlay", metavar="LIST", help=f"comma-separated: {','.join(OVERLAYS)}")
    drawing.set_defaults(run=_cmd_render)


def _serve_command(commands: Commands, with_catalog: argparse.ArgumentParser) -> None:
    serving = commands.add_parser(
        "serve",
        parents=[with_catalog],
        help="the HTTP service (FORMAT §5)",
        description="Serve /v1/score, /v1/validate, /v1/score/batch, /healthz, /openapi.json "
        "and an API page at /docs.",
    )
    serving.add_argument("--host", default="127.0.0.1")
    serving.add_argument("--port", type=int, default=8000)
    serving.add_argument("--workers", type=int, default=1, metavar="N")
    serving.add_argument("--cors-origin", metavar="ORIGIN", help="allow this browser origin")
    serving.add_argument(
        "--log-level", default="warning", choices=("critical", "error", "warning", "info", "debug")
    )
    serving.set_defaults(run=_cmd_serve)


def _schema_command(commands: Commands, with_catalog: argparse.ArgumentParser) -> None:
    schema = commands.add_parser(
        "schema",
        parents=[with_catalog],
        help="print the JSON Schema of the game format (new-eden/game@1)",
    )
    schema.add_argument(
        "--city", action="store_true", help='the schema of a lone city, {"city": [...]}, instead'
    )
    schema.set_defaults(run=_cmd_schema)


def _catalog_command(commands: Commands) -> None:
    catalog = commands.add_parser("catalog", help="catalog files: `neweden catalog check FILE`")
    catalog_commands = catalog.add_subparsers(
        dest="catalog_command", required=True, metavar="COMMAND"
    )
    check = catalog_commands.add_parser(
        "check",
        help="what a catalog file defines (exit 0), or every problem in it (exit 2)",
    )
    check.add_argument("file", metavar="FILE", help="a catalog file, .json or .toml")
    check.set_defaults(run=_cmd_catalog_check)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
