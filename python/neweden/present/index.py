"""`index.html` of `neweden validate --svg DIR`: every invalid entry of the run, one row
each (its source file, the game's line in it, INVALID or UNREADABLE, its first problem, a
link to its picture, or "no picture" for an entry that is not a readable game, and the
game's photo beside it when its `meta.photo` names one, so the two can be compared without
a server). Plain HTML, no script."""

from __future__ import annotations

import os
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
    @property
    def photo(self) -> str: ...


_STYLE = (
    "body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}"
    "td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}"
    ".INVALID{color:#b00}.UNREADABLE{color:#808}"
    "td img{max-width:28em;max-height:20em;display:block}"
)


def _game(line: int | None) -> str:
    """Which game of its file: its line, or a dash for a file of one game."""
    return "—" if line is None else escape(_("line {line}", line=line))


def _photo(path: str, where: str) -> str:
    """The photo at `path` shown from the page in the folder `where` (a relative link: the
    page and the photos open from the disk, no server); "" when there is none."""
    if not path:
        return ""
    link = escape(quote(os.path.relpath(path, where).replace(os.sep, "/")))
    words = escape(_("the photo of the table"))
    return f'<a href="{link}"><img src="{link}" alt="{words}" loading="lazy"></a>'


def picture_index(pictures: Sequence[Listed], where: str = ".") -> str:
    """The HTML page listing `pictures`, in the run's order, in the current language, to be
    written in the folder `where` (the photos are linked from there)."""
    title = _("Pictures of the invalid games")
    heads = (_("source"), _("game"), _("verdict"), _("problem"), _("picture"), _("photo"))
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
            f"<td>{escape(p.problem)}</td><td>{link}</td><td>{_photo(p.photo, where)}</td></tr>"
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
