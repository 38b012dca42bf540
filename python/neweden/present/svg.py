"""The pieces of the SVG pictures: the sizes of a cell and a card, the colours of styles and
problems, the box's names as a picture shows them, and a line of text escaped as XML holds it.
"""

from __future__ import annotations

import functools
import hashlib
import re
from html import escape as _escape

from neweden.format import codes
from neweden.i18n import DEFAULT_LANGUAGE, N_, current, named

__all__ = [
    "BREAK",
    "CARD",
    "CELL",
    "HEADER",
    "MARGIN",
    "PROBLEM_COLOURS",
    "SHOWN_NAMES",
    "STYLE_COLOURS",
    "TextLook",
    "escape",
    "shown_name",
    "style_colour",
    "text_after_place",
    "text_line",
]

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
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


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


@functools.lru_cache(maxsize=4096)
def escape(words: str) -> str:
    """Text for the SVG: escaped, and each character XML cannot hold replaced by U+FFFD.
    (Kept for the words met again: a picture's cards repeat their names and points.)"""
    return _escape(_NOT_XML.sub("\ufffd", words))


def text_line(
    x: float,
    y: float,
    words: str,
    *,
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
    look = (size, weight, anchor, fill, klass, fit)
    if type(size) is int and (fit is None or type(fit) is int):
        rest = text_after_place(words, look, current())
    else:  # (as a key, 12.0 is 12 and -0.0 is 0.0, which print otherwise: not kept)
        rest = text_after_place.__wrapped__(words, look, current())
    return f'<text x="{x:.1f}" y="{y:.1f}" {rest}'


#: How a line of text looks: its size, weight, anchor, fill, class and the width it must fit
#: (None: any), as :func:`text_line` takes them.
TextLook = tuple[int, str, str, str, str, float | None]


@functools.lru_cache(maxsize=4096)
def text_after_place(words: str, look: TextLook, lang: str) -> str:
    """:func:`text_line` after its place (`x` and `y`), in `lang`: the same for every line of
    the same words and looks, made once (a picture's cards repeat their names and points;
    :func:`text_line` keeps only looks whose numbers are ints, each printed as its key)."""
    size, weight, anchor, fill, klass, fit = look
    cls = f' class="{klass}"' if klass else ""
    if fit is not None and lang != DEFAULT_LANGUAGE and len(words) * size * 0.6 > fit:
        size = min(size, 9)
        if len(words) * size * 0.6 > fit:
            cls += f' textLength="{fit:.0f}" lengthAdjust="spacingAndGlyphs"'
    return (
        f'font-size="{size}" font-weight="{weight}" text-anchor="{anchor}" fill="{fill}"{cls}>'
        f"{escape(words)}</text>"
    )
