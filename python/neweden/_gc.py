"""Pausing the cyclic garbage collector around batch work; exceptions kept as data without
the frames that would make a batch a reference cycle."""

from __future__ import annotations

import gc
import threading
from types import TracebackType
from typing import TypeVar

__all__ = ["collector_paused", "detached"]

E = TypeVar("E", bound=BaseException)

# The collector is one switch for the whole process, and threads (the HTTP service's event
# loop and its workers) pause it at once: the first pause takes note of the switch and turns
# it off, the last one ends turns it back as it was. Reading and turning it in two steps per
# pause, with no lock, let one thread keep the note of another's pause ("off") and leave the
# collector off for good (docs/hardening.md, round three). The lock is re-entrant, and each
# step is ordered so that a pause begun and ended between any two of them on the same
# thread (a signal handler that scores, between two bytecodes) leaves the count and the
# note right: a plain lock deadlocked there, and noting the switch before counting the pause
# let the inner pause note the outer's "off".
_lock = threading.RLock()
_paused = 0  # pauses in progress, every thread together
_was_enabled = False  # the switch as the first of them found it


class collector_paused:  # a context manager named as the function it replaced
    """Scoring a batch makes many short-lived objects and keeps every game of the batch
    alive until the end; the cyclic collector would walk them again and again (the larger
    the batch, the slower each game: docs/benchmarks.md). Reference counting frees
    them (they hold no cycles); the collector runs again as soon as every batch in progress,
    in any thread, is done. Nested and concurrent uses are fine, and so is a pause in a
    signal handler. (A class, not a generator: it runs once a game scored alone.)"""

    __slots__ = ()

    def __enter__(self) -> None:
        global _paused, _was_enabled
        with _lock:
            _paused += 1  # counted first: a pause in between is not the first
            if _paused == 1:
                _was_enabled = gc.isenabled()
                gc.disable()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        global _paused
        with _lock:
            was = _was_enabled  # read first: a pause in between may note the switch off
            _paused -= 1
            if _paused == 0 and was:
                gc.enable()


def detached(error: E) -> E:
    """`error`, caught to be kept as data (a batch's answer for an input that is no game),
    without its traceback, cause and context. Its traceback holds the frame that caught it,
    whose locals hold the answer that holds the error: a reference cycle, and through the
    frames' callers every object of the batch with it, which only the cyclic collector
    frees, walking them all (a batch with unreadable games spent a seventh of its time
    there). The error's own fields (a GameDecodeError's problems) are kept."""
    error.__traceback__ = None
    error.__context__ = None
    error.__cause__ = None
    return error
