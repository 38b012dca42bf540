"""A readable table of a report, for people at the table (`neweden score --format text`):
players by place with every part of the score, then the problems; 80 columns wide."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from neweden._visible import visible
from neweden.format.modes import MODES
from neweden.i18n import N_, _, named
from neweden.scoring.types import PlayerReport, Report

__all__ = ["WIDTH", "mode_name", "placements_table", "report_table"]

WIDTH = 80
NAME_WIDTH = 14
MET_WIDTH = 11
#: The columns: heading (translated where shown; no wider in Portuguese than in English, so
#: the table keeps to 80 columns) and the key of the value.
COLUMNS = (
    ("#", "place"),
    # TRANSLATORS: text table headings, abbreviated: keep each as short as the English
    (N_("player"), "name"),
    (N_("legal"), "legal"),
    (N_("cards"), "cards"),
    # TRANSLATORS: the number of open connections
    (N_("open"), "open_connections"),
    (N_("stars"), "stars"),
    # TRANSLATORS: the requirement cards met
    (N_("met"), "requirements_met"),
    # TRANSLATORS: points of the populist requirements
    (N_("popul"), "requirements"),
    # TRANSLATORS: military points (underground facilities)
    (N_("milit"), "military"),
    # TRANSLATORS: epiphany points
    (N_("epiph"), "epiphanies"),
    ("10+", "ten_cards"),
    (N_("bonus"), "bonuses"),
    (N_("total"), "total"),
)

#: The game modes as people read them (the identifiers stay in the report).
MODE_NAMES = {mode: rules.name for mode, rules in MODES.items()}


def mode_name(mode: str) -> str:
    """A game mode as the current language names it (`elitist`: ``elitista``)."""
    return named(MODE_NAMES, mode)


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return _("yes") if value else _("NO")
    if isinstance(value, list):
        return ",".join(str(v) for v in value) or "-"
    return str(value)


def _row(player: PlayerReport) -> list[str]:
    score = player.score
    values = {
        "place": player.place,
        "name": _clip(visible(player.name), NAME_WIDTH),
        "legal": player.legal,
        "cards": player.cards,
        "open_connections": player.open_connections,
        "stars": player.stars,
        "requirements_met": _clip(_met(player), MET_WIDTH),
        "requirements": score.requirements,
        "military": score.military.total if score.military else None,
        "epiphanies": score.epiphanies,
        "ten_cards": score.ten_cards,
        "bonuses": score.bonuses,
        "total": score.total,
    }
    return [_cell(values[key]) for _title, key in COLUMNS]


def _met(player: PlayerReport) -> str:
    """The requirements met, those scored as the table declared them marked `*`."""
    met, declared = player.requirements_met, player.requirements_declared
    if met is None or not declared:
        return _cell(met)
    return ",".join(f"{i}*" if i in declared else i for i in met)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "~"


def report_table(report: Report | Mapping[str, Any]) -> str:
    """The report as text: a header line, the players by place, then every problem (a
    report given as the dict `neweden.score` returns is read as a Report first)."""
    if not isinstance(report, Report):
        report = msgspec.convert(report, Report)
    rows = [[_(title) for title, _key in COLUMNS]]
    rows += [_row(p) for p in sorted(report.players, key=lambda p: p.place)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS))]
    left = {1, 2, 6}  # name, legal, requirements met
    verdict = _("valid") if report.valid else _("NOT valid")
    lines = textwrap.wrap(
        _(
            "New Eden Project, {mode} game: {verdict} (catalog {catalog})",
            mode=mode_name(report.mode),
            verdict=verdict,
            catalog=visible(report.catalog),
        ),
        WIDTH,
        subsequent_indent="    ",
    )
    for r in rows:
        cells = [
            c.ljust(w) if i in left else c.rjust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ]
        lines.append(" ".join(cells).rstrip())
    error, warning = _("error"), _("warning")
    problems = [(error, e) for e in report.errors] + [(warning, w) for w in report.warnings]
    for p in report.players:
        problems += [(error, e) for e in p.errors]
        problems += [(warning, w) for w in p.warnings]
    if any(p.requirements_declared for p in report.players):
        lines.append(_("* met as the table declared (requirements_met), not checked"))
    if problems:
        lines.append("")
    for kind, problem in problems:
        said = visible(f"{kind}: {problem.path or '/'}: {problem.code}: {problem.message}")
        lines.extend(textwrap.wrap(said, WIDTH, subsequent_indent="    "))
    return "\n".join(lines) + "\n"


#: The columns of the placements table: heading, key of a placement.
PLACEMENT_COLUMNS = (
    (N_("row"), "row"),
    (N_("col"), "col"),
    (N_("turned"), "rotated"),
    (N_("open"), "open_connections"),
    (N_("total"), "total"),
    (N_("change"), "delta"),
)


def _placement_cell(placement: Mapping[str, Any], key: str) -> str:
    value = placement[key]
    if key == "rotated":
        return _("yes") if value else _("no")
    return f"{value:+d}" if key == "delta" else str(value)


def placements_table(player: str, placements: Sequence[Mapping[str, Any]]) -> str:
    """The placements of a card (`neweden placements`) as text: a line saying whose city,
    then one row a placement, the best first."""
    if not placements:
        return (
            _("No legal placement of the card in {player}'s city.", player=visible(player)) + "\n"
        )
    rows = [[_(title) for title, _key in PLACEMENT_COLUMNS]]
    rows += [[_placement_cell(p, key) for _title, key in PLACEMENT_COLUMNS] for p in placements]
    widths = [max(len(r[i]) for r in rows) for i in range(len(PLACEMENT_COLUMNS))]
    head = _("Where the card can go in {player}'s city, the best first:", player=visible(player))
    lines = [" ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join([head, *lines]) + "\n"
