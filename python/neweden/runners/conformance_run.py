"""The comparison harness (docs/conformance.md): each scorer, a command speaking
`new-eden/scorer@1` (JSON Lines of games in, one answer line a game out, in order), run on a
suite with a time limit per game and per run. A crash, a hang or a line of garbage costs the
case it happened on; the scorer is started again after it, and the run goes on. Each answer
is compared field by field with the expected one, and each case counted by its rule area:
agrees, differs, not supported or crashed."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import msgspec

from neweden.runners.conformance_suite import Answer, answer_of

__all__ = ["Case", "Outcome", "ScorerRun", "compare", "load_suite", "run_scorer", "run_url"]

#: What a case of each area is about: the fields its verdict needs (none: every field).
FOCUS = {
    "manual": ("totals",),
    "military": ("totals",),
    "ten_cards": ("totals",),
    "bonuses": ("totals",),
    "ranking": ("places",),
    "requirements": ("stars",),
    "epiphanies": ("parts",),
    "open_connections": ("open_connections",),
    "rotation": ("legal",),
    "wild": ("legal",),
    "errors": ("codes",),
}
#: The optional fields of an answer's players, and of the answer.
OPTIONAL = ("legal", "open_connections", "stars", "parts")


@dataclass(frozen=True)
class Case:
    id: str
    area: str
    line: bytes  # the game, one line of JSON
    expected: dict[str, Any]


@dataclass(frozen=True)
class Outcome:
    case: str
    area: str
    verdict: str  # agrees, differs, unsupported, crashed
    detail: str = ""


@dataclass
class ScorerRun:
    name: str
    command: str
    outcomes: list[Outcome] = field(default_factory=list)
    unsupported: set[str] = field(default_factory=set)  # fields it never gave
    problems: dict[str, int] = field(
        default_factory=lambda: {"crashes": 0, "hangs": 0, "garbage": 0, "out_of_order": 0}
    )
    startup: float | None = None  # seconds to its first answer
    gaps: list[float] = field(default_factory=list)  # seconds between answers
    seconds: float = 0.0

    def answered(self, now: float, began: float, last: float) -> float:
        """An answer came at `now` (the run began at `began`, the answer before came at
        `last`): the start-up or one more gap; `now`, the new `last`."""
        if self.startup is None:
            self.startup = now - began
        else:
            self.gaps.append(now - last)
        return now


def load_suite(folder: str) -> tuple[dict[str, Any], list[Case]]:
    """The manifest and the cases of a suite written by `neweden conformance suite`."""
    with open(os.path.join(folder, "manifest.json"), encoding="utf-8") as handle:
        manifest = json.load(handle)
    cases = []
    with open(os.path.join(folder, "cases.jsonl"), "rb") as handle:
        for raw in handle:
            doc = json.loads(raw)
            game = json.dumps(doc["game"], ensure_ascii=False, separators=(",", ":"))
            cases.append(Case(doc["id"], doc["area"], game.encode(), doc["expected"]))
    return manifest, cases


def _fields(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer as the fields compared (a field it does not give: absent)."""
    players = answer.get("players", [])
    got: dict[str, Any] = {
        "valid": answer.get("valid"),
        "names": [p.get("name") for p in players],
        "totals": [p.get("total") for p in players],
        "places": [p.get("place") for p in players],
    }
    for name in OPTIONAL:
        if players and all(name in p for p in players):
            got[name] = [p[name] for p in players]
    if "codes" in answer:
        got["codes"] = sorted(answer["codes"])
    return got


def compare(case: Case, answer: dict[str, Any]) -> tuple[Outcome, set[str]]:
    """A case's outcome for an answer, and the fields the answer did not give."""
    want, got = _fields(case.expected), _fields(answer)
    missing = {name for name in want if name not in got}
    differing = [name for name in want if name in got and got[name] != want[name]]
    if differing:
        said = "; ".join(f"{n}: expected {want[n]!r}, got {got[n]!r}" for n in differing)
        return Outcome(case.id, case.area, "differs", said), missing
    focus = FOCUS.get(case.area, ())
    if focus and all(name in missing for name in focus):
        return Outcome(case.id, case.area, "unsupported", ", ".join(focus)), missing
    return Outcome(case.id, case.area, "agrees"), missing


def _valid_answer(line: bytes) -> dict[str, Any] | None:
    """An answer line as the protocol says it (valid, players with name, total, place)."""
    try:
        msgspec.json.decode(line, type=Answer)
        found: dict[str, Any] = json.loads(line)
    except (msgspec.DecodeError, ValueError):
        return None
    return found


def _reader(stream: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
    with stream:
        for line in stream:
            lines.put(line)
    lines.put(None)


def _writer(stream: IO[bytes], cases: Sequence[Case]) -> None:
    try:
        for case in cases:
            stream.write(case.line + b"\n")
    except (BrokenPipeError, OSError, ValueError):
        pass  # the scorer stopped reading: what it answered is counted
    finally:
        with contextlib.suppress(OSError):
            stream.close()


def _start(command: str, cases: Sequence[Case]) -> tuple[subprocess.Popen[bytes], Any]:
    process = subprocess.Popen(
        shlex.split(command),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None
    assert process.stdout is not None
    lines: queue.Queue[bytes | None] = queue.Queue()
    threading.Thread(target=_writer, args=(process.stdin, cases), daemon=True).start()
    threading.Thread(target=_reader, args=(process.stdout, lines), daemon=True).start()
    return process, lines


def _names(case: Case) -> list[Any]:
    return [p.get("name") for p in case.expected.get("players", [])]


def _judged(run: ScorerRun, cases: Sequence[Case], at: int, line: bytes) -> Outcome:
    case = cases[at]
    answer = _valid_answer(line)
    if answer is None:
        run.problems["garbage"] += 1
        return Outcome(case.id, case.area, "crashed", f"garbage: {line[:80]!r}")
    names = [p["name"] for p in answer.get("players", [])]
    if names != _names(case) and names and names in [_names(c) for c in cases[at + 1 : at + 8]]:
        run.problems["out_of_order"] += 1
        return Outcome(case.id, case.area, "crashed", "out of order: a later game's answer")
    outcome, missing = compare(case, answer)
    run.unsupported |= missing
    return outcome


def run_scorer(
    name: str,
    command: str,
    cases: Sequence[Case],
    game_seconds: float = 10.0,
    run_seconds: float = 600.0,
) -> ScorerRun:
    """`command` run on `cases`: an outcome a case; started again after a case it crashed,
    hung or answered garbage on (a line of garbage costs that case only)."""
    run = ScorerRun(name, command)
    began = time.monotonic()
    deadline = began + run_seconds
    at = 0
    while at < len(cases):
        try:
            process, lines = _start(command, cases[at:])
        except (OSError, ValueError) as exc:  # no such program, a command shlex cannot split
            run.problems["crashes"] += 1
            why = f"cannot start: {exc}"
            run.outcomes += [Outcome(c.id, c.area, "crashed", why) for c in cases[at:]]
            break
        last = time.monotonic()
        while at < len(cases):
            wait = min(game_seconds, deadline - time.monotonic())
            try:
                line = lines.get(timeout=max(wait, 0.0))
            except queue.Empty:
                line = b""  # no answer in time
            now = time.monotonic()
            case = cases[at]
            if line is None or line == b"":
                hung = line == b""
                run.problems["hangs" if hung else "crashes"] += 1
                why = (
                    f"no answer within {wait:.1f} s"
                    if hung
                    else f"stopped without an answer (exit {process.poll()})"
                )
                run.outcomes.append(Outcome(case.id, case.area, "crashed", why))
                at += 1
                break
            last = run.answered(now, began, last)
            run.outcomes.append(_judged(run, cases, at, line))
            at += 1
        process.kill()
        process.wait()
        if time.monotonic() >= deadline:
            for case in cases[at:]:
                run.outcomes.append(
                    Outcome(case.id, case.area, "crashed", "the run's time ran out")
                )
            break
    run.seconds = time.monotonic() - began
    return run


def _answer_line(status: int, body: bytes) -> bytes:
    """What an HTTP scorer answered, as a line of the protocol: its answer, or neweden's
    report turned into one (`POST /v1/score`); a refusal of the game (400, 422) is the
    answer of a game that cannot be read; anything else is garbage."""
    try:
        doc = json.loads(body)
    except ValueError:
        return body[:200].replace(b"\n", b" ") or b"(empty)"
    if status in (400, 422) and isinstance(doc, dict) and "errors" in doc:
        codes = sorted(
            {str(e["code"]) for e in doc["errors"] if isinstance(e, dict) and "code" in e}
        )
        return json.dumps({"valid": False, "players": [], "codes": codes}).encode()
    if status == 200 and isinstance(doc, dict) and doc.get("format") == "new-eden/report@1":
        return msgspec.json.encode(answer_of(doc))
    return body.replace(b"\n", b" ")


def run_url(
    name: str,
    url: str,
    cases: Sequence[Case],
    game_seconds: float = 10.0,
    run_seconds: float = 600.0,
) -> ScorerRun:
    """An HTTP scorer: each game POSTed to `url` alone, its answer compared (a refused
    connection or no answer in time costs that case; the next one is asked anew)."""
    import urllib.error
    import urllib.request

    run = ScorerRun(name, url)
    began = time.monotonic()
    last = began
    for at, case in enumerate(cases):
        if time.monotonic() >= began + run_seconds:
            run.outcomes += [
                Outcome(c.id, c.area, "crashed", "the run's time ran out") for c in cases[at:]
            ]
            break
        request = urllib.request.Request(
            url, data=case.line, headers={"content-type": "application/json"}, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=game_seconds) as response:
                status, body = response.status, response.read()
        except urllib.error.HTTPError as err:
            status, body = err.code, err.read()
        except (OSError, ValueError) as exc:  # refused, reset, timed out, a bad address
            run.problems["crashes"] += 1
            run.outcomes.append(Outcome(case.id, case.area, "crashed", f"no answer: {exc}"))
            continue
        last = run.answered(time.monotonic(), began, last)
        run.outcomes.append(_judged(run, cases, at, _answer_line(status, body)))
    run.seconds = time.monotonic() - began
    return run
