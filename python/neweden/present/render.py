"""A picture of a city (SVG), for checking a transcription against its photo.

Each card is an upright rectangle at its cell, coloured by style (wild cards striped), with
its type, facility, points and stars, and its icons on its sides; complete connections are
drawn as joins, open connections marked, and cards with a problem outlined with its code.
Empty rows and columns between far-apart cards are folded into a thin break, so the picture
stays readable whatever the city's extent. Plain SVG text, deterministic: the same game
gives the same bytes.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

import msgspec

from neweden.catalog.catalog import BUILTIN, Catalog, ResolvedCard, resolve_game
from neweden.format.decode import GameInput, decode_game
from neweden.format.model import Game
from neweden.format.modes import MODES
from neweden.format.problems import problem_words
from neweden.i18n import DEFAULT_LANGUAGE, N_, _, current, ngettext
from neweden.present.city_picture import Drawing, PlayerCity, city_block, suspects
from neweden.present.svg import (
    MARGIN,
    PROBLEM_COLOURS,
    escape,
    shown_name,
    style_colour,
    text_line,
)
from neweden.present.text import mode_name
from neweden.scoring.report import score_pictured
from neweden.scoring.types import Report

__all__ = ["OVERLAYS", "drawn_cities", "render", "scored_picture"]

OVERLAYS = ("shelters", "medical", "towers", "row")


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
        text_line(MARGIN, top + 16, _("Legend"), size=13, weight="bold", anchor="start"),
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
        out.append(text_line(x + 22, y + 12, words, size=11, anchor="start"))
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
        words = problem_words(problem.code, problem.path, problem.message)
        lines.append((words, "normal", PROBLEM_COLOURS.get(problem.code, "#d62828")))
    if len(errors) > MOST_NOTED:
        more = _("and {count} more", count=len(errors) - MOST_NOTED)
        lines.append((more, "normal", "#222"))
    if not lines:
        return [], 0.0
    wrapped = [
        (piece if at == 0 else "    " + piece, weight, colour)
        for words, weight, colour in lines
        for at, piece in enumerate(_wrapped(words))
    ]
    out = ['<g class="notes">']
    for k, (shown, weight, colour) in enumerate(wrapped):
        out.append(
            text_line(
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


def _wrapped(words: str) -> list[str]:
    """A note's lines: at most 4 of NOTE_WIDTH characters, as textwrap wraps them. A note
    that fits one line, with no white space textwrap would change (a tab, a line break;
    white space at either end), is that line as it is: textwrap gives it back unchanged.
    A longer one of plain words is wrapped by :func:`_greedy_lines`."""
    if (
        0 < len(words) <= NOTE_WIDTH
        and words.strip() == words
        and not _CHANGED_WHITESPACE.search(words)
    ):
        return [words]
    lines = _greedy_lines(words, NOTE_WIDTH, 4, " …")
    if lines is not None:
        return lines
    return textwrap.wrap(words, NOTE_WIDTH, max_lines=4, placeholder=" …") or [""]


#: Where textwrap breaks a word other than at a space (its `wordsep_re`): a hyphen between
#: letters (two before it, or a letter, a hyphen and a letter; a letter, perhaps a hyphen,
#: and a letter after it), and a dash of two hyphens or more. A hyphen elsewhere ("column
#: -8") is a letter like any other to it. (The hyphen first: the search looks only there.)
_BREAKS = re.compile(r"-(?:-|(?:(?<=[^\d\W]{2}-)|(?<=[^\d\W]-[^\d\W]-))(?=[^\d\W]-?[^\d\W]))")


def _greedy_lines(text: str, width: int, max_lines: int, placeholder: str) -> list[str] | None:
    """textwrap.wrap(text, width, max_lines=max_lines, placeholder=placeholder) for a text
    of plain words: printable (no white space but single spaces between words), no hyphen
    where textwrap may break a word (_BREAKS) and no word wider than a line; None for any
    other (textwrap's own algorithm, `TextWrapper._wrap_chunks`, over the words and the
    spaces between them, without its regular expressions)."""
    words = text.split(" ")
    if not text.isprintable() or "" in words or ("-" in text and _BREAKS.search(text)):
        return None
    if max(map(len, words)) > width or len(placeholder.lstrip()) > width:
        return None  # (textwrap refuses a placeholder wider than a line)
    lines: list[str] = []
    at, count = 0, len(words)
    while at < count:
        line = [words[at]]
        size = len(words[at])
        at += 1
        while at < count and size + 1 + len(words[at]) <= width:
            line.append(words[at])
            size += 1 + len(words[at])
            at += 1
        if at == count or len(lines) + 1 < max_lines:
            lines.append(" ".join(line))
            continue
        # the last line there is room for, and words left: the placeholder ends it, after
        # as many of its words as leave room for it
        while line and size + len(placeholder) > width:
            size -= len(line.pop()) + (1 if line else 0)
        if line:
            lines.append(" ".join(line) + placeholder)
        elif lines and len(lines[-1]) + len(placeholder) <= width:
            lines[-1] += placeholder  # (a line made here never ends in white space to strip)
        else:
            lines.append(placeholder.lstrip())
        break
    return lines


#: The white space textwrap expands or replaces by a space (its `expand_tabs` and
#: `replace_whitespace`).
_CHANGED_WHITESPACE = re.compile("[\t\n\x0b\x0c\r]")


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
    _check_overlays(overlays)
    return _picture(game, player, catalog or BUILTIN, overlays, source, None)


def scored_picture(
    game: GameInput, report: Report, *, catalog: Catalog, source: str | None = None
) -> str:
    """:func:`render` of a game already scored (every player, no overlay): its `report`,
    lean or detailed, as :func:`neweden.score` gives it with `catalog` in the current
    language (a batch's), is what the picture draws, the game not scored again."""
    return _picture(game, None, catalog, (), source, report)


def _picture(
    game: GameInput,
    player: str | None,
    catalog: Catalog,
    overlays: Sequence[str],
    source: str | None,
    scored: Report | None,
) -> str:
    decoded, report, cities, drawing = drawn_cities(game, player, catalog, overlays, scored)
    body, width, height = _drawn(cities, drawing, report, decoded.meta, source)
    return _svg(width, height, mode_name(decoded.mode), body)


def drawn_cities(
    game: GameInput,
    player: str | None,
    catalog: Catalog,
    overlays: Sequence[str],
    scored: Report | None,
) -> tuple[Game, Report, list[PlayerCity], Drawing]:
    """What a picture of `game` draws its blocks from: the game decoded, its lean report
    (`scored`, when the caller has it), the cities drawn (every player's, or `player`'s)
    and what their blocks share."""
    decoded = decode_game(game)
    if scored is not None:  # (the report of this game: its players, by name)
        assert [p.name for p in scored.players] == [p.name for p in decoded.players]
    resolved = resolve_game(decoded, catalog)
    # the lean report and every city's figures from one pass: the picture draws no audit
    # line (the military overlays come from the figures), so it does not pay for the
    # audit's epiphany searches
    report, figures = score_pictured(decoded, catalog=catalog, report=scored)
    military = MODES[decoded.mode].military
    blamed = suspects(report, resolved.cities)
    names = [p.name for p in decoded.players]
    chosen = _chosen(names, player)
    drawing = Drawing(_colours(resolved.cities, chosen), overlays, military, blamed)
    cities = [
        PlayerCity(names[i], report.players[i], resolved.cities[i], figures[i]) for i in chosen
    ]
    return decoded, report, cities, drawing


def _check_overlays(overlays: Sequence[str]) -> None:
    """Raises ValueError naming the overlays asked for that a picture does not draw."""
    unknown = sorted(set(overlays) - set(OVERLAYS))
    if unknown:
        raise ValueError(
            ngettext(
                "unknown overlay(s) {unknown}; known: {known}",
                "unknown overlay(s) {unknown}; known: {known}",
                len(unknown),
                unknown=", ".join(unknown),
                known=", ".join(OVERLAYS),
            )
        )


def _chosen(names: list[str], player: str | None) -> list[int]:
    """The players drawn: every one, or the one named `player` (ValueError when no player
    is so named)."""
    if player is not None and player not in names:
        raise ValueError(
            _(
                'no player is named "{player}" (the players: {names})',
                player=player,
                names=", ".join(names),
            )
        )
    return list(range(len(names))) if player is None else [names.index(player)]


def _colours(cities: Sequence[Sequence[ResolvedCard]], chosen: list[int]) -> dict[str, str]:
    """The colour of each style on the cards drawn, the styles in name order."""
    styles = sorted(
        {c.spec.style for i in chosen for c in cities[i] if c.spec is not None and c.spec.style}
    )
    return {s: style_colour(s) for s in styles}


def _drawn(
    cities: list[PlayerCity], drawing: Drawing, report: Report, meta: object, source: str | None
) -> tuple[list[str], float, float]:
    """The picture's elements (the cities' blocks one under another, the legend, the notes),
    its width and its height."""
    body: list[str] = []
    top = 0.0
    width = 480.0
    for city in cities:
        block, w, h = city_block(city, drawing, top)
        body.extend(block)
        width = max(width, w)
        top += h
    legend, h = _legend(drawing.colours, top, drawing.overlays)
    body.extend(legend)
    top += h
    notes, h = _notes(report, meta, source, top)
    body.extend(notes)
    height = top + h
    width = max(width, 720.0) if notes else width
    return body, width, height


#: The striped fill of wild cards.
_DEFS = (
    '<defs><pattern id="wild" width="10" height="10" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)"><rect width="10" height="10" fill="#f1faee" />'
    '<rect width="5" height="10" fill="#adb5bd" /></pattern></defs>'
)


def _svg(width: float, height: float, mode: str, body: list[str]) -> str:
    """The SVG document of a picture of `width` by `height` holding `body`, titled by the
    game's mode as people name it."""
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans, sans-serif"'
            f"{_language_attributes()}>",
            "<title>" + escape(_("New Eden Project, {mode} game", mode=mode)) + "</title>",
            _DEFS,
            f'<rect width="{width:.0f}" height="{height:.0f}" fill="#ffffff" />',
            *body,
            "</svg>",
            "",
        ]
    )
