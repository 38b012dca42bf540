"""Small builders of game documents for the scoring tests (invented cards only)."""

from __future__ import annotations

import random
from typing import Any

import neweden
from neweden.geometry.synth import city_json, grow_city

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


def six_in_a_row(styles: list[str], types: list[str] | None = None) -> list[dict[str, Any]]:
    """Cards joined in a row, one per style given (six: B1 met), all one type unless `types`
    says; 0 open connections (C1 met); each worth 5 points at 3 stars."""
    types = types or ["building"] * len(styles)
    last = len(styles) - 1
    sides = ["r" if c == 0 else ("l" if c == last else "rl") for c in range(last + 1)]
    return [
        card(0, c, sides[c], style=s, type=t, points=5, stars=3)
        for c, (s, t) in enumerate(zip(styles, types, strict=True))
    ]


def decode_places(doc: Any) -> list[tuple[str, str]]:
    """(code, path) of each decode problem `neweden.score` raises for `doc` (it must raise)."""
    try:
        neweden.score(doc)
    except neweden.GameDecodeError as err:
        return [(problem.code, problem.path) for problem in err.problems]
    raise AssertionError("the game decoded: no decode problem")


def player(name: str, city: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"name": name, "city": city, **extra}


def game(mode: str, *players: dict[str, Any], **extra: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {"mode": mode, "players": list(players), **extra}
    if mode != "military" and "requirements" not in doc:
        doc["requirements"] = ["A1", "B1", "C1"]
    return doc


def problem_games(count: int, seed: int = 5) -> list[dict[str, Any]]:
    """Generated games showing most of the report's errors and warnings: overlaps, unknown
    ids, rotated cards, activated 5-point epiphanies, an unknown effect, a repeated name, an
    unknown requirement and first player, the three modes (cities grown by legal placement,
    with Atomic Waste wild cards)."""
    rng = random.Random(seed)
    games = []
    for n in range(count):
        players = []
        for p in range(rng.randint(1, 4)):
            city = city_json(grow_city(rng, rng.randint(0, 12)), wild_id="atomic-waste")
            if city and n % 3 == 0:
                city.append({**city[0]})  # overlap
            if city and n % 5 == 0:
                city.append({"row": 99, "col": 99, "card": "EX-unknown"})
            if city and n % 7 == 0:
                city[-1] = {**city[-1], "rotated": True}
            epiphanies = [{"points": 5, "state": "activated", "effect": "third_star"}]
            epiphanies += [{"points": 2, "state": "activated", "effect": "thrid_star"}]
            players.append(
                {"name": "P" if n % 11 == 0 else f"P{p}", "city": city, "epiphanies": epiphanies}
            )
        games.append(
            {
                "mode": rng.choice(["populist", "military", "elitist"]),
                "players": players,
                "requirements": ["A1", "B1", "EX-R"],
                "first_player": "nobody",
            }
        )
    return games
