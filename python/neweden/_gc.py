"""Pausing the cyclic garbage collector around batch work."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """Scoring a batch makes many short-lived objects and keeps every game of the batch
    alive until the end; the cyclic collector would walk them again and again (measured:
    a 1,600-game batch 2.1x slower per game than a 64-game one, and the same batch 2.5x
    slower on a Dask worker, which holds many objects of its own). Reference counting frees
    them (they hold no cycles); the collector runs again as soon as the batch is done.
    Nested uses are fine."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
