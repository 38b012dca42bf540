"""`neweden conformance`: write the suite (`suite DIR`), answer as a scorer of the protocol
(`answer`), and compare scorers on a suite (`run SUITE --cmd NAME=COMMAND ...`);
docs/conformance.md."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from neweden.cli.parsing import Parser
from neweden.i18n import _

__all__ = ["conformance_command"]


def conformance_command(commands: Any) -> None:
    """The `conformance` command and its three subcommands."""
    top = commands.add_parser(
        "conformance",
        help=_("a conformance suite for New Eden scorers, and a harness comparing them"),
    )
    sub = top.add_subparsers(dest="conformance_command", required=True, metavar="COMMAND")
    writing: Parser = sub.add_parser(
        "suite", help=_("write the suite new-eden/suite@1 in DIR (cases.jsonl, manifest.json)")
    )
    writing.add_argument("dir", metavar="DIR")
    writing.add_argument(
        "--generated", type=int, default=2000, metavar="N", help=_("generated games (2000)")
    )
    writing.set_defaults(run=_suite)
    answering: Parser = sub.add_parser(
        "answer",
        help=_("score JSON Lines games from standard input as new-eden/scorer@1 answers"),
    )
    answering.add_argument(
        "--reference", action="store_true", help=_("with the pure-Python twin of the core")
    )
    answering.set_defaults(run=_answer)
    schema: Parser = sub.add_parser(
        "schema", help=_("the JSON Schema of an answer of new-eden/scorer@1")
    )
    schema.set_defaults(run=_schema)
    running: Parser = sub.add_parser(
        "run",
        help=_("run scorers on a suite and compare them (exit 0: each agrees where it answers)"),
    )
    running.add_argument("suite", metavar="SUITE")
    running.add_argument(
        "--cmd",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help=_("a scorer: a command reading games on stdin, one answer line a game (repeat)"),
    )
    running.add_argument(
        "--url",
        action="append",
        default=[],
        metavar="NAME=URL",
        help=_("a scorer over HTTP: each game POSTed alone (neweden's /v1/score works) (repeat)"),
    )
    running.add_argument("--json", metavar="FILE", help=_("write report.json here"))
    running.add_argument(
        "--html",
        metavar="FILE",
        help=_("write report.html here: a row a scorer, a column a rule area, the games"),
    )
    running.add_argument(
        "--game-seconds", type=float, default=10.0, help=_("time limit per game (10 s)")
    )
    running.add_argument(
        "--run-seconds", type=float, default=600.0, help=_("time limit per scorer (600 s)")
    )
    running.set_defaults(run=_run)


def _suite(args: argparse.Namespace) -> int:
    from neweden.runners.conformance_suite import write_suite

    manifest = write_suite(args.dir, args.generated)
    areas = ", ".join(f"{area} {n}" for area, n in manifest["areas"].items())
    sys.stdout.write(
        _("{cases} cases in {dir}: {areas}", cases=manifest["cases"], dir=args.dir, areas=areas)
        + "\n"
    )
    return 0


def _schema(_args: argparse.Namespace) -> int:
    from neweden.runners.conformance_suite import answer_schema

    sys.stdout.write(answer_schema())
    return 0


def _answer(args: argparse.Namespace) -> int:
    from neweden.runners.conformance_suite import answer_lines

    answer_lines(sys.stdin.buffer, sys.stdout.buffer, reference=args.reference)
    return 0


def _pictures(cases: Any) -> Any:
    """A case's picture as a `data:` address (None for a game that cannot be drawn)."""
    from neweden.format.problems import GameDecodeError
    from neweden.present.index import picture_data
    from neweden.present.render import render

    games = {case.id: case.line for case in cases}

    def picture(case: str) -> str | None:
        try:
            return picture_data(render(games[case]))
        except (GameDecodeError, ValueError, KeyError):
            return None

    return picture


def _scorers(args: argparse.Namespace) -> list[tuple[str, str, str]] | str:
    """(option, name, command or URL) of each scorer asked, or why the options are wrong."""
    import math
    import shlex

    from neweden.runners.conformance_http import url_refusal

    if not all(math.isfinite(s) and s > 0 for s in (args.game_seconds, args.run_seconds)):
        return _("--game-seconds and --run-seconds are a number of seconds above 0")
    scorers: list[tuple[str, str, str]] = []
    for option, given in [("--cmd", g) for g in args.cmd] + [("--url", g) for g in args.url]:
        name, equals, target = given.partition("=")
        if not equals or not name or not target.strip():
            return _("{option} takes NAME=VALUE, not {given}", option=option, given=given)
        if name in [n for _o, n, _t in scorers]:
            return _("two scorers are named {name}: give each its own name", name=name)
        try:
            why = (
                url_refusal(target) if option == "--url" else (None if shlex.split(target) else "")
            )
        except ValueError as exc:  # an unclosed quote
            why = str(exc)
        if why is not None:
            return _("{option} {given}: {why}", option=option, given=given, why=why or "empty")
        scorers.append((option, name, target))
    if not scorers:
        return _("give at least one scorer: --cmd NAME=COMMAND or --url NAME=URL")
    return scorers


def _run(args: argparse.Namespace) -> int:
    from neweden.present.conformance import report_of, report_page, table_of
    from neweden.runners.conformance_http import run_url
    from neweden.runners.conformance_run import SuiteError, load_suite, run_scorer

    scorers = _scorers(args)
    if isinstance(scorers, str):
        sys.stderr.write(f"neweden: {scorers}\n")
        return 2
    try:
        manifest, cases = load_suite(args.suite)
    except SuiteError as exc:
        sys.stderr.write(
            _("neweden: {suite} is not a suite: {why}", suite=args.suite, why=exc) + "\n"
        )
        return 2
    limits = (args.game_seconds, args.run_seconds)
    runs = [
        (run_scorer if option == "--cmd" else run_url)(name, target, cases, *limits)
        for option, name, target in scorers
    ]
    report = report_of(runs, manifest)
    sys.stdout.write(table_of(report))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=2, ensure_ascii=False)
            handle.write("\n")
    if args.html:
        with open(args.html, "w", encoding="utf-8") as handle:
            handle.write(report_page(report, _pictures(cases)))
    return 0 if all(s["agrees"] for s in report["scorers"]) else 1
