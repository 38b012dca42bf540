"""A readable table of a report, for `neweden score --format text`."""

from __future__ import annotations

from typing import Any

__all__ = ["report_table"]


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, list):
        return ",".join(str(v) for v in value) or "-"
    return str(value)


def report_table(report: dict[str, Any]) -> str:
    """The players as rows (place, name, every part of the score), then the problems."""
    header = [
        "place",
        "player",
        "legal",
        "cards",
        "open",
        "stars",
        "met",
        "populist",
        "military",
        "epiphanies",
        "ten",
        "bonuses",
        "total",
    ]
    rows = [header]
    for p in sorted(report["players"], key=lambda p: p["place"]):
        s = p["score"]
        rows.append(
            [
                _cell(p["place"]),
                p["name"],
                "yes" if p["legal"] else "NO",
                _cell(p["cards"]),
                _cell(p["open_connections"]),
                _cell(p["stars"]),
                _cell(p["requirements_met"]),
                _cell(s["requirements"]),
                _cell(s["military"]["total"] if s["military"] else None),
                _cell(s["epiphanies"]),
                _cell(s["ten_cards"]),
                _cell(s["bonuses"]),
                _cell(s["total"]),
            ]
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = [f"{report['mode']} game, {'valid' if report['valid'] else 'NOT valid'}"]
    for r in rows:
        lines.append(
            "  ".join(
                c.ljust(w) if i < 3 else c.rjust(w)
                for i, (c, w) in enumerate(zip(r, widths, strict=True))
            )
        )
    problems = [("error", e) for e in report["errors"]] + [
        ("warning", w) for w in report["warnings"]
    ]
    for p in report["players"]:
        problems += [("error", e) for e in p["errors"]] + [("warning", w) for w in p["warnings"]]
    for kind, problem in problems:
        lines.append(f"{kind}: {problem['path'] or '/'}: {problem['code']}: {problem['message']}")
    return "\n".join(lines) + "\n"
