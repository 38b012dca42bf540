"""The standings across rounds (docs/standings.md) for people: a terminal table per event,
the CSV's rows and a page of HTML to post (self-contained, readable on a phone)."""

from __future__ import annotations

from html import escape
from typing import Any

from neweden._visible import visible
from neweden.i18n import N_, _, ngettext
from neweden.present.html import standalone_page
from neweden.scoring.standings import EventStandings, Standings

__all__ = ["CSV_COLUMNS", "csv_rows", "standings_page", "standings_table"]

#: The standing's figures: heading (translated where shown) and the key of the value.
COLUMNS = (
    ("#", "place"),
    (N_("player"), "name"),
    # TRANSLATORS: tournament points, a standings heading; keep it short
    (N_("points"), "points"),
    # TRANSLATORS: the sum of the game totals, a standings heading; keep it short
    (N_("totals"), "total"),
    # TRANSLATORS: games won, a standings heading; keep it short
    (N_("wins"), "wins"),
    # TRANSLATORS: the requirement cards met
    (N_("met"), "requirements_met"),
    (N_("cards"), "cards"),
    # TRANSLATORS: games played, a standings heading; keep it short
    (N_("games"), "games"),
)
#: The CSV's columns (stable identifiers): one row a player and event.
CSV_COLUMNS = ("event", *(key for _title, key in COLUMNS))


def _event_title(event: EventStandings) -> str:
    name = event.event if event.event is not None else _("no event")
    known = len([r for r in event.rounds if r is not None])
    games = ngettext("{n} game", "{n} games", event.games)
    if not known:
        return f"{name} — {games}"
    rounds = ngettext("{n} round", "{n} rounds", known)
    return f"{name} — {rounds}, {games}"


def _row(player: Any) -> list[str]:
    return [str(getattr(player, key)) for _title, key in COLUMNS]


def standings_table(standings: Standings) -> str:
    """Each event's standings as text, then the games left out and the notes."""
    lines: list[str] = []
    for event in standings.events:
        rows = [[_(title) for title, _key in COLUMNS]]
        rows += [_row(p) for p in event.players]
        rows = [[visible(cell) for cell in row] for row in rows]
        widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS))]
        lines.append(visible(_event_title(event)))
        for r in rows:
            cells = [
                c.ljust(w) if i == 1 else c.rjust(w)
                for i, (c, w) in enumerate(zip(r, widths, strict=True))
            ]
            lines.append(" ".join(cells).rstrip())
        lines.append("")
    if standings.left_out:
        n = len(standings.left_out)
        lines.append(ngettext("{n} game left out:", "{n} games left out:", n))
        for left in standings.left_out:
            lines.append(visible(f"  {_source(left.source)}  {left.code}  {left.message}"))
        lines.append("")
    for note in standings.notes:
        lines.append(visible(f"{note.code}: {note.message}"))
    return "\n".join(lines).rstrip("\n") + "\n" if lines else ""


def _source(source: dict[str, Any]) -> str:
    path, line = source.get("path", ""), source.get("line")
    return str(path) if line is None else f"{path}:{line}"


def csv_rows(standings: Standings) -> list[tuple[Any, ...]]:
    """The CSV's rows (CSV_COLUMNS), events in order, players by standing."""
    return [
        (event.event, *(getattr(p, key) for _title, key in COLUMNS))
        for event in standings.events
        for p in event.players
    ]


_STYLE = (
    "body{font-family:system-ui,sans-serif;margin:1rem;line-height:1.4;color:#222}"
    "h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:1.6rem}"
    ".scroll{overflow-x:auto;max-width:100%}"
    "table{border-collapse:collapse;min-width:18rem}"
    "th,td{border-bottom:1px solid #ddd;padding:.35rem .5rem;text-align:right}"
    "th:nth-child(2),td:nth-child(2){text-align:left}"
    "tr.first td{font-weight:bold}"
    "details{margin:.2rem 0}summary{cursor:pointer}"
    ".left li,.notes li{margin:.3rem 0;overflow-wrap:anywhere}"
    "code{font-size:.9em}"
    "@media (max-width:40rem){th,td{padding:.3rem .25rem}.extra{display:none}}"
)

#: The columns a phone leaves out (the tie-breakers after wins stay in the CSV and JSON).
_EXTRA = {"requirements_met", "cards", "games"}


def _html_event(event: EventStandings) -> str:
    heads = "".join(
        f'<th scope="col"{_extra(key)}>{escape(_(title))}</th>' for title, key in COLUMNS
    )
    rows = []
    for p in event.players:
        cells = "".join(
            f"<td{_extra(key)}>{escape(str(getattr(p, key)))}</td>" for _t, key in COLUMNS
        )
        first = ' class="first"' if p.place == 1 else ""
        rows.append(f"<tr{first}>{cells}</tr>")
    return (
        f"<h2>{escape(_event_title(event))}</h2>"
        f'<div class="scroll"><table><thead><tr>{heads}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _extra(key: str) -> str:
    return ' class="extra"' if key in _EXTRA else ""


def standings_page(standings: Standings) -> str:
    """The standings as one HTML page, in the current language, with no external resource."""
    title = _("Standings")
    parts = [_html_event(event) for event in standings.events]
    if standings.left_out:
        n = len(standings.left_out)
        items = "".join(
            f"<li><code>{escape(_source(left.source))}</code> — <code>{escape(left.code)}</code>"
            f" {escape(left.message)}</li>"
            for left in standings.left_out
        )
        said = ngettext("{n} game left out", "{n} games left out", n)
        parts.append(f'<h2>{escape(said)}</h2><ul class="left">{items}</ul>')
    if standings.notes:
        items = "".join(f"<li>{escape(note.message)}</li>" for note in standings.notes)
        notes = _("Notes")
        parts.append(f'<h2>{escape(notes)}</h2><ul class="notes">{items}</ul>')
    points = ", ".join(
        f"{n}: {'/'.join(str(v) for v in values)}" for n, values in standings.points.items()
    )
    said = _("Tournament points by place, by number of players: {points}", points=points)
    return standalone_page(title, _STYLE, [f"<p>{escape(said)}</p>", *parts])
