"""A picture of a city (SVG), for checking a transcription against its photo.

Each card is an upright rectangle at its cell, coloured by style (wild cards striped), with
its type, facility, points and stars, and its icons on its sides; complete connections are
drawn as joins, open connections marked, and cards with a problem outlined with its code.
Empty rows and columns between far-apart cards are folded into a thin break, so the picture
stays readable whatever the city's extent. Plain SVG text, deterministic: the same game
gives the same bytes.
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from collections import Counter
from collections.abc import Iterable, Sequence
from html import escape as _escape
from typing import NamedTuple

import msgspec

from neweden.catalog.catalog import BUILTIN, Catalog, ResolvedCard, resolve_game
from neweden.format import codes
from neweden.format.decode import GameInput, decode_game
from neweden.format.modes import MODES
from neweden.format.sides import SIDES, STEP
from neweden.format.vocabulary import Attribute
from neweden.geometry.figures import CityFigures
from neweden.i18n import DEFAULT_LANGUAGE, N_, _, current, named
from neweden.present.text import mode_name
from neweden.rules.names import mistyped
from neweden.scoring.report import score_pictured
from neweden.scoring.types import PlayerReport, Report

__all__ = ["OVERLAYS", "render"]

OVERLAYS = ("shelters", "medical", "towers", "row")
CELL = 110
CARD = 92
BREAK = 28
HEADER = 46
MARGIN = 16
PALETTE = (
    "#8ecae6",
    "#ffb703",
    "#90be6d",
    "#f4a261",
    "#cdb4db",
    "#e9c46a",
    "#a8dadc",
    "#f28482",
    "#b5e48c",
    "#bde0fe",
)
#: Each style the box names has its own colour, the same in every picture.
STYLE_COLOURS = {
    "gothic": "#cdb4db",
    "futurist": "#8ecae6",
    "renaissance": "#f4a261",
    "sustainable": "#90be6d",
}


def style_colour(style: str) -> str:
    """The colour of a style: its own for the box's styles; for any other name, one of the
    palette chosen by a hash of the name, so it too is the same in every picture."""
    known = STYLE_COLOURS.get(style)
    if known is not None:
        return known
    digest = hashlib.sha256(style.encode("utf-8", "surrogateescape")).digest()
    return PALETTE[int.from_bytes(digest[:4], "big") % len(PALETTE)]


PROBLEM_COLOURS = {
    codes.OVERLAP: "#d62828",
    codes.DISCONNECTED: "#f77f00",
    codes.UNKNOWN_CARD: "#6c757d",
    codes.COPY_LIMIT: "#9d4edd",
    codes.TOO_MANY_STYLES: "#e76f51",
    codes.TOO_MANY_TYPES: "#e76f51",
    codes.UNKNOWN_STYLE: "#6c757d",
    codes.UNKNOWN_TYPE: "#6c757d",
}


#: What XML 1.0 cannot hold, even escaped: control characters other than tab, line feed and
#: carriage return, lone surrogates, U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


#: The names the box gives to styles, types and facilities, as the picture shows them (the
#: identifier in English; the manual's words in Portuguese). Other names are shown as given.
SHOWN_NAMES = {
    # TRANSLATORS: architectural styles (identifiers) as a card on the picture shows them
    "gothic": N_("gothic"),
    "futurist": N_("futurist"),
    "renaissance": N_("renaissance"),
    "sustainable": N_("sustainable"),
    # TRANSLATORS: location types (identifiers) as a card on the picture shows them
    "green_area": N_("green_area"),
    "building": N_("building"),
    "plaza": N_("plaza"),
    # TRANSLATORS: underground facilities (identifiers) as a card on the picture shows them
    "lab": N_("lab"),
    "shelter": N_("shelter"),
    "medical": N_("medical"),
    "tower": N_("tower"),
    "base": N_("base"),
}


def shown_name(name: str) -> str:
    """A style, type or facility as the current language shows it to people."""
    return named(SHOWN_NAMES, name)


def escape(words: str) -> str:
    """Text for the SVG: escaped, and each character XML cannot hold replaced by U+FFFD."""
    return _escape(_NOT_XML.sub("\ufffd", words))


def _axis(values: Iterable[int]) -> dict[int, float]:
    """Screen positions of the used rows (or columns): neighbours one cell apart, a thin
    break wherever empty rows lie between."""
    position: dict[int, float] = {}
    at = 0.0
    previous: int | None = None
    for value in sorted(set(values)):
        if previous is not None:
            at += CELL if value == previous + 1 else CELL + BREAK
        position[value] = at
        previous = value
    return position


def _text(
    x: float,
    y: float,
    words: str,
    size: int = 11,
    weight: str = "normal",
    anchor: str = "middle",
    fill: str = "#222",
    klass: str = "",
    fit: float | None = None,
) -> str:
    """A line of text; with `fit`, a line that would be wider than `fit` is set smaller and,
    if still too wide, squeezed into it (a long Portuguese name on a card, "Laboratório de
    Pesquisa"; English pictures stay as they always were)."""
    cls = f' class="{klass}"' if klass else ""
    if fit is not None and current() != DEFAULT_LANGUAGE and len(words) * size * 0.6 > fit:
        size = min(size, 9)
        if len(words) * size * 0.6 > fit:
            cls += f' textLength="{fit:.0f}" lengthAdjust="spacingAndGlyphs"'
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" font-weight="{weight}" '
        f'text-anchor="{anchor}" fill="{fill}"{cls}>{escape(words)}</text>'
    )


class _Grid(NamedTuple):
    """Where one player's cards go: screen offsets of the used rows and columns, and the
    block's top."""

    rows: dict[int, float]
    cols: dict[int, float]
    top: float

    def origin(self, card: ResolvedCard, fig: CityFigures) -> tuple[float, float]:
        shift = 14.0 if fig.overlapped_by[card.index] >= 0 else 0.0
        x = MARGIN + self.cols.get(card.col, 0.0) + (CELL - CARD) / 2 + shift
        y = self.top + HEADER + self.rows.get(card.row, 0.0) + (CELL - CARD) / 2 + shift
        return x, y


#: (code, attribute, name): the style or type names a `too_many_*` error blames.
Suspects = frozenset[tuple[str, str, str]]


def _problems_at(
    report: PlayerReport, cards: Sequence[ResolvedCard], fig: CityFigures, suspects: Suspects
) -> dict[int, str]:
    """The code to outline each card with: its first error, `disconnected` for every card
    of a part that is not the project, or `too_many_styles` / `too_many_types` for a card
    of a name that error blames (the error is the game's: its cells name no player)."""
    problem_at: dict[int, str] = {}
    for error in report.errors:
        parts = error.path.split("/")
        if len(parts) > 4 and parts[3] == "city" and parts[4].isdigit():
            problem_at.setdefault(int(parts[4]), error.code)
    for c in cards:
        if fig.component[c.index] >= 0 and fig.component[c.index] != fig.project:
            problem_at.setdefault(c.index, codes.DISCONNECTED)
        spec = c.spec
        for code, attribute, name in suspects if spec is not None and not spec.wild else ():
            if getattr(spec, attribute) == name:
                problem_at.setdefault(c.index, code)
    return problem_at


def _suspects(report: Report, cities: Sequence[Sequence[ResolvedCard]]) -> Suspects:
    """The names the game's `too_many_*` errors blame, counted as the rule counts them
    (every player's resolved common cards, placed or left out on a taken cell)."""
    given = {e.code for e in report.errors}
    found: set[tuple[str, str, str]] = set()
    blamed: tuple[tuple[str, Attribute], ...] = (
        (codes.TOO_MANY_STYLES, "style"),
        (codes.TOO_MANY_TYPES, "type"),
    )
    for code, attribute in blamed:
        if code in given:
            counts = Counter(
                getattr(c.spec, attribute)
                for city in cities
                for c in city
                if c.spec is not None and not c.spec.wild
            )
            found.update((code, attribute, name) for name in mistyped(counts, attribute))
    return frozenset(found)


def _header(name: str, report: PlayerReport, top: float) -> str:
    score = report.score
    state = _("legal") if report.legal else _("NOT legal")
    said = _(
        "{name}: {total} points, place {place} ({state}, {cards} cards, {open} open connections)",
        name=name,
        total=score.total,
        place=report.place,
        state=state,
        cards=report.cards,
        open=report.open_connections,
    )
    if report.requirements_declared:  # met on the table's word, not checked (RULES §4a)
        ids = ", ".join(report.requirements_declared)
        said += " " + _("· met as the table declared: {ids}", ids=ids)
    return _text(
        MARGIN,
        top + 26,
        said,
        size=15,
        weight="bold",
        anchor="start",
        klass="score",
    )


def _overlays_under(
    grid: _Grid,
    cards: Sequence[ResolvedCard],
    fig: CityFigures,
    overlays: Sequence[str],
    width: float,
    span: tuple[int, int, int, int] | None,
) -> list[str]:
    """The fullest row and the towers' span, drawn under the cards."""
    out = []
    if "row" in overlays and cards:
        counts: dict[int, int] = {}
        for c in cards:
            if fig.included[c.index]:
                counts[c.row] = counts.get(c.row, 0) + 1
        if counts:
            fullest = max(sorted(counts), key=lambda r: counts[r])
            out.append(
                f'<rect class="overlay-row" x="{MARGIN - 4}" '
                f'y="{grid.top + HEADER + grid.rows[fullest] - 4:.1f}" '
                f'width="{width - 2 * MARGIN + 8}" height="{CELL + 8}" fill="#fff3b0" />'
            )
    if "towers" in overlays and span is not None:
        r0, c0, r1, c1 = span
        x0, y0 = MARGIN + grid.cols[c0], grid.top + HEADER + grid.rows[r0]
        x1, y1 = MARGIN + grid.cols[c1] + CELL, grid.top + HEADER + grid.rows[r1] + CELL
        out.append(
            f'<rect class="overlay-towers" x="{x0:.1f}" y="{y0:.1f}" '
            f'width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" fill="none" '
            'stroke="#7b2cbf" stroke-width="3" stroke-dasharray="10 6" />'
        )
    return out


def _joins(grid: _Grid, by_index: dict[int, ResolvedCard], fig: CityFigures) -> list[str]:
    """The complete connections, drawn under the cards."""
    out = []
    for a, b in fig.connections:
        (ax, ay), (bx, by) = grid.origin(by_index[a], fig), grid.origin(by_index[b], fig)
        out.append(
            f'<line class="join" x1="{ax + CARD / 2:.1f}" y1="{ay + CARD / 2:.1f}" '
            f'x2="{bx + CARD / 2:.1f}" y2="{by + CARD / 2:.1f}" stroke="#2a9d8f" '
            'stroke-width="10" />'
        )
    return out


def _city(
    name: str,
    report: PlayerReport,
    cards: Sequence[ResolvedCard],
    fig: CityFigures,
    colours: dict[str, str],
    overlays: Sequence[str],
    top: float,
    military: bool,
    suspects: Suspects = frozenset(),
) -> tuple[list[str], float, float]:
    """The SVG elements of one player's block, its width and its height; `military`: the
    game scores the military part (its overlays are drawn from the figures); `suspects`:
    the names a `too_many_*` error blames."""
    grid = _Grid(_axis(c.row for c in cards), _axis(c.col for c in cards), top)
    problem_at = _problems_at(report, cards, fig, suspects)
    width = MARGIN * 2 + (max(grid.cols.values(), default=0.0) + CELL if cards else 240)
    height = HEADER + (max(grid.rows.values(), default=0.0) + CELL if cards else 40) + MARGIN
    out = [f'<g class="player" data-name="{escape(name)}">', _header(name, report, top)]
    span = fig.tower_span if military else None
    out.extend(_overlays_under(grid, cards, fig, overlays, width, span))
    by_index = {c.index: c for c in cards}
    out.extend(_joins(grid, by_index, fig))
    joined: dict[int, set[int]] = {}
    for a, b in fig.connections:
        joined.setdefault(a, set()).add(b)
        joined.setdefault(b, set()).add(a)
    cell = {c.index: (c.row, c.col) for c in cards}
    groups = {cell[i] for group in fig.shelter_groups for i in group} if military else set()
    medical = {cell[i] for i in fig.medical_cards} if military else set()
    for card in cards:
        out.extend(
            _card(
                card,
                grid.origin(card, fig),
                colours,
                problem_at.get(card.index),
                joined.get(card.index, set()),
                by_index,
                fig,
                "shelters" in overlays and (card.row, card.col) in groups,
                "medical" in overlays and (card.row, card.col) in medical,
            )
        )
    out.append("</g>")
    return out, width, height


def _card(
    card: ResolvedCard,
    at: tuple[float, float],
    colours: dict[str, str],
    problem: str | None,
    joined: set[int],
    by_index: dict[int, ResolvedCard],
    fig: CityFigures,
    shelter_mark: bool,
    medical_mark: bool,
) -> list[str]:
    x, y = at
    spec = card.spec
    cx = x + CARD / 2
    if spec is None:
        fill, lines = "#dee2e6", [_("unknown id")]
    elif spec.wild:
        fill, lines = "url(#wild)", [_("WILD"), _("{points} pts", points=spec.points)]
    else:
        fill = colours.get(spec.style or "", "#ddd")
        stars = "★" * spec.stars or _("no star")
        lines = [
            shown_name(spec.style or ""),
            shown_name(spec.type or ""),
            shown_name(spec.facility or ""),
            _("{points} pts · {stars}", points=spec.points, stars=stars),
        ]
    stroke, dash = "#333", ""
    if problem is not None:
        stroke = PROBLEM_COLOURS.get(problem, "#d62828")
        dash = ' stroke-dasharray="7 4"'
    out = [
        f'<g class="card" data-index="{card.index}" data-cell="{card.row},{card.col}">',
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{CARD}" height="{CARD}" rx="6" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="{3 if problem else 1.5}"{dash} />',
    ]
    for i, words in enumerate(lines):
        out.append(
            _text(
                cx,
                y + 18 + 16 * i,
                words,
                size=11 if i else 10,
                weight="bold" if i == len(lines) - 1 else "normal",
                fit=CARD - 8,
            )
        )
    if card.rotated:
        out.append(_text(x + CARD - 8, y + 12, "↻", size=12, klass="rotated"))
    if spec is not None and fig.included[card.index]:
        icons = spec.sides_as_placed(card.rotated)
        for side in SIDES:
            if side not in icons:
                continue
            dy, dx = STEP[side]  # x grows with columns, y with rows
            ix, iy = cx + dx * CARD / 2, y + CARD / 2 + dy * CARD / 2
            w, h = (22, 8) if dy else (8, 22)
            out.append(
                f'<rect class="icon" x="{ix - w / 2:.1f}" y="{iy - h / 2:.1f}" '
                f'width="{w}" height="{h}" fill="#264653" />'
            )
            partner = next(
                (
                    by_index[j]
                    for j in joined
                    if (by_index[j].col - card.col, by_index[j].row - card.row) == (dx, dy)
                ),
                None,
            )
            if partner is None:  # an open connection
                ox, oy = ix + dx * 9, iy + dy * 9
                out.append(
                    f'<circle class="open" cx="{ox:.1f}" cy="{oy:.1f}" r="5" '
                    'fill="#fff" stroke="#d62828" stroke-width="2.5" />'
                )
    if problem is not None:
        out.append(
            _text(
                cx,
                y + CARD - 6,
                problem,
                size=10 if len(problem) <= 13 else 9,  # the longest code fits the card
                weight="bold",
                fill=PROBLEM_COLOURS.get(problem, "#d62828"),
                klass="problem",
            )
        )
    if shelter_mark:
        out.append(
            f'<circle class="overlay-shelter" cx="{x + 10:.1f}" cy="{y + 10:.1f}" r="6" '
            'fill="#1d3557" />'
        )
    if medical_mark:
        out.append(
            f'<circle class="overlay-medical" cx="{x + 10:.1f}" cy="{y + CARD - 10:.1f}"'
            ' r="6" fill="#e63946" />'
        )
    out.append("</g>")
    return out


#: The legend's entry of each overlay the picture draws: its mark, and what it means.
_OVERLAY_LEGEND = {
    "shelters": (
        '<circle cx="{cx}" cy="{cy}" r="6" fill="#1d3557" />',
        N_("in a shelter group"),
    ),
    "medical": (
        '<circle cx="{cx}" cy="{cy}" r="6" fill="#e63946" />',
        N_("next to a medical center"),
    ),
    "towers": (
        '<rect x="{x}" y="{y}" width="16" height="16" fill="none" stroke="#7b2cbf" '
        'stroke-width="3" stroke-dasharray="5 3" />',
        N_("tower span"),
    ),
    "row": ('<rect x="{x}" y="{y}" width="16" height="16" fill="#fff3b0" />', N_("fullest row")),
}


def _legend(
    colours: dict[str, str], top: float, overlays: Sequence[str]
) -> tuple[list[str], float]:
    out = [
        '<g class="legend">',
        _text(MARGIN, top + 16, _("Legend"), size=13, weight="bold", anchor="start"),
    ]
    x = MARGIN
    y = top + 28
    entries = [
        (
            f'<rect x="{{x}}" y="{{y}}" width="16" height="16" fill="{c}" stroke="#333" />',
            shown_name(s),
        )
        for s, c in colours.items()
    ]
    entries += [
        (
            '<rect x="{x}" y="{y}" width="16" height="16" fill="url(#wild)" stroke="#333" />',
            _("wild card"),
        ),
        (
            '<rect x="{x}" y="{y}" width="16" height="6" fill="#2a9d8f" />',
            _("complete connection"),
        ),
        (
            '<circle cx="{cx}" cy="{cy}" r="5" fill="#fff" stroke="#d62828" stroke-width="2.5" />',
            _("open connection"),
        ),
        (
            '<rect x="{x}" y="{y}" width="16" height="16" fill="none" stroke="#d62828" '
            'stroke-width="3" stroke-dasharray="7 4" />',
            _("a card with a problem (its code)"),
        ),
    ]
    entries += [
        (_OVERLAY_LEGEND[name][0], _(_OVERLAY_LEGEND[name][1]))
        for name in OVERLAYS
        if name in overlays
    ]
    for shape, words in entries:
        out.append(shape.format(x=x, y=y, cx=x + 8, cy=y + 8))
        out.append(_text(x + 22, y + 12, words, size=11, anchor="start"))
        x += 30 + 7 * len(words)
        if x > 620:
            x, y = MARGIN, y + 24
    out.append("</g>")
    return out, y + 30 - top


#: The most problems the notes under the legend list (a count says how many more).
MOST_NOTED = 12
#: The characters of a line of the notes (a longer message goes on over more lines).
NOTE_WIDTH = 110


def _meta_words(value: object) -> str:
    return value if isinstance(value, str) else msgspec.json.encode(value).decode()


def _notes(report: Report, meta: object, source: str | None, top: float) -> tuple[list[str], float]:
    """Under the legend: where the game comes from (`source`, and its `meta`: the table,
    the photo...), then every error with its message, so the picture says what is wrong
    without the report beside it."""
    lines: list[tuple[str, str, str]] = []  # (words, weight, colour)
    if source:
        lines.append((_("source: {source}", source=source), "normal", "#222"))
    if isinstance(meta, dict):
        lines += [
            (f"meta.{key}: {_meta_words(value)}", "normal", "#222") for key, value in meta.items()
        ]
    errors = [*report.errors, *(e for p in report.players for e in p.errors)]
    if errors:
        lines.append((_("Problems"), "bold", "#222"))
    for problem in errors[:MOST_NOTED]:
        words = _(
            "{code} at {path}: {message}",
            code=problem.code,
            path=problem.path or "/",
            message=problem.message,
        )
        lines.append((words, "normal", PROBLEM_COLOURS.get(problem.code, "#d62828")))
    if len(errors) > MOST_NOTED:
        more = _("and {count} more", count=len(errors) - MOST_NOTED)
        lines.append((more, "normal", "#222"))
    if not lines:
        return [], 0.0
    wrapped = [
        (piece if at == 0 else "    " + piece, weight, colour)
        for words, weight, colour in lines
        for at, piece in enumerate(
            textwrap.wrap(words, NOTE_WIDTH, max_lines=4, placeholder=" …") or [""]
        )
    ]
    out = ['<g class="notes">']
    for k, (shown, weight, colour) in enumerate(wrapped):
        out.append(
            _text(
                MARGIN,
                top + 14 + 17 * k,
                shown,
                size=11,
                weight=weight,
                anchor="start",
                fill=colour,
            )
        )
    out.append("</g>")
    return out, 17.0 * len(wrapped) + 10


def _language_attributes() -> str:
    """The language of the picture's words on its root (`lang`, `xml:lang`); none for
    English, the default, so that English pictures are byte-identical to earlier ones."""
    lang = current()
    return "" if lang == DEFAULT_LANGUAGE else f' xml:lang="{lang}" lang="{lang}"'


def render(
    game: GameInput,
    *,
    player: str | None = None,
    catalog: Catalog | None = None,
    overlays: Sequence[str] = (),
    source: str | None = None,
) -> str:
    """The SVG picture of a game's cities (all players stacked, or the one named `player`),
    the legend, then the notes: `source` (the file it comes from) and `meta`, and every
    error with its message.

    Raises :class:`neweden.GameDecodeError` for an unreadable game and ValueError for a
    player not in the game or an unknown overlay; `overlays` are any of :data:`OVERLAYS`.
    """
    unknown = sorted(set(overlays) - set(OVERLAYS))
    if unknown:
        raise ValueError(
            _(
                "unknown overlay(s) {unknown}; known: {known}",
                unknown=", ".join(unknown),
                known=", ".join(OVERLAYS),
            )
        )
    catalog = catalog or BUILTIN
    decoded = decode_game(game)
    resolved = resolve_game(decoded, catalog)
    # the lean report and every city's figures from one pass: the picture draws no audit
    # line (the military overlays come from the figures), so it does not pay for the
    # audit's epiphany searches
    report, figures = score_pictured(decoded, catalog=catalog)
    military = MODES[decoded.mode].military
    suspects = _suspects(report, resolved.cities)
    names = [p.name for p in decoded.players]
    if player is not None and player not in names:
        raise ValueError(
            _(
                'no player is named "{player}" (the players: {names})',
                player=player,
                names=", ".join(names),
            )
        )
    chosen = list(range(len(names))) if player is None else [names.index(player)]
    styles = sorted(
        {
            c.spec.style
            for i in chosen
            for c in resolved.cities[i]
            if c.spec is not None and c.spec.style
        }
    )
    colours = {s: style_colour(s) for s in styles}
    body: list[str] = []
    top = 0.0
    width = 480.0
    for i in chosen:
        block, w, h = _city(
            names[i],
            report.players[i],
            resolved.cities[i],
            figures[i],
            colours,
            overlays,
            top,
            military,
            suspects,
        )
        body.extend(block)
        width = max(width, w)
        top += h
    legend, h = _legend(colours, top, overlays)
    body.extend(legend)
    top += h
    notes, h = _notes(report, decoded.meta, source, top)
    body.extend(notes)
    height = top + h
    width = max(width, 720.0) if notes else width
    defs = (
        '<defs><pattern id="wild" width="10" height="10" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="10" height="10" fill="#f1faee" />'
        '<rect width="5" height="10" fill="#adb5bd" /></pattern></defs>'
    )
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans, sans-serif"'
            f"{_language_attributes()}>",
            "<title>"
            + escape(_("New Eden Project, {mode} game", mode=mode_name(decoded.mode)))
            + "</title>",
            defs,
            f'<rect width="{width:.0f}" height="{height:.0f}" fill="#ffffff" />',
            *body,
            "</svg>",
            "",
        ]
    )
