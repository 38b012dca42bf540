"""The built-in catalog and id resolution."""

from __future__ import annotations

from typing import Any

import neweden
from neweden.catalog.catalog import BUILTIN, resolve_game


def test_the_builtin_catalog_holds_the_wild_cards_and_a1_b1_c1() -> None:
    assert BUILTIN.name == "builtin"
    assert set(BUILTIN.cards) == {"atomic-waste", "new-eden"}
    assert all(c.wild and len(c.sides) == 4 for c in BUILTIN.cards.values())
    assert BUILTIN.cards["atomic-waste"].copies == 5
    assert BUILTIN.cards["new-eden"].copies == 2
    assert {r.id: r.deck for r in BUILTIN.requirements.values()} == {
        "A1": "A",
        "B1": "B",
        "C1": "C",
    }


def test_resolve_game_lists_every_unknown_id(format_example: dict[str, Any]) -> None:
    format_example["requirements"] = ["A1", "EX-A9", "C1"]
    format_example["players"][0]["city"][0]["card"] = "EX-card"
    format_example["players"][0]["epiphanies"].append({"card": "EX-E1", "state": "held"})
    resolved = resolve_game(neweden.decode_game(format_example), BUILTIN)
    assert [(p.code, p.path) for p in resolved.problems] == [
        ("unknown_requirement", "/requirements/1"),
        ("unknown_card", "/players/0/city/0/card"),
        ("unknown_epiphany", "/players/0/epiphanies/3/card"),
    ]
    assert resolved.requirements[1] is None
    assert resolved.cities[0][0].spec is None
    assert [e.points if e else None for e in resolved.epiphanies[0]] == [5, 2, 2, None]


def test_a_known_game_resolves_cleanly(military_example: dict[str, Any]) -> None:
    resolved = resolve_game(neweden.decode_game(military_example), BUILTIN)
    assert resolved.problems == ()
    assert resolved.requirements == ()
    assert [len(c) for c in resolved.cities] == [8, 5]
