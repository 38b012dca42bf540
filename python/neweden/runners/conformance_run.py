"""The comparison harness (docs/conformance.md): each scorer, a command speaking
`new-eden/scorer@1` (JSON Lines of games in, one answer line a game out, in order), run on a
suite with a time limit per game and per run. A crash, a hang or a line of garbage costs the
case it happened on; the scorer is started again after it, and the run goes on. Each answer
is compared field by field with the expected one, and each case counted by its rule area:
agrees, differs, not supported or crashed; a case that agrees on its area's fields but
differs elsewhere is counted apart, in the area `elsewhere`."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import queue
import shlex
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import msgspec

from neweden.runners.conformance_suite import SUITE_FORMAT, Answer

__all__ = [
    "MAX_ANSWER_BYTES",
    "Case",
    "Outcome",
    "ScorerRun",
    "SuiteError",
    "compare",
    "judged",
    "load_suite",
    "run_scorer",
]

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
#: The optional fields of an answer's players.
OPTIONAL = ("legal", "open_connections", "stars", "parts")
#: The longest answer read (a game is at most 1 MiB; its answer much less): a longer one is
#: garbage, and no more of it is kept.
MAX_ANSWER_BYTES = 1 << 20
#: The answers read ahead of the comparison (each at most MAX_ANSWER_BYTES).
_READ_AHEAD = 64
#: What the crash of a scorer shows of its standard error: the last bytes.
_STDERR_TAIL = 600


#: Why the cases left when a scorer's run reached its time limit were not asked.
_RAN_OUT = "the run's time ran out"


class SuiteError(ValueError):
    """A folder that is not a suite written by `neweden conformance suite`: the sentence."""


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
    given: set[str] = field(default_factory=set)  # the fields it gave at least once
    asked: set[str] = field(default_factory=set)  # the fields the cases it answered have
    problems: dict[str, int] = field(
        default_factory=lambda: {"crashes": 0, "hangs": 0, "garbage": 0, "out_of_order": 0}
    )
    startup: float | None = None  # seconds to its first answer
    gaps: list[float] = field(default_factory=list)  # seconds between answers
    seconds: float = 0.0

    @property
    def unsupported(self) -> set[str]:
        """The fields it never gave."""
        return self.asked - self.given

    def unanswered(self, case: Case, hung: bool, why: str) -> None:
        """Case `case` got no answer: a hang (none in time) or a crash, `why` says which."""
        self.problems["hangs" if hung else "crashes"] += 1
        self.outcomes.append(Outcome(case.id, case.area, "crashed", why))

    def ran_out(self, cases: Sequence[Case]) -> None:
        """The run's time ran out before `cases`: each crashed."""
        self.outcomes += [Outcome(c.id, c.area, "crashed", _RAN_OUT) for c in cases]

    def answered(self, now: float, began: float, last: float) -> float:
        """An answer came at `now` (the run began at `began`, the answer before came at
        `last`): the start-up or one more gap; `now`, the new `last`."""
        if self.startup is None:
            self.startup = now - began
        else:
            self.gaps.append(now - last)
        return now


# --- the suite ------------------------------------------------------------------------------


def _case(raw: bytes, number: int) -> Case:
    try:
        doc = json.loads(raw)
        expected = doc["expected"]
        if not isinstance(expected, dict) or not isinstance(expected.get("players", []), list):
            raise TypeError("expected")
        if not all(isinstance(p, dict) for p in expected.get("players", [])):
            raise TypeError("expected.players")
        game = json.dumps(doc["game"], ensure_ascii=False, separators=(",", ":"))
        return Case(str(doc["id"]), str(doc["area"]), game.encode(), expected)
    except (ValueError, KeyError, TypeError, RecursionError) as exc:  # (nested past reading)
        raise SuiteError(f"cases.jsonl, line {number}: not a case ({exc})") from None


def load_suite(folder: str) -> tuple[dict[str, Any], list[Case]]:
    """The manifest and the cases of a suite written by `neweden conformance suite`, checked
    against the manifest (its format, its SHA-256, its number of cases); SuiteError when
    they do not agree or cannot be read."""
    try:
        with open(os.path.join(folder, "manifest.json"), encoding="utf-8") as handle:
            manifest = json.load(handle)
        with open(os.path.join(folder, "cases.jsonl"), "rb") as handle:
            body = handle.read()
    except (OSError, ValueError, RecursionError) as exc:
        raise SuiteError(str(exc)) from None
    if not isinstance(manifest, dict) or manifest.get("format") != SUITE_FORMAT:
        raise SuiteError(f"manifest.json is not of the format {SUITE_FORMAT}")
    digest = hashlib.sha256(body).hexdigest()
    sums = manifest.get("sha256")
    if not isinstance(sums, dict) or digest != sums.get("cases.jsonl"):
        raise SuiteError("cases.jsonl is not the file manifest.json names (its SHA-256 differs)")
    cases = [_case(raw, k) for k, raw in enumerate(body.splitlines(), 1)]
    if len(cases) != manifest.get("cases"):
        raise SuiteError(f"{len(cases)} cases, where manifest.json says {manifest.get('cases')}")
    return manifest, cases


# --- comparing ------------------------------------------------------------------------------

#: A player's field left out of an answer, as a comparison shows it.
_NOT_GIVEN = "(not given)"


def _fields(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer as the fields compared (a field no player gives: absent; one some players
    give: each player's value, or _NOT_GIVEN)."""
    players = [p for p in answer.get("players", []) if isinstance(p, dict)]
    got: dict[str, Any] = {
        "valid": answer.get("valid"),
        "names": [p.get("name") for p in players],
        "totals": [p.get("total") for p in players],
        "places": [p.get("place") for p in players],
    }
    for name in OPTIONAL:
        if any(name in p for p in players):
            got[name] = [p.get(name, _NOT_GIVEN) for p in players]
    if isinstance(answer.get("codes"), list):
        got["codes"] = sorted(str(c) for c in answer["codes"])
    return got


def _differs(want: Any, got: Any) -> bool:
    """Whether a field differs; a player's value not given is not compared."""
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        return any(g != _NOT_GIVEN and g != w for w, g in zip(want, got, strict=True))
    return bool(want != got)


def compare(case: Case, answer: dict[str, Any]) -> tuple[list[Outcome], set[str], set[str]]:
    """A case's outcomes for an answer (its area's; and, when only fields outside the area
    differ, one in `elsewhere`), the fields the case has, and those the answer gave."""
    want, got = _fields(case.expected), _fields(answer)
    differing = [name for name in want if name in got and _differs(want[name], got[name])]
    focus = FOCUS.get(case.area, ())
    said = "; ".join(f"{n}: expected {want[n]!r}, got {got[n]!r}" for n in differing)
    fields = (set(want), set(got))
    if differing and (not focus or set(differing) & set(focus)):
        return [Outcome(case.id, case.area, "differs", said)], *fields
    own = (
        Outcome(case.id, case.area, "unsupported", ", ".join(focus))
        if focus and not set(focus) & set(got)
        else Outcome(case.id, case.area, "agrees")
    )
    if differing:  # right on what the case is about, wrong on something else
        return [own, Outcome(case.id, "elsewhere", "differs", said)], *fields
    return [own], *fields


def _valid_answer(line: bytes) -> dict[str, Any] | str:
    """An answer line as the protocol says it, or why it is not one."""
    try:
        msgspec.json.decode(line, type=Answer)
        found: dict[str, Any] = json.loads(line)
    except (msgspec.DecodeError, ValueError, RecursionError) as exc:  # (nested past reading)
        return str(exc)
    return found


def _names(case: Case) -> list[Any]:
    return [p.get("name") for p in case.expected.get("players", [])]


def judged(run: ScorerRun, cases: Sequence[Case], at: int, line: bytes) -> list[Outcome]:
    """The outcomes of case `at` for the answer line `line` (garbage, out of order, or
    compared)."""
    case = cases[at]
    answer = _valid_answer(line)
    if isinstance(answer, str):
        run.problems["garbage"] += 1
        return [Outcome(case.id, case.area, "crashed", f"garbage: {answer}: {line[:80]!r}")]
    names = [p.get("name") for p in answer.get("players", []) if isinstance(p, dict)]
    others = [_names(c) for c in cases[max(at - 8, 0) : at + 8] if c is not case]
    if names != _names(case) and names and names in others:
        run.problems["out_of_order"] += 1
        return [Outcome(case.id, case.area, "crashed", "out of order: another game's answer")]
    outcomes, asked, given = compare(case, answer)
    run.asked |= asked
    run.given |= given
    return outcomes


# --- commands -------------------------------------------------------------------------------


def _reader(stream: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
    """Each answer line, at most MAX_ANSWER_BYTES of it kept (a longer one is garbage);
    at most _READ_AHEAD waiting, so a scorer writing without end waits too."""
    with stream:
        while True:
            line = stream.readline(MAX_ANSWER_BYTES + 1)
            if not line:
                break
            if len(line) > MAX_ANSWER_BYTES and not line.endswith(b"\n"):
                lines.put(b"(an answer longer than 1 MiB)")  # said now: its end may never come
                while (rest := stream.readline(MAX_ANSWER_BYTES)) and not rest.endswith(b"\n"):
                    pass  # the rest of a line too long: dropped as it comes
                continue
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


@dataclass
class _Process:
    """A scorer started: its process (in a session of its own, so its children end with
    it), its answers as they come, and its standard error in a file."""

    process: subprocess.Popen[bytes]
    lines: queue.Queue[bytes | None]
    stderr: IO[bytes]
    reader: threading.Thread

    def stop(self) -> None:
        """The scorer and its children killed, its answers not read dropped."""
        with contextlib.suppress(OSError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        while self.reader.is_alive():  # (it may wait to put an answer: let it end)
            with contextlib.suppress(queue.Empty):
                self.lines.get(timeout=0.05)
        self.stderr.close()

    def why(self) -> str:
        """Why it stopped: its exit status and the end of its standard error."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=1.0)
        self.stderr.seek(0, os.SEEK_END)
        self.stderr.seek(max(self.stderr.tell() - _STDERR_TAIL, 0))
        tail = self.stderr.read().decode("utf-8", "replace").strip()
        said = f"stopped without an answer (exit {self.process.returncode})"
        return f"{said}: {tail}" if tail else said


def _start(command: str, cases: Sequence[Case]) -> _Process:
    stderr = tempfile.TemporaryFile()  # noqa: SIM115  (closed by _Process.stop)
    try:
        process = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            start_new_session=True,
        )
    except BaseException:
        stderr.close()
        raise
    assert process.stdin is not None
    assert process.stdout is not None
    lines: queue.Queue[bytes | None] = queue.Queue(maxsize=_READ_AHEAD)
    threading.Thread(target=_writer, args=(process.stdin, cases), daemon=True).start()
    reader = threading.Thread(target=_reader, args=(process.stdout, lines), daemon=True)
    reader.start()
    return _Process(process, lines, stderr, reader)


def _next(started: _Process, wait: float) -> bytes | str | None:
    """The next answer line; None when the scorer stopped (it exited, or its output
    ended); "hang" when none came within `wait` seconds."""
    until = time.monotonic() + max(wait, 0.0)
    exited: float | None = None
    while True:
        try:
            return started.lines.get(timeout=0.05)
        except queue.Empty:
            pass
        now = time.monotonic()
        if started.process.poll() is not None:
            exited = exited or now
            if now - exited > 0.5:  # exited, its output held open by a child: stopped
                return None
        if now >= until:
            return "hang"


def run_scorer(
    name: str,
    command: str,
    cases: Sequence[Case],
    game_seconds: float = 10.0,
    run_seconds: float = 600.0,
) -> ScorerRun:
    """`command` run on `cases`: an outcome a case; started again after a case it crashed
    or hung on (a line of garbage costs that case only)."""
    run = ScorerRun(name, command)
    began = time.monotonic()
    deadline = began + run_seconds
    at = 0
    while at < len(cases):
        try:
            started = _start(command, cases[at:])
        except (OSError, ValueError) as exc:  # no such program, a command shlex cannot split
            run.problems["crashes"] += 1
            why = f"cannot start: {exc}"
            run.outcomes += [Outcome(c.id, c.area, "crashed", why) for c in cases[at:]]
            break
        at = _answers(run, started, cases, at, (began, deadline, game_seconds))
        started.stop()
        if time.monotonic() >= deadline:
            run.ran_out(cases[at:])
            break
    run.seconds = time.monotonic() - began
    return run


def _answers(
    run: ScorerRun,
    started: _Process,
    cases: Sequence[Case],
    at: int,
    times: tuple[float, float, float],
) -> int:
    """The answers of one start of a scorer, from case `at`; the case to start again from."""
    began, deadline, game_seconds = times
    last = time.monotonic()
    while at < len(cases):
        wait = min(game_seconds, deadline - time.monotonic())
        line = _next(started, wait)
        case = cases[at]
        if line is None or line == "hang":
            hung = line == "hang"
            why = f"no answer within {max(wait, 0.0):.1f} s" if hung else started.why()
            run.unanswered(case, hung, why)
            return at + 1
        assert isinstance(line, bytes)
        last = run.answered(time.monotonic(), began, last)
        run.outcomes += judged(run, cases, at, line)
        at += 1
    return at
