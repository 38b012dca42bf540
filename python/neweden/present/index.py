"""The page of a whole `neweden validate` batch (`--html FILE`, and `index.html` of `--svg
DIR`): the counts (valid, invalid, unreadable), the problems by code with their share, and
every game with its verdict, players, totals and places, filters by verdict and problem, each
invalid game's picture and the photo of its table. One file in the run's language: no
external resource (the pictures are files beside it or data inside it), readable on a phone."""

from __future__ import annotations

import base64
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from html import escape
from typing import Protocol
from urllib.parse import quote

from neweden.i18n import _, ngettext, number
from neweden.present.html import standalone_page

__all__ = ["VERDICTS", "batch_page", "picture_data"]

#: The verdicts of an entry, in the order the page counts them.
VERDICTS = ("valid", "invalid", "unreadable")


class Listed(Protocol):
    """What the page shows of an entry (:class:`neweden.runners.results.GameLine`)."""

    @property
    def source(self) -> str: ...
    @property
    def verdict(self) -> str: ...
    @property
    def players(self) -> tuple[tuple[str, int, int], ...]: ...
    @property
    def codes(self) -> tuple[str, ...]: ...
    @property
    def problem(self) -> str: ...
    @property
    def picture(self) -> str: ...
    @property
    def photo(self) -> str: ...


_STYLE = (
    "body{font-family:system-ui,sans-serif;margin:1rem;line-height:1.4;color:#222;"
    "max-width:60rem}h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:1.5rem}"
    ".counts{font-size:1.1rem}.counts b{font-size:1.3rem}.counts span{white-space:nowrap}"
    "table{border-collapse:collapse}th,td{padding:.25rem .5rem;text-align:left;"
    "border-bottom:1px solid #ddd}td.n{text-align:right}"
    ".filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}"
    ".filters select{font-size:1rem;min-height:2.75rem;max-width:100%}"
    ".games{list-style:none;padding:0}.game{border:1px solid #ccc;border-radius:.4rem;"
    "padding:.5rem .7rem;margin:.6rem 0;overflow-wrap:anywhere}"
    ".verdict{font-weight:bold;margin-right:.5rem}.valid{color:#176317}.invalid{color:#b00}"
    ".unreadable{color:#808}.problem{margin:.3rem 0}"
    ".players{margin:.3rem 0;padding:0;list-style:none}"
    ".look{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:.3rem}"
    ".look img{max-width:100%;height:auto;display:block}"
    ".look>*{flex:1 1 18rem;min-width:0}"
    "summary{cursor:pointer;min-height:1.5rem}code{font-size:.9em}"
)

#: The filter (an inline script: the page is one file). Hides the games the two choices
#: leave out and says how many are shown.
_SCRIPT = """
const verdict = document.getElementById("verdict");
const problem = document.getElementById("problem");
const shown = document.getElementById("shown");
function filter() {
  let n = 0;
  for (const game of document.querySelectorAll("li.game")) {
    const codes = game.dataset.codes.split(" ");
    const keep = (!verdict.value || game.dataset.verdict === verdict.value)
      && (!problem.value || codes.includes(problem.value));
    game.hidden = !keep;
    if (keep) n += 1;
  }
  const lang = document.documentElement.lang;
  shown.textContent = shown.dataset.words.replace("{n}", n.toLocaleString(lang));
}
verdict.addEventListener("change", filter);
problem.addEventListener("change", filter);
filter();
"""


def picture_data(svg: str | bytes) -> str:
    """An SVG (its text, or the text in UTF-8) as a `data:` address, to show inside the page
    (no file, no id shared between two pictures)."""
    data = svg if isinstance(svg, bytes) else svg.encode("utf-8")
    return "data:image/svg+xml;base64," + base64.b64encode(data).decode()


def _verdict_words() -> dict[str, str]:
    return {"valid": _("valid"), "invalid": _("INVALID"), "unreadable": _("UNREADABLE")}


#: Stands for a count in a sentence, replaced by the count in bold once escaped.
_MARK = "\x00"


def _counted(sentence: str, key: str, n: int) -> str:
    """`sentence` (its count `_MARK`) escaped, the count in bold, named for the tests."""
    return escape(sentence).replace(_MARK, f'<b data-count="{key}">{number(n)}</b>')


def _counts(lines: Sequence[Listed]) -> str:
    counted = Counter(line.verdict for line in lines)
    said = {
        "valid": ngettext("{count} valid", "{count} valid", counted["valid"], count=_MARK),
        "invalid": ngettext("{count} INVALID", "{count} INVALID", counted["invalid"], count=_MARK),
        "unreadable": ngettext(
            "{count} UNREADABLE", "{count} UNREADABLE", counted["unreadable"], count=_MARK
        ),
    }
    parts = [f'<span class="{v}">{_counted(said[v], v, counted[v])}</span>' for v in VERDICTS]
    games = ngettext("{count} game", "{count} games", len(lines), count=_MARK)
    return f'<p class="counts">{_counted(games, "games", len(lines))}: {", ".join(parts)}</p>'


def _problems(lines: Sequence[Listed]) -> tuple[str, list[str]]:
    """The table of problems by code (games with it, share of the games) and the codes."""
    # each game's codes once, in the order it has them: the codes with as many games come in
    # the order first met (a set's order changes with the process's hash seed)
    having = Counter(code for line in lines for code in dict.fromkeys(line.codes))
    if not having:
        none = _("No game has a problem.")
        return f"<p>{escape(none)}</p>", []
    heads = (_("problem"), _("games"), _("share of the games"))
    rows = "".join(
        f"<tr><td><code>{escape(code)}</code></td><td class=n>{number(n)}</td>"
        f"<td class=n>{number(round(100 * n / len(lines), 1))}%</td></tr>"
        for code, n in having.most_common()
    )
    head = "".join(f"<th>{escape(h)}</th>" for h in heads)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>", [
        code for code, _n in having.most_common()
    ]


def _filters(codes: Sequence[str]) -> str:
    words = _verdict_words()
    every = escape(_("all"))
    verdicts = "".join(f'<option value="{v}">{escape(words[v])}</option>' for v in VERDICTS)
    problems = "".join(f'<option value="{escape(c)}">{escape(c)}</option>' for c in codes)
    said = escape(_("shown: {n}"))
    verdict, problem = escape(_("verdict")), escape(_("problem"))
    return (
        '<form class="filters">'
        f'<label>{verdict} <select id="verdict"><option value="">{every}</option>'
        f"{verdicts}</select></label>"
        f'<label>{problem} <select id="problem"><option value="">{every}</option>'
        f"{problems}</select></label>"
        f'<output id="shown" data-words="{said}"></output></form>'
    )


def _link(path: str, where: str) -> str:
    return escape(quote(os.path.relpath(path, where).replace(os.sep, "/")))


def _game(line: Listed, pictures: Mapping[str, str], where: str) -> str:
    words = _verdict_words()
    players = "".join(
        f"<li>{place}. {escape(name)} — {number(total)}</li>"
        for name, total, place in sorted(line.players, key=lambda p: p[2])
    )
    parts = [
        f'<div><span class="verdict {line.verdict}">{escape(words[line.verdict])}</span>'
        f"<code>{escape(line.source)}</code></div>"
    ]
    if players:
        parts.append(f'<ul class="players">{players}</ul>')
    if line.problem:
        parts.append(f'<p class="problem">{escape(line.problem)}</p>')
    parts.extend(_look(line, pictures.get(line.picture) if line.picture else None, where))
    codes = escape(" ".join(line.codes))
    return (
        f'<li class="game" data-verdict="{line.verdict}" data-codes="{codes}">{"".join(parts)}</li>'
    )


def _look(line: Listed, address: str | None, where: str) -> list[str]:
    """The picture of an invalid game and the photo of its table, side by side once opened
    (or, in a page that holds only some pictures, a word saying where the others are)."""
    shown = []
    if address:
        alt = escape(_("the picture of the game"))
        image = f'<img src="{escape(address)}" alt="{alt}" loading="lazy">'
        # a file opens alone, larger; a picture held in the page (data) cannot be opened so
        inside = address.startswith("data:")
        shown.append(image if inside else f'<a href="{escape(address)}">{image}</a>')
    if line.photo:
        link, alt = _link(line.photo, where), escape(_("the photo of the table"))
        image = f'<img class="photo" src="{link}" alt="{alt}" loading="lazy">'
        shown.append(f'<a href="{link}">{image}</a>')
    said = []
    if line.verdict == "invalid" and not address:
        elsewhere = _("no picture in this page: use --svg DIR for all")
        said.append(f"<p>{escape(elsewhere)}</p>")
    if not shown:
        return said
    title = (
        _("picture and photo")
        if address and line.photo
        else _("picture")
        if address
        else _("photo of the table")
    )
    return [
        *said,
        f'<details><summary>{escape(title)}</summary><div class="look">{"".join(shown)}</div>'
        "</details>",
    ]


def batch_page(lines: Sequence[Listed], pictures: Mapping[str, str], where: str = ".") -> str:
    """The page of a batch, in the run's order and the current language: `pictures` gives
    each picture's address (a file beside the page, or data), `where` is the folder the page
    is written in (the photos are linked from there)."""
    title = _("Results of the batch")
    table, codes = _problems(lines)
    games = "".join(_game(line, pictures, where) for line in lines)
    problems, listed = _("Problems"), _("Games")
    body = [
        _counts(lines),
        f"<h2>{escape(problems)}</h2>",
        table,
        f"<h2>{escape(listed)}</h2>",
        _filters(codes),
        f'<ol class="games">{games}</ol>',
    ]
    return standalone_page(title, _STYLE, body, _SCRIPT)
