"""The collector pause (`neweden._gc.collector_paused`) shared by threads: the HTTP service's
event loop and its worker threads score at once, and the collector must be on again when
they are all done (docs/hardening.md, round three, finding 1). And a batch's unreadable
games kept as data (`neweden._gc.detached`) without the frames that made the whole batch a
reference cycle."""

from __future__ import annotations

import gc
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import neweden
import neweden._gc
from neweden._gc import collector_paused
from neweden.catalog.catalog import BUILTIN
from neweden.runners.results import score_entries
from neweden.runners.sources import Entry
from neweden.scoring.report import score_inputs
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


class _Interrupting:
    """The `gc` module as the pause sees it, where a whole pause runs on the same thread
    before or after each switch the pause reads or turns (as a signal handler that scores
    would, between two bytecodes): once each call, not within itself."""

    def __init__(self, before: bool) -> None:
        self.before = before
        self.inside = False
        self.nested = 0

    def _interrupted(self, step: Callable[[], Any]) -> Any:
        if self.inside:
            return step()
        self.inside = True
        try:
            if self.before:
                self._pause()
            found = step()
            if not self.before:
                self._pause()
            return found
        finally:
            self.inside = False

    def _pause(self) -> None:
        with collector_paused():
            self.nested += 1

    def isenabled(self) -> bool:
        return bool(self._interrupted(gc.isenabled))

    def disable(self) -> None:
        self._interrupted(gc.disable)

    def enable(self) -> None:
        self._interrupted(gc.enable)


@pytest.mark.parametrize("before", [True, False], ids=["before", "after"])
def test_a_pause_begun_and_ended_inside_another_on_its_thread_leaves_the_collector_on(
    monkeypatch: pytest.MonkeyPatch, before: bool
) -> None:
    """A signal handler that scores while its thread is in a pause: no deadlock on the
    pause's lock (it is re-entrant), and the collector on again once both are done, off
    while the outer one runs (the inner one noted neither the outer's "off" nor its own)."""
    interrupting = _Interrupting(before)
    monkeypatch.setattr(neweden._gc, "gc", interrupting)
    seen: list[bool] = []

    def outer() -> None:
        with collector_paused():
            seen.append(gc.isenabled())

    for _ in range(3):
        worker = threading.Thread(target=outer, daemon=True)
        worker.start()
        worker.join(timeout=10)
        assert not worker.is_alive(), "the pause deadlocked on its own lock"
        assert gc.isenabled(), "the collector was left off"
    assert seen == [False] * 3
    assert interrupting.nested >= 6  # a pause inside each switch the outer one turned


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


def _cyclic_garbage(work: Callable[[], object]) -> list[object]:
    """What only the cyclic collector would free of what `work` made and let go."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        work()
        gc.collect()
        return list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def _frames(garbage: list[object]) -> list[str]:
    """The package's own frames among `garbage` (not another thread's, left by a test)."""
    return [
        f"{o.f_code.co_filename}:{o.f_code.co_name}"
        for o in garbage
        if isinstance(o, types.FrameType) and "neweden" in o.f_code.co_filename
    ]


def test_a_batch_with_unreadable_games_leaves_no_frame_in_a_cycle() -> None:
    """A batch's answer for an input that is no game is its GameDecodeError (or TypeError),
    kept without the traceback whose frames (the batch's own: its reports, its games) made
    a reference cycle with the answer: every chunk with an unreadable game was left whole to
    the cyclic collector, which then walked it all (a seventh of a worker's time on a mix
    with mistakes). Alone, in a chunk, an input that is no document at all, and as a
    `validate` worker scores entries."""
    game = (EXAMPLES / "format-example.json").read_bytes()
    typo = game.replace(b'"facility": "medical"', b'"facility": "medicak"', 1)
    assert typo != game
    nan = {"mode": float("nan")}  # no JSON document (game_bytes refuses it)
    facility = ("GameDecodeError", True, "/players/0/city/1/card/facility")
    cases: list[tuple[list[Any], int, tuple[str, bool, str]]] = [  # (batch, where, told)
        ([typo], 0, facility),
        ([game, typo] * 20, 1, facility),
        ([game, nan] * 20, 1, ("GameDecodeError", True, "/mode")),
        ([game, object()], 1, ("TypeError", True, "")),
    ]
    for games, at, expected in cases:
        told: list[tuple[str, bool, str]] = []  # (what the answer held: not the error itself)

        def work(games: list[Any] = games, at: int = at, told: list[Any] = told) -> None:
            error = score_inputs(games)[at]
            assert isinstance(error, Exception)
            bare = error.__traceback__ is None and error.__context__ is None
            path = error.problems[0].path if isinstance(error, neweden.GameDecodeError) else ""
            told.append((type(error).__name__, bare, path))

        assert _frames(_cyclic_garbage(work)) == []
        assert told == [expected]
    entries = [Entry("mix.jsonl", i + 1, raw, None) for i, raw in enumerate([game, typo] * 20)]
    garbage = _cyclic_garbage(lambda: score_entries(entries, BUILTIN, False, short=False))
    assert _frames(garbage) == []
