"""What the tests of answers late, out of order or failed share: file reads held or failed,
requests held until let go, a page let run until a test-side condition holds, Ctrl+S pressed
until the page gets it, an element's texts logged as the page shows them, and the console's
words for requests failed on purpose set aside."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from typing import Any

#: The page's reads of files named `held-*` held until `window.releaseReads()` (a file read
#: more slowly than one chosen after it, as a large file from a slow disk is), and those of
#: files named `unreadable-*` failed (a file gone from the disk once chosen).
READS = """
const text = Blob.prototype.text;
const held = [];
window.releaseReads = () => held.splice(0).forEach((go) => go());
Blob.prototype.text = function () {
  const name = this.name ?? "";
  if (name.startsWith("unreadable-")) {
    return Promise.reject(new DOMException("the disk is gone", "NotReadableError"));
  }
  const read = text.call(this);
  if (!name.startsWith("held-")) return read;
  return new Promise((resolve) => held.push(() => resolve(read)));
};
"""


def until(done: Callable[[], bool], page: Any, seconds: float = 10) -> None:
    """Lets the page (a Playwright page) run until `done()` holds; fails after `seconds`."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the page never got there"
        page.wait_for_timeout(20)


#: Counts the Ctrl+S keydowns the page gets (`window.keysGot`) and whether it took the last
#: one as its own (`window.keyTaken`: default prevented once every listener has run), once
#: for the document's life; gives [the document's time origin (a new one after a
#: navigation), the count, taken].
_COUNT_KEYS = """() => {
  const ctrlS = (e) => (e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "s";
  if (window.keysGot === undefined) {
    window.keysGot = 0;
    window.keyTaken = false;
    addEventListener("keydown", (e) => ctrlS(e) && ++window.keysGot, true);
    addEventListener("keydown", (e) => ctrlS(e) && (window.keyTaken = e.defaultPrevented));
  }
  return [performance.timeOrigin, window.keysGot, window.keyTaken];
}"""


def save_keys(page: Any) -> None:
    """Ctrl+S pressed on the page (a Playwright page), as a person saves, and taken by the
    page (not left to the browser's own Save). Chromium answers a key it dispatched once
    the page has handled it, and one it dropped (input ignored) at once. The review tests'
    long-suite flake (sessions 43-51: now and then, under load, a Ctrl+S after which no save
    was ever asked, never caught with the page's state) is taken for such a key: one that
    never reached the page is pressed once more, as the person would, and said as a warning
    (pyproject.toml lets it be one, not an error: a run's summary shows each). A key dropped
    twice, or one the page got and did not take, fails the test that asked."""
    origin, got, _taken = page.evaluate(_COUNT_KEYS)
    for attempt in (1, 2):
        page.keyboard.press("Control+s")
        now, count, taken = page.evaluate(_COUNT_KEYS)
        assert now == origin, "the page changed while Ctrl+S was pressed"
        if count > got:
            assert taken, "the page got Ctrl+S and left it to the browser"
            return
        if attempt == 1:
            warnings.warn("the browser dropped a key, Ctrl+S: pressed again", stacklevel=2)
    raise AssertionError("the browser dropped Ctrl+S twice: the page never got it")


class Held:
    """The requests of `pattern` (of `method`, if given) held until :meth:`release` (only the
    first, with `first`), the others let through; `sent`: the URL of each one asked."""

    def __init__(self, page: Any, pattern: str, method: str | None = None, first: bool = False):
        self.routes: list[Any] = []
        self.sent: list[str] = []
        self.holding = True
        self.method, self.first = method, first
        page.route(pattern, self._route)

    def _route(self, route: Any) -> None:
        if self.method is not None and route.request.method != self.method:
            route.continue_()
            return
        self.sent.append(route.request.url)
        if self.holding and not (self.first and self.routes):
            self.routes.append(route)
        else:
            route.continue_()

    def release(self) -> None:
        self.holding = False
        for route in self.routes:
            route.continue_()


def text_log(element: str, name: str) -> str:
    """A script (run before the page's own) that logs each text the element of id `element`
    shows, in order, in `window[name]`."""
    return f"""
window.{name} = [];
document.addEventListener("DOMContentLoaded", () => {{
  const shown = document.getElementById("{element}");
  new MutationObserver(() => window.{name}.push(shown.textContent)).observe(shown, {{
    childList: true, characterData: true, subtree: true,
  }});
}});
"""


def failed_on_purpose(errors: list[str]) -> list[str]:
    """The console's errors but its words for the requests a test failed on purpose."""
    return [e for e in errors if "Failed to load resource" not in e]
