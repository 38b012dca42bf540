"""The detailed report made as plain dicts: only JSON types and no container shared between
reports (a caller changing one changes no later one), requirement judges and epiphany notes
kept across games but never across languages, the reference twin's per-card figures equal
to the native core's, the core's shared tuples keeping their reference counts, and a card
line that speaks of its own star requirement outside 0-3."""

from __future__ import annotations

import dataclasses
import gc
import random
import sys
from typing import Any

import msgspec
import pytest

import neweden
from neweden.catalog.catalog import BUILTIN, CardSpec, Catalog, RequirementSpec
from neweden.catalog.files import parse_catalog
from neweden.geometry.compact import pack_table
from neweden.geometry.native import analyse_table
from neweden.geometry.synth import city_json, grow_city
from neweden.scoring.report import score_games

# --- the catalogs --------------------------------------------------------------------------

#: A catalog file: requirements with and / or / not of 1, 2, 3 and more values, every value
#: operator, `true`; epiphanies with conditions (condition_met, disjoint_sets) and effects.
CATALOG_JSON = b"""{
  "format": "new-eden/catalog@1",
  "name": "review s30",
  "effects": ["ex_sparkle"],
  "majority_table": {"2": [4, 4], "3": [7, 3, 0], "4": [10, 6, 3, 0]},
  "cards": {
    "EX-c0": {"example": true, "style": "ex_amber", "type": "ex_harbor", "facility": "lab",
              "points": 3, "stars": 0, "sides": ["left", "right", "top", "bottom"],
              "copies": 9},
    "EX-c3": {"example": true, "style": "ex_cobalt", "type": "ex_harbor", "facility": "tower",
              "points": 9, "stars": 3, "sides": ["left", "right"], "copies": 9},
    "EX-w": {"example": true, "wild": true, "points": 2, "stars": 2, "copies": 9}
  },
  "requirements": {
    "EX-R1": {"example": true, "deck": "A", "condition": {">=": [{"count": {}}, 5]}},
    "EX-R2": {"example": true, "deck": "B", "condition": {"and": [
      {">=": [{"count": {"style": "ex_amber"}}, 1]}, {"<": [{"open_connections": {}}, 9]}]}},
    "EX-R3": {"example": true, "deck": "C", "condition": {"or": [
      {">=": [{"column_cards": {}}, 3]},
      {">=": [{"row_cards": {"where": {"type": "ex_harbor"}}}, 4]},
      {"not": {"==": [{"distinct": "style"}, 2]}}]}},
    "EX-R4": {"example": true, "deck": "A", "condition": {"not": {">": [
      {"largest_group": {"by": "style"}}, 3]}}},
    "EX-R5": {"example": true, "deck": "B", "condition": {"and": [
      {">=": [{"adjacent": [{"facility": "lab"}, {}]}, 1]},
      {"or": [{"<=": [{"complete_connections": {}}, 20]}, {"==": [{"all_styles": {}}, 5]}]},
      {"!=": [{"count": {"stars": [2, 3]}}, 4]}]}},
    "EX-R7": {"example": true, "deck": "C", "condition": true},
    "EX-R8": {"example": true, "deck": "A", "condition": {">=": [
      {"count": {"wild": true}}, {"count": {"wild": false}}]}},
    "A1": {"deck": "A", "condition": {">=": [{"distinct": "type"}, 3]}}
  },
  "epiphanies": {
    "EX-E2": {"example": true, "points": 2, "effect": "third_star",
              "condition": {">=": [{"count": {}}, 3]}},
    "EX-E5": {"example": true, "points": 5, "effect": "third_star"},
    "EX-ER": {"example": true, "points": 2, "effect": "rotate",
              "condition": {">=": [{"count": {"facility": "lab"}}, 1]}},
    "EX-EM": {"example": true, "points": 5, "effect": "move", "condition": {"or": [
      {">=": [{"row_cards": {}}, 2]}, {">": [{"largest_group": {"by": "type"}}, 2]}]}},
    "EX-ES": {"example": true, "points": 2, "effect": "ex_sparkle"},
    "EX-EN": {"example": true, "points": 2}
  }
}"""


def _catalogs() -> dict[str, Catalog]:
    """The built-in catalog, the file's, two built in Python with the file's requirement
    ids (EX-R1 with another condition and EX-R6 without one; entries equal to the file's,
    other objects) and one with a card whose star requirement is -1 (nothing checks a
    catalog built in Python)."""
    file = parse_catalog(CATALOG_JSON, "review-s30.json")
    python = dataclasses.replace(
        file,
        requirements={
            **file.requirements,
            "EX-R1": RequirementSpec("EX-R1", "A", "", {"<=": [{"count": {}}, 5]}),
            "EX-R6": RequirementSpec("EX-R6", "C", "", None),
        },
    )
    twin = dataclasses.replace(
        file, requirements={k: dataclasses.replace(v) for k, v in file.requirements.items()}
    )
    card = CardSpec(
        False,
        "ex_amber",
        "ex_harbor",
        "lab",
        4,
        -1,
        frozenset(["left", "right"]),
        None,
        "EX-neg",
        9,
    )
    negative = dataclasses.replace(BUILTIN, cards={**BUILTIN.cards, "EX-neg": card})
    return {"builtin": BUILTIN, "file": file, "python": python, "twin": twin, "negative": negative}


# --- games ---------------------------------------------------------------------------------

EPIPHANY_IDS = ["EX-E2", "EX-E5", "EX-ER", "EX-EM", "EX-ES", "EX-EN", "EX-NOPE"]
REQUIREMENT_IDS = [
    *("A1", "B1", "C1", "EX-R1", "EX-R2", "EX-R3", "EX-R4", "EX-R5", "EX-R6", "EX-R7", "EX-R8"),
    "EX-NOPE",
]
STATES = ["held", "validated", "activated"]


def _epiphany(rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.5:
        return {"card": rng.choice(EPIPHANY_IDS), "state": rng.choice(STATES)}
    entry: dict[str, Any] = {"points": rng.choice([2, 5]), "state": rng.choice(STATES)}
    effect = rng.choice(["third_star", "rotate", None, "move", "thrid_star", "ex_sparkle", "zap"])
    if effect:
        entry["effect"] = effect
    return entry


def _inline(rng: random.Random) -> dict[str, Any]:
    return {
        "style": rng.choice(["ex_amber", "ex_cobalt", "ex_crimson"]),
        "type": rng.choice(["ex_harbor", "ex_meadow"]),
        "facility": rng.choice(["lab", "shelter", "medical", "tower", "base"]),
        "points": rng.randrange(8),
        "stars": rng.randrange(4),
        "sides": rng.sample(["left", "right", "top", "bottom"], rng.randint(1, 4)),
    }


def _city(rng: random.Random) -> list[dict[str, Any]]:
    kind = rng.random()
    if kind < 0.6:  # legal, grown by placement
        city = city_json(grow_city(rng, rng.choice([0, 1, 3, 10, 12, 16, 30]), styles=3, types=3))
    elif kind < 0.75:  # a row of inline cards
        city = [
            {"row": 0, "col": c, "card": _inline(rng), "rotated": rng.random() < 0.2}
            for c in range(rng.choice([0, 1, 2, 5, 11]))
        ]
    else:  # cards by id, known and unknown
        ids = ["EX-c0", "EX-c3", "EX-w", "atomic-waste", "new-eden", "EX-missing"]
        city = [
            {"row": k // 5, "col": k % 5, "card": rng.choice(ids)}
            for k in range(rng.choice([1, 4, 10, 14]))
        ]
    r = rng.random()
    if city and r < 0.12:
        city.append({**city[0]})  # on a taken cell
    elif len(city) > 1 and r < 0.24:
        city[-1] = {**city[-1], "row": city[-1]["row"] + 40}  # disconnected
    elif city and r < 0.3:
        city[rng.randrange(len(city))] = {**city[0], "card": "EX-missing-1"}
    return city


def _game(rng: random.Random) -> dict[str, Any]:
    n = rng.randint(1, 4)
    players = []
    for i in range(n):
        player: dict[str, Any] = {"name": rng.choice([f"P{i}", "Same", "Zé"]), "city": _city(rng)}
        if rng.random() < 0.3:  # 1/3-star icons enough for a star (advice)
            player["epiphanies"] = [
                {"points": 2, "effect": "third_star", "state": rng.choice(STATES[1:])}
                for _ in range(rng.choice([3, 4, 6, 7, 9]))
            ]
        elif rng.random() < 0.8:
            player["epiphanies"] = [_epiphany(rng) for _ in range(rng.choice([0, 1, 2, 3, 6]))]
        if rng.random() < 0.3:
            player["bonuses"] = [{"points": rng.randrange(5), "name": "x"}]
        players.append(player)
    mode = rng.choice(["populist", "military", "elitist"])
    doc: dict[str, Any] = {"mode": mode, "players": players}
    if mode != "military" or rng.random() < 0.5:
        doc["requirements"] = rng.sample(REQUIREMENT_IDS, rng.choice([0, 1, 3, 3, 5]))
    if rng.random() < 0.6:
        doc["first_player"] = rng.choice([players[0]["name"], "nobody", players[-1]["name"]])
    if rng.random() < 0.5:  # padded: read lean (report.LEAN_FROM_BYTES)
        doc["meta"] = {"table": rng.randrange(9), "pad": "x" * rng.choice([0, 600])}
    return doc


def _docs(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [msgspec.json.encode(_game(rng)).decode() for _ in range(count)]


CATALOG_NAMES = ["builtin", "file", "python", "twin"]


# --- the difference found ------------------------------------------------------------------

NEGATIVE_STARS_GAME = msgspec.json.encode(
    {
        "mode": "populist",
        "requirements": ["A1", "B1", "C1"],
        "players": [
            {"name": "A", "city": [{"row": 0, "col": c, "card": "EX-neg"} for c in range(3)]}
        ],
    }
).decode()


def test_a_card_line_speaks_of_its_own_star_requirement_outside_0_to_3() -> None:
    """A legal city of three EX-neg cards (stars -1: a catalog built in Python, which
    nothing checks) scored by the reference twin, which tallies such a card as a 3-star one
    (its by_stars[-1]): each card line's sentence is the one of its own requirement (at the
    review's commit it was a 3-star card's, "1 point: needs 3 stars", beside
    `stars_required` -1 and `populist_points` 4). The native core refuses the card."""
    from neweden.i18n import speaking
    from neweden.scoring.report import native_geometry, reference_geometry, score_game

    cat = _catalogs()["negative"]
    game = neweden.decode_game(NEGATIVE_STARS_GAME)
    for lang, words in (("en", "needs -1 star"), ("pt-BR", "-1")):
        with speaking(lang):
            report = score_game(game, catalog=cat, detail=True, geometry=reference_geometry)
        for line in report["players"][0]["audit"]["cards"]:
            assert line["stars_required"] == -1
            assert line["populist_points"] == 4
            assert words in line["why"], line["why"]
            assert "3" not in line["why"], line["why"]
    with pytest.raises(ValueError, match="stars outside 0-3"):
        score_game(game, catalog=cat, detail=True, geometry=native_geometry)


# --- properties of the new code --------------------------------------------------------------

_LEAVES = (str, int, bool, type(None))


def _walk(node: Any, path: str, seen: dict[int, str], found: list[str]) -> None:
    """Every container of a report, each met once (`seen`: id -> where), its leaves of the
    JSON types only."""
    kind = type(node)
    if kind is dict or kind is list:
        if id(node) in seen:
            found.append(f"{path} is {seen[id(node)]}")
        seen[id(node)] = path
        items = node.items() if kind is dict else enumerate(node)
        for key, value in items:
            if kind is dict and type(key) is not str:
                found.append(f"{path}: key {key!r}")
            _walk(value, f"{path}/{key}", seen, found)
    elif kind not in _LEAVES:
        found.append(f"{path}: {kind.__name__}")


def test_reports_hold_only_json_types_and_share_no_container() -> None:
    """400 detailed reports kept alive together (neweden.score, score_games over the same
    games twice, both languages): only dict/list/str/int/bool/None, no tuple; no dict or list
    met twice within a report or across reports (a cached line, cell or sentence list
    handed to two reports would be)."""
    cats = _catalogs()
    rng = random.Random(7)
    reports: list[dict[str, Any]] = []
    for k, doc in enumerate(_docs(7, 300)):
        try:
            reports.append(
                neweden.score(
                    doc, catalog=cats[rng.choice(CATALOG_NAMES)], lang=["en", "pt-BR"][k % 2]
                )
            )
        except neweden.GameDecodeError:
            continue
    games = [neweden.decode_game(doc) for doc in _docs(8, 40)[:20]]
    reports += score_games([*games, *games], catalog=cats["file"], detail=True)
    seen: dict[int, str] = {}
    found: list[str] = []
    for k, report in enumerate(reports):
        _walk(report, f"#{k}", seen, found)
    assert len(reports) > 250
    assert sum(len(p["audit"]["cards"]) for r in reports for p in r["players"]) > 2000
    assert not found, found[:10]


def _vandalise(node: Any) -> None:
    if isinstance(node, dict):
        for key in list(node):
            _vandalise(node[key])
            node[key] = "VANDAL"
        node["added"] = [1]
    elif isinstance(node, list):
        for item in node:
            _vandalise(item)
        node.append("VANDAL")
        node.insert(0, None)


def test_a_caller_changing_a_report_changes_no_later_report() -> None:
    """A report scored, then every dict and list of it changed in place (a caller's right:
    it is theirs), then the game scored in the other language and changed too, then scored
    again: the same bytes as the first time."""
    cats = _catalogs()
    for k, doc in enumerate(_docs(9, 150)):
        lang, other = ("en", "pt-BR") if k % 2 else ("pt-BR", "en")
        cat = cats[CATALOG_NAMES[k % 4]]
        try:
            first = neweden.score(doc, catalog=cat, lang=lang)
        except neweden.GameDecodeError:
            continue
        wanted = msgspec.json.encode(first)
        _vandalise(first)
        _vandalise(neweden.score(doc, catalog=cat, lang=other))
        assert msgspec.json.encode(neweden.score(doc, catalog=cat, lang=lang)) == wanted, doc


def test_judges_and_notes_never_cross_languages() -> None:
    """The same game in English then Portuguese then English (the requirement judges are
    kept by language, the epiphany notes by note, effect and language): each language's
    report the same bytes every time, and the two languages' requirement and epiphany
    sentences different."""
    cats = _catalogs()
    doc = msgspec.json.encode(
        {
            "mode": "populist",
            "requirements": ["EX-R2", "EX-R3", "EX-R5", "EX-NOPE", "EX-R6"],
            "players": [
                {
                    "name": "A",
                    "city": city_json(grow_city(random.Random(4), 12, styles=3, types=3)),
                    "epiphanies": [
                        {"card": "EX-E2", "state": "activated"},
                        {"card": "EX-E2", "state": "validated"},
                        {"points": 2, "effect": "ex_sparkle", "state": "activated"},
                        {"points": 2, "state": "activated"},
                        {"card": "EX-NOPE", "state": "held"},
                    ],
                }
            ],
        }
    )
    seen: dict[str, set[bytes]] = {"en": set(), "pt-BR": set()}
    for lang in ["en", "pt-BR", "en", "pt-BR", "pt-BR", "en"]:
        seen[lang].add(msgspec.json.encode(neweden.score(doc, catalog=cats["python"], lang=lang)))
    assert len(seen["en"]) == len(seen["pt-BR"]) == 1
    en = msgspec.json.decode(seen["en"].pop())["players"][0]["audit"]
    pt = msgspec.json.decode(seen["pt-BR"].pop())["players"][0]["audit"]
    for part, key in (("requirements", "why"), ("epiphanies", "note")):
        pairs = list(zip(en[part], pt[part], strict=True))
        assert pairs
        assert all(a[key] != b[key] for a, b in pairs), pairs


def test_reference_geometry_detail_equals_native() -> None:
    """score_game(..., geometry=reference_geometry) against the native core in detail mode,
    over valid catalogs: the same bytes (the audit's usual-card lines are made from the
    core's star tallies now)."""
    from neweden.i18n import speaking
    from neweden.scoring.report import native_geometry, reference_geometry, score_game

    cats = _catalogs()
    compared = 0
    for k, doc in enumerate(_docs(12, 200)):
        try:
            game = neweden.decode_game(doc)
        except neweden.GameDecodeError:
            continue
        cat = cats[CATALOG_NAMES[k % 4]]
        with speaking(["en", "pt-BR"][k % 2]):
            native = score_game(game, catalog=cat, detail=True, geometry=native_geometry)
            twin = score_game(game, catalog=cat, detail=True, geometry=reference_geometry)
        assert msgspec.json.encode(native) == msgspec.json.encode(twin), doc
        compared += 1
    assert compared > 150


def test_shared_figure_tuples_keep_their_reference_counts() -> None:
    """The tuples the core keeps for the process (n Trues, n 0s, connection pairs): the
    same objects from call to call, and 2,000 calls later neither leaked nor freed a
    reference (a count that grew or fell would)."""
    rng = random.Random(1)
    cities = [grow_city(rng, n) for n in (1, 2, 5, 10, 30, 128)]
    table = pack_table(cities)
    first = analyse_table(*table)
    probes: list[Any] = []
    for fig in first:
        assert fig.legal
        probes += [fig.included, fig.overlapped_by, fig.component]
        probes += list(fig.connections[:3])
    gc.collect()  # garbage of earlier tests may hold the shared tuples: count without it
    before = [sys.getrefcount(p) for p in probes]
    for _ in range(2000):
        analyse_table(*table)
    gc.collect()
    assert [sys.getrefcount(p) for p in probes] == before
    again = analyse_table(*table)
    assert all(a.included is b.included for a, b in zip(first, again, strict=True))
    assert all(
        x is y
        for a, b in zip(first, again, strict=True)
        for x, y in zip(a.connections, b.connections, strict=True)
    )
    assert all(fig.included == (True,) * len(c) for fig, c in zip(again, cities, strict=True))
