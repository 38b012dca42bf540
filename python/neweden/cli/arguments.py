"""The command line's parser: each command, its arguments and their help, in the current
language (build it inside ``with speaking(lang)``)."""

from __future__ import annotations

import argparse
import sys
from typing import TypeAlias

from neweden._version import __version__
from neweden.cli.commands import (
    EXIT_VALID,
    cmd_catalog_check,
    cmd_placements,
    cmd_render,
    cmd_review,
    cmd_schema,
    cmd_score,
    cmd_serve,
    cmd_standings,
    cmd_validate,
)
from neweden.cli.completion import SHELLS, completion_script
from neweden.cli.conformance import conformance_command
from neweden.cli.parsing import Parser
from neweden.i18n import LANGUAGES, _, number
from neweden.present.render import OVERLAYS
from neweden.runners.outputs import HEADERS
from neweden.runners.workers import JOBS_PER_CORE, MAX_JOBS

__all__ = ["build_parser"]

#: The subcommands' parser, as argparse makes it.
Commands: TypeAlias = "argparse._SubParsersAction[Parser]"


def _catalog_path(text: str) -> str:
    """--catalog's FILE: an empty one (`--catalog "$UNSET"`) is refused, not taken as none."""
    if not text.strip():
        raise argparse.ArgumentTypeError(_("the catalog file's path is empty"))
    return text


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
        type=_catalog_path,
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
        _review_command,
        _standings_command,
    ):
        add(commands, with_catalog)
    _schema_command(commands, with_catalog)
    _catalog_command(commands)
    conformance_command(commands)
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
    scoring.set_defaults(run=cmd_score)


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
    _table_outputs(checking)
    _run_options(checking)
    checking.set_defaults(run=cmd_validate)


def _table_outputs(checking: Parser) -> None:
    """`validate`'s files of reports and rows: --out, --csv (and its separator), --parquet."""
    checking.add_argument("--out", metavar="FILE", help=_("one report a line (JSON Lines)"))
    checking.add_argument(
        "--csv",
        metavar="FILE",
        help=_(
            "one row a player, with the game's meta keys as meta.KEY columns "
            "(docs/format.md, the CSV table)"
        ),
    )
    _csv_options(checking)
    checking.add_argument("--parquet", metavar="DIR", help=_("the same rows as Parquet"))


def _csv_options(parser: Parser) -> None:
    """--csv-sep, --csv-bom and --csv-header (`validate`, `standings`)."""
    parser.add_argument(
        "--csv-header",
        choices=HEADERS,
        default="ids",
        help=_(
            "the CSV's column names: ids, the stable identifiers (the default, for programs), "
            "or the names in a language, for people: {languages}",
            languages=", ".join(LANGUAGES),
        ),
    )
    parser.add_argument(
        "--csv-sep",
        choices=(",", ";"),
        default=None,
        help=_(
            "the CSV separator: , or ; (spreadsheets set to Brazilian Portuguese, which read "
            ", as the decimal mark); the default: ; in Portuguese, , otherwise"
        ),
    )
    parser.add_argument(
        "--csv-bom",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=_(
            "start the CSV with a UTF-8 byte-order mark, which Excel needs to read accents "
            "right; the default: with one in Portuguese, without otherwise"
        ),
    )


def _run_options(checking: Parser) -> None:
    """How a `validate` run goes and what more it shows: --jobs, --detail, --quiet,
    --only-invalid, --svg, --scheduler."""
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
        help=_("a picture of each invalid game, and DIR/index.html: the page of the batch"),
    )
    checking.add_argument(
        "--html",
        metavar="FILE",
        help=_(
            "one page for the whole batch: counts, problems by code, every game with its "
            "players, totals and places, filters, and the pictures of the invalid games"
        ),
    )
    checking.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help=_("score on a Dask cluster (pip install 'neweden[dask]')"),
    )


def _standings_command(commands: Commands, with_catalog: Parser) -> None:
    ranking = commands.add_parser(
        "standings",
        parents=[with_catalog],
        help=_("standings across rounds from validate --out files or games"),
        description=_(
            "The standings of each event (meta.event) over its rounds (meta.round): "
            "tournament points by place in each game, then the sum of totals, wins, "
            "requirements met and cards (docs/standings.md). PATHs are validate --out files "
            "and games (files, folders, .jsonl), which are scored first. Invalid and "
            "unreadable games are left out and listed. Exit 0 with standings made, 1 when a "
            "PATH is not found, 2 for bad arguments or when no game can be counted."
        ),
    )
    ranking.add_argument("paths", nargs="+", metavar="PATH")
    ranking.add_argument(
        "--points",
        action="append",
        metavar="LIST",
        help=_(
            "tournament points by place: 5,3,2,0 for every player count, 3:4,2,1 for games "
            "of 3 (repeatable; default: n, n-1, …, 1 for n players)"
        ),
    )
    ranking.add_argument(
        "--alias",
        metavar="FILE",
        help=_("other spellings of names, one ALIAS = NAME a line (or a .json object)"),
    )
    ranking.add_argument("--csv", metavar="FILE", help=_("one row a player and event (- : stdout)"))
    ranking.add_argument("--json", metavar="FILE", help=_("the standings as JSON (- : stdout)"))
    ranking.add_argument("--html", metavar="FILE", help=_("a page to post (- : stdout)"))
    ranking.add_argument("--quiet", action="store_true", help=_("no table on the terminal"))
    _csv_options(ranking)
    ranking.set_defaults(run=cmd_standings)


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
    drawing.set_defaults(run=cmd_render)


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
    placing.set_defaults(run=cmd_placements)


def _serve_command(commands: Commands, with_catalog: Parser) -> None:
    serving = commands.add_parser(
        "serve",
        parents=[with_catalog],
        help=_("the HTTP service (docs/http.md)"),
        description=_(
            "Serve POST /v1/score, /v1/validate, /v1/score/batch, /v1/render, "
            "/v1/placements and /v1/standings, GET /v1/catalog, /healthz, /openapi.json "
            "(OpenAPI 3.1), an API page at /docs and a web page at / to enter and score a "
            "game (docs/web.md). Logs where it listens and each request (the access log); "
            "on a host beyond this computer (--host 0.0.0.0), the address to open from a "
            "phone, as a QR code too."
        ),
    )
    _listening(
        serving,
        _(
            "where to listen: 127.0.0.1, this computer only (the default); 0.0.0.0, the local "
            "network too (a phone at the table: anyone on that network can use it)"
        ),
    )
    serving.add_argument("--workers", type=int, default=1, metavar="N")
    serving.add_argument(
        "--cors-origin",
        metavar="ORIGIN",
        action="append",
        help=_(
            "allow this browser origin, like https://example.org (repeat for more; * allows any)"
        ),
    )
    serving.set_defaults(run=cmd_serve)


def _listening(parser: argparse.ArgumentParser, host: str) -> None:
    """--host (`host`: its help), --port and --log-level of a command that serves."""
    parser.add_argument("--host", default="127.0.0.1", help=host)
    parser.add_argument("--port", type=int, default=8000, help=_("0: any free port"))
    parser.add_argument(
        "--log-level",
        default="info",
        choices=("critical", "error", "warning", "info", "debug"),
        help=_("warning: only problems (no access log)"),
    )


def _review_command(commands: Commands, with_catalog: Parser) -> None:
    reviewing = commands.add_parser(
        "review",
        parents=[with_catalog],
        help=_("the service over a folder of games under review (docs/review.md)"),
        description=_(
            "Serve the HTTP service and the API of a folder of games under review: its games "
            "with their verdicts (the invalid first), each read and saved safely (the version "
            "replaced kept in DIR/.neweden/history, a save over a newer one refused), its "
            "photos. Only files under DIR are read or written; .jsonl.gz files are read only."
        ),
    )
    reviewing.add_argument("dir", metavar="DIR", help=_("the folder of games (and their photos)"))
    _listening(
        reviewing,
        _(
            "where to listen: 127.0.0.1, this computer only (the default); 0.0.0.0, the local "
            "network too (anyone on that network can then read and change the games)"
        ),
    )
    reviewing.set_defaults(run=cmd_review)


def _schema_command(commands: Commands, with_catalog: Parser) -> None:
    schema = commands.add_parser(
        "schema",
        parents=[with_catalog],
        help=_("print the JSON Schema of the game format (new-eden/game@1)"),
        description=_(
            "The JSON Schema of the game format (new-eden/game@1). It is the same for every "
            "catalog: a game's card ids, styles and types are checked against the catalog "
            "when the game is read (score, validate, render...), not by the schema. A "
            "--catalog given is read and checked all the same, as every command checks it."
        ),
    )
    schema.add_argument(
        "--city",
        action="store_true",
        help=_('the schema of a lone city, {"city": [...]}, instead'),
    )
    schema.set_defaults(run=cmd_schema)


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
    check.set_defaults(run=cmd_catalog_check)


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
