"""A soak of the HTTP service: the mixed load of scripts/load_mixed.py (good and hostile
requests) from 16 connections for a long time, the server's resident set sampled as it
goes. At the end the server tells whether its garbage collector is on (a collector left off
for good made memory grow without limit: docs/hardening.md, round three).

    python scripts/soak.py                          # 30 minutes, a sample every 30 s
    python scripts/soak.py --seconds 60 --every 10  # the short run of CI

Prints one JSON object: the RSS series (kB, with the second of each sample), requests and
unexpected statuses by kind, the collector's state and generation-0 count at the end, and
the verdict. Passes (exit 0) when no status was unexpected, the collector is on, and the
resident set after the warm-up (the first sixth of the run, at least 20 s: caches and the
allocator's arenas fill) stays within 10% of its lowest value.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from load_mixed import Tally, _client, _rss_kb  # noqa: E402

from tests.servers import free_port  # noqa: E402

FLAT = 0.10  # the resident set's allowed rise over its lowest sample after the warm-up


def _serve(port: int, state: str) -> int:
    """The server process: `neweden serve`, telling its collector's state to the file
    `state` on SIGUSR1."""
    import gc

    from neweden.cli.main import main

    def tell(_signum: int, _frame: object) -> None:
        Path(state).write_text(json.dumps({"enabled": gc.isenabled(), "counts": gc.get_count()}))

    signal.signal(signal.SIGUSR1, tell)
    return main(["serve", "--port", str(port), "--log-level", "warning"])


def _started(port: int, state: Path) -> subprocess.Popen[bytes]:
    import socket

    args = [sys.executable, __file__, "--serve", str(port), "--state", str(state)]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def _collector(proc: subprocess.Popen[bytes], state: Path) -> dict[str, object]:
    state.unlink(missing_ok=True)
    proc.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if state.exists() and state.stat().st_size:
            found: dict[str, object] = json.loads(state.read_text())
            return found
        time.sleep(0.05)
    return {"enabled": None, "counts": None}


def soak(seconds: float, every: float, connections: int) -> dict[str, object]:
    port = free_port()
    state = Path(f"/tmp/neweden-soak-{os.getpid()}.json")
    proc = _started(port, state)
    tally = Tally()
    series: list[tuple[float, int]] = []
    started = time.monotonic()

    async def sampled() -> None:
        while time.monotonic() - started < seconds:
            series.append((round(time.monotonic() - started, 1), _rss_kb(proc.pid)))
            await asyncio.sleep(min(every, max(0.0, seconds - (time.monotonic() - started))))

    async def everyone() -> None:
        deadline = started + seconds
        clients = (_client(port, deadline, k, tally) for k in range(connections))
        await asyncio.gather(sampled(), *clients)

    try:
        asyncio.run(everyone())
        series.append((round(time.monotonic() - started, 1), _rss_kb(proc.pid)))
        time.sleep(1)  # the server idle, as the issue found it
        collector = _collector(proc, state)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        state.unlink(missing_ok=True)
    warmup = max(20.0, seconds / 6)
    after_warmup = [kb for at, kb in series if at >= warmup] or [series[-1][1]]
    rise = max(after_warmup) / min(after_warmup) - 1
    unexpected = sum(tally.unexpected.values())
    passed = unexpected == 0 and collector["enabled"] is True and rise <= FLAT
    return {
        "seconds": seconds,
        "connections": connections,
        "requests": len(tally.latencies),
        "unexpected": unexpected,
        "unexpected_by_kind": tally.unexpected,
        "rss_kb": series,
        "warmup_seconds": warmup,
        "rss_rise_after_warmup": round(rise, 3),
        "collector_enabled_at_end": collector["enabled"],
        "collector_counts_at_end": collector["counts"],
        "passed": passed,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1800.0)
    parser.add_argument("--every", type=float, default=30.0, help="seconds between RSS samples")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)  # the server process
    parser.add_argument("--state", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        return _serve(args.serve, args.state)
    figures = soak(args.seconds, args.every, args.connections)
    print(json.dumps(figures, indent=1), flush=True)
    return 0 if figures["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
