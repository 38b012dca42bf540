"""CSV cells (RFC 4180), with the text a spreadsheet would run as a formula neutralised: the
cells of every --csv (`neweden validate`'s, `neweden standings`'). Compiled with the report
path (scripts/mypyc_build.py): a --csv of 60,000 games has about 4 million cells, written by
the one process that also hands the work out (docs/benchmarks.md)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["csv_cell", "csv_line", "csv_text", "meta_cell"]

#: What a spreadsheet reads as the start of a formula (OWASP, CSV injection).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NEEDS_QUOTES = re.compile(r'[,"\r\n]')


def csv_cell(value: Any, sep: str = ",") -> str:
    """One cell: None empty, booleans `true`/`false`, numbers as they are (a negative
    total is a number, not a formula; every number of the table is whole, so no decimal
    mark is ever written), text that starts like a formula gets a `'` in front, NUL
    becomes U+FFFD, and text with the separator `sep`, a quote, CR or LF is quoted as
    RFC 4180 says (quotes doubled)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value).replace("\0", "\ufffd")
    if text.startswith(_FORMULA_STARTS):
        text = "'" + text
    if _NEEDS_QUOTES.search(text) or sep in text:
        text = '"' + text.replace('"', '""') + '"'
    return text


#: The cell of each short text met, by separator: :func:`csv_line` makes a text's once (a
#: batch's texts recur row after row: the source path, the players' names, the mode, the
#: codes).
_TEXT_CELLS: dict[str, dict[str, str]] = {}
#: The most texts kept for one separator (emptied when full: names and meta values can all
#: differ), and the longest kept (a `meta` value of 16 KB is made each time): a few MB at
#: most stay with the process after a run.
_MOST_TEXTS = 4096
_LONGEST_KEPT = 256


def csv_line(row: Iterable[Any], sep: str = ",") -> str:
    """A row of cells joined by `sep` (a comma; `;` for spreadsheets that read the comma
    as the decimal mark), ending with `\\n`: each cell as :func:`csv_cell` makes it, an
    int and None without a call and a text looked up (a --csv of 60,000 games has about 4
    million cells, which a call each made the parent's own work: docs/benchmarks.md)."""
    texts = _TEXT_CELLS.get(sep)
    if texts is None or len(texts) > _MOST_TEXTS:
        texts = _TEXT_CELLS[sep] = {}
    cells: list[str] = []
    add = cells.append
    for value in row:
        kind = type(value)
        if kind is int:  # (not a bool: csv_cell writes those)
            add(str(value))
        elif value is None:
            add("")
        elif kind is str:
            cell = texts.get(value)
            if cell is None:
                cell = csv_cell(value, sep)
                if len(value) <= _LONGEST_KEPT:
                    texts[value] = cell
            add(cell)
        else:
            add(csv_cell(value, sep))
    return sep.join(cells) + "\n"


def meta_cell(value: Any) -> Any:
    """A `meta` value as a cell: text and numbers as they are, anything else as JSON."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def csv_text(rows: Sequence[Sequence[Any]], sep: str = ",") -> str:
    """:func:`csv_line` of each row, joined."""
    return "".join([csv_line(row, sep) for row in rows])
