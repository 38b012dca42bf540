"""What each command of the command line does, given its parsed arguments: the exit status,
the answer on standard output and every problem on standard error."""

from __future__ import annotations

import argparse
import json
import os
import sys
from importlib import resources
from typing import Any

import msgspec

from neweden.catalog.catalog import BUILTIN, Catalog
from neweden.catalog.files import CatalogError, load_catalog
from neweden.cli.inputs import read_input, score_input
from neweden.format.problems import GameDecodeError
from neweden.format.schema import city_schema, game_schema
from neweden.i18n import N_, _
from neweden.present.render import render
from neweden.present.text import placements_table, report_table
from neweden.runners.batch import validate
from neweden.scoring.placements import PlacementError, placements
from neweden.scoring.report import score

__all__ = [
    "EXIT_ERRORS",
    "EXIT_USAGE",
    "EXIT_VALID",
    "cmd_catalog_check",
    "cmd_placements",
    "cmd_render",
    "cmd_schema",
    "cmd_score",
    "cmd_serve",
    "cmd_standings",
    "cmd_validate",
    "describe_catalog",
    "example_game",
]

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


def cmd_schema(args: argparse.Namespace) -> int:
    try:  # the schema is every catalog's (ids are a pattern); the file is checked all the same
        _catalog(args)
    except CatalogError as err:
        return _report_catalog_error(err)
    sys.stdout.write(_json(city_schema() if args.city else game_schema()))
    return EXIT_VALID


def _score_format(args: argparse.Namespace) -> str:
    """`--format` when given; else a table on a terminal, JSON when piped or redirected."""
    if args.format is not None:
        return str(args.format)
    return "text" if sys.stdout.isatty() else "json"


def cmd_score(args: argparse.Namespace) -> int:
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
            data = score_input(args.file)
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


def cmd_validate(args: argparse.Namespace) -> int:
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
        csv_sep=args.csv_sep or (";" if _brazilian() else ","),
        csv_bom=_brazilian() if args.csv_bom is None else args.csv_bom,
        csv_header=args.csv_header,
        html=args.html,
    )


def _brazilian() -> bool:
    """Whether the run speaks Portuguese (--lang, NEWEDEN_LANG or the locale): its CSV is
    then written for a Brazilian spreadsheet (`;` between fields, a byte-order mark)."""
    from neweden.i18n import current

    return current() == "pt-BR"


def cmd_serve(args: argparse.Namespace) -> int:
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


def cmd_review(args: argparse.Namespace) -> int:
    """`neweden review DIR`: the service (one worker: saves are made one at a time) with the
    API of the folder DIR (docs/review.md)."""
    from neweden.runners.review import ReviewError, ReviewFolder

    try:
        folder = ReviewFolder(args.dir, _catalog(args) or BUILTIN)
    except ReviewError as err:
        sys.stderr.write(f"neweden: {err.message}\n")
        return EXIT_USAGE
    except CatalogError as err:
        return _report_catalog_error(err)
    os.environ["NEWEDEN_REVIEW"] = str(folder.root)
    os.environ["NEWEDEN_REVIEW_HOSTS"] = " ".join(_review_hosts(args.host))
    args.workers, args.cors_origin = 1, None
    return cmd_serve(args)


def cmd_standings(args: argparse.Namespace) -> int:
    """`neweden standings PATH...` (docs/standings.md; exit statuses: rank_paths)."""
    from neweden.runners.standings import StandingsFiles, rank_paths, read_aliases
    from neweden.scoring.standings_options import Aliases, StandingsError, points_from

    try:
        points = points_from(args.points or ())
        aliases = read_aliases(args.alias) if args.alias else Aliases()
        catalog = _catalog(args) or BUILTIN
    except StandingsError as err:
        sys.stderr.write(f"neweden: {err}\n")
        return EXIT_USAGE
    except CatalogError as err:
        return _report_catalog_error(err)
    files = StandingsFiles(
        args.csv,
        args.json,
        args.html,
        csv_sep=args.csv_sep or (";" if _brazilian() else ","),
        csv_bom=_brazilian() if args.csv_bom is None else args.csv_bom,
        csv_header=args.csv_header,
    )
    return rank_paths(args.paths, catalog, (points, aliases), files, args.quiet)


def _review_hosts(host: str) -> list[str]:
    """The names a request to the review may give as its Host: this computer's, the host
    it listens on, and on the local network (--host 0.0.0.0) the address printed there."""
    from neweden.http.service import LOCAL_HOSTS
    from neweden.http.serving import network_address

    hosts = [*LOCAL_HOSTS]
    seen = network_address(host)
    for name in (host, seen):
        if name and name not in ("0.0.0.0", "::", "") and name not in hosts:
            hosts.append(f"[{name}]" if ":" in name else name)
    return hosts


def cmd_render(args: argparse.Namespace) -> int:
    try:
        data = read_input(args.file)
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


def cmd_catalog_check(args: argparse.Namespace) -> int:
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


def cmd_placements(args: argparse.Namespace) -> int:
    card: Any = args.card
    if card.lstrip().startswith("{"):
        try:
            card = _card_json(card)
        except ValueError as exc:
            message = _("neweden: --card is not valid JSON: {why}", why=exc)
            sys.stderr.write(message + "\n")
            return EXIT_USAGE
    try:
        data = read_input(args.file)
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
        from neweden.format.untyped import cut_deep

        return json.loads(cut_deep(text.encode()))
