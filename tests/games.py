"""Small builders of game documents for the scoring tests (invented cards only)."""

from __future__ import annotations

from typing import Any

SIDES = {"t": "top", "r": "right", "b": "bottom", "l": "left"}


def card(
    row: int,
    col: int,
    sides: str = "rl",
    *,
    style: str = "ex_gothic",
    type: str = "ex_plaza",
    facility: str = "lab",
    points: int = 1,
    stars: int = 0,
    rotated: bool = False,
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "row": row,
        "col": col,
        "card": {
            "style": style,
            "type": type,
            "facility": facility,
            "points": points,
            "stars": stars,
            "sides": [SIDES[s] for s in sides],
        },
    }
    if rotated:
        entry["rotated"] = True
    return entry


def line(n: int, row: int = 0, **kwargs: Any) -> list[dict[str, Any]]:
    """n cards in a row, each joined to the next (the ends have one icon each)."""
    if n == 1:
        return [card(row, 0, "t", **kwargs)]
    return [
        card(row, c, "r" if c == 0 else ("l" if c == n - 1 else "rl"), **kwargs) for c in range(n)
    ]


def player(name: str, city: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"name": name, "city": city, **extra}


def game(mode: str, *players: dict[str, Any], **extra: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {"mode": mode, "players": list(players), **extra}
    if mode != "military" and "requirements" not in doc:
        doc["requirements"] = ["A1", "B1", "C1"]
    return doc
