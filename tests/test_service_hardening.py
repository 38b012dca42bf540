"""The HTTP service under hostile input (docs/hardening.md): no request holds the others,
work has a budget, connections that do not send are closed, logs stay short. These tests run
the app in this process (uvicorn on a loopback port, in a thread) so a test can make a request
slow in a test-only way."""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the serve extra")  # installed by '.[test]'

import uvicorn

from neweden import service
from neweden.cli import example_game
from tests.servers import free_port

HANG_GUARD = 20.0  # seconds: only so that a broken server fails the test instead of hanging


@contextmanager
def serving(**config: Any) -> Iterator[int]:
    """The app on a free loopback port, served from a thread of this process."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            service.create_app(), host="127.0.0.1", port=port, log_level="warning", **config
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            thread.join(0.02)
            assert thread.is_alive(), "the server did not start"
        yield port
    finally:
        server.should_exit = True
        thread.join(HANG_GUARD)


def call(port: int, method: str, path: str, body: bytes | None = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_GUARD)
    conn.request(method, path, body=body, headers={"content-type": "application/json"})
    response = conn.getresponse()
    raw = response.read()
    conn.close()
    kind = response.getheader("content-type", "")
    return response.status, json.loads(raw) if "json" in kind else raw


def _blocking_score(
    release: threading.Event, finished: threading.Event, started: threading.Event | None = None
) -> Callable[..., Any]:
    """A `score` that blocks until `release` (a request made slow in a test-only way)."""
    real = service.score

    def score(*args: Any, **kwargs: Any) -> Any:
        if started is not None:
            started.set()
        try:
            release.wait(HANG_GUARD)
            return real(*args, **kwargs)
        finally:
            finished.set()

    return score


def test_healthz_answers_while_a_slow_request_is_in_flight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Once, scoring ran on the event loop: one slow game froze /healthz (18.9 s seen).
    release, finished, started = threading.Event(), threading.Event(), threading.Event()
    monkeypatch.setattr(service, "score", _blocking_score(release, finished, started))
    with serving() as port, ThreadPoolExecutor(1) as pool:
        slow = pool.submit(call, port, "POST", "/v1/score", example_game())
        assert started.wait(HANG_GUARD)
        health = call(port, "GET", "/healthz")
        still_in_flight = not finished.is_set()
        release.set()
        assert health[0] == 200
        assert still_in_flight, "/healthz waited for the slow request"
        assert slow.result()[0] == 200


def test_a_request_over_its_work_budget_is_503_and_the_server_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    release, finished = threading.Event(), threading.Event()
    monkeypatch.setattr(service, "score", _blocking_score(release, finished))
    monkeypatch.setattr(service, "WORK_TIMEOUT_SECONDS", 0.2, raising=False)
    with serving() as port:
        status, answer = call(port, "POST", "/v1/score", example_game())
        release.set()
        assert status == 503
        assert answer["title"] == "Service Unavailable"
        assert "more than 0.2 s of work" in answer["detail"]
        assert call(port, "GET", "/healthz")[0] == 200


def test_threads_still_running_are_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    # A thread cannot be stopped: requests given up on must not pile up threads.
    release, finished = threading.Event(), threading.Event()
    monkeypatch.setattr(service, "score", _blocking_score(release, finished))
    monkeypatch.setattr(service, "WORK_TIMEOUT_SECONDS", 0.2, raising=False)
    monkeypatch.setattr(service, "MAX_RUNNING_WORK", 2, raising=False)
    with serving() as port:
        try:
            given_up = [call(port, "POST", "/v1/score", example_game())[1] for _ in range(3)]
        finally:
            release.set()
    details = [a["detail"] for a in given_up]
    assert details[:2] == ["the request needed more than 0.2 s of work and was given up"] * 2
    assert details[2] == "the service is busy with slow requests; try again"
