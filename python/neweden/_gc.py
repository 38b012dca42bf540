"""Pausing the cyclic garbage collector around batch work."""

from __future__ import annotations

import gc
from types import TracebackType

__all__ = ["collector_paused"]


class collector_paused:  # a context manager named as the function it replaced
    """Scoring a batch makes many short-lived objects and keeps every game of the batch
    alive until the end; the cyclic collector would walk them again and again (measured:
    a 1,600-game batch 2.1x slower per game than a 64-game one, and the same batch 2.5x
    slower on a Dask worker, which holds many objects of its own). Reference counting frees
    them (they hold no cycles); the collector runs again as soon as the batch is done.
    Nested uses are fine. (A class, not a generator: it runs once a game scored alone.)"""

    __slots__ = ("was_enabled",)

    def __enter__(self) -> None:
        self.was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.was_enabled:
            gc.enable()
