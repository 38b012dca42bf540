"""Colour on a terminal, and only there: `NO_COLOR` (any non-empty value) turns it off,
`FORCE_COLOR` (non-empty) turns it on even when piped (https://no-color.org); otherwise a
terminal that is not `TERM=dumb` gets colour, a pipe or a file plain text."""

from __future__ import annotations

import os
from typing import IO

__all__ = ["GREEN", "MAGENTA", "RED", "paint", "wants_colour"]

RED = "31"
GREEN = "32"
MAGENTA = "35"


def wants_colour(stream: IO[str]) -> bool:
    """Whether text written to `stream` gets colour (see the module's words)."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):
        return False
    return terminal and os.environ.get("TERM") != "dumb"


def paint(text: str, colour: str) -> str:
    """`text` in bold `colour` (an SGR code), reset after it."""
    return f"\x1b[1;{colour}m{text}\x1b[0m"
