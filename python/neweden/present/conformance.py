"""What the conformance harness says of each scorer (docs/conformance.md): a table per
scorer and rule area (agrees / differs / not supported / crashed), the first differing cases,
what it never gave, what went wrong with it, and its speed; and the same as `report.json`."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any, Protocol

__all__ = ["VERDICTS", "report_of", "table_of"]

VERDICTS = ("agrees", "differs", "unsupported", "crashed")


class _Outcome(Protocol):
    @property
    def case(self) -> str: ...
    @property
    def area(self) -> str: ...
    @property
    def verdict(self) -> str: ...
    @property
    def detail(self) -> str: ...


class _Run(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def command(self) -> str: ...
    @property
    def outcomes(self) -> Sequence[_Outcome]: ...
    @property
    def unsupported(self) -> set[str]: ...
    @property
    def problems(self) -> dict[str, int]: ...
    @property
    def startup(self) -> float | None: ...
    @property
    def gaps(self) -> list[float]: ...
    @property
    def seconds(self) -> float: ...


def _areas(run: _Run) -> dict[str, dict[str, int]]:
    counted: dict[str, Counter[str]] = {}
    for outcome in run.outcomes:
        counted.setdefault(outcome.area, Counter())[outcome.verdict] += 1
    return {area: {v: c[v] for v in VERDICTS} for area, c in sorted(counted.items())}


def _speed(run: _Run) -> dict[str, float | None]:
    answered = len(run.gaps) + (run.startup is not None)
    working = run.seconds - (run.startup or 0.0)
    gaps = sorted(run.gaps)
    return {
        "startup_s": None if run.startup is None else round(run.startup, 4),
        "games_per_s": round(answered / working, 1) if working > 0 and answered else None,
        "p50_ms": round(statistics.median(gaps) * 1000, 3) if gaps else None,
        "p99_ms": round(gaps[min(len(gaps) - 1, int(len(gaps) * 0.99))] * 1000, 3)
        if gaps
        else None,
    }


def agrees(run: _Run) -> bool:
    """Whether a scorer agrees on everything it supports (nothing differs, nothing crashed)."""
    return all(o.verdict in ("agrees", "unsupported") for o in run.outcomes)


def report_of(runs: Sequence[_Run], manifest: dict[str, Any], first: int = 5) -> dict[str, Any]:
    """`report.json`: the suite, and each scorer's counts by area, first differences,
    fields not given, problems and speed."""
    return {
        "suite": {k: manifest[k] for k in ("format", "cases", "sha256") if k in manifest},
        "scorers": [
            {
                "name": run.name,
                "command": run.command,
                "agrees": agrees(run),
                "areas": _areas(run),
                "first_differences": [
                    {"case": o.case, "area": o.area, "verdict": o.verdict, "detail": o.detail}
                    for o in run.outcomes
                    if o.verdict in ("differs", "crashed")
                ][:first],
                "not_given": sorted(run.unsupported),
                "problems": dict(run.problems),
                "speed": _speed(run),
            }
            for run in runs
        ],
    }


def table_of(report: dict[str, Any]) -> str:
    """The report as a terminal reads it: a table a scorer, then its first differences."""
    lines = [f"suite {report['suite'].get('format')}: {report['suite'].get('cases')} cases"]
    for scorer in report["scorers"]:
        verdict = "agrees" if scorer["agrees"] else "DIFFERS"
        lines += ["", f"{scorer['name']}: {verdict}  ({scorer['command']})"]
        lines.append(f"  {'area':<18}" + "".join(f"{v:>12}" for v in VERDICTS))
        for area, counts in scorer["areas"].items():
            lines.append(f"  {area:<18}" + "".join(f"{counts[v]:>12}" for v in VERDICTS))
        if scorer["not_given"]:
            lines.append("  not given: " + ", ".join(scorer["not_given"]))
        problems = {k: n for k, n in scorer["problems"].items() if n}
        if problems:
            lines.append("  problems: " + ", ".join(f"{k} {n}" for k, n in problems.items()))
        speed = scorer["speed"]
        lines.append(
            f"  speed: start-up {speed['startup_s']} s, {speed['games_per_s']} games/s, "
            f"p50 {speed['p50_ms']} ms, p99 {speed['p99_ms']} ms"
        )
        for diff in scorer["first_differences"]:
            lines.append(f"  {diff['case']} [{diff['area']}] {diff['verdict']}: {diff['detail']}")
    return "\n".join(lines) + "\n"
