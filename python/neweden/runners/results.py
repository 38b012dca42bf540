"""What a batch says of each entry (`neweden validate`, `score_many`, Dask, the HTTP batch):
its report, the `--out` line, the standard-output line, the table rows and, when asked, its
picture. The scoring of a chunk of entries lives here, apart from the runners that read
sources and write outputs, so every runner scores the same way."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from typing import Any, NamedTuple

import msgspec

from neweden._gc import collector_paused
from neweden._visible import visible
from neweden.catalog.catalog import Catalog
from neweden.format import codes
from neweden.format.decode import GameInput
from neweden.format.model import BOM
from neweden.format.modes import MODES
from neweden.format.problems import GameDecodeError, Problem
from neweden.format.untyped import shallow_value
from neweden.i18n import _
from neweden.present.colour import GREEN, MAGENTA, RED, paint
from neweden.runners.sources import Entry
from neweden.scoring.problems import problem_item
from neweden.scoring.report import reference_geometry, score_inputs
from neweden.scoring.types import ProblemItem, Report, Unreadable

__all__ = [
    "BOOLEAN_COLUMNS",
    "CSV_HEADER",
    "STRING_COLUMNS",
    "TABLE_KINDS",
    "Asked",
    "GameLine",
    "Lines",
    "Result",
    "game_meta",
    "out_lines",
    "reports",
    "score_chunk",
    "score_entries",
    "scored",
    "sourced_line",
    "svg_name",
]

CSV_HEADER = (
    "source_path,source_line,game_valid,player,legal,cards,open_connections,stars,"
    "requirements_met,requirements,labs,shelters,medical,towers,bases,military,epiphanies,"
    "ten_cards,bonuses,total,place,error_codes,warning_codes,mode,requirements_checked,"
    "requirements_declared"
)
#: The table's text and true/false columns (the rest are nullable integers).
STRING_COLUMNS = frozenset(
    {
        "source_path",
        "player",
        "requirements_met",
        "error_codes",
        "warning_codes",
        "mode",
        "requirements_checked",
        "requirements_declared",
    }
)
BOOLEAN_COLUMNS = frozenset({"game_valid", "legal"})
#: Each column of the table that is not an int64 for Parquet: "string" or "bool".
TABLE_KINDS = {c: "string" for c in STRING_COLUMNS} | {c: "bool" for c in BOOLEAN_COLUMNS}

_encoder = msgspec.json.Encoder()
_encode = _encoder.encode

#: What a batch says of each entry: its report, or that it is not a readable game.
Scored = Report | Unreadable


def reports(
    games: Sequence[GameInput | None],
    errors: Sequence[Problem | None],
    catalog: Catalog,
    detail: bool,
    *,
    reference: bool = False,
) -> list[dict[str, Any]]:
    """The report of each input as a plain dict (`neweden.score_many`, Dask); an unreadable
    one is `{"valid": false, "errors": [...]}`."""
    return [
        msgspec.to_builtins(one)
        for one in scored(games, errors, catalog, detail, reference=reference)
    ]


def scored(
    games: Sequence[GameInput | None],
    errors: Sequence[Problem | None],
    catalog: Catalog,
    detail: bool,
    *,
    reference: bool = False,
) -> list[Scored]:
    """The report of each input (`errors`: the problem of an entry that could not be read,
    or None); an unreadable one is :class:`~neweden.scoring.types.Unreadable`."""
    geometry = reference_geometry if reference else None
    if len(games) != len(errors):
        raise ValueError(f"{len(games)} games and {len(errors)} errors: one each an entry")
    readable = games  # (nearly every batch: every entry read, handed over as it is)
    if any(errors):
        readable = [game for game, error in zip(games, errors, strict=True) if error is None]
    found = iter(
        score_inputs(
            readable,  # type: ignore[arg-type]  # (an entry read is a game input)
            catalog=catalog,
            detail=detail,
            geometry=geometry,
        )
    )
    return [
        _written(next(found)) if error is None else Unreadable(False, [problem_item(error)])
        for error in errors
    ]


def _written(one: Report | GameDecodeError | TypeError) -> Scored:
    """What scored() gives of what score_inputs found of one input."""
    if isinstance(one, GameDecodeError):
        return Unreadable(False, [problem_item(p) for p in one.problems])
    if isinstance(one, TypeError):  # not bytes, str or a mapping
        return Unreadable(False, [ProblemItem(codes.BAD_TYPE, str(one), "", [])])
    return one


class GameLine(NamedTuple):
    """What the summary page (`--html`, the --svg index) shows of one entry: its source, its
    verdict (`valid`, `invalid`, `unreadable`), each player's name, total and place, its
    error codes, its first problem (`code: message`), its picture's file name ("" when none
    was drawn) and its photo (the path of the file `meta.photo` names; "" when none)."""

    source: str
    path: str
    line: int | None
    verdict: str
    players: tuple[tuple[str, int, int], ...]
    codes: tuple[str, ...]
    problem: str
    picture: str = ""
    photo: str = ""


class Result(NamedTuple):
    """What the parent needs of one game: the --out line (b"" from :func:`score_chunk`, which
    gives the chunk's lines joined), the stdout line, the summary's figures and the table
    rows. (A named tuple: one is made for every game.)"""

    line: bytes
    short: str
    valid: bool
    codes: tuple[str, ...]
    warnings: tuple[str, ...]  # the warning codes, counted as `codes` is
    rows: tuple[tuple[Any, ...], ...]
    readable: bool = True  # a game (false: the entry could not be read as one)
    svg: str | None = None  # the picture of an invalid readable game, when asked
    svg_name: str = ""
    meta: dict[str, Any] | None = None  # the game's `meta`, with the rows (the CSV's meta.KEY)
    listed: GameLine | None = None  # what the summary page shows of it (with --html)


def _first_error(report: Scored) -> ProblemItem | None:
    for problem in report.errors:
        return problem
    for player in report.players if isinstance(report, Report) else ():
        for problem in player.errors:
            return problem
    return None


class Lines(NamedTuple):
    """How the stdout lines of a run are written: whether at all (not with --quiet), only
    those of invalid and unreadable entries (--only-invalid), in colour (a terminal)."""

    shown: bool = True
    only_invalid: bool = False
    colour: bool = False

    def short(self, entry: Entry, report: Scored) -> str:
        """The stdout line of an entry, or "" when none is written for it."""
        if not self.shown or (self.only_invalid and report.valid):
            return ""
        return _short(entry, report, self.colour)


def _result(
    entry: Entry, report: Scored, *, short: bool | Lines, rows: bool, line: bool = True
) -> Result:
    """The Result of an entry; the stdout line and the table rows only when asked (`short`,
    `rows`: not with --quiet, only with --csv or --parquet); its --out line unless `line` is
    false (b"": a chunk's are made together, :func:`out_lines`)."""
    lines = short if isinstance(short, Lines) else Lines(shown=short)
    codes, warned = _codes(report)
    readable = isinstance(report, Report) and bool(report.players)
    return _new(
        Result,  # (every field given, as tuple.__new__ takes them: one a game)
        (
            sourced_line(entry, report) if line else b"",
            lines.short(entry, report),
            report.valid,
            codes,
            warned,
            _rows(entry, report) if rows else (),
            readable,
            None,
            "",
            _meta(entry, report) if rows else None,
            None,
        ),
    )


_new = tuple.__new__


def _codes(report: Scored) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The codes of a report's errors (none when it is valid) and of its warnings: the
    game's own, then each player's, in the report's order (one pass over the players, the
    codes appended: this runs for every game)."""
    errors: list[str] = []
    if not report.valid:
        for problem in report.errors:
            errors.append(problem.code)
    if not isinstance(report, Report):
        return tuple(errors), ()
    warnings = [problem.code for problem in report.warnings] if report.warnings else []
    valid = report.valid
    for player in report.players:
        if not valid:
            for problem in player.errors:
                errors.append(problem.code)
        for problem in player.warnings:
            warnings.append(problem.code)
    return tuple(errors), tuple(warnings)


def _readable(data: bytes | None) -> tuple[list[str], str | None]:
    """What a game that does not decode still gives: its players' names (its JSON an object
    whose `players` are objects with a text `name`) and its mode when it is one of the
    modes; ([], None) when nothing can be read."""
    if data is None:
        return [], None
    try:
        # (past a byte-order mark, as the decoder reads; nested past what msgspec follows, too)
        doc = shallow_value(data.removeprefix(BOM))
    except msgspec.DecodeError:
        return [], None
    if not isinstance(doc, dict):
        return [], None
    mode = doc.get("mode") if doc.get("mode") in MODES else None
    players = doc.get("players")
    if not isinstance(players, list):
        return [], mode
    names = [p["name"] for p in players if isinstance(p, dict) and isinstance(p.get("name"), str)]
    return names, mode


class _MetaOnly(msgspec.Struct):
    meta: dict[str, Any] | None = None


_meta_decoder = msgspec.json.Decoder(_MetaOnly)


def _meta(entry: Entry, report: Scored) -> dict[str, Any] | None:
    """The `meta` of an entry's game: a readable game's report carries it (as decoded);
    else what :func:`game_meta` reads of its JSON."""
    if isinstance(report, Report) and report.players:
        return report.meta
    return game_meta(entry.data)


def game_meta(data: bytes | None) -> dict[str, Any] | None:
    """The `meta` object of a game's JSON (None when there is none or the JSON is broken):
    read again on its own, for a game that is no readable report. A byte-order mark before
    the document is skipped, as the decoder skips it (FORMAT §1)."""
    if data is None:
        return None
    try:  # (nested past what msgspec follows anywhere: it skips so, and is cut then)
        return shallow_value(data.removeprefix(BOM), _meta_decoder.decode).meta
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def sourced_line(entry: Entry, report: Scored) -> bytes:
    """The --out line of one entry: `{"source": ..., ` (the JSON of Entry.source()) then the
    report's own keys (:func:`out_lines` of one, without its newline)."""
    return _encode(_sourced(entry, report))


def out_lines(entries: Sequence[Entry], reports: Sequence[Scored]) -> bytes:
    """The --out lines of entries and their reports, each ended by a newline: encoded in one
    call (msgspec writes no newline inside a line), not a line at a time."""
    return _encode_lines([_sourced(e, r) for e, r in zip(entries, reports, strict=True)])


class _Source(msgspec.Struct, gc=False):
    """Where an entry comes from, as a line gives it (Entry.source())."""

    path: str
    line: int | None


def _with_source(kind: type[msgspec.Struct]) -> type[msgspec.Struct]:
    """A struct like `kind` (its fields, their JSON names, defaults and options) with
    `source` first: what a --out line is, laid out by the report's own struct. A report
    struct with an option this does not carry over (a tag, array-like, a default factory)
    is refused when the module loads, not written otherwise."""
    config = kind.__struct_config__
    fields = msgspec.structs.fields(kind)
    if config.tag is not None or config.array_like:
        raise TypeError(f"{kind.__name__}: a --out line copies no tag or array layout")
    if any(f.default_factory is not msgspec.NODEFAULT for f in fields):
        raise TypeError(f"{kind.__name__}: a --out line copies no default factory")
    return msgspec.defstruct(
        "Sourced" + kind.__name__,
        [("source", _Source), *[(f.name, Any, f.default) for f in fields]],
        rename={f.name: f.encode_name for f in fields},
        omit_defaults=config.omit_defaults,
        gc=False,
    )


_SOURCED: dict[type[Scored], Any] = {kind: _with_source(kind) for kind in (Report, Unreadable)}
_astuple = msgspec.structs.astuple
_encode_lines = _encoder.encode_lines


def _sourced(entry: Entry, report: Scored) -> msgspec.Struct:
    """The --out line of an entry as a struct: its source, then its report's fields."""
    made: msgspec.Struct = _SOURCED[type(report)](
        _Source(entry.path, entry.line), *_astuple(report)
    )
    return made


def _short(entry: Entry, report: Scored, colour: bool = False) -> str:
    """The stdout line of an entry: its source, valid or the first error, the totals; with
    `colour`, the verdict coloured (valid green, INVALID red, UNREADABLE magenta)."""
    players = report.players if isinstance(report, Report) else []
    each = [(p.name, p.score.total) for p in players]
    first = _first_error(report)
    totals = visible(" · ".join([f"{name} {total}" for name, total in each]))
    label = visible(entry.label())
    if report.valid:
        line = _("{source}: valid  {totals}", source=label, totals=totals)
        if colour:
            start = len(label) + 2
            word = line[start:].split(" ", 1)[0]
            line = line[:start] + paint(word, GREEN) + line[start + len(word) :]
        return line
    path = visible(first.path or "/") if first else ""
    what = _("{code} at {path}", code=first.code, path=path) if first else _("invalid")
    kind = _("INVALID") if each else _("UNREADABLE")
    if colour:
        kind = paint(kind, RED if each else MAGENTA)
    return f"{label}: {kind} {what}" + (f"  {totals}" if totals else "")


def _rows(entry: Entry, report: Scored) -> tuple[tuple[Any, ...], ...]:
    """FORMAT §4's table: one row per player (null → empty; lists joined with `;`), then the
    player's warning codes and the game's top-level ones (`warning_codes`, added after the
    fixed header)."""
    top = [e.code for e in report.errors]
    if not isinstance(report, Report) or not report.players:
        warned = ";".join([w.code for w in report.warnings]) if isinstance(report, Report) else ""
        # a game that cannot be read keeps what can: a row for each player's name
        names: list[str | None] = []
        mode: str | None = report.mode if isinstance(report, Report) else None
        if not isinstance(report, Report):
            read, mode = _readable(entry.data)
            names.extend(read)
        return tuple(
            (entry.path, entry.line, False, name)
            + (None,) * 17
            + (";".join(top), warned, mode, None, None)
            for name in names or [None]
        )
    top_warnings = [w.code for w in report.warnings]
    rows = []
    for p in report.players:
        s, m = p.score, p.score.military
        met = p.requirements_met
        rows.append(
            (
                entry.path,
                entry.line,
                report.valid,
                p.name,
                p.legal,
                p.cards,
                p.open_connections,
                p.stars,
                None if met is None else ";".join(met),
                s.requirements,
                *(
                    (m.labs, m.shelters, m.medical, m.towers, m.bases, m.total)
                    if m is not None
                    else (None,) * 6
                ),
                s.epiphanies,
                s.ten_cards,
                s.bonuses,
                s.total,
                p.place,
                ";".join([e.code for e in p.errors] + top),
                ";".join([w.code for w in p.warnings] + top_warnings),
                report.mode,
                *_sources(met, p.requirements_declared),
            )
        )
    return tuple(rows)


def _sources(met: list[str] | None, declared: list[str] | None) -> tuple[str | None, str | None]:
    """`requirements_checked` and `requirements_declared`: the requirements met that were
    checked against the city, and those scored as the table declared them (null in a
    military game)."""
    if met is None:
        return None, None
    told = set(declared or ())
    return ";".join([i for i in met if i not in told]), ";".join(declared or ())


def score_entries(
    entries: Sequence[Entry],
    catalog: Catalog,
    detail: bool,
    *,
    short: bool | Lines = True,
    rows: bool = True,
    svg: bool = False,
    reference: bool = False,
    listed: bool = False,
    pictures: int | None = None,
) -> list[Result]:
    """The Result of each entry (`short` and `rows`: see :func:`_result`; `svg`: with the
    picture of each invalid readable game, of the first `pictures` of them when given;
    `reference`: the pure-Python core; `listed`: with what the summary page shows of each
    entry)."""
    asked = Asked(short, rows, svg, reference, listed, pictures)
    return _score(entries, catalog, detail, asked, each_line=True)[0]


def score_chunk(
    entries: Sequence[Entry], catalog: Catalog, detail: bool, asked: Asked
) -> tuple[list[Result], bytes]:
    """:func:`score_entries` of a worker's chunk (`asked`: its keywords), with the --out
    lines of every entry joined (each Result's `line` is b""): made in one call, as the chunk
    sends them; b"" when the run has no --out (`asked.lines` false)."""
    results, found = _score(entries, catalog, detail, asked, each_line=False)
    return results, out_lines(entries, found) if asked.lines else b""


class Asked(NamedTuple):
    """What a Result holds besides the report's figures (:func:`score_entries`' keywords)."""

    short: bool | Lines = True
    rows: bool = True
    svg: bool = False
    reference: bool = False
    listed: bool = False
    pictures: int | None = None
    #: the --out lines (:func:`score_chunk`): not made for a run without --out
    lines: bool = True


def _score(
    entries: Sequence[Entry], catalog: Catalog, detail: bool, asked: Asked, *, each_line: bool
) -> tuple[list[Result], list[Scored]]:
    """The Result and the report of each entry; each Result's --out line only when
    `each_line` (else b"": :func:`score_chunk`)."""
    lines = asked.short if isinstance(asked.short, Lines) else Lines(shown=asked.short)
    rows = asked.rows
    with collector_paused():
        games = [e.data for e in entries]
        errors = [e.problem for e in entries]
        found = scored(games, errors, catalog, detail, reference=asked.reference)
        results = [
            _result(e, r, short=lines, rows=rows, line=each_line)
            for e, r in zip(entries, found, strict=True)
        ]
    if asked.svg:
        left = len(results) if asked.pictures is None else asked.pictures
        drawn = []
        for e, r, report in zip(entries, results, found, strict=True):
            if left > 0 and not r.valid:
                r = _with_picture(e, r, catalog, report)
                left -= r.svg is not None
            drawn.append(r)
        results = drawn
    if asked.listed:
        results = [
            r._replace(listed=_game_line(e, r, one))
            for e, r, one in zip(entries, results, found, strict=True)
        ]
    return results, found


def _game_line(entry: Entry, result: Result, report: Scored) -> GameLine:
    players = report.players if isinstance(report, Report) else []
    verdict = "valid" if report.valid else "invalid" if result.readable else "unreadable"
    first = _first_error(report)
    problem = f"{first.code}: {first.message}" if first is not None else ""
    meta = result.meta if result.meta is not None else game_meta(entry.data)
    return GameLine(
        entry.label(),
        entry.path,
        entry.line,
        verdict,
        tuple([(p.name, p.score.total, p.place) for p in players]),
        result.codes,
        problem,
        result.svg_name if result.svg else "",
        _photo_path(entry.path, meta),
    )


def _photo_path(path: str, meta: dict[str, Any] | None) -> str:
    """The path of the photo a game's `meta.photo` names, from the game's file ("" when
    none)."""
    photo = (meta or {}).get("photo")
    if not isinstance(photo, str) or not photo:
        return ""
    return os.path.normpath(os.path.join(os.path.dirname(path), photo))


def svg_name(entry: Entry) -> str:
    """A file name for the picture of an entry: its source made safe (the last 120 bytes),
    then 12 hex digits of the SHA-256 of the source, so two sources never share a name
    (`a/b.json` and `a__b.json` look alike once made safe) and a name is the same every run."""
    label = entry.label()
    stem = label.replace("\\", "/").strip("/").replace("/", "__").replace(":", "_L")
    safe = "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in stem)
    safe = safe.encode()[-120:].decode("utf-8", "ignore")
    digest = hashlib.sha256(label.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return f"{safe}-{digest}.svg"


def _with_picture(entry: Entry, result: Result, catalog: Catalog, report: Scored) -> Result:
    """The result with the picture of its game (an invalid readable one), drawn from its
    report."""
    if result.valid:
        return result
    if entry.data is None or not result.readable:  # not a readable game: nothing to draw
        return result
    assert isinstance(report, Report)  # (a readable game's)
    from neweden.present.render import scored_picture

    picture = scored_picture(entry.data, report, catalog=catalog, source=entry.label())
    return result._replace(
        svg=picture,
        svg_name=svg_name(entry),
        meta=result.meta if result.meta is not None else game_meta(entry.data),  # (its photo)
    )
