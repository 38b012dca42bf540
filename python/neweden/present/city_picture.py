"""One player's block of the picture: the header line, the cards at their cells (rows and
columns far apart folded into a thin break), the joins under them, their icons and open
connections, the problems they are outlined with, and the overlays asked for.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from neweden.catalog.catalog import CardSpec, ResolvedCard
from neweden.format import codes
from neweden.format.problems import is_index
from neweden.format.sides import SIDES, STEP
from neweden.format.vocabulary import Attribute
from neweden.geometry.figures import CityFigures
from neweden.i18n import _, current
from neweden.present.svg import (
    BREAK,
    CARD,
    CELL,
    HEADER,
    MARGIN,
    PROBLEM_COLOURS,
    escape,
    shown_name,
    text_after_place,
    text_line,
)
from neweden.rules.names import mistyped
from neweden.scoring.types import PlayerReport, Report

__all__ = ["Drawing", "PlayerCity", "Suspects", "city_block", "suspects"]

#: (code, attribute, name): the style or type names a `too_many_*` error blames (None: a
#: card of a catalog built in Python that has none).
Suspects = frozenset[tuple[str, str, str | None]]


class PlayerCity(NamedTuple):
    """One player's city as its block draws it."""

    name: str
    report: PlayerReport
    cards: Sequence[ResolvedCard]
    fig: CityFigures


class Drawing(NamedTuple):
    """What every block of a picture shares: each style's colour, the overlays asked for,
    whether the game scores the military part (its overlays are drawn from the figures),
    and the names a `too_many_*` error blames."""

    colours: dict[str, str]
    overlays: Sequence[str]
    military: bool
    suspects: Suspects = frozenset()


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


def _problems_at(city: PlayerCity, suspects: Suspects) -> dict[int, str]:
    """The code to outline each card with: its first error, `disconnected` for every card
    of a part that is not the project, or `too_many_styles` / `too_many_types` for a card
    of a name that error blames (the error is the game's: its cells name no player)."""
    fig = city.fig
    problem_at: dict[int, str] = {}
    for error in city.report.errors:
        parts = error.path.split("/")
        if len(parts) > 4 and parts[3] == "city" and is_index(parts[4]):
            problem_at.setdefault(int(parts[4]), error.code)
    for c in city.cards:
        if fig.component[c.index] >= 0 and fig.component[c.index] != fig.project:
            problem_at.setdefault(c.index, codes.DISCONNECTED)
        spec = c.spec
        for code, attribute, name in suspects if spec is not None and not spec.wild else ():
            if getattr(spec, attribute) == name:
                problem_at.setdefault(c.index, code)
    return problem_at


def suspects(report: Report, cities: Sequence[Sequence[ResolvedCard]]) -> Suspects:
    """The names the game's `too_many_*` errors blame, counted as the rule counts them
    (every player's resolved common cards, placed or left out on a taken cell)."""
    given = {e.code for e in report.errors}
    found: set[tuple[str, str, str | None]] = set()
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
    return text_line(
        MARGIN,
        top + 26,
        said,
        size=15,
        weight="bold",
        anchor="start",
        klass="score",
    )


def _overlays_under(grid: _Grid, city: PlayerCity, drawing: Drawing, width: float) -> list[str]:
    """The fullest row and the towers' span, drawn under the cards."""
    cards, fig, overlays = city.cards, city.fig, drawing.overlays
    span = fig.tower_span if drawing.military else None
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


def city_block(city: PlayerCity, drawing: Drawing, top: float) -> tuple[list[str], float, float]:
    """The SVG elements of one player's block, its width and its height."""
    cards, fig, overlays, military = city.cards, city.fig, drawing.overlays, drawing.military
    grid = _Grid(_axis(c.row for c in cards), _axis(c.col for c in cards), top)
    problem_at = _problems_at(city, drawing.suspects)
    width = MARGIN * 2 + (max(grid.cols.values(), default=0.0) + CELL if cards else 240)
    height = HEADER + (max(grid.rows.values(), default=0.0) + CELL if cards else 40) + MARGIN
    out = [
        f'<g class="player" data-name="{escape(city.name)}">',
        _header(city.name, city.report, top),
    ]
    out.extend(_overlays_under(grid, city, drawing, width))
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
        placed = _Placed(
            card,
            grid.origin(card, fig),
            problem_at.get(card.index),
            joined.get(card.index, set()),
            "shelters" in overlays and (card.row, card.col) in groups,
            "medical" in overlays and (card.row, card.col) in medical,
        )
        out.extend(_card(placed, by_index, fig, drawing.colours))
    out.append("</g>")
    return out, width, height


class _Placed(NamedTuple):
    """A card of a block as it is drawn: its top left corner, the code it is outlined with,
    the cards joined to it, and whether the shelter and medical overlays mark it."""

    card: ResolvedCard
    at: tuple[float, float]
    problem: str | None
    joined: set[int]
    shelter_mark: bool
    medical_mark: bool


def _card(
    placed: _Placed,
    by_index: dict[int, ResolvedCard],
    fig: CityFigures,
    colours: dict[str, str],
) -> list[str]:
    """The SVG elements of one card: its face, its icons and open connections, its
    problem and the overlays' marks."""
    card, problem = placed.card, placed.problem
    x, y = placed.at
    out = [f'<g class="card" data-index="{card.index}" data-cell="{card.row},{card.col}">']
    out.append(_face(card.spec, x, y, colours, problem))
    if card.rotated:
        out.append(text_line(x + CARD - 8, y + 12, "↻", size=12, klass="rotated"))
    if card.spec is not None and fig.included[card.index]:
        out.extend(_icons(placed, card.spec, by_index))
    if problem is not None:
        out.append(
            text_line(
                x + CARD / 2,
                y + CARD - 6,
                problem,
                size=10 if len(problem) <= 13 else 9,  # the longest code fits the card
                weight="bold",
                fill=PROBLEM_COLOURS.get(problem, "#d62828"),
                klass="problem",
            )
        )
    out.extend(_overlay_marks(placed))
    out.append("</g>")
    return out


def _face(
    spec: CardSpec | None, x: float, y: float, colours: dict[str, str], problem: str | None
) -> str:
    """A card's rectangle, filled by its style (striped when wild) and outlined by its
    problem, and its lines: style, type, facility, points and stars (the elements one a
    line, as the picture joins them). A face is made once with its place left to fill
    (:func:`_face_template`): a picture draws few kinds of card many times."""
    face: _FaceKey | None = None  # (an unknown card)
    if spec is not None:  # (the points as shown: a points of True is equal to 1, shown True)
        fill = "" if spec.wild else colours.get(spec.style or "", "#ddd")
        wild = bool(spec.wild)  # (as it is read: None, in a CardSpec built by hand, is False)
        face = (wild, spec.style, spec.type, spec.facility, f"{spec.points}", spec.stars, fill)
    template, lines = _face_template(face, problem, current())
    middle, first = x + CARD / 2, y + 18  # (line i at y + 18 + 16 * i)
    places = [x, y]
    for i in range(lines):
        places += (middle, first + 16 * i)
    return template % tuple(places)


#: What a known card's face shows: whether it is wild, its style, type and facility, its
#: points as shown, its stars, and its fill (unless wild).
_FaceKey = tuple[bool, str | None, str | None, str | None, str, int, str]


@functools.lru_cache(maxsize=4096)
def _face_template(face: _FaceKey | None, problem: str | None, lang: str) -> tuple[str, int]:
    """:func:`_face` of a card that shows `face` (None: an unknown card), outlined by
    `problem`, in `lang` (the current language, which it is made in), as a %-format of its
    corner (x, y), then of each line's place (the middle of the card's width, the line's
    height); and how many lines it has."""
    if face is None:
        fill, lines = "#dee2e6", [_("unknown id")]
    elif face[0]:
        points = face[4]
        fill, lines = "url(#wild)", [_("WILD"), _("{points} pts", points=points)]
    else:
        _wild, style, kind, facility, points, stars, fill = face
        shown_stars = "★" * stars or _("no star")
        lines = [
            shown_name(style or ""),
            shown_name(kind or ""),
            shown_name(facility or ""),
            _("{points} pts · {stars}", points=points, stars=shown_stars),
        ]
    stroke, dash = "#333", ""
    if problem is not None:
        stroke = PROBLEM_COLOURS.get(problem, "#d62828")
        dash = ' stroke-dasharray="7 4"'
    rect = (
        f'width="{CARD}" height="{CARD}" rx="6" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="{3 if problem else 1.5}"{dash} />'
    )
    parts = ['<rect x="%.1f" y="%.1f" ' + _kept(rect)]
    for i, words in enumerate(lines):
        size, weight = 11 if i else 10, "bold" if i == len(lines) - 1 else "normal"
        rest = text_after_place(words, (size, weight, "middle", "#222", "", CARD - 8), lang)
        parts.append('<text x="%.1f" y="%.1f" ' + _kept(rest))
    return "\n".join(parts), len(lines)


def _kept(text: str) -> str:
    """`text` as a %-format that gives it back (its % doubled)."""
    return text.replace("%", "%%")


def _icons(placed: _Placed, spec: CardSpec, by_index: dict[int, ResolvedCard]) -> list[str]:
    """The icons on a card's sides as placed, each without a card joined to it marked as an
    open connection (made once for each set of icons and of sides joined:
    :func:`_icons_template`)."""
    card = placed.card
    x, y = placed.at
    # where the cards joined to it lie, (columns, rows) away: a side facing none is open
    joined = frozenset(
        [(by_index[j].col - card.col, by_index[j].row - card.row) for j in placed.joined]
    )
    template, steps = _icons_template(spec.sides_as_placed(card.rotated), joined)
    if not steps:
        return []
    cx, cy = x + CARD / 2, y + CARD / 2
    values: list[float] = []
    for across, down, half_w, half_h, opened, out_x, out_y in steps:
        ix, iy = cx + across, cy + down
        values += (ix - half_w, iy - half_h)
        if opened:  # an open connection
            values += (ix + out_x, iy + out_y)
    return [template % tuple(values)]


#: An icon of a card, as :func:`_icons` places it: how far its middle is from the card's
#: (x, y), half its width and height, whether it is open, and how far its open mark is
#: from its middle.
_IconStep = tuple[float, float, float, float, bool, int, int]


@functools.lru_cache(maxsize=1024)
def _icons_template(
    icons: frozenset[str], joined: frozenset[tuple[int, int]]
) -> tuple[str, tuple[_IconStep, ...]]:
    """:func:`_icons` of a card with `icons` on its sides as placed and cards `joined` to it
    (columns, rows) away: a %-format of each icon's corner and each open mark's middle, in
    the order of SIDES, and the steps that place them (nothing when it has no icon)."""
    parts: list[str] = []
    steps: list[_IconStep] = []
    for side in SIDES:
        if side not in icons:
            continue
        dy, dx = STEP[side]  # x grows with columns, y with rows
        w, h = (22, 8) if dy else (8, 22)
        opened = (dx, dy) not in joined
        steps.append((dx * CARD / 2, dy * CARD / 2, w / 2, h / 2, opened, dx * 9, dy * 9))
        parts.append(
            f'<rect class="icon" x="%.1f" y="%.1f" width="{w}" height="{h}" fill="#264653" />'
        )
        if opened:
            parts.append(
                '<circle class="open" cx="%.1f" cy="%.1f" r="5" '
                'fill="#fff" stroke="#d62828" stroke-width="2.5" />'
            )
    return "\n".join(parts), tuple(steps)


def _overlay_marks(placed: _Placed) -> list[str]:
    """The marks of the shelter and medical overlays on a card."""
    x, y = placed.at
    out = []
    if placed.shelter_mark:
        out.append(
            f'<circle class="overlay-shelter" cx="{x + 10:.1f}" cy="{y + 10:.1f}" r="6" '
            'fill="#1d3557" />'
        )
    if placed.medical_mark:
        out.append(
            f'<circle class="overlay-medical" cx="{x + 10:.1f}" cy="{y + CARD - 10:.1f}"'
            ' r="6" fill="#e63946" />'
        )
    return out
