"""`neweden standings` (docs/standings.md): the results of `validate --out` files and of
games (scored here first), read in order, made into the standings, written as a terminal
table, CSV, JSON and HTML."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import IO, Any

import msgspec

from neweden.catalog.catalog import Catalog
from neweden.format.problems import os_reason, problem_words
from neweden.format.untyped import CUT_DEPTH, shallow_value
from neweden.i18n import _, ngettext, number
from neweden.present.standings import CSV_COLUMNS, csv_rows, standings_page, standings_table
from neweden.runners.batch import missing_paths
from neweden.runners.outputs import WriteError, csv_line, header_names, write_whole
from neweden.runners.results import scored
from neweden.runners.run_outputs import output_among_inputs
from neweden.runners.sources import Entry, Identity, identity, iter_entries
from neweden.scoring.standings import LeftOut, Result, Standings, read_result, standings
from neweden.scoring.standings_options import (
    Aliases,
    Points,
    StandingsError,
    aliases_from_lines,
    aliases_from_mapping,
)

__all__ = ["StandingsFiles", "rank_paths", "read_aliases", "results_of", "write_standings"]

#: Games scored at once while reading (a chunk of `scored`).
_CHUNK = 256


def _first_problem(entry: Entry) -> str:
    problem = entry.problem
    if problem is None:
        return _("not a readable game")
    return problem_words(problem.code, problem.path, problem.message)


def results_of(
    paths: Sequence[str], catalog: Catalog, exclude: Collection[Identity] = ()
) -> list[Result]:
    """Every result of the PATHs, in order: a line of a `validate --out` file as it is (a
    JSON object with `valid`), anything else read as a game and scored. A folder walk
    leaves out the files of `exclude` (the run's outputs, written by an earlier run)."""
    found: list[Result | None] = []
    games: list[tuple[int, Entry]] = []
    for entry in iter_entries(paths, exclude):
        if entry.problem is not None or entry.data is None:
            found.append(LeftOut(entry.source(), None, None, "unreadable", _first_problem(entry)))
            continue
        doc = _result_line(entry.data)
        if doc is not None:
            found.append(read_result(doc, entry.source()))
        else:
            games.append((len(found), entry))
            found.append(None)
    for start in range(0, len(games), _CHUNK):
        chunk = games[start : start + _CHUNK]
        reports = scored([e.data for _i, e in chunk], [None] * len(chunk), catalog, False)
        for (at, entry), report in zip(chunk, reports, strict=True):
            found[at] = read_result(msgspec.to_builtins(report), entry.source())
    return [r for r in found if r is not None]


class _Valid(msgspec.Struct):
    """A document's top-level `valid` as its JSON text, read without the rest (an empty
    Raw: not there)."""

    valid: msgspec.Raw = msgspec.Raw()


_valid = msgspec.json.Decoder(_Valid).decode


def _result_line(data: bytes) -> dict[str, Any] | None:
    """A line of a `validate --out` file (a JSON object with `valid`), decoded; None for
    anything else (a game, scored then). A document without `valid` at its top level (a
    game) is told so without being decoded whole."""
    try:
        if not _valid(data).valid:
            return None
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        pass  # (not an object, say: decoded whole below, which tells)
    try:
        doc = shallow_value(data)  # (a document nested past what msgspec follows, too)
    except msgspec.DecodeError:
        return None
    return doc if isinstance(doc, dict) and "valid" in doc else None


def read_aliases(path: str) -> Aliases:
    """The alias file: `ALIAS = NAME` lines, or a `.json` object; StandingsError when it
    cannot be read or is not one."""
    try:  # (one byte past the limit at most: a stream without end is not read whole)
        with open(path, "rb") as handle:
            data = handle.read(MAX_ALIAS_BYTES + 1)
        if len(data) > MAX_ALIAS_BYTES:
            why = _("it is larger than {size} bytes", size=number(MAX_ALIAS_BYTES))
            raise StandingsError(_("--alias {path}: {why}", path=path, why=why))
        text = data.decode("utf-8-sig")
    except OSError as exc:
        raise StandingsError(_("--alias {path}: {why}", path=path, why=os_reason(exc))) from None
    except UnicodeDecodeError:
        why = _("not UTF-8 text")
        raise StandingsError(_("--alias {path}: {why}", path=path, why=why)) from None
    if not path.lower().endswith(".json"):
        return aliases_from_lines(text, path)
    try:
        pairs = json.loads(text, object_pairs_hook=_pairs)
    except ValueError as exc:
        raise StandingsError(_("--alias {path}: {why}", path=path, why=str(exc))) from None
    except RecursionError:  # (an alias file is one object of strings)
        why = _("it is nested more than {limit} levels deep", limit=CUT_DEPTH)
        raise StandingsError(_("--alias {path}: {why}", path=path, why=why)) from None
    if not isinstance(pairs, _Pairs) or not all(isinstance(v, str) for _k, v in pairs):
        raise StandingsError(
            _('--alias {path}: write one object, {{"ALIAS": "NAME", ...}}', path=path)
        )
    if not all(_utf8(key) and _utf8(name) for key, name in pairs):  # (a lone surrogate)
        why = _("not UTF-8 text")
        raise StandingsError(_("--alias {path}: {why}", path=path, why=why))
    # (each pair as given: a key given twice is said by aliases_from_mapping)
    return aliases_from_mapping(list(pairs), [f"{path}: {key}" for key, _v in pairs])


#: The largest alias file read (a few hundred names fit in some kilobytes).
MAX_ALIAS_BYTES = 1024 * 1024


def _utf8(text: str) -> bool:
    """Whether `text` can be written as UTF-8 (JSON's escapes can give a lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class _Pairs(list[tuple[str, Any]]):
    """A JSON object's pairs in order, a key given twice kept twice."""


def _pairs(pairs: list[tuple[str, Any]]) -> _Pairs:
    return _Pairs(pairs)


@dataclass(frozen=True)
class StandingsFiles:
    """Where the standings are written besides the terminal (None: not written; `-`:
    standard output)."""

    csv: str | None = None
    json: str | None = None
    html: str | None = None
    csv_sep: str = ","
    csv_bom: bool = False
    csv_header: str = "ids"  # the CSV's header: the identifiers, or a language's names


def _csv(standings: Standings, files: StandingsFiles) -> str:
    sep = files.csv_sep
    lines = [csv_line(header_names(CSV_COLUMNS, files.csv_header), sep)]
    lines += [csv_line(row, sep) for row in csv_rows(standings)]
    return ("\ufeff" if files.csv_bom else "") + "".join(lines)


def _json(standings: Standings) -> str:
    return msgspec.json.format(msgspec.json.encode(standings), indent=2).decode() + "\n"


def rank_paths(
    paths: Sequence[str],
    catalog: Catalog,
    asked: tuple[Points, Aliases],
    files: StandingsFiles,
    quiet: bool = False,
) -> int:
    """`neweden standings PATH...`: exit 0 with standings made, 1 when a PATH is not found
    (said on standard error), 2 for bad arguments, an output that is also an input or that
    cannot be written, or no game counted."""
    missing = missing_paths(paths, sys.stderr)
    named = {"--csv": files.csv, "--json": files.json, "--html": files.html}
    clash = output_among_inputs(paths, {k: v for k, v in named.items() if v != "-"})
    if clash is not None:
        sys.stderr.write(clash)
        return 2
    found = [path for path in paths if path not in missing]
    outputs = {i for p in named.values() if p and p != "-" and (i := identity(p)) is not None}
    try:
        made = standings(results_of(found, catalog, outputs), *asked)
        write_standings(made, files, sys.stdout)
    except StandingsError as err:
        sys.stderr.write(f"neweden: {err}\n")
        return 2
    except WriteError as err:
        sys.stderr.write(f"neweden: {err}\n")
        return 2
    if not quiet and "-" not in named.values():
        sys.stdout.write(standings_table(made))
    elif made.left_out:
        n = len(made.left_out)
        sys.stderr.write(
            ngettext("neweden: {n} game left out", "neweden: {n} games left out", n) + "\n"
        )
    if not made.events:
        sys.stderr.write(_("neweden: no game could be counted for the standings") + "\n")
        return 2
    return 1 if missing else 0


def write_standings(standings: Standings, files: StandingsFiles, stdout: IO[str]) -> None:
    """Each file asked for, written whole (WriteError when one cannot be)."""
    made: tuple[tuple[str | None, Callable[[], str]], ...] = (
        (files.csv, lambda: _csv(standings, files)),
        (files.json, lambda: _json(standings)),
        (files.html, lambda: standings_page(standings)),
    )
    for path, text in made:
        if path is None:
            continue
        if path == "-":
            stdout.write(text())
            continue
        write_whole(os.fspath(path), text().encode("utf-8"))
