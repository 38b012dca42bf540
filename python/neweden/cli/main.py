"""The `neweden` command line (FORMAT §4). A thin shell over the public functions."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
from collections.abc import Iterator, Sequence
from importlib import resources
from typing import Any, TypeAlias

import msgspec

from neweden._version import __version__
from neweden._visible import VisibleStream
from neweden.catalog.catalog import Catalog
from neweden.catalog.files import CatalogError, load_catalog
from neweden.cli.completion import SHELLS, completion_script
from neweden.cli.parsing import Parser, language_asked
from neweden.format import codes
from neweden.format.model import MAX_GAME_BYTES
from neweden.format.problems import GameDecodeError, Problem
from neweden.format.schema import city_schema, game_schema
from neweden.i18n import LANGUAGES, N_, _, from_environment, language, number, speaking
from neweden.present.render import OVERLAYS, render
from neweden.present.text import placements_table, report_table
from neweden.runners.batch import validate
from neweden.runners.sources import Entry, jsonl_line, open_regular
from neweden.runners.workers import JOBS_PER_CORE, MAX_JOBS
from neweden.scoring.placements import PlacementError, placements
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
    sys.stderr.write(_("neweden: the catalog {source} does not load:", source=err.source) + "\n")
    for problem in err.problems:
        sys.stderr.write(problem.line() + "\n")
    return EXIT_USAGE


def _report_decode_error(err: GameDecodeError, name: str | None = None) -> int:
    """Every decode problem on standard error, one a line (`PATH: CODE: MESSAGE`); exit 2.
    Several JSON documents one after another (`trailing characters`) get a hint: JSON
    Lines are read one game a line with FILE:LINE or `validate`."""
    sys.stderr.writelines(line + "\n" for line in err.lines())
    if name is not None and any(_(_MORE_THAN_ONE) in p.message for p in err.problems):
        sys.stderr.write(
            _(
                "neweden: {name} seems to hold more than one JSON document: for JSON Lines "
                "(one game a line) give one line as {name}:LINE, or check them all with "
                "`neweden validate {name}`",
                name=name,
            )
            + "\n"
        )
    return EXIT_USAGE


#: msgspec's words for a JSON text followed by more, in the current language (see below).
_MORE_THAN_ONE = N_("trailing characters")


def _cmd_schema(args: argparse.Namespace) -> int:
    sys.stdout.write(_json(city_schema() if args.city else game_schema()))
    return EXIT_VALID


#: The most bytes a game may take, a byte-order mark included; one more is read to tell.
_INPUT_LIMIT = MAX_GAME_BYTES + 3


def _too_large(message: str) -> GameDecodeError:
    return GameDecodeError([Problem(code=codes.TOO_LARGE, message=message, path="")])


def _read_input(name: str) -> bytes | None:
    """The bytes of a game: standard input for `-`, else a regular file (a device, a FIFO
    or a socket is refused: None, the reason written). Never more than a game may hold
    plus one byte is read; beyond that, raises GameDecodeError (`too_large`)."""
    if name == "-":
        data = sys.stdin.buffer.read(_INPUT_LIMIT + 1)
        if len(data) > _INPUT_LIMIT:
            raise _too_large(
                _(
                    "the input is more than {size} bytes; the limit is {limit} (1 MiB)",
                    size=number(_INPUT_LIMIT),
                    limit=number(MAX_GAME_BYTES),
                )
            )
        return data
    try:
        handle, size = open_regular(name)
        with handle:
            data = handle.read(_INPUT_LIMIT + 1)
    except OSError as exc:
        reason = exc.strerror or exc
        message = _("neweden: cannot read {name}: {reason}", name=name, reason=reason)
        sys.stderr.write(message + "\n")
        return None
    if max(size, len(data)) > _INPUT_LIMIT:
        size = max(size, len(data))
        raise _too_large(
            _(
                "the game is {size} bytes; the limit is {limit} (1 MiB)",
                size=number(size),
                limit=number(MAX_GAME_BYTES),
            )
        )
    return data


#: `FILE:LINE`: line LINE (1-based) of a JSON Lines file.
_AT_LINE = re.compile(r"(?P<file>.+):(?P<line>[0-9]+)")
_JSONL = (".jsonl", ".jsonl.gz")


def _game_of_entry(entry: Entry) -> bytes | None:
    """An entry's bytes, or None with its problem written (`FILE:LINE: message`)."""
    if entry.problem is not None or entry.data is None:
        message = entry.problem.message if entry.problem is not None else ""
        sys.stderr.write(f"neweden: {entry.label()}: {message}\n")
        return None
    return entry.data


def _jsonl_game(name: str) -> bytes | None:
    """The one game of a JSON Lines file; None (the reason written) when it holds more
    than one (`FILE:LINE` or `validate` said instead) or none."""
    games = jsonl_line(name, 0)
    if len(games) == 1:
        return _game_of_entry(games[0])
    if not games:
        sys.stderr.write(_("neweden: {name} holds no game", name=name) + "\n")
        return None
    first = games[0].line
    sys.stderr.write(
        _(
            "neweden: {name} holds more than one game (JSON Lines, one game a line): score "
            "one with {name}:LINE (e.g. {name}:{first}), or check them all with "
            "`neweden validate {name}`",
            name=name,
            first=first,
        )
        + "\n"
    )
    return None


def _score_input(name: str) -> bytes | None:
    """The game FILE names: standard input (`-`), a file, a JSON Lines file of one game,
    or `FILE:LINE`; None with the reason written. Raises GameDecodeError (`too_large`)."""
    at = _AT_LINE.fullmatch(name)
    if at is not None and not os.path.exists(name) and os.path.exists(at["file"]):
        line = int(at["line"])
        if line < 1:
            sys.stderr.write(_("neweden: {name}: lines count from 1", name=name) + "\n")
            return None
        return _game_of_entry(jsonl_line(at["file"], line)[0])
    if name.endswith(_JSONL) and os.path.isfile(name):
        return _jsonl_game(name)
    return _read_input(name)


def _score_format(args: argparse.Namespace) -> str:
    """`--format` when given; else a table on a terminal, JSON when piped or redirected."""
    if args.format is not None:
        return str(args.format)
    return "text" if sys.stdout.isatty() else "json"


def _cmd_score(args: argparse.Namespace) -> int:
    if args.example:
        if args.file is not None:
            sys.stderr.write(_("neweden: give FILE or --example, not both") + "\n")
            return EXIT_USAGE
        data: bytes | None = example_game()
    elif args.file is None:
        sys.stderr.write(
            _("neweden: score needs FILE (or - for standard input) or --example") + "\n"
        )
        return EXIT_USAGE
    else:
        try:
            data = _score_input(args.file)
        except GameDecodeError as err:
            return _report_decode_error(err)
    if data is None:
        return EXIT_USAGE
    try:
        report = score(data, catalog=_catalog(args), detail=not args.lean)
    except CatalogError as err:
        return _report_catalog_error(err)
    except GameDecodeError as err:
        return _report_decode_error(err, args.file)
    sys.stdout.write(report_table(report) if _score_format(args) == "text" else _json(report))
    return EXIT_VALID if report["valid"] else EXIT_ERRORS


def _cmd_validate(args: argparse.Namespace) -> int:
    if args.jobs is not None and args.jobs < 1:
        sys.stderr.write(_("neweden: --jobs is at least 1") + "\n")
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
        only_invalid=args.only_invalid,
        csv_sep=args.csv_sep,
    )


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn  # noqa: F401
    except ImportError:
        sys.stderr.write(
            _("neweden: serve needs the serve extra: pip install 'neweden[serve]'") + "\n"
        )
        return EXIT_USAGE
    if args.catalog:
        try:
            load_catalog(args.catalog)  # refused here, before any worker starts
        except CatalogError as err:
            return _report_catalog_error(err)
        os.environ["NEWEDEN_CATALOG"] = os.path.abspath(args.catalog)
    from neweden.http.serving import serve

    return serve(
        args.host,
        args.port,
        workers=args.workers,
        log_level=args.log_level,
        cors_origins=args.cors_origin or (),
    )


def _cmd_render(args: argparse.Namespace) -> int:
    try:
        data = _read_input(args.file)
    except GameDecodeError as err:
        return _report_decode_error(err)
    if data is None:
        return EXIT_USAGE
    overlays = [o for o in (args.overlay or "").split(",") if o]
    try:
        svg = render(
            data,
            player=args.player,
            catalog=_catalog(args),
            overlays=overlays,
            source=None if args.file == "-" else args.file,
        )
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
            sys.stderr.write(
                _(
                    "neweden: cannot write {name}: {reason}",
                    name=args.output,
                    reason=exc.strerror,
                )
                + "\n"
            )
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
Commands: TypeAlias = "argparse._SubParsersAction[Parser]"


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser, its help in the current language (build it inside
    ``with speaking(lang)``)."""
    parser = Parser(
        prog="neweden",
        description=_("Scoring and validation for New Eden Project games."),
    )
    with_catalog = Parser(add_help=False)
    with_catalog.add_argument(
        "--catalog",
        metavar="FILE",
        help=_("a catalog file (JSON or TOML) extending the built-in catalog"),
    )
    parser.add_argument("--version", action="version", version=f"neweden {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in (
        _score_command,
        _validate_command,
        _render_command,
        _placements_command,
        _serve_command,
    ):
        add(commands, with_catalog)
    _schema_command(commands, with_catalog)
    _catalog_command(commands)
    _completion_command(commands)
    _with_lang(parser)
    return parser


def _with_lang(parser: argparse.ArgumentParser) -> None:
    """`--lang` on `parser` and on every subcommand's parser below it (read first by
    :func:`neweden.cli.parsing.language_asked`; here for the help and for argparse)."""
    parser.add_argument(
        "--lang",
        metavar="LANG",
        default=argparse.SUPPRESS,
        help=_(
            "the language of messages, tables and pictures: {languages} (default: from "
            "NEWEDEN_LANG, LC_ALL, LC_MESSAGES or LANG)",
            languages=", ".join(LANGUAGES),
        ),
    )
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                _with_lang(sub)


def _score_command(commands: Commands, with_catalog: Parser) -> None:
    scoring = commands.add_parser(
        "score",
        parents=[with_catalog],
        help=_("score one game: a table on a terminal, JSON when piped (exit 0 valid, 1 errors)"),
        description=_(
            "Score one game and print its report: a table on a terminal, the JSON report "
            "(docs/report.md) when the output is piped or redirected, or as --format says. "
            "FILE is a game as JSON, - for standard input, a JSON Lines file of one game, or "
            "FILE:LINE for the game on line LINE (from 1) of a JSON Lines file (.jsonl, "
            ".jsonl.gz; any file so named is read one game a line). Exit 0 when the game "
            "is valid, 1 when the report lists errors, 2 when the input is not "
            "a readable game (every problem on standard error) or cannot be read."
        ),
    )
    scoring.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help=_("a game as JSON, - for stdin, or FILE.jsonl:LINE"),
    )
    scoring.add_argument(
        "--example",
        action="store_true",
        help=_("score the built-in example: the manual's final-scoring example"),
    )
    scoring.add_argument(
        "--format",
        choices=("json", "text"),
        default=None,
        help=_(
            "text: a table (the default on a terminal); json: the report (the default when "
            "piped or redirected); when given, it always wins"
        ),
    )
    scoring.add_argument(
        "--lean", action="store_true", help=_("leave out the audit trail (the lean report)")
    )
    scoring.set_defaults(run=_cmd_score)


def _validate_command(commands: Commands, with_catalog: Parser) -> None:
    checking = commands.add_parser(
        "validate",
        parents=[with_catalog],
        help=_("score a batch: files, folders, .jsonl and .jsonl.gz (exit 0 all valid, 1 not)"),
        description=_(
            "Score every game of the PATHs (files; folders: every *.json, *.jsonl and "
            "*.jsonl.gz below; .jsonl files: one game a line). One line a game (the verdict "
            "in colour on a terminal, unless NO_COLOR is set; FORCE_COLOR colours a pipe "
            "too), then a summary. A PATH that does not exist is said on standard error "
            "and not counted. Exit 0 when every game is valid, 1 when one is not or a PATH "
            "is not found, 2 when no game is found, for bad arguments (an output that is also "
            "an input included), a catalog that does not load or an output that cannot be "
            "written, 130 on Ctrl-C."
        ),
    )
    checking.add_argument("paths", nargs="+", metavar="PATH")
    checking.add_argument("--out", metavar="FILE", help=_("one report a line (JSON Lines)"))
    checking.add_argument(
        "--csv",
        metavar="FILE",
        help=_(
            "one row a player, with the game's meta keys as meta.KEY columns "
            "(docs/format.md, the CSV table)"
        ),
    )
    checking.add_argument(
        "--csv-sep",
        choices=(",", ";"),
        default=",",
        help=_(
            "the CSV separator: , (default) or ; (spreadsheets set to Brazilian "
            "Portuguese, which read , as the decimal mark)"
        ),
    )
    checking.add_argument("--parquet", metavar="DIR", help=_("the same rows as Parquet"))
    checking.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help=_(
            "worker processes (default: every core; at most {per_core} a core, {most} in all)",
            per_core=JOBS_PER_CORE,
            most=number(MAX_JOBS),
        ),
    )
    checking.add_argument(
        "--detail",
        action="store_true",
        help=_("the audit trail in --out (lean reports otherwise)"),
    )
    checking.add_argument("--quiet", action="store_true", help=_("only the summary"))
    checking.add_argument(
        "--only-invalid",
        action="store_true",
        help=_("list only INVALID and UNREADABLE entries (the summary still counts all)"),
    )
    checking.add_argument(
        "--svg",
        metavar="DIR",
        help=_("a picture of each invalid game, and DIR/index.html listing them"),
    )
    checking.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help=_("score on a Dask cluster (pip install 'neweden[dask]')"),
    )
    checking.set_defaults(run=_cmd_validate)


def _render_command(commands: Commands, with_catalog: Parser) -> None:
    drawing = commands.add_parser(
        "render",
        parents=[with_catalog],
        help=_("a picture of the city (SVG)"),
        description=_(
            "Draw every player's city (or --player NAME's) as SVG: cards coloured by "
            "style, icons, joins, open connections, problems; overlays on request."
        ),
    )
    drawing.add_argument("file", metavar="FILE", help=_("a game as JSON, or - for stdin"))
    drawing.add_argument("--player", metavar="NAME", help=_("only this player's city"))
    drawing.add_argument("-o", "--output", metavar="FILE.svg", help=_("write here, not stdout"))
    drawing.add_argument(
        "--overlay",
        metavar="LIST",
        help=_("comma-separated: {overlays}", overlays=",".join(OVERLAYS)),
    )
    drawing.set_defaults(run=_cmd_render)


def _placements_command(commands: Commands, with_catalog: Parser) -> None:
    placing = commands.add_parser(
        "placements",
        parents=[with_catalog],
        help=_("where a card can go in a player's city, and what each placement scores"),
        description=_(
            "Every legal placement of CARD in NAME's city: every empty cell next to a card "
            "of the city, upright and, when that changes its icons, rotated 180 degrees "
            "(listed whatever the player's epiphanies), kept when the city is legal after "
            "it; with the open connections and the player's total after it, the best first "
            "(docs/placements.md). A table on a terminal, JSON when piped or redirected."
        ),
    )
    placing.add_argument("file", metavar="FILE", help=_("a game as JSON, or - for stdin"))
    placing.add_argument("--player", metavar="NAME", required=True, help=_("the player"))
    placing.add_argument(
        "--card",
        metavar="CARD",
        required=True,
        help=_('a catalog id, or an inline card as JSON: \'{"style": "gothic", ...}\''),
    )
    placing.add_argument("--best", action="store_true", help=_("only the best placement"))
    placing.add_argument(
        "--format",
        choices=("json", "text"),
        default=None,
        help=_("text: a table (the default on a terminal); json (the default when piped)"),
    )
    placing.set_defaults(run=_cmd_placements)


def _cmd_placements(args: argparse.Namespace) -> int:
    card: Any = args.card
    if card.lstrip().startswith("{"):
        try:
            card = _card_json(card)
        except ValueError as exc:
            message = _("neweden: --card is not valid JSON: {why}", why=exc)
            sys.stderr.write(message + "\n")
            return EXIT_USAGE
    try:
        data = _read_input(args.file)
        if data is None:
            return EXIT_USAGE
        found = placements(data, player=args.player, card=card, catalog=_catalog(args))
    except CatalogError as err:
        return _report_catalog_error(err)
    except GameDecodeError as err:
        return _report_decode_error(err, args.file)
    except PlacementError as err:
        sys.stderr.writelines(f"neweden: {p.line()}\n" for p in err.problems)
        return EXIT_USAGE
    found = found[:1] if args.best else found
    if _score_format(args) == "text":
        sys.stdout.write(placements_table(args.player, found))
    else:
        sys.stdout.write(_json({"placements": found}))
    return EXIT_VALID


def _card_json(text: str) -> Any:
    """`--card` as JSON; nested deeper than Python's parser follows (some thousands of
    brackets fit in an argument), its containers past the decoder's cut are emptied first, so
    its problems are told at `/card` as for any card, never a RecursionError."""
    try:
        return json.loads(text)
    except RecursionError:
        from neweden.format.untyped import CUT_DEPTH, _cut_deep_containers

        return json.loads(_cut_deep_containers(text.encode(), CUT_DEPTH))


def _serve_command(commands: Commands, with_catalog: Parser) -> None:
    serving = commands.add_parser(
        "serve",
        parents=[with_catalog],
        help=_("the HTTP service (docs/http.md)"),
        description=_(
            "Serve POST /v1/score, /v1/validate, /v1/score/batch, /v1/render and "
            "/v1/placements, GET /v1/catalog, /healthz, /openapi.json (OpenAPI 3.1), an API "
            "page at /docs and a web page at / to enter and score a game (docs/web.md). Logs "
            "where it listens and each request (the access log)."
        ),
    )
    serving.add_argument("--host", default="127.0.0.1")
    serving.add_argument("--port", type=int, default=8000, help=_("0: any free port"))
    serving.add_argument("--workers", type=int, default=1, metavar="N")
    serving.add_argument(
        "--cors-origin",
        metavar="ORIGIN",
        action="append",
        help=_(
            "allow this browser origin, like https://example.org (repeat for more; * allows any)"
        ),
    )
    serving.add_argument(
        "--log-level",
        default="info",
        choices=("critical", "error", "warning", "info", "debug"),
        help=_("warning: only problems (no access log)"),
    )
    serving.set_defaults(run=_cmd_serve)


def _schema_command(commands: Commands, with_catalog: Parser) -> None:
    schema = commands.add_parser(
        "schema",
        parents=[with_catalog],
        help=_("print the JSON Schema of the game format (new-eden/game@1)"),
    )
    schema.add_argument(
        "--city",
        action="store_true",
        help=_('the schema of a lone city, {"city": [...]}, instead'),
    )
    schema.set_defaults(run=_cmd_schema)


def _catalog_command(commands: Commands) -> None:
    catalog = commands.add_parser("catalog", help=_("catalog files: `neweden catalog check FILE`"))
    catalog_commands = catalog.add_subparsers(
        dest="catalog_command", required=True, metavar="COMMAND"
    )
    check = catalog_commands.add_parser(
        "check",
        help=_("what a catalog file defines (exit 0), or every problem in it (exit 2)"),
    )
    check.add_argument("file", metavar="FILE", help=_("a catalog file, .json or .toml"))
    check.set_defaults(run=_cmd_catalog_check)


def _completion_command(commands: Commands) -> None:
    completing = commands.add_parser(
        "completion",
        help=_("print a shell completion script: bash, zsh or fish"),
        description=_(
            "Print the completion script of a shell. bash: source <(neweden completion "
            "bash), or save it in ~/.local/share/bash-completion/completions/neweden; zsh: "
            "source <(neweden completion zsh); fish: neweden completion fish | source, or "
            "save it in ~/.config/fish/completions/neweden.fish."
        ),
    )
    completing.add_argument("shell", choices=SHELLS, metavar="SHELL", help="bash, zsh, fish")
    completing.set_defaults(run=_cmd_completion)


def _cmd_completion(args: argparse.Namespace) -> int:
    sys.stdout.write(completion_script(build_parser(), args.shell))
    return EXIT_VALID


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
