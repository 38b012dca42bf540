"""`index.html` of `neweden validate --svg DIR`: every invalid entry of the run, one row
each (its source file, the game's line in it, INVALID or UNREADABLE, its first problem, and
a link to its picture, or "no picture" for an entry that is not a readable game). Plain
HTML, no script."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Protocol
from urllib.parse import quote

from neweden.i18n import _, current

__all__ = ["picture_index"]


class Listed(Protocol):
    """What the index shows of an entry (:class:`neweden.runners.results.Picture`)."""

    @property
    def path(self) -> str: ...
    @property
    def line(self) -> int | None: ...
    @property
    def verdict(self) -> str: ...
    @property
    def file(self) -> str: ...
    @property
    def problem(self) -> str: ...


_STYLE = (
    "body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}"
    "td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}"
    ".INVALID{color:#b00}.UNREADABLE{color:#808}"
)


def _game(line: int | None) -> str:
    """Which game of its file: its line, or a dash for a file of one game."""
    return "—" if line is None else escape(_("line {line}", line=line))


def picture_index(pictures: Sequence[Listed]) -> str:
    """The HTML page listing `pictures`, in the run's order, in the current language."""
    title = _("Pictures of the invalid games")
    heads = (_("source"), _("game"), _("verdict"), _("problem"), _("picture"))
    rows = []
    for p in pictures:
        kind = "INVALID" if p.file else "UNREADABLE"
        link = (
            f'<a href="{escape(quote(p.file))}">{escape(p.file)}</a>'
            if p.file
            else escape(_("no picture: not a readable game"))
        )
        rows.append(
            f"<tr><td>{escape(p.path)}</td><td>{_game(p.line)}</td>"
            f'<td class="{kind}">{escape(p.verdict)}</td>'
            f"<td>{escape(p.problem)}</td><td>{link}</td></tr>"
        )
    none = _("No invalid game: no picture.")
    empty = f"<p>{escape(none)}</p>" if not pictures else ""
    return "\n".join(
        [
            "<!DOCTYPE html>",
            f'<html lang="{escape(current())}"><head><meta charset="utf-8">',
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>",
            f"<h1>{escape(title)}</h1>",
            empty,
            "<table><thead><tr>"
            + "".join(f"<th>{escape(h)}</th>" for h in heads)
            + "</tr></thead>",
            "<tbody>",
            *rows,
            "</tbody></table></body></html>",
            "",
        ]
    )
