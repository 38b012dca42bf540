"""A mixed load on the HTTP service: good and hostile requests from 32 connections at once,
on 127.0.0.1 only, bounded in time. Every answer must have the status its request expects.

    python scripts/load_mixed.py                 # 30 s, 32 connections, its own server
    python scripts/load_mixed.py --seconds 3     # the short run (bench/test_bench_http.py)

Prints one JSON object: requests, req/s, unexpected statuses (0 is the pass), p50/p99 in ms,
and the server's resident set before and after (kB). Exit 1 when any status was unexpected.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from neweden.cli.main import example_game  # noqa: E402
from tests.servers import running_server  # noqa: E402

TIMEOUT = 30.0  # seconds a request may take before it counts as unanswered


@dataclass(frozen=True)
class Shot:
    """One kind of request and the statuses it may get."""

    name: str
    method: str
    path: str
    body: bytes
    expect: frozenset[int]
    content_type: str = "application/json"


def shots() -> list[Shot]:
    good = example_game()
    invalid = good.replace(b'"row": 0', b'"row": 1', 1)
    unknown_keys = b'{"mode":"military","players":[]' + b",".join(
        b'"k%d":0' % i for i in range(3000)
    ).join((b",", b"}"))
    deep_escapes = b"[" * 2000 + b'"' + b'\\"' * 40_000
    ok, bad = frozenset({200}), frozenset({422})
    return [
        Shot("score", "POST", "/v1/score", good, ok),
        Shot("score-invalid", "POST", "/v1/score", invalid, ok),
        Shot("validate", "POST", "/v1/validate", good, ok),
        Shot("render", "POST", "/v1/render", good, ok),
        Shot("healthz", "GET", "/healthz", b"", ok),
        Shot(
            "batch", "POST", "/v1/score/batch", b'{"games": [' + b",".join([good] * 5) + b"]}", ok
        ),
        Shot("not-json", "POST", "/v1/score", b'{"mode": ', frozenset({400})),
        Shot("deep-escapes", "POST", "/v1/score", deep_escapes, frozenset({400})),
        Shot("out-of-range", "POST", "/v1/score", b"[1e999,", frozenset({400})),
        Shot("huge-integer", "POST", "/v1/score", b'{"players": [' + b"1" * 5000 + b"]}", bad),
        Shot("meta-1e999", "POST", "/v1/score", b'{"meta": {"x": 1e999}}', bad),
        Shot("unknown-keys", "POST", "/v1/score", unknown_keys, bad),
        Shot("repeated-games", "POST", "/v1/score/batch", b'{"games": [], "games": []}', bad),
        Shot("not-json-type", "POST", "/v1/score", good, frozenset({415}), "text/plain"),
        Shot("not-found", "GET", "/v2/nothing", b"", frozenset({404})),
    ]


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    unexpected: dict[str, int] = field(default_factory=dict)


async def _one(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, shot: Shot
) -> tuple[int, bool]:
    """Send `shot`, read the answer; (status, whether the server keeps the connection)."""
    head = (
        f"{shot.method} {shot.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: {shot.content_type}\r\nContent-Length: {len(shot.body)}\r\n\r\n"
    )
    writer.write(head.encode() + shot.body)
    await writer.drain()
    status_line = await reader.readline()
    status = int(status_line.split()[1])
    length, keep = 0, True
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        if name.lower() == "content-length":
            length = int(value)
        elif name.lower() == "connection" and value.strip().lower() == "close":
            keep = False
    await reader.readexactly(length)
    return status, keep


async def _client(port: int, deadline: float, offset: int, tally: Tally) -> None:
    menu = shots()
    i = offset
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        while time.monotonic() < deadline:
            shot = menu[i % len(menu)]
            i += 1
            started = time.perf_counter()
            try:
                status, keep = await asyncio.wait_for(_one(reader, writer, shot), TIMEOUT)
            except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, IndexError):
                status, keep = 0, False  # no answer: reset, cut short, or too slow
            tally.latencies.append(time.perf_counter() - started)
            if status not in shot.expect:
                key = f"{shot.name}: {status or 'no answer'}"
                tally.unexpected[key] = tally.unexpected.get(key, 0) + 1
            if not keep:
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
    finally:
        writer.close()


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def run(port: int, pid: int, seconds: float, connections: int) -> dict[str, object]:
    """The load on a running server; its figures."""
    tally = Tally()
    rss_before = _rss_kb(pid)
    started = time.monotonic()

    async def everyone() -> None:
        deadline = time.monotonic() + seconds
        await asyncio.gather(*(_client(port, deadline, k, tally) for k in range(connections)))

    asyncio.run(everyone())
    elapsed = time.monotonic() - started
    ordered = sorted(tally.latencies)
    return {
        "seconds": round(elapsed, 1),
        "connections": connections,
        "requests": len(ordered),
        "req_per_s": round(len(ordered) / elapsed, 1),
        "unexpected": sum(tally.unexpected.values()),
        "unexpected_by_kind": tally.unexpected,
        "p50_ms": round(ordered[len(ordered) // 2] * 1e3, 2),
        "p99_ms": round(ordered[int(len(ordered) * 0.99)] * 1e3, 2),
        "rss_kb_before": rss_before,
        "rss_kb_after": _rss_kb(pid),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--connections", type=int, default=32)
    args = parser.parse_args()
    with running_server({}) as (port, pid):
        figures = run(port, pid, args.seconds, args.connections)
        print(json.dumps(figures, indent=2), flush=True)  # before a stuck server is stopped
    return 1 if figures["unexpected"] else 0


if __name__ == "__main__":
    sys.exit(main())
