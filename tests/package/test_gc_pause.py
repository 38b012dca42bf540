"""The collector pause (`neweden._gc.collector_paused`) shared by threads: the HTTP service's
event loop and its worker threads score at once, and the collector must be on again when
they are all done (docs/hardening.md, round three, finding 1)."""

from __future__ import annotations

import gc
import sys
import threading
import time
from collections.abc import Callable, Iterator

import pytest

import neweden
import neweden._gc
from neweden._gc import collector_paused
from tests.conftest import EXAMPLES


@pytest.fixture
def switching_often() -> Iterator[None]:
    """Threads switched every microsecond, so a race between two steps shows at once (and the
    collector on again afterwards, whatever the test found)."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)
        gc.enable()


def _hammer(work: Callable[[], None], threads: int = 4, rounds: int = 3000) -> None:
    errors: list[BaseException] = []

    def run() -> None:
        try:
            for _ in range(rounds):
                work()
        except BaseException as exc:  # pragma: no cover - shown by the assert below
            errors.append(exc)

    pool = [threading.Thread(target=run) for _ in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    assert not errors


def _pause() -> None:
    with collector_paused():
        pass


@pytest.mark.usefixtures("switching_often")
def test_the_collector_pause_from_many_threads_leaves_the_collector_on() -> None:
    """Finding 1: the pause read the switch and turned it off in two steps, so a thread could
    note another's pause ("off") and restore that; 4 threads turned it off for good."""
    assert gc.isenabled()
    for _ in range(5):
        _hammer(_pause, threads=8, rounds=20000)
        assert gc.isenabled(), "the collector was left off by the pauses of other threads"


class _SlowSwitch:
    """The `gc` module as the pause sees it, with a thread switch forced right after the
    switch is read: the window between reading it and turning it off made wide."""

    isenabled_real = staticmethod(gc.isenabled)

    def isenabled(self) -> bool:
        found = self.isenabled_real()
        time.sleep(0.0001)
        return found

    def __getattr__(self, name: str) -> object:
        return getattr(gc, name)


def test_scoring_from_many_threads_leaves_the_collector_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reproduction of the issue: 4 threads calling neweden.score (with the race's window
    made wide: a thread switch between reading the switch and turning it off)."""
    monkeypatch.setattr(neweden._gc, "gc", _SlowSwitch())
    game = (EXAMPLES / "format-example.json").read_bytes()
    try:
        for _ in range(20):  # once a round ends with it off, no later pause turns it on
            _hammer(lambda: neweden.score(game, detail=False) and None, threads=4, rounds=40)
        assert gc.isenabled(), "the collector was left off by the pauses of other threads"
    finally:
        gc.enable()


def test_a_pause_inside_a_pause_and_a_collector_switched_off_by_the_caller() -> None:
    """Nested pauses keep it off until the outer one ends; a collector the caller had turned
    off stays off."""
    assert gc.isenabled()
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
