"""A page of HTML that stands alone (the batch page, the standings): one file in the current
language, its style inside it, readable on a phone, no external resource."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from neweden.i18n import current

__all__ = ["standalone_page"]


#: What every such page's style starts with: a long word (an event, a file name) wraps.
_BASE = "h1,h2,h3,p,li{overflow-wrap:anywhere}"


def standalone_page(title: str, style: str, body: Sequence[str], script: str = "") -> str:
    """The page: `title` as its title and first heading, then the HTML parts of `body`, then
    `script` (inline) when one is given."""
    return "\n".join(
        [
            "<!DOCTYPE html>",
            f'<html lang="{escape(current())}"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{escape(title)}</title><style>{_BASE}{style}</style></head><body>",
            f"<h1>{escape(title)}</h1>",
            *body,
            *([f"<script>{script}</script>"] if script else []),
            "</body></html>",
            "",
        ]
    )
