"""The HTTP service under hostile input (docs/hardening.md): no request holds the others,
work has a budget, connections that do not send are closed, logs stay short. These tests run
the app in this process (uvicorn on a loopback port, in a thread) so a test can make a request
slow in a test-only way."""

from __future__ import annotations

import asyncio
import http.client
import json
import logging
import select
import socket
import threading
import tracemalloc
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the serve extra")  # installed by '.[test]'

import uvicorn

from neweden.cli.main import example_game
from neweden.http import batch_answer, service, together
from neweden.http import serving as guarded
from neweden.http.serving import GuardedH11
from tests.servers import free_port

JSON_HEADERS = {"content-type": "application/json"}
HANG_GUARD = 20.0  # seconds: only so that a broken server fails the test instead of hanging


@contextmanager
def serving(**config: Any) -> Iterator[int]:
    """The app on a free loopback port, served from a thread of this process."""
    port = free_port()
    options: dict[str, Any] = {"http": GuardedH11, "log_config": None, **config}
    server = uvicorn.Server(
        uvicorn.Config(
            service.create_app(), host="127.0.0.1", port=port, log_level="warning", **options
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


def _big_game() -> bytes:
    """A game over the size scored on the event loop itself (padded with whitespace)."""
    return example_game() + b" " * getattr(service, "INLINE_BYTES", 16 * 1024)


def _blocking_score(
    release: threading.Event, finished: threading.Event, started: threading.Event | None = None
) -> Callable[..., Any]:
    """A `score` that blocks until `release` (a request made slow in a test-only way)."""
    real = service.score

    def score(*args: Any, **kwargs: Any) -> Any:
        if len(args[0]) <= getattr(service, "INLINE_BYTES", 0):  # small games are not slowed
            return real(*args, **kwargs)
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
        slow = pool.submit(call, port, "POST", "/v1/score", _big_game())
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
        status, answer = call(port, "POST", "/v1/score", _big_game())
        release.set()
        assert status == 503
        assert answer["title"] == "Service Unavailable"
        assert "more than 0.2 s of work" in answer["detail"]
        assert call(port, "GET", "/healthz")[0] == 200


def test_threads_held_by_work_given_up_on_make_a_503_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A thread cannot be stopped: requests given up on must not pile up threads, and while
    # every thread is held so, a request is refused at once rather than after its budget.
    release, finished = threading.Event(), threading.Event()
    monkeypatch.setattr(service, "score", _blocking_score(release, finished))
    monkeypatch.setattr(service, "WORK_TIMEOUT_SECONDS", 0.2, raising=False)
    monkeypatch.setattr(service, "WORK_THREADS", 2, raising=False)
    with serving() as port:
        try:
            given_up = [call(port, "POST", "/v1/score", _big_game())[1] for _ in range(3)]
        finally:
            release.set()
    details = [a["detail"] for a in given_up]
    assert details[:2] == ["the request needed more than 0.2 s of work and was given up"] * 2
    assert details[2] == "the service is busy with slow requests; try again"


def test_a_small_game_is_scored_on_the_loop_while_every_thread_is_held(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    release, finished = threading.Event(), threading.Event()
    monkeypatch.setattr(service, "score", _blocking_score(release, finished))
    monkeypatch.setattr(service, "WORK_TIMEOUT_SECONDS", 0.2)
    monkeypatch.setattr(service, "WORK_THREADS", 1)
    with serving() as port:
        try:
            assert call(port, "POST", "/v1/score", _big_game())[0] == 503  # holds the thread
            assert call(port, "POST", "/v1/score", _big_game())[0] == 503  # busy at once
            status, report = call(port, "POST", "/v1/score", example_game())
        finally:
            release.set()
    assert (status, report["players"][0]["score"]["total"]) == (200, 78)


# --- batch memory (count before decoding; problems listed are capped) -----------------------


def _game_with_unknown_keys(size: int = 1024 * 1024 - 64) -> bytes:
    parts, i, total = [b'{"mode":"military","players":[{"name":"A","city":[]}]'], 0, 60
    while total < size:
        parts.append(b',"k%d":0' % i)
        total += len(parts[-1])
        i += 1
    return b"".join(parts) + b"}"


def test_a_32_mib_batch_of_tiny_entries_is_413_before_decoding_them() -> None:
    # Once 1.89 GB and 3-4 s: the 16.7 million entries were made before they were counted.
    body = b'{"games":[' + b"0," * 16_700_000 + b"0]}"
    with serving() as port:
        tracemalloc.start()
        try:
            status, answer = call(port, "POST", "/v1/score/batch", body)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert status == 413
    assert answer["detail"] == "the batch has 16,700,001 games; the limit is 1,000"
    # The body itself (32 MiB, read in chunks and joined) is the bulk of it.
    assert peak < 160 * 1024 * 1024, peak


def test_a_repeated_games_key_is_422() -> None:
    # Once accepted: the last "games" was scored, the first silently dropped.
    with serving() as port:
        status, answer = call(port, "POST", "/v1/score/batch", b'{"games": [], "games": [{}]}')
        escaped = call(port, "POST", "/v1/score/batch", b'{"g\\u0061mes": [], "games": [{}]}')
        once = call(port, "POST", "/v1/score/batch", b'{"g\\u0061mes": [{}]}')
    assert escaped[0] == 422
    assert once[0] == 200
    assert status == 422
    assert answer["errors"] == [
        {
            "code": "bad_value",
            "message": "the body gives `games` 2 times; give it once",
            "path": "",
            "cells": [],
        }
    ]


def test_a_game_lists_at_most_100_problems_then_how_many_more() -> None:
    # Once one 1 MiB game with ~96,000 unknown keys gave a 17 MB answer.
    game = _game_with_unknown_keys()
    with serving() as port:
        status, answer = call(port, "POST", "/v1/score", game)
    assert status == 422
    errors = answer["errors"]
    assert len(errors) == 101
    assert {e["code"] for e in errors[:100]} == {"unknown_field"}
    more = int(errors[100]["message"].split()[1].replace(",", ""))
    assert errors[100]["code"] == "too_large"
    assert errors[100]["path"] == ""
    assert more == game.count(b'"k') - 100
    assert errors[100]["message"].endswith("more problem(s), not listed: at most 100 are")


def test_a_batch_answer_lists_at_most_so_many_problems(monkeypatch: pytest.MonkeyPatch) -> None:
    # Once a batch of 32 such games gave a 603 MB answer (54 s, 3.44 GB resident).
    monkeypatch.setattr(batch_answer, "MAX_LISTED_PER_RESPONSE", 250)
    game = _game_with_unknown_keys(60_000)
    body = b'{"games": [' + b",".join([game] * 4) + b"]}"
    with serving() as port:
        status, answer = call(port, "POST", "/v1/score/batch", body)
    assert status == 200
    listed = [len(r["errors"]) for r in answer["results"]]
    assert listed == [101, 101, 1, 1]
    assert answer["results"][2]["errors"][0]["message"] == (
        "101 problem(s), not listed: at most 250 are listed in one answer"
    )


# --- connections that do not send; logs that do not flood --------------------------------------


def _closed_by_server(sock: socket.socket, drip: bytes = b"") -> bool:
    """Whether the server closes `sock`, sending `drip` a byte at a time (at most one byte a
    20 ms, so the whole drip takes longer than the test's deadline) meanwhile."""
    for i in range(max(len(drip), 1)):
        if drip:
            try:
                sock.sendall(drip[i : i + 1])
            except OSError:  # reset: closed
                return True
        readable, _, _ = select.select([sock], [], [], 0.02 if drip else HANG_GUARD)
        if readable:
            try:
                return sock.recv(1024) == b""
            except OSError:
                return True
    return False


def test_a_connection_that_sends_nothing_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    # Once kept open for ever (123 s seen); 1,100 of them took the server down.
    monkeypatch.setattr(guarded, "HEADER_TIMEOUT_SECONDS", 0.3)
    with serving() as port, socket.create_connection(("127.0.0.1", port)) as sock:
        assert _closed_by_server(sock)


def test_headers_sent_a_byte_at_a_time_are_cut_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guarded, "HEADER_TIMEOUT_SECONDS", 0.3)
    headers = b"POST /v1/score HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"s" * 200
    with serving() as port, socket.create_connection(("127.0.0.1", port)) as sock:
        assert _closed_by_server(sock, headers)  # 240 bytes at 20 ms: 4.8 s, deadline 0.3 s


def test_the_next_request_on_a_kept_alive_connection_has_a_deadline_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(guarded, "HEADER_TIMEOUT_SECONDS", 0.3)
    with serving(timeout_keep_alive=60) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_GUARD)
        try:
            conn.request("GET", "/healthz")
            assert conn.getresponse().read()
            assert conn.sock is not None
            drip = b"GET /healthz HTTP/1.1\r\n" + b"X: " + b"x" * 200
            assert _closed_by_server(conn.sock, drip)
        finally:
            conn.close()


def test_connections_over_the_cap_are_closed_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guarded, "MAX_CONNECTIONS", 2)
    with serving() as port:
        first = socket.create_connection(("127.0.0.1", port))
        second = socket.create_connection(("127.0.0.1", port))
        with first, second, socket.create_connection(("127.0.0.1", port)) as third:
            assert _closed_by_server(third)
            first.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert first.recv(1024).startswith(b"HTTP/1.1 200 ")


def test_a_client_gone_mid_body_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    # Once a 43-line traceback each time.
    with serving() as port, socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(
            b"POST /v1/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n" + b'{"mode": '
        )
        sock.close()
        assert call(port, "GET", "/healthz")[0] == 200
    # The server has stopped: every request it had is finished and logged.
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_a_flood_of_failures_is_logged_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # Once a traceback for each 500: 30 s of them wrote 81.7 MB.
    class FloodTestBug(RuntimeError):  # a kind of its own: no other test has logged it
        pass

    def broken(*_: Any, **__: Any) -> Any:
        raise FloodTestBug("a bug")

    monkeypatch.setattr(service, "score", broken)  # a game on a thread
    monkeypatch.setattr(together, "score_report", broken)  # on the loop, alone
    monkeypatch.setattr(together, "score_inputs", broken)  # on the loop, with others
    with serving() as port:
        answers = [call(port, "POST", "/v1/score", example_game()) for _ in range(30)]
    assert {status for status, _ in answers} == {500}
    logged = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in logged] == ["POST /v1/score: FloodTestBug: a bug"]
    assert answers[0][1]["title"] == "Internal Server Error"


def test_the_event_loop_logs_a_flood_of_accept_failures_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Once a traceback for each failed accept while file descriptors ran out (208 MB in 40 s).
    loop = asyncio.new_event_loop()
    try:
        service.quiet_loop_errors(loop)
        error = OSError(24, "Too many open files")
        for _ in range(1000):
            loop.call_exception_handler(
                {"message": "socket.accept() out of system resource", "exception": error}
            )
    finally:
        loop.close()
    assert len(caplog.records) == 1
    assert "Too many open files" in caplog.records[0].getMessage()


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/v1/score", b"x"),
        ("POST", "/v1/render", None),
        ("GET", "/healthz", None),
        ("GET", "/openapi.json", None),
        ("GET", "/nothing", None),
    ],
)
def test_answers_say_nosniff_and_a_restrictive_policy(
    method: str, path: str, body: bytes | None
) -> None:
    with serving() as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_GUARD)
        conn.request(method, path, body=body or example_game(), headers=JSON_HEADERS)
        response = conn.getresponse()
        response.read()
        conn.close()
    assert response.getheader("x-content-type-options") == "nosniff"
    policy = response.getheader("content-security-policy")
    assert policy == "default-src 'none'; frame-ancestors 'none'; sandbox"


def test_the_api_page_says_nosniff_and_keeps_its_script_with_its_own_policy() -> None:
    with serving() as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_GUARD)
        conn.request("GET", "/docs")
        response = conn.getresponse()
        response.read()
        conn.close()
    assert response.getheader("x-content-type-options") == "nosniff"
    policy = response.getheader("content-security-policy")
    assert "script-src 'self'" in policy  # its scripts are this server's files
    assert "sandbox" not in policy  # which would stop them


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        # once a TypeError caught as "not bytes, str or a mapping": bad_type at the root
        (
            b'{"mode": "military", "players": [{"name": "A", "city": []}], "meta": {"x": 1e999}}',
            [("bad_value", "/meta/x")],
        ),
        # once a RecursionError reading the envelope: a 500, and no game of it answered
        (b"[" * 200_000 + b"]" * 200_000, [("bad_type", "")]),
    ],
    ids=["1e999-in-meta", "nested-past-reading"],
)
def test_a_bad_batch_entry_is_told_at_its_pointer_and_the_batch_goes_on(
    entry: bytes, said: list[tuple[str, str]]
) -> None:
    body = b'{"games": [' + entry + b", " + example_game() + b"]}"
    with serving() as port:
        status, answer = call(port, "POST", "/v1/score/batch", body)
    assert status == 200
    first, second = answer["results"]
    assert [(e["code"], e["path"]) for e in first["errors"]] == said
    assert second["players"][0]["score"]["total"] == 78


def test_a_standings_body_nested_past_reading_is_422() -> None:
    # Once a RecursionError answered as a 500 ("the request failed; it is logged").
    deep = b"[" * 200_000 + b"]" * 200_000
    body = b'{"results": [{"valid": true, "meta": ' + deep + b"}]}"
    with serving() as port:
        status, answer = call(port, "POST", "/v1/standings", body)
    assert status == 422
    assert answer["detail"].endswith("it is nested more than 48 levels deep")
    assert [e["code"] for e in answer["errors"]] == ["too_large"]


@pytest.mark.parametrize(
    ("body", "path"),
    [
        (b'{"game": GAME, "player": "Jos\xe9", "card": "new-eden"}', "/player"),  # Latin-1
        (b'{"game": GAME, "player": "Sarah", "card": {"style": "\xff"}}', "/card"),
        (b"[" * 200_000 + b"]" * 200_000, ""),
    ],
    ids=["latin1-player", "latin1-card", "deep-array"],
)
def test_a_placements_request_not_utf8_or_nested_past_reading_is_4xx(
    body: bytes, path: str
) -> None:
    # Once a DecodeError (a value's UTF-8 is checked only when it is read) or a
    # RecursionError (an array body read again whole): a 500.
    body = body.replace(b"GAME", example_game())
    with serving() as port:
        status, answer = call(port, "POST", "/v1/placements", body)
    assert status in (400, 422)
    assert [e["path"] for e in answer["errors"]] == [path]
