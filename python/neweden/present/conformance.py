"""What the conformance harness says of each scorer (docs/conformance.md): a table per
scorer and rule area (agrees / differs / not supported / crashed), the first differing cases,
what it never gave, what went wrong with it, and its speed; and the same as `report.json`."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from html import escape
from typing import Any, Protocol

from neweden.i18n import _
from neweden.present.html import standalone_page

__all__ = ["VERDICTS", "report_of", "report_page", "table_of"]

#: Pictures a page shows for each scorer and rule area (each some kilobytes).
PICTURES_SHOWN = 12

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


def _differing(run: _Run) -> list[dict[str, str]]:
    return [
        {"case": o.case, "area": o.area, "verdict": o.verdict, "detail": o.detail}
        for o in run.outcomes
        if o.verdict in ("differs", "crashed")
    ]


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
                "first_differences": _differing(run)[:first],
                "differing": _differing(run),
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


_STYLE = (
    "body{font-family:system-ui,sans-serif;margin:1rem;color:#222}"
    "table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:.35rem .6rem;"
    "text-align:center}th:first-child,td:first-child{text-align:left}"
    "td.ok{background:#e6f4e6}td.bad{background:#fbe3e3}td.none{color:#888}"
    "td a{display:block;min-height:1.5rem;color:inherit}.scroll{overflow-x:auto}"
    "section.diff{display:none;border-top:2px solid #b00;margin-top:1rem}"
    "section.diff:target{display:block}section.diff li{margin:.6rem 0}"
    "section.diff img{max-width:100%;height:auto;display:block;border:1px solid #ddd}"
)


def _cell(scorer: dict[str, Any], area: str) -> str:
    counts = scorer["areas"].get(area)
    if counts is None:
        return '<td class="none">-</td>'
    total = sum(counts.values())
    wrong = counts["differs"] + counts["crashed"]
    said = f"{counts['agrees']}/{total}"
    if counts["unsupported"]:
        said += " " + _("({n} not supported)", n=counts["unsupported"])
    if not wrong:
        return f'<td class="ok">{escape(said)}</td>'
    anchor = f"d-{scorer['name']}-{area}"
    return f'<td class="bad"><a href="#{escape(anchor)}">{escape(said)}</a></td>'


def _differences(scorer: dict[str, Any], area: str, picture: Callable[[str], str | None]) -> str:
    found = [d for d in scorer["differing"] if d["area"] == area]
    items = []
    for k, diff in enumerate(found):
        shown = picture(diff["case"]) if k < PICTURES_SHOWN else None
        image = f'<img src="{escape(shown)}" alt="{escape(diff["case"])}">' if shown else ""
        items.append(
            f"<li><b>{escape(diff['case'])}</b> — {escape(diff['verdict'])}: "
            f"{escape(diff['detail'])}{image}</li>"
        )
    anchor = f"d-{scorer['name']}-{area}"
    return (
        f'<section class="diff" id="{escape(anchor)}"><h2>{escape(scorer["name"])}: '
        f"{escape(area)}</h2><ol>{''.join(items)}</ol></section>"
    )


def report_page(report: dict[str, Any], picture: Callable[[str], str | None]) -> str:
    """`report.html`: a row a scorer, a column a rule area (agreeing cases of all); a click
    on a cell where a scorer differs shows those games, each with what differs and the
    picture of its cities (`picture`: a case's picture address, or None)."""
    scorers = report["scorers"]
    areas = sorted({area for s in scorers for area in s["areas"]})
    scorer_word = _("scorer")
    head = f"<tr><th>{escape(scorer_word)}</th>"
    head += "".join(f"<th>{escape(a)}</th>" for a in areas) + "</tr>"
    rows = "".join(
        f"<tr><td>{escape(s['name'])}</td>" + "".join(_cell(s, a) for a in areas) + "</tr>"
        for s in scorers
    )
    speed = "".join(
        "<li>"
        + escape(
            _(
                "{name}: {rate} games/s, start-up {startup} s, p99 {p99} ms",
                name=s["name"],
                rate=s["speed"]["games_per_s"],
                startup=s["speed"]["startup_s"],
                p99=s["speed"]["p99_ms"],
            )
        )
        + "</li>"
        for s in scorers
    )
    sections = [
        _differences(s, a, picture)
        for s in scorers
        for a in areas
        if s["areas"].get(a, {}).get("differs", 0) + s["areas"].get(a, {}).get("crashed", 0)
    ]
    suite = report["suite"]
    cases = _("{suite}: {cases} cases", suite=suite.get("format"), cases=suite.get("cases"))
    title = _("Conformance of New Eden scorers")
    body = [
        f"<p>{escape(cases)}</p>",
        f'<div class="scroll"><table><thead>{head}</thead><tbody>{rows}</tbody></table></div>',
        f"<ul>{speed}</ul>",
        *sections,
    ]
    return standalone_page(title, _STYLE, body)
