"""Text from a game or a file name, made safe to print on a terminal: every control
character shown as an escape (`\\x1b`, `\\n`, `\\u202e`), so that a player's name, a key or
a file name can neither move the cursor, clear the screen, retitle the window, reorder the
line (bidirectional overrides) nor begin a new line of output (docs/hardening.md, round
three). JSON output needs none of it: its encoder escapes every control character."""

from __future__ import annotations

import re
from typing import IO, Any

__all__ = ["VisibleStream", "visible"]

# C0 and C1 controls and DEL; the line and paragraph separators; the bidirectional marks,
# embeddings, overrides and isolates.
_OTHERS = "\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_ANY = re.compile(f"[\x00-\x1f{_OTHERS}]")
_BUT_NEWLINES = re.compile(f"[\x00-\x08\x0b-\x1f{_OTHERS}]")  # the tab and the newline kept
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(found: re.Match[str]) -> str:
    char = found.group()
    code = ord(char)
    return _NAMED.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def visible(text: str) -> str:
    """`text` with every control character shown as an escape (the text itself when it has
    none, which is nearly always)."""
    return text if _ANY.search(text) is None else _ANY.sub(_escape, text)


class VisibleStream:
    """A text stream that writes what it is given with every control character but the
    newline and the tab shown as an escape: standard error of the command line, where every
    diagnostic is plain text (a name with a newline is made visible where it is quoted)."""

    def __init__(self, stream: IO[str]) -> None:
        self.unfiltered = stream  # for what writes its own controls: a progress bar

    def write(self, text: str) -> int:
        shown = text if _BUT_NEWLINES.search(text) is None else _BUT_NEWLINES.sub(_escape, text)
        self.unfiltered.write(shown)
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.unfiltered, name)
