"""Generated games as documents and as the columns of `score_table`, and the lean report's
numbers of each player in the same form (tests and benchmarks of the columnar path)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np

import neweden
from neweden.catalog.catalog import ResolvedCard
from neweden.geometry.compact import pack_table
from neweden.geometry.synth import city_json, grow_city
from neweden.scoring.table import EPIPHANY_STATES, Epiphanies


def _city(rng: random.Random) -> list[ResolvedCard]:
    city = grow_city(rng, rng.randint(0, 16), tries=400)
    roll = rng.random()
    if city and roll < 0.2:  # a card again on a taken cell
        city.append(dataclasses.replace(city[0], index=len(city)))
    elif len(city) > 1 and roll < 0.4:  # the last card far from the rest
        city[-1] = dataclasses.replace(city[-1], row=city[-1].row + 40)
    return city


def _epiphanies(rng: random.Random) -> list[dict[str, Any]]:
    return [
        {
            "points": rng.choice([2, 2, 5]),
            "state": rng.choice(EPIPHANY_STATES),
            **({"effect": "third_star"} if rng.random() < 0.6 else {}),
        }
        for _ in range(rng.choice([0, 0, 1, 3, 4, 6, 7]))
    ]


#: The requirement cards a game may play (the built-in catalog has one of each deck).
_REQUIREMENT_LISTS = ([], ["A1"], ["C1", "B1"], ["B1", "A1", "C1"], ["A1", "B1", "C1"])
#: ... and as a real table draws them, most unknown to the built-in catalog (RULES §4a).
_DRAWN_LISTS = (["A3", "B1", "C4"], ["A1", "B2", "C1"], ["A3", "B2", "C4"], ["C1", "A7"])


def _declared(rng: random.Random, doc: dict[str, Any]) -> None:
    """Some players of a game that plays requirement cards declare what they met (some
    with a known card too, which the city then judges), some games their own D5 table."""
    ids = doc.get("requirements", [])
    if ids and rng.random() < 0.7:
        for player in doc["players"]:
            if rng.random() < 0.8:
                player["requirements_met"] = [i for i in ids if rng.random() < 0.5]
    if rng.random() < 0.4:
        first = rng.randint(0, 12)
        table = sorted((rng.randint(0, first) for _ in doc["players"]), reverse=True)
        doc["majority_table"] = table


def table_games(
    seed: int, count: int, *, own_requirements: bool = False, declared: bool = False
) -> list[dict[str, Any]]:
    """Games as documents, with their resolved cities kept aside (key `_cities`); with
    `own_requirements`, each game plays requirement cards of its own (some none); with
    `declared`, cards as a real table draws them, declared by some players, and some games
    with their own D5 table."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        n = rng.randint(1, 4)
        cities = [_city(rng) for _ in range(n)]
        twin = n > 1 and rng.random() < 0.3  # the last player the same as the first: a tie
        if twin:
            cities[-1] = cities[0]
        players = [
            {
                "name": f"P{p}",
                "city": city_json(city),
                "epiphanies": _epiphanies(rng),
                "bonuses": [{"name": "b", "points": rng.randint(-3, 9)}]
                if rng.random() < 0.3
                else [],
            }
            for p, city in enumerate(cities)
        ]
        if twin:
            players[-1] = {**players[0], "name": f"P{n - 1}"}
        doc: dict[str, Any] = {
            "mode": rng.choice(["populist", "military", "elitist"]),
            "players": players,
        }
        if declared and doc["mode"] != "military":
            doc["requirements"] = list(rng.choice(_DRAWN_LISTS + _REQUIREMENT_LISTS[1:]))
        elif own_requirements:
            doc["requirements"] = list(rng.choice(_REQUIREMENT_LISTS))
        elif doc["mode"] != "military":
            doc["requirements"] = ["A1", "B1", "C1"]
        if declared:
            _declared(rng, doc)
        if rng.random() < 0.5:
            doc["first_player"] = f"P{rng.randrange(n)}"
        doc["_cities"] = cities
        games.append(doc)
    return games


def table_columns(games: list[dict[str, Any]]) -> dict[str, Any]:
    cities = [city for g in games for city in g["_cities"]]
    table, city_offsets = pack_table(cities)
    players = [p for g in games for p in g["players"]]
    epis = [e for p in players for e in p["epiphanies"]]
    return {
        "table": table,
        "city_offsets": city_offsets,
        "game_offsets": np.cumsum([0] + [len(g["players"]) for g in games]),
        "mode": [g["mode"] for g in games],
        "epiphanies": Epiphanies(
            np.cumsum([0] + [len(p["epiphanies"]) for p in players]),
            np.array([e["points"] for e in epis], dtype=np.int64),
            np.array([EPIPHANY_STATES.index(e["state"]) for e in epis], dtype=np.int64),
            np.array([e.get("effect") == "third_star" for e in epis], dtype=bool),
        ),
        "bonuses": np.array([sum(b["points"] for b in p["bonuses"]) for p in players]),
        "first_player": np.array(
            [int(g["first_player"][1:]) if "first_player" in g else -1 for g in games]
        ),
    }


def declared_columns(games: list[dict[str, Any]]) -> dict[str, Any]:
    """:func:`table_columns` and each game's requirement list, each player's declaration as
    bits over it, each game's own D5 table (None: none)."""
    found = table_columns(games)
    found["requirements"] = [g.get("requirements", []) for g in games]
    found["requirements_declared"] = np.array(
        [
            sum(1 << k for k, i in enumerate(g.get("requirements", [])) if i in declared)
            for g in games
            for p in g["players"]
            for declared in [p.get("requirements_met", [])]
        ],
        dtype=np.int64,
    )
    found["majority_tables"] = [g.get("majority_table") for g in games]
    return found


def report_columns(games: list[dict[str, Any]]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {k: [] for k in FIELDS}
    for g in games:
        doc = {k: v for k, v in g.items() if k != "_cities"}
        for p in neweden.score(doc, detail=False)["players"]:
            score = p["score"]
            military = score["military"]
            out["legal"].append(p["legal"])
            out["cards"].append(p["cards"])
            out["open_connections"].append(p["open_connections"])
            out["stars"].append(p["stars"] or 0)
            out["requirements_met"].append(len(p["requirements_met"] or []))
            out["requirements"].append(score["requirements"])
            out["military"].append(military["total"] if military else 0)
            out["bases_points"].append(military["bases"] if military else 0)
            out["epiphanies"].append(score["epiphanies"])
            out["ten_cards"].append(score["ten_cards"])
            out["bonuses"].append(score["bonuses"])
            out["total"].append(score["total"])
            out["place"].append(p["place"])
    return out


FIELDS = (
    "legal", "cards", "open_connections", "stars", "requirements_met", "requirements",
    "military", "bases_points", "epiphanies", "ten_cards", "bonuses", "total", "place",
)  # fmt: skip
