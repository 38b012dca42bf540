"""Scorers over HTTP for the harness (docs/conformance.md): each game POSTed alone to a URL,
the answer read whole within the time limit of a game and at most MAX_ANSWER_BYTES of it;
neweden's report (`POST /v1/score`) and its refusal of a game read as answers."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
import urllib.parse
from collections.abc import Sequence

import msgspec

from neweden.runners.conformance_run import (
    MAX_ANSWER_BYTES,
    Case,
    ScorerRun,
    judged,
)
from neweden.runners.conformance_suite import answer_of

__all__ = ["run_url", "url_refusal"]


def url_refusal(url: str) -> str | None:
    """Why a URL cannot be a scorer's (not http or https, no host), or None."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"{url!r} is not an http:// or https:// address"
    return None


def _answer_line(status: int, body: bytes) -> bytes:
    """What an HTTP scorer answered, as a line of the protocol: its answer, or neweden's
    report turned into one; a refusal of the game (400 or 422 with problem details) is the
    answer of a game that cannot be read, with its problems' codes; anything else is
    garbage."""
    try:
        doc = json.loads(body)
    except (ValueError, RecursionError):  # (not JSON, or nested past reading)
        return body[:200].replace(b"\n", b" ") or b"(empty)"
    if status in (400, 422) and isinstance(doc, dict) and isinstance(doc.get("errors"), list):
        listed = [e["code"] for e in doc["errors"] if isinstance(e, dict) and "code" in e]
        if not any(isinstance(c, (list, dict)) for c in listed):  # (else garbage)
            codes = sorted({str(c) for c in listed})
            return json.dumps({"valid": False, "players": [], "codes": codes}).encode()
    if status == 200 and isinstance(doc, dict) and doc.get("format") == "new-eden/report@1":
        try:
            return msgspec.json.encode(answer_of(doc))
        except (KeyError, TypeError, AttributeError, UnicodeEncodeError):
            pass  # a report that is not one (a lone surrogate in a name, say): garbage
    return body[:MAX_ANSWER_BYTES].replace(b"\n", b" ")


class _Ask(threading.Thread):
    """One request, in a thread the harness stops waiting for when its time is up (it
    closes the connection: the thread ends at its next read)."""

    def __init__(self, url: str, game: bytes, timeout: float) -> None:
        super().__init__(daemon=True)
        parts = urllib.parse.urlsplit(url)
        kind = (
            http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        )
        self.connection = kind(parts.netloc, timeout=max(timeout, 0.001))
        self.path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self.game = game
        self.answer: tuple[int, bytes] | None = None
        self.failure = ""

    def run(self) -> None:
        try:
            self.connection.request(
                "POST", self.path, self.game, {"content-type": "application/json"}
            )
            response = self.connection.getresponse()
            body = response.read(MAX_ANSWER_BYTES + 1)
            if len(body) > MAX_ANSWER_BYTES:
                body = b"(an answer longer than 1 MiB)"
            self.answer = (response.status, body)
        except Exception as exc:  # (a thread: whatever the exchange raised is its failure)
            self.failure = f"no answer: {type(exc).__name__}: {str(exc).strip()}"[:300]
        finally:
            with contextlib.suppress(Exception):
                self.connection.close()

    def stop(self) -> None:
        """The exchange cut: its socket shut (a read under way returns at once; closing the
        connection here would wait for that read's lock)."""
        sock = self.connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


def run_url(
    name: str,
    url: str,
    cases: Sequence[Case],
    game_seconds: float = 10.0,
    run_seconds: float = 600.0,
) -> ScorerRun:
    """An HTTP scorer: each game POSTed to `url` alone, its answer compared; no answer
    within `game_seconds` (the whole of it, not each read) costs that case, a refused or
    broken exchange too, and the run stops at `run_seconds`."""
    run = ScorerRun(name, url)
    began = time.monotonic()
    last = began
    for at, case in enumerate(cases):
        left = began + run_seconds - time.monotonic()
        if left <= 0:
            run.ran_out(cases[at:])
            break
        wait = min(game_seconds, left)
        ask = _Ask(url, case.line, wait)
        ask.start()
        ask.join(wait)
        hung = ask.is_alive()  # (asked before the exchange is cut: it ends at once then)
        if hung or ask.answer is None:
            ask.stop()
            why = f"no answer within {wait:.1f} s" if hung else ask.failure or "no answer"
            run.unanswered(case, hung, why)
            continue
        last = run.answered(time.monotonic(), began, last)
        run.outcomes += judged(run, cases, at, _answer_line(*ask.answer))
    run.seconds = time.monotonic() - began
    return run
