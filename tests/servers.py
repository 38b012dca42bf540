"""Starting a real `neweden serve` process on a free loopback port, for tests and benchmarks."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

QUIET = ("--log-level", "warning")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def running_server(
    env: dict[str, str], log: Path | None = None, args: Sequence[str] = QUIET
) -> Iterator[tuple[int, int]]:
    """(port, pid) of a server started with these extra environment variables and `serve`
    options (by default without the access log: a benchmark's requests are not logged)."""
    port = free_port()
    with log.open("wb") if log else open(os.devnull, "wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "neweden", "serve", "--port", str(port), *args],
            env={**os.environ, **env},
            stdout=subprocess.DEVNULL,
            stderr=sink,
        )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    message = log.read_text() if log else "the server did not start"
                    raise RuntimeError(message) from None
                time.sleep(0.05)
        yield port, proc.pid
    finally:
        proc.terminate()
        proc.wait(timeout=10)
